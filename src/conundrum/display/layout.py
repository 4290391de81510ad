"""What a puzzle's picture shows, as plain data: the front-ends fill these in when they
parse (cheaply: nothing here draws), and conundrum.display.svg / .html draw them when a
notebook asks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Cell = tuple[int, int]  # (row, column), 0-based


@dataclass
class Board:
    """A rectangular grid puzzle: its cells, givens, and what is drawn on and around them.

    ``givens[r][c]`` is the text of a given, ``""`` for a cell to fill, or None for a cell
    that is not part of the puzzle (a Kakuro block, a Hidato hole: drawn dark).
    ``solved(solution)`` gives the text of every cell in that solution."""

    givens: Sequence[Sequence[str | None]]
    solved: Callable[[Any], list[list[str]]]
    box: tuple[int, int] | None = None  # thick lines around boxes of rows x columns
    regions: list[list[str]] | None = None  # thick lines between cells of different regions
    shade_regions: bool = False  # each region its own pale colour (Star Battle)
    cages: list[tuple[list[Cell], str]] = field(default_factory=list)  # dashed, text top-left
    corners: dict[Cell, str] = field(default_factory=dict)  # small text at a cell's top left
    relations: list[tuple[Cell, Cell]] = field(default_factory=list)  # (smaller, larger)
    # clues outside the grid, one per column (top, bottom) or row (left, right), "" for none;
    # a top or bottom clue may have several lines ("\n"), stacked towards the grid
    top: list[str] = field(default_factory=list)
    bottom: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    right: list[str] = field(default_factory=list)
    block_clues: dict[Cell, tuple[str, str]] = field(default_factory=dict)  # (down, across)
    filled: str | None = None  # cells whose text is this are drawn black (Nonogram)
    checkered: bool = False  # a chessboard's light and dark squares
    caption: str = ""
    # where a clue written outside the cells is drawn, by its label (what a clash names):
    # ("top" | "bottom" | "left" | "right", k), ("across" | "down" | "cage" | "corner", cell)
    clue_at: dict[str, tuple[str, Any]] = field(default_factory=dict)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return len(self.givens), len(self.givens[0]) if self.givens else 0


@dataclass
class Marks:
    """What a picture marks in red: a clash's cells (its givens, the cells of its cages,
    runs, lines and regions) and, by label, its clues drawn outside the cells
    (Board.clue_at)."""

    cells: list[Cell] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


@dataclass
class Equations:
    """Alphametic equations: per equation its pieces, each a text (operators, numbers) or a
    word as its list of letters; the variable of each letter; and, for a single sum of
    words, the addends and the total to write as a column addition."""

    lines: list[list[str | list[str]]]
    letters: dict[str, Any]
    spell: Callable[[int], str]  # a letter's value as written in place of the letter
    addition: tuple[list[list[str]], list[str]] | None = None
