"""Star Battle: place stars so that every row, every column and every region holds the same
number of them (1 by default), and no two stars touch, not even diagonally.

Format: the region map, one label per cell (any visible character but ``=`` and ``#``;
spaces between labels are allowed), then optionally a line ``stars=2``; lines starting with
``#`` are comments. The map is square and has as many regions as rows.
"""

from __future__ import annotations

import re

from conundrum.display.layout import Board

from .base import Puzzle, PuzzleError, blank, cell_names, value_texts, values
from .grid import check_text, square_size

MAX_SIZE = 30


def read(text: str, source: str) -> tuple[list[list[str]], int]:
    """The region map and the stars per row, column and region."""
    rows: list[list[str]] = []
    lines: list[int] = []  # where each row was written
    stars = 1
    for i, line in enumerate(check_text(text, source), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if "=" in stripped:
            match = re.fullmatch(r"stars\s*=\s*(\d{1,2})", stripped)
            if not match or not 1 <= int(match.group(1)) <= 5:
                raise PuzzleError("expected stars=N with N from 1 to 5", source=source,
                                  line=i, text=line)
            stars = int(match.group(1))
            continue
        rows.append([ch for ch in line if not ch.isspace()])
        lines.append(i)
    n = len(rows)
    if n == 0:
        raise PuzzleError("no region map: one label per cell, one line per row", source=source)
    if n > MAX_SIZE:
        raise PuzzleError(f"a Star Battle has at most {MAX_SIZE} rows", source=source)
    square_size(list(zip(lines, rows, strict=True)), source)
    regions = {label for row in rows for label in row}
    if len(regions) != n:
        raise PuzzleError(f"a {n}x{n} Star Battle has {n} regions; this map has "
                          f"{len(regions)}", source=source)
    if 2 * stars - 1 > n:  # stars in a row cannot touch: they need 2k-1 cells
        raise PuzzleError(f"{stars} stars cannot fit in a row of {n} without touching",
                          source=source)
    return rows, stars


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Star Battle into a puzzle."""
    import conundrum as cn

    rows, stars = read(text, source)
    n = len(rows)
    m = cn.Model()
    x = m.int_matrix(n, n, 0, 1, "cell")
    for k, line in enumerate(x.rows, 1):
        m.add(cn.sum(line) == stars, label=f"row {k}")
    for k, line in enumerate(x.columns, 1):
        m.add(cn.sum(line) == stars, label=f"column {k}")
    regions: dict[str, list] = {}
    for r, row in enumerate(rows):
        for c, label in enumerate(row):
            regions.setdefault(label, []).append(x[r][c])
    # the region map is the puzzle's only clue: a clash blames regions, the rest are rules
    clues = [f"region {label}" for label in regions]
    for label, cells in regions.items():
        m.add(cn.sum(cells) == stars, label=f"region {label}")
    for r in range(n - 1):
        for c in range(n - 1):
            m.add(cn.sum(x[r:r + 2, c:c + 2].flat) <= 1,
                  label=f"r{r + 1}c{c + 1}-r{r + 2}c{c + 2} (stars do not touch)")
    def render(sol) -> str:
        return "\n".join(" ".join("*" if v else rows[r][c] for c, v in enumerate(row))
                         for r, row in enumerate(values(sol, x)))

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    layout = Board(blank(n, n), value_texts(x, {1: "★", 0: ""}), regions=rows,
                   shade_regions=True,
                   caption=f"{stars} stars per row, column and region" if stars > 1 else "")
    return Puzzle(m, render, to_json, cell_names(x), value_words={1: "starred", 0: "empty"},
                  layout=layout, clues=clues)
