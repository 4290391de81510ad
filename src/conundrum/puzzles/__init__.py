"""Puzzle front-ends: each module turns text into a :class:`~.base.Puzzle` (model + render).

``alphametic`` takes equations; ``sudoku``, ``futoshiki``, ``killer``, ``kenken`` and
``skyscrapers`` take the text of a file; ``queens`` and ``magic`` take N.
"""

from .base import Puzzle, PuzzleError

__all__ = ["Puzzle", "PuzzleError"]
