"""``conundrum generate``: for 50 seeds per family, the puzzle reads back through its
command's parser, has exactly one solution, and is minimal. Minimality is checked here on
the text, independently of the generator: every clue blanked in turn (every pair of
neighbouring cages merged, for Killer and KenKen) gives a second solution."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from importlib import import_module

import pytest

from conundrum.puzzles.generate import generate

SEEDS = range(50)
SMALL = {"sudoku": 4, "futoshiki": 4, "skyscrapers": 4, "killer": 4, "kenken": 4,
         "kakuro": 6}


def solutions(family: str, text: str) -> list:
    model = import_module(f"conundrum.puzzles.{family}").parse(text, "test").model
    return list(model.solutions(limit=2))


def unique(family: str, text: str) -> bool:
    try:
        return len(solutions(family, text)) == 1
    except ValueError:  # a variant that is not a puzzle any more (e.g. no clue at all)
        return False


def clue_variants(family: str, text: str) -> list[str]:
    """The text with one clue taken away, for every clue (grid families)."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        if family in ("skyscrapers", "kakuro"):
            # every number, clue or given, becomes "." (a Kakuro sum goes: 12\7 -> \7)
            blank = "" if family == "kakuro" else "."
            for m in re.finditer(r"\d+", line):
                out.append("\n".join(lines[:i] + [line[:m.start()] + blank + line[m.end():]]
                                     + lines[i + 1:]))
            continue
        for j, ch in enumerate(line):
            if family == "futoshiki" and ch in "<>^v":
                blank = " "
            elif ch.isalnum() and ch not in "v":
                blank = "."
            else:
                continue
            out.append("\n".join(lines[:i] + [line[:j] + blank + line[j + 1:]] + lines[i + 1:]))
    return out


def cage_merges(family: str, text: str) -> list[str]:
    """The text with two neighbouring cages merged, for every pair a generator may merge
    (size limit; different digits for Killer), each with every possible rule."""
    lines = [line for line in text.split("\n") if line.strip()]
    grid = [line.split() for line in lines if "=" not in line]
    n = len(grid)
    model = import_module(f"conundrum.puzzles.{family}").parse(text, "test").model
    sol = model.solve()
    cell = model.variables  # the grid's cells come first, row by row
    values = [[sol[cell[r * n + c]] for c in range(n)] for r in range(n)]
    cells: dict[str, list[tuple[int, int]]] = {}
    for r in range(n):
        for c in range(n):
            cells.setdefault(grid[r][c], []).append((r, c))
    rules = dict(re.findall(r"(\S)=(\S+)", " ".join(line for line in lines if "=" in line)))
    pairs = {tuple(sorted((grid[r][c], grid[r2][c2]))) for r in range(n) for c in range(n)
             for r2, c2 in ((r, c + 1), (r + 1, c))
             if r2 < n and c2 < n and grid[r][c] != grid[r2][c2]}
    out = []
    for a, b in sorted(pairs):
        merged = cells[a] + cells[b]
        vals = [values[r][c] for r, c in merged]
        if len(merged) > (5 if family == "killer" else 4):
            continue
        if family == "killer":
            if len(set(vals)) < len(vals):
                continue
            options = [str(sum(vals))]
        else:
            prod = 1
            for v in vals:
                prod *= v
            options = [f"{sum(vals)}+", f"{prod}*"]
            if len(vals) == 2:
                options.append(f"{max(vals) - min(vals)}-")
                if max(vals) % min(vals) == 0:
                    options.append(f"{max(vals) // min(vals)}/")
        new_grid = "\n".join(" ".join(a if label == b else label for label in row)
                             for row in grid)
        for rule in options:
            new_rules = {k: v for k, v in rules.items() if k != b}
            new_rules[a] = rule
            out.append(new_grid + "\n\n" + " ".join(f"{k}={v}" for k, v in new_rules.items()))
    return out


@pytest.mark.parametrize("family", sorted(SMALL))
def test_fifty_seeds_give_unique_minimal_puzzles(family: str) -> None:
    for seed in SEEDS:
        made = generate(family, SMALL[family], seed=seed)
        text = made.text
        assert unique(family, text), (seed, text)
        variants = (cage_merges(family, text) if family in ("killer", "kenken")
                    else clue_variants(family, text))
        for variant in variants:
            assert not unique(family, variant), (seed, text, variant)
        if family not in ("killer", "kenken"):
            assert len(variants) == made.clues, (seed, text)


@pytest.mark.parametrize(("family", "size"), [("sudoku", 9), ("kenken", 6), ("futoshiki", 6),
                                              ("skyscrapers", 5), ("kakuro", 10)])
def test_full_size_puzzles_are_unique_and_minimal(family: str, size: int) -> None:
    """(A 9x9 Killer takes minutes to check this way: each merged variant must show a
    second solution; the 50 seeds above check Killer's minimality at size 4.)"""
    made = generate(family, size, seed=7)
    assert unique(family, made.text)
    variants = (cage_merges(family, made.text) if family == "kenken"
                else clue_variants(family, made.text))
    assert variants or family == "kenken"  # no two KenKen cages may fit in 4 cells
    assert not any(unique(family, v) for v in variants)


def test_the_same_seed_gives_the_same_puzzle() -> None:
    assert generate("sudoku", 9, seed=11).text == generate("sudoku", 9, seed=11).text
    assert generate("kenken", 5, seed=11).text == generate("kenken", 5, seed=11).text
    assert generate("sudoku", 9, seed=11).text != generate("sudoku", 9, seed=12).text


def test_a_difficulty_is_reached_and_graded() -> None:
    made = generate("sudoku", 9, "easy", seed=1)
    model = import_module("conundrum.puzzles.sudoku").parse(made.text).model
    assert made.grade == "easy" and model.difficulty().grade == "easy"


def test_cli_generate_reads_back_and_reports_what_it_cannot_do() -> None:
    def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "conundrum", *args], input=stdin,
                              capture_output=True, text=True, timeout=600)

    r = cli("generate", "futoshiki", "--size", "5", "--seed", "4")
    assert r.returncode == 0 and r.stdout.startswith("# futoshiki, seed 4: ")
    back = cli("futoshiki", "-", "--unique", stdin=r.stdout)
    assert back.returncode == 0 and back.stdout.rstrip().endswith("unique")
    assert "not unique" not in back.stdout
    r = cli("generate", "sudoku", "--size", "5")
    assert r.returncode == 2 and "size 4, 9, 16" in r.stderr
    r = cli("generate", "sudoku", "--size", "4", "--difficulty", "fiendish", "--attempts", "2")
    assert r.returncode == 1 and "try another seed" in r.stderr
    r = cli("generate", "nonsense")
    assert r.returncode == 2 and "invalid choice" in r.stderr


@pytest.mark.parametrize("size", [4, 5, 8, 12])
def test_kakuro_layouts_are_symmetric_with_runs_of_two_to_five(size: int) -> None:
    from conundrum.puzzles.generate_kakuro import MAX_RUN, layout, runs_of

    assert MAX_RUN == 5  # as docs/puzzles/index.md says
    for seed in range(20):
        white = layout(size, random.Random(seed))
        assert white and all(0 < r < size and 0 < c < size for r, c in white)
        assert {(size - r, size - c) for r, c in white} == white
        runs = runs_of(white, size)
        assert all(2 <= len(run) <= 5 for run in runs), (seed, runs)
        # every white cell lies in one across and one down run
        assert sorted(cell for run in runs for cell in run) == sorted(list(white) * 2)


def test_cli_generates_a_kakuro_that_reads_back() -> None:
    made = subprocess.run([sys.executable, "-m", "conundrum", "generate", "kakuro", "--seed",
                           "3"], capture_output=True, text=True, timeout=600)
    assert made.returncode == 0 and made.stdout.startswith("# kakuro, seed 3: ")
    back = subprocess.run([sys.executable, "-m", "conundrum", "kakuro", "-", "--unique"],
                          input=made.stdout, capture_output=True, text=True, timeout=600)
    assert back.returncode == 0 and back.stdout.rstrip().endswith("unique"), back.stdout
    assert "not unique" not in back.stdout
