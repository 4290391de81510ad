"""Rich displays for notebooks (Jupyter, VS Code, Colab).

`Model` and `Solution` have `_repr_html_`; a puzzle (conundrum.puzzles) shows its givens
and ``puzzle.display(solution)`` shows a solution: a grid puzzle as an SVG picture, an
alphametic as HTML. This package is imported only when a display is asked for, so
``import conundrum`` does not load it; `layout` holds the plain data the puzzles fill in,
`svg` and `html` draw it.
"""

from __future__ import annotations

from typing import Any


class PuzzleView:
    """A puzzle, or one of its solutions, as a notebook shows it: ``_repr_svg_`` for a grid,
    ``_repr_html_`` otherwise (the other one returns None: not offered). ``svg()`` and
    ``html()`` give the markup as strings."""

    def __init__(self, puzzle: Any, solution: Any = None, marks: Any = None) -> None:
        self.puzzle = puzzle
        self.solution = solution
        self.marks = marks  # a layout.Marks: what to mark in red (a clash's clues)

    def _board(self) -> Any:
        from conundrum.display.layout import Board

        layout = self.puzzle.layout
        return layout if isinstance(layout, Board) else None

    def svg(self) -> str | None:
        """The SVG picture of a grid puzzle (None for other puzzles)."""
        board = self._board()
        if board is None:
            return None
        from conundrum.display.svg import board_svg

        return board_svg(board, self.solution, self.marks)

    def html(self) -> str:
        """An HTML fragment: the picture of a grid, the equations of an alphametic, the
        model's summary and solution's values of a puzzle without a layout."""
        from conundrum.display import html
        from conundrum.display.layout import Equations

        picture = self.svg()
        if picture is not None:
            return f'<div class="cn-puzzle">{picture}</div>'
        layout, sol = self.puzzle.layout, self.solution
        if isinstance(layout, Equations):
            return html.equations_html(layout, sol)
        if sol is None:
            return html.model_html(self.puzzle.model)
        return html.text_html(self.puzzle.render(sol))

    def _repr_svg_(self) -> str | None:
        return self.svg()

    def _repr_html_(self) -> str | None:
        return None if self._board() is not None else self.html()

    def __repr__(self) -> str:
        sol = self.solution
        return self.puzzle.render(sol) if sol is not None else "PuzzleView(unsolved)"
