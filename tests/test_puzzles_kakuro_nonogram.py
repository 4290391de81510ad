"""Kakuro and Nonogram: counts against brute force, the examples, explanations replayed by
the independent checker, and bad input named by place."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.explain.verify import verify
from conundrum.puzzles import kakuro, nonogram
from conundrum.puzzles.base import PuzzleError
from test_properties_harness import scaled

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def count(puzzle) -> int:
    return puzzle.model.count()


# ------------------------------------------------------------------------ Kakuro

# two layouts of four white cells: a 2x2 block and an L (a run of 3 across, 2 down)
BLOCK = "X {a}\\ {b}\\\n\\{c} . .\n\\{d} . ."
ELL = "X {a}\\ X X\n\\{c} . . .\n\\{d} . X X"


def brute_kakuro(layout: str, sums: dict[str, int]) -> int:
    if layout == BLOCK:  # cells p q / r s: runs p+q=c, r+s=d, p+r=a, q+s=b
        return sum(1 for p, q, r, s in itertools.product(range(1, 10), repeat=4)
                   if p + q == sums["c"] and r + s == sums["d"] and p + r == sums["a"]
                   and q + s == sums["b"] and p != q and r != s and p != r and q != s)
    # cells p q t across, r below p: runs p+q+t=c, r=d, p+r=a
    return sum(1 for p, q, t, r in itertools.product(range(1, 10), repeat=4)
               if p + q + t == sums["c"] and r == sums["d"] and p + r == sums["a"]
               and len({p, q, t}) == 3 and p != r)


@settings(max_examples=scaled(0.5), deadline=None)
@given(layout=st.sampled_from([BLOCK, ELL]), a=st.integers(3, 17), b=st.integers(3, 17),
       c=st.integers(3, 24), d=st.integers(1, 17))
def test_kakuro_counts_match_brute_force(layout: str, a: int, b: int, c: int, d: int) -> None:
    sums = {"a": a, "b": b, "c": c, "d": d if layout == BLOCK else min(d, 9)}
    if layout == BLOCK:
        sums["d"] = max(sums["d"], 3)
    text = layout.format(**sums)
    assert count(kakuro.parse(text)) == brute_kakuro(layout, sums)


def test_the_kakuro_example_is_unique_and_explained() -> None:
    puzzle = kakuro.parse((EXAMPLES / "kakuro.txt").read_text())
    assert len(list(puzzle.model.solutions(limit=2))) == 1
    steps = puzzle.model.explain(names=None)
    verify(puzzle.model, steps)
    assert any("across run at" in s.text or "down run at" in s.text for s in steps)


@pytest.mark.parametrize(("text", "message"), [
    ("X 4\\\n\\3 . 7", "unexpected '7'"),
    ("X X\n. .", "in no run with a clue"),
    ("X 46\\\nX .", "not a sum from 1 to 45"),
    ("X \\5\nX X", "no white cell after it"),
    ("X \\5 .\n. .", "2 cells in this row, expected 3"),
    ("# only a comment", "no grid"),
])
def test_kakuro_bad_input_is_named(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        kakuro.parse(text, "k.txt")


# ---------------------------------------------------------------------- Nonogram

def clues_of(lines: list[tuple[int, ...]]) -> list[list[int]]:
    out = []
    for line in lines:
        runs = [len(list(g)) for v, g in itertools.groupby(line) if v]
        out.append(runs)
    return out


def nonogram_text(rows: list[list[int]], cols: list[list[int]]) -> str:
    def line(clue: list[int]) -> str:
        return " ".join(map(str, clue)) or "0"

    return "\n".join(map(line, rows)) + "\n\n" + "\n".join(map(line, cols)) + "\n"


@settings(max_examples=scaled(0.3), deadline=None)
@given(picture=st.lists(st.tuples(*[st.integers(0, 1)] * 4), min_size=3, max_size=3))
def test_nonogram_counts_match_brute_force(picture: list[tuple[int, ...]]) -> None:
    """A random 3x4 picture's clues: as many solutions as pictures with the same clues."""
    rows, cols = clues_of(picture), clues_of(list(zip(*picture)))
    same = 0
    for cells in itertools.product((0, 1), repeat=12):
        pic = [cells[i * 4:(i + 1) * 4] for i in range(3)]
        if clues_of(pic) == rows and clues_of(list(zip(*pic))) == cols:
            same += 1
    assert count(nonogram.parse(nonogram_text(rows, cols))) == same >= 1


def test_the_nonogram_example_is_unique_and_explained() -> None:
    puzzle = nonogram.parse((EXAMPLES / "nonogram.txt").read_text())
    assert len(list(puzzle.model.solutions(limit=2))) == 1
    steps = puzzle.model.explain()
    verify(puzzle.model, steps)


def test_nonogram_steps_say_filled_and_empty() -> None:
    from conundrum.explain.wording import Wording, describe_all

    puzzle = nonogram.parse((EXAMPLES / "nonogram.txt").read_text())
    steps = puzzle.model.explain()
    describe_all(steps, Wording(puzzle.model, puzzle.names, value_words=puzzle.value_words))
    assert steps[0].text == ("r5c1, r5c2, r5c3, r5c4, r5c5, r5c6, r5c7, r5c8, r5c9, r5c10 "
                             "filled: by row 5 (10)")
    assert all(" = " not in s.text and " ≠ " not in s.text for s in steps)
    assert any(s.text.startswith("r1c1, ") and " empty: by column 1 (1) from r5c1 filled"
               in s.text for s in steps)


@pytest.mark.parametrize(("text", "message"), [
    ("1 x\n\n1", "block lengths separated by spaces"),
    ("1\n1", "a blank line"),
    ("3\n\n1\n1", "need 3 cells; the row has 2"),
    ("0 1\n\n1", "at least 1"),
])
def test_nonogram_bad_input_is_named(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        nonogram.parse(text, "n.txt")


def test_cli_solves_both_families() -> None:
    for command, name in (("kakuro", "kakuro.txt"), ("nonogram", "nonogram.txt")):
        r = subprocess.run([sys.executable, "-m", "conundrum", command, str(EXAMPLES / name),
                            "--unique"], capture_output=True, text=True, timeout=300)
        assert r.returncode == 0 and r.stdout.rstrip().endswith("unique"), r.stderr
        assert "not unique" not in r.stdout
