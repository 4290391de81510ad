"""Helpers shared by the grid puzzles: Latin-square models, clues, relations and drawing."""

from __future__ import annotations

from typing import Any

from conundrum.display.layout import Board

from .base import cell_name, draw_grid, texts, value_char, value_texts
from .grid import Grid


def latin_model(n: int, box: tuple[int, int] | None = None) -> tuple[Any, Any]:
    """A model with an n x n matrix of 1..n, rows and columns all different (boxes too)."""
    import conundrum as cn

    m = cn.Model()
    x = m.int_matrix(n, n, 1, n, "cell")
    for i, row in enumerate(x.rows, 1):
        m.add(cn.all_different(row), label=f"row {i}")
    for j, col in enumerate(x.columns, 1):
        m.add(cn.all_different(col), label=f"column {j}")
    if box:
        bh, bw = box
        k = 0
        for br in range(0, n, bh):
            for bc in range(0, n, bw):
                k += 1
                m.add(cn.all_different(x[br : br + bh, bc : bc + bw].flat), label=f"box {k}")
    return m, x


def post_grid(m: Any, x: Any, grid: Grid) -> list[str]:
    """Post the givens and the < relations of a parsed grid; their labels (the clues)."""
    clues = post_givens(m, x, [[clue.value for clue in row] for row in grid.clues])
    for rel in grid.relations:
        (a, b), (c, d) = rel.small, rel.large
        label = f"{cell_name(a, b)} < {cell_name(c, d)}"
        m.add(x[a][b] < x[c][d], label=label)
        clues.append(label)
    return clues


def post_givens(m: Any, x: Any, givens: list[list[int | None]]) -> list[str]:
    """Post the given values of a grid, each labelled as explanations name cells
    (`r1c3 = 2`), so that a clash names them (issue 43); their labels."""
    clues = []
    for r, row in enumerate(givens):
        for c, value in enumerate(row):
            if value is not None:
                label = f"{cell_name(r, c)} = {value}"
                m.add(x[r][c] == value, label=label)
                clues.append(label)
    return clues


def grid_board(grid: Grid, x: Any, box: tuple[int, int] | None) -> Board:
    """The picture of a parsed grid over the matrix x: its givens, boxes and relations."""
    givens = [texts([clue.value for clue in row]) for row in grid.clues]
    return Board(givens, value_texts(x), box=box,
                 relations=[(rel.small, rel.large) for rel in grid.relations])


def draw_values(vals: list[list[int]], box: tuple[int, int] | None) -> str:
    """Draw a matrix of numbers with box lines (a frame only when box is None)."""
    n = len(vals)
    bh, bw = box if box else (n, len(vals[0]) if vals else 1)
    return draw_grid([[str(v) for v in row] for row in vals], bh, bw)


def draw_relations(vals: list[list[int]], grid: Grid) -> str:
    """Draw a solved relation grid (Futoshiki) in its input layout, inside a frame."""
    n = len(vals)
    horiz: dict[tuple[int, int], str] = {}
    vert: dict[tuple[int, int], str] = {}
    for rel in grid.relations:
        (r1, c1), (r2, c2) = rel.small, rel.large
        if r1 == r2:
            left = min(c1, c2)
            horiz[(r1, left)] = "<" if c1 < c2 else ">"
        else:
            up = min(r1, r2)
            vert[(up, c1)] = "^" if r1 < r2 else "v"
    lines = []
    for r in range(n):
        s = value_char(vals[r][0])
        for c in range(1, n):
            s += horiz.get((r, c - 1), " ") + value_char(vals[r][c])
        lines.append(s)
        if r < n - 1:
            lines.append(" ".join(vert.get((r, c), " ") for c in range(n)))
    width = 2 * n - 1
    out = ["┌" + "─" * (width + 2) + "┐"]
    out += ["│ " + line.ljust(width) + " │" for line in lines]
    out.append("└" + "─" * (width + 2) + "┘")
    return "\n".join(out)
