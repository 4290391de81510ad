"""Futoshiki: a Latin square of any size with < > ^ v relations between neighbours."""

from __future__ import annotations

from .base import Puzzle, PuzzleError, cell_names, values
from .grid import check_clues, read_relations
from .latin import draw_relations, grid_board, latin_model, post_grid

MAX_SIZE = 35


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Futoshiki relation grid (docs/puzzles/futoshiki.md) into a puzzle."""
    grid = read_relations(text, source)
    n = grid.size
    if not 2 <= n <= MAX_SIZE:
        raise PuzzleError(f"a Futoshiki grid has 2 to {MAX_SIZE} rows; this one has {n}",
                          source=source, line=grid.clues[0][0].line)
    check_clues(grid, None, "Futoshiki")
    m, x = latin_model(n)
    clues = post_grid(m, x, grid)

    def render(sol) -> str:
        return draw_relations(values(sol, x), grid)

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    return Puzzle(m, render, to_json, cell_names(x), layout=grid_board(grid, x, None),
                  clues=clues)
