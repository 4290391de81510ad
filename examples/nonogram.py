"""A Nonogram with conundrum: each row and each column of 0/1 cells is a word of the
automaton of its clue, `cn.regular(line, *cn.pattern_automaton(clue))`.

    python examples/nonogram.py [FILE]

Without FILE, the embedded 10x10 puzzle (a house; it has exactly one solution) is solved.
A FILE holds the row clues, one line per row (top to bottom), then a blank line, then the
column clues, one line per column (left to right); a clue is its block lengths separated
by spaces, `0` or `-` for an empty line; lines starting with `#` are comments.

Output (parsed by tests/test_examples_globals.py): the picture, one line per row, `#` for
a filled cell and `.` for an empty one, then `unique` or `not unique` (a second solution
was found); or `no solution` alone (exit status 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import conundrum as cn

# The embedded puzzle: a house with a door and a window (designed for this example; its
# solution is unique).
ROWS = [[2], [4], [6], [8], [10], [1, 1], [1, 2, 1, 1], [1, 2, 1, 1], [1, 2, 1], [8]]
COLUMNS = [[1], [7], [3, 1], [4, 4], [5, 4], [5, 1], [4, 2, 1], [3, 1], [7], [1]]

Clues = list[list[int]]


def parse(text: str) -> tuple[Clues, Clues]:
    """(row clues, column clues) from the file format described above (the reader of
    `conundrum nonogram`, which names the line of a bad clue)."""
    from conundrum.puzzles.nonogram import read

    return read(text, "")


def build(rows: Clues, columns: Clues) -> tuple[cn.Model, cn.Matrix]:
    """The model: one 0/1 variable per cell, one regular constraint per row and column."""
    m = cn.Model()
    grid = m.int_matrix(len(rows), len(columns), 0, 1, "cell")
    for line, clue in zip(grid.rows, rows):
        m += cn.regular(line, *cn.pattern_automaton(clue))
    for line, clue in zip(grid.columns, columns):
        m += cn.regular(line, *cn.pattern_automaton(clue))
    return m, grid


def main(argv: list[str] | None = None) -> int:
    """Solve the puzzle (embedded or from a file), print it and whether it is unique."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", help="a puzzle file (default: the embedded puzzle)")
    args = ap.parse_args(argv)
    rows, columns = ROWS, COLUMNS
    if args.file:
        try:
            rows, columns = parse(Path(args.file).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            where = exc.one_line() if hasattr(exc, "one_line") else str(exc)
            print(f"nonogram: {args.file}: {where}", file=sys.stderr)
            return 2
    m, grid = build(rows, columns)
    solutions = list(m.solutions(limit=2))
    if not solutions:
        print("no solution")
        return 1
    sol = solutions[0]
    for line in grid.rows:
        print("".join("#" if sol[x] else "." for x in line))
    print("unique" if len(solutions) == 1 else "not unique")
    return 0


if __name__ == "__main__":
    sys.exit(main())
