"""Sudoku (4x4, 9x9, 16x16, 25x25) and Greater-Than Sudoku: plain or relation grids."""

from __future__ import annotations

from math import isqrt

from .base import Puzzle, PuzzleError, cell_names, values
from .grid import check_clues, looks_like_relation_grid, read_plain, read_relations
from .latin import draw_values, grid_board, latin_model, post_grid

SIZES = (4, 9, 16, 25)


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Sudoku grid (any form docs/puzzles/sudoku.md describes) into a puzzle."""
    if looks_like_relation_grid(text):
        grid = read_relations(text, source)
    else:
        grid = read_plain(text, source)
    n = grid.size
    if n not in SIZES:
        raise PuzzleError(f"a Sudoku has 4, 9, 16 or 25 rows and columns; this grid is {n}x{n}",
                          source=source, line=grid.clues[0][0].line)
    b = isqrt(n)
    check_clues(grid, (b, b), "Sudoku")
    m, x = latin_model(n, (b, b))
    clues = post_grid(m, x, grid)

    def render(sol) -> str:
        return draw_values(values(sol, x), (b, b))

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    return Puzzle(m, render, to_json, cell_names(x), layout=grid_board(grid, x, (b, b)),
                  clues=clues)
