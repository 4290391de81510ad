"""Kakuro: fill the white cells with 1-9 so that each run of white cells (across or down)
adds up to its clue, with no digit twice in a run.

Format: one grid row per line, cells separated by spaces (lines starting with ``#`` are
comments):

* ``.`` a white cell;
* ``X`` a block without clues;
* ``D\\R`` a block with clues: D the sum of the run below it, R of the run to its right;
  either may be left out (``\\16``, ``23\\``).

A run needs a clue on the block before it; a run of one cell is allowed (it is just a
given digit).
"""

from __future__ import annotations

from dataclasses import dataclass

from conundrum.display.layout import Board

from .base import Place, Puzzle, PuzzleError, cell_name, draw_with_holes, texts
from .grid import check_text, rectangle_width

MAX_SIZE = 30


@dataclass
class Run:
    """A run of white cells and its clue."""

    cells: list[tuple[int, int]]
    total: int
    label: str  # how explanations name it
    clue: tuple[int, int] = (0, 0)  # the block the clue is written on
    across: bool = True  # the run goes right from it (else down)


def _clue(tok: str, what: str, place: Place) -> int | None:
    if tok == "":
        return None
    if not tok.isdigit() or len(tok) > 2 or not 1 <= int(tok) <= 45:
        raise PuzzleError(f"the {what} clue {tok!r} is not a sum from 1 to 45", **place)
    return int(tok)


def read(text: str, source: str) -> tuple[list[list[str]], list[Run]]:
    """The grid of tokens ('.' white, '#' any block) and the runs with their clues."""
    rows: list[list[str]] = []
    lines: list[int] = []  # where each row was written
    clues: dict[tuple[int, int], tuple[int | None, int | None, Place]] = {}
    for i, line in enumerate(check_text(text, source), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        row: list[str] = []
        col = 0
        for part in line.split(" "):
            if part:
                place: Place = {"source": source, "line": i, "column": col + 1, "text": line}
                r, c = len(rows), len(row)
                if part == ".":
                    row.append(".")
                elif part in ("X", "x"):
                    row.append("#")
                elif "\\" in part:
                    down, _, right = part.partition("\\")
                    clues[(r, c)] = (_clue(down, "down", place), _clue(right, "across", place),
                                     place)
                    row.append("#")
                else:
                    raise PuzzleError(f"unexpected {part!r}: a cell is '.', 'X' or a clue "
                                      "such as 23\\16", **place)
            col += len(part) + 1
        rows.append(row)
        lines.append(i)
    if not rows:
        raise PuzzleError("no grid: expected rows of '.', 'X' and clues such as 23\\16",
                          source=source)
    width = max(len(r) for r in rows)
    if len(rows) > MAX_SIZE or width > MAX_SIZE:
        raise PuzzleError(f"a Kakuro has at most {MAX_SIZE} rows and columns", source=source)
    rectangle_width(list(zip(lines, rows, strict=True)), source)
    runs: list[Run] = []
    used: set[tuple[tuple[int, int], int]] = set()
    for (r, c), (down_sum, across_sum, place) in sorted(clues.items()):
        for total, (dr, dc), name in ((across_sum, (0, 1), "across"),
                                      (down_sum, (1, 0), "down")):
            if total is None:
                continue
            cells = []
            i, j = r + dr, c + dc
            while i < len(rows) and j < width and rows[i][j] == ".":
                cells.append((i, j))
                i, j = i + dr, j + dc
            if not cells:
                raise PuzzleError(f"the {name} clue {total} has no white cell after it",
                                  **place)
            if len(cells) > 9:
                raise PuzzleError(f"the {name} run after this clue has {len(cells)} cells; "
                                  "at most 9 digits differ", **place)
            runs.append(Run(cells, total, f"{name} run at r{r + 1}c{c + 1} (sum {total})",
                            (r, c), name == "across"))
            used.update((cell, dr) for cell in cells)
    for r, row in enumerate(rows):
        for c, tok in enumerate(row):
            if tok == "." and ((r, c), 0) not in used and ((r, c), 1) not in used:
                raise PuzzleError(f"white cell r{r + 1}c{c + 1} is in no run with a clue",
                                  source=source)
    return rows, runs


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Kakuro into a puzzle."""
    import conundrum as cn

    rows, runs = read(text, source)
    m = cn.Model()
    # the variables are named as explanations name cells
    cell = {(r, c): m.int_var(1, 9, cell_name(r, c)) for r, row in enumerate(rows)
            for c, tok in enumerate(row) if tok == "."}
    for run in runs:
        xs = [cell[p] for p in run.cells]
        m.add(cn.sum(xs) == run.total, label=run.label)
        if len(xs) > 1:
            m.add(cn.all_different(xs), label=run.label.split(" (")[0])

    def grid(sol) -> list[list[int | None]]:
        return [[sol[cell[(r, c)]] if tok == "." else None for c, tok in enumerate(row)]
                for r, row in enumerate(rows)]

    def render(sol) -> str:
        return draw_with_holes(grid(sol))

    def to_json(sol) -> dict:
        return {"grid": grid(sol)}

    clues: dict[tuple[int, int], tuple[str, str]] = {}
    for run in runs:
        down, across = clues.get(run.clue, ("", ""))
        clues[run.clue] = (down, str(run.total)) if run.across else (str(run.total), across)
    layout = Board([["" if tok == "." else None for tok in row] for row in rows],
                   lambda sol: [texts(row) for row in grid(sol)],
                   block_clues=clues,
                   clue_at={run.label: ("across" if run.across else "down", run.clue)
                            for run in runs})
    # the runs' sums are the clues a clash may blame; a run's digits differ by the rules
    return Puzzle(m, render, to_json, layout=layout, clues=[run.label for run in runs])
