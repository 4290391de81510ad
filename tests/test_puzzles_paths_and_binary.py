"""Takuzu, Star Battle, Hidato, Numbrix and Survo: counts against brute force on small
random instances, the examples (unique, explained and replayed), bad input named."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.explain.verify import verify
from conundrum.puzzles import hidato, numbrix, starbattle, survo, takuzu
from conundrum.puzzles.base import PuzzleError
from test_properties_harness import scaled

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def count(puzzle) -> int:
    return puzzle.model.count()


# ------------------------------------------------------------------------ Takuzu

def takuzu_ok(g: list[tuple[int, ...]]) -> bool:
    n = len(g)
    lines = [list(r) for r in g] + [list(c) for c in zip(*g)]
    if any(sum(line) != n // 2 for line in lines):
        return False
    if any(line[k] == line[k + 1] == line[k + 2] for line in lines for k in range(n - 2)):
        return False
    return len(set(g)) == n and len(set(zip(*g))) == n


@settings(max_examples=scaled(0.3), deadline=None)
@given(cells=st.lists(st.sampled_from([0, 1, None, None, None]), min_size=16, max_size=16))
def test_takuzu_counts_match_brute_force(cells: list) -> None:
    text = "\n".join("".join("." if v is None else str(v) for v in cells[r * 4:r * 4 + 4])
                     for r in range(4))
    truth = 0
    for bits in itertools.product((0, 1), repeat=16):
        if all(c is None or c == b for c, b in zip(cells, bits)):
            truth += takuzu_ok([bits[r * 4:r * 4 + 4] for r in range(4)])
    assert count(takuzu.parse(text)) == truth


# ------------------------------------------------------------------- Star Battle

@settings(max_examples=scaled(0.3), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_star_battle_counts_match_brute_force(seed: int) -> None:
    import random

    rng = random.Random(seed)
    n = 5
    labels = [[None] * n for _ in range(n)]
    for k, (r, c) in enumerate(rng.sample([(r, c) for r in range(n) for c in range(n)], n)):
        labels[r][c] = "abcde"[k]
    while any(v is None for row in labels for v in row):
        r, c = rng.randrange(n), rng.randrange(n)
        near = [labels[i][j] for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= i < n and 0 <= j < n and labels[i][j]]
        if labels[r][c] is None and near:
            labels[r][c] = rng.choice(near)
    truth = 0
    for cols in itertools.permutations(range(n)):  # one star per row and column
        if any(abs(cols[r] - cols[r + 1]) <= 1 for r in range(n - 1)):
            continue
        if len({labels[r][cols[r]] for r in range(n)}) == n:
            truth += 1
    text = "\n".join("".join(row) for row in labels)
    assert count(starbattle.parse(text)) == truth


# --------------------------------------------------------------- Hidato, Numbrix

def path_count(rows: int, cols: int, givens: dict, king: bool) -> int:
    cells = [(r, c) for r in range(rows) for c in range(cols)]

    def near(a, b) -> bool:
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        return (max(dr, dc) == 1) if king else (dr + dc == 1)

    total = 0
    for order in itertools.permutations(cells):  # order[k] holds number k + 1
        if all(order[v - 1] == p for p, v in givens.items()) and all(
                near(order[k], order[k + 1]) for k in range(len(order) - 1)):
            total += 1
    return total


@settings(max_examples=scaled(0.3), deadline=None)
@given(king=st.booleans(), shape=st.sampled_from([(2, 3), (3, 2), (2, 4)]),
       data=st.data())
def test_hidato_and_numbrix_counts_match_brute_force(king: bool, shape, data) -> None:
    rows, cols = shape
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    chosen = data.draw(st.lists(st.sampled_from(cells), max_size=2, unique=True))
    numbers = data.draw(st.lists(st.integers(1, rows * cols), min_size=len(chosen),
                                 max_size=len(chosen), unique=True))
    givens = dict(zip(chosen, numbers))
    text = "\n".join(" ".join(str(givens.get((r, c), ".")) for c in range(cols))
                     for r in range(rows))
    module = hidato if king else numbrix
    assert count(module.parse(text)) == path_count(rows, cols, givens, king)


# ------------------------------------------------------------------------- Survo

@settings(max_examples=scaled(0.3), deadline=None)
@given(perm=st.permutations(range(1, 7)), given_mask=st.lists(st.booleans(), min_size=6,
                                                               max_size=6))
def test_survo_counts_match_brute_force(perm: list[int], given_mask: list[bool]) -> None:
    grid = [perm[0:3], perm[3:6]]
    rs = [sum(r) for r in grid]
    cs = [sum(c) for c in zip(*grid)]
    shown = [[str(v) if given_mask[r * 3 + c] else "." for c, v in enumerate(row)]
             for r, row in enumerate(grid)]
    text = "\n".join(" ".join(row) + f" {s}" for row, s in zip(shown, rs))
    text += "\n" + " ".join(map(str, cs))
    truth = sum(1 for p in itertools.permutations(range(1, 7))
                if [sum(p[0:3]), sum(p[3:6])] == rs
                and [p[0] + p[3], p[1] + p[4], p[2] + p[5]] == cs
                and all(not given_mask[k] or p[k] == perm[k] for k in range(6)))
    assert count(survo.parse(text)) == truth >= 1


# ------------------------------------------------------------------- examples

# explained here: the examples, but small path puzzles (explaining the 40-cell Hidato
# example takes minutes: its successor constraints span up to nine cells of 40 values)
EXPLAINED = {"takuzu": None, "starbattle": None, "survo": None,
             "hidato": "8 7 6\n. . 4\n. . .", "numbrix": ". 4 9\n. . .\n. . ."}


@pytest.mark.parametrize("family", sorted(EXPLAINED))
def test_examples_are_unique_and_explanations_replay(family: str) -> None:
    from importlib import import_module

    module = import_module(f"conundrum.puzzles.{family}")
    example = (EXAMPLES / f"{family}.txt").read_text()
    assert len(list(module.parse(example, family).model.solutions(limit=2))) == 1
    puzzle = module.parse(EXPLAINED[family] or example, family)
    steps = puzzle.model.explain()
    verify(puzzle.model, steps)
    r = subprocess.run([sys.executable, "-m", "conundrum", family,
                        str(EXAMPLES / f"{family}.txt"), "--unique"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and r.stdout.rstrip().endswith("\nunique"), r.stderr


def test_star_battle_steps_say_starred_and_empty() -> None:
    r = subprocess.run([sys.executable, "-m", "conundrum", "starbattle",
                        str(EXAMPLES / "starbattle.txt"), "--explain"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    steps = r.stdout.split("\n\n")[0].splitlines()
    assert steps[0] == " 1. r1c1, r1c2, r1c3, r1c5, r1c6 empty: by row 1 from r1c4 starred"
    assert all(" = " not in line and " ≠ " not in line for line in steps)
    assert any("starred: by region" in line for line in steps)


@pytest.mark.parametrize(("module", "text", "message"), [
    (takuzu, "01\n1", "1 cells in this row, expected 2"),
    (takuzu, "012\n...\n...", "unexpected '2'"),
    (takuzu, "0.1\n...\n...", "even number of rows"),
    (starbattle, "ab\nab\nstars=2", "2 stars cannot fit in a row of 2"),
    (starbattle, "abc\nabc\nabd", "has 3 regions; this map has 4"),
    (starbattle, "abc\nabc\nabc\nstars=x", "stars=N"),
    (hidato, ". 7\n. .", "not a number from 1 to 4"),
    (hidato, "1 1\n. .", "given twice"),
    (numbrix, "1 ?\n. .", "unexpected '?'"),
    (survo, ". . . 3\n1 2", "expected 2 cells and the row.s sum"),
    (survo, ". 9 3\n1 2", "not a number from 1 to 2"),
])
def test_bad_input_is_named(module, text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        module.parse(text, "bad.txt")
