"""Hidato and Numbrix: fill the grid with 1, 2, ..., N (N the number of cells), each once,
so that consecutive numbers are in neighbouring cells: any of the 8 neighbours for Hidato,
one of the 4 beside for Numbrix.

Format: one grid row per line, cells separated by spaces: a number (a given), ``.`` (to
fill) or ``X`` (a hole, not part of the puzzle); lines starting with ``#`` are comments.
"""

from __future__ import annotations

from conundrum.display.layout import Board

from .base import Place, Puzzle, PuzzleError, cell_name, draw_with_holes, texts
from .grid import check_text, rectangle_width

MAX_CELLS = 400

KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
ROOK = ((-1, 0), (0, -1), (0, 1), (1, 0))


def read(text: str, source: str) -> list[list[int | None | str]]:
    """The grid: a given number, None for a cell to fill, 'X' for a hole."""
    rows: list[list[int | None | str]] = []
    lines: list[int] = []  # where each row was written
    for i, line in enumerate(check_text(text, source), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        row: list[int | None | str] = []
        col = 0
        for part in line.split(" "):
            if part:
                place: Place = {"source": source, "line": i, "column": col + 1, "text": line}
                if part == ".":
                    row.append(None)
                elif part in ("X", "x"):
                    row.append("X")
                elif part.isdigit() and len(part) <= 4:
                    row.append(int(part))
                else:
                    raise PuzzleError(f"unexpected {part!r}: a cell is a number, '.' or 'X'",
                                      **place)
            col += len(part) + 1
        rows.append(row)
        lines.append(i)
    if not rows:
        raise PuzzleError("no grid: expected rows of numbers, '.' and 'X'", source=source)
    rectangle_width(list(zip(lines, rows, strict=True)), source)
    return rows


def parse_with(text: str, source: str, moves: tuple[tuple[int, int], ...], what: str) -> Puzzle:
    """A Hidato (king moves) or Numbrix (rook steps of one) puzzle."""
    import conundrum as cn

    rows = read(text, source)
    cells = [(r, c) for r, row in enumerate(rows) for c, v in enumerate(row) if v != "X"]
    n = len(cells)
    if not 1 <= n <= MAX_CELLS:
        raise PuzzleError(f"a {what} has 1 to {MAX_CELLS} cells; this one has {n}",
                          source=source)
    given = [v for row in rows for v in row if isinstance(v, int)]
    for v in given:
        if not 1 <= v <= n:
            raise PuzzleError(f"{v} is not a number from 1 to {n} (the number of cells)",
                              source=source)
    if len(set(given)) != len(given):
        twice = next(v for v in given if given.count(v) > 1)
        raise PuzzleError(f"{twice} is given twice", source=source)
    m = cn.Model()
    # the variables are named as explanations name cells
    var = {p: m.int_var(1, n, cell_name(*p)) for p in cells}
    clues = []  # the givens, labelled as explanations name cells: what a clash may blame
    for (r, c), x in var.items():
        if isinstance(rows[r][c], int):
            label = f"{cell_name(r, c)} = {rows[r][c]}"
            m.add(x == rows[r][c], label=label)
            clues.append(label)
    m.add(cn.all_different(list(var.values())), label=f"1 to {n}, each once")
    for (r, c), x in var.items():
        near = [var[(r + dr, c + dc)] for dr, dc in moves if (r + dr, c + dc) in var]
        name = cell_name(r, c)
        m.add(cn.implies(x != n, cn.sum([u == x + 1 for u in near]) >= 1),
              label=f"the number after {name}'s is next to it")
        m.add(cn.implies(x != 1, cn.sum([u == x - 1 for u in near]) >= 1),
              label=f"the number before {name}'s is next to it")

    def grid(sol) -> list[list[int | None]]:
        return [[sol[var[(r, c)]] if (r, c) in var else None for c in range(len(rows[0]))]
                for r in range(len(rows))]

    def render(sol) -> str:
        return draw_with_holes(grid(sol))

    def to_json(sol) -> dict:
        return {"grid": grid(sol)}

    givens = [[None if v == "X" else "" if v is None else str(v) for v in row] for row in rows]
    layout = Board(givens, lambda sol: [texts(row) for row in grid(sol)])
    return Puzzle(m, render, to_json, layout=layout, clues=clues)


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Hidato (consecutive numbers in any of the 8 neighbouring cells)."""
    return parse_with(text, source, KING, "Hidato")
