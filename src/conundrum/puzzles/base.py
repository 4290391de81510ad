"""What every puzzle front-end shares: the input error, the parsed puzzle, text helpers.

A front-end module turns text into a :class:`Puzzle` (a ``conundrum.Model`` plus functions
that show a solution to people and to programs). It never prints and never exits: bad input
raises :class:`PuzzleError`, which names the place; the command line formats it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

if TYPE_CHECKING:
    from conundrum.display import PuzzleView

    from .clash import Clash

MAX_TEXT = 1_000_000  # characters; larger inputs are refused before parsing


class Place(TypedDict, total=False):
    """Where in the input an error is: the keywords of PuzzleError besides the message."""

    source: str | None
    line: int | None
    column: int | None
    text: str | None


class PuzzleError(ValueError):
    """Bad puzzle input: a message plus the place (source, line, column) it refers to.

    ``line`` and ``column`` are 1-based or None. ``text`` is the offending line of input; when
    given together with ``column``, the command line shows it with a ``^`` under the column.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.text = text

    def place(self) -> str:
        """The place as people read it: ``FILE, line 3, column 7``."""
        parts = []
        if self.source:
            parts.append(self.source)
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(parts)

    def one_line(self) -> str:
        """The place and the message on one line."""
        place = self.place()
        return f"{place}: {self.message}" if place else self.message


@dataclass
class Puzzle:
    """A parsed puzzle: the model to solve and how to show one of its solutions."""

    model: Any  # conundrum.Model
    render: Callable[[Any], str]  # Solution -> text for people (may span lines)
    to_json: Callable[[Any], dict]  # Solution -> JSON-ready dict
    names: dict[int, str] = field(default_factory=dict)  # variable index -> name in steps
    # the model explanations reason over when it is not `model` (same solutions, in the
    # terms people use: an alphametic's columns and carries), and the reason, per constraint
    # position in it, that a constraint alone settles a value ("a carry into a new leading
    # digit is 1")
    explain_model: Any = None
    reasons: dict[int, str] = field(default_factory=dict)
    # the puzzle's words for cell values in explanations: {1: "filled", 0: "empty"}
    value_words: dict[int, str] = field(default_factory=dict)
    # what its picture shows (conundrum.display.layout: a Board or Equations); None: the
    # notebook shows the model's summary and a solution's text. Not in repr: it is long
    layout: Any = field(default=None, repr=False)
    # the labels of the constraints that are the puzzle's clues (givens, cage targets,
    # relations, skyline counts): what a clash may blame, the rules staying hard (issue 43)
    clues: list[str] = field(default_factory=list)

    def display(self, solution: Any = None) -> PuzzleView:
        """The puzzle's picture for a notebook: its givens, or with `solution` (a Solution
        of `self.model`) the values found."""
        from conundrum.display import PuzzleView

        return PuzzleView(self, solution)

    def clash(self, time_limit: float | None = None) -> Clash | None:
        """None when the puzzle has a solution (or no clues to blame); otherwise why not:
        the clues that clash, the fewest to drop, and, in a notebook, the picture with the
        clashing clues marked (see conundrum.puzzles.clash). `time_limit`: seconds for
        each of the conflict, the correction and the count."""
        from .clash import find_clash

        return find_clash(self, time_limit)

    def _repr_svg_(self) -> str | None:
        return self.display()._repr_svg_()

    def _repr_html_(self) -> str | None:
        return self.display()._repr_html_()


def cell_name(r: int, c: int) -> str:
    """How explanations name the cell in row r, column c (0-based): r1c1 is the top left."""
    return f"r{r + 1}c{c + 1}"


def cell_names(x: Any) -> dict[int, str]:
    """Explanation names of a grid's variables, by variable index."""
    return {v.index: cell_name(r, c) for r, row in enumerate(x.rows) for c, v in enumerate(row)}


def values(sol: Any, x: Any) -> list[list[int]]:
    """The solution's matrix as lists of ints."""
    return [[sol[v] for v in row] for row in x.rows]


def value_texts(x: Any, words: dict[int, str] | None = None) -> Callable[[Any], list[list[str]]]:
    """Solution -> the text a picture shows in each cell of the matrix x: its value, or
    its word in `words` ({1: "★", 0: ""})."""
    def cell_texts(sol: Any) -> list[list[str]]:
        return [[str(v) if words is None else words[v] for v in row] for row in values(sol, x)]

    return cell_texts


def blank(rows: int, cols: int) -> list[list[str]]:
    """Givens of a picture with none: every cell to fill."""
    return [[""] * cols for _ in range(rows)]


def texts(numbers: Sequence[int | None]) -> list[str]:
    """Numbers as a picture writes them, "" for None (no clue, no given)."""
    return ["" if v is None else str(v) for v in numbers]


def value_char(value: int) -> str:
    """The one-character spelling of a cell value: 1-9, then A=10, B=11, ... Z=35."""
    if 0 <= value <= 9:
        return str(value)
    if 10 <= value <= 35:
        return chr(ord("A") + value - 10)
    raise ValueError(f"no one-character spelling for {value}")


def draw_grid(rows: list[list[str]], box_rows: int, box_cols: int) -> str:
    """Draw a grid of strings with a frame and lines between boxes (box-drawing characters).

    ``box_rows`` x ``box_cols`` is the box size; use the grid size for a frame only.
    """
    n_cols = len(rows[0]) if rows else 0
    width = max((len(s) for row in rows for s in row), default=1)

    def rule(left: str, mid: str, right: str) -> str:
        segs = []
        for start in range(0, n_cols, box_cols):
            k = min(box_cols, n_cols - start)
            segs.append("─" * (k * (width + 1) + 1))
        return left + mid.join(segs) + right

    out = [rule("┌", "┬", "┐")]
    for i, row in enumerate(rows):
        if i and i % box_rows == 0:
            out.append(rule("├", "┼", "┤"))
        cells = []
        for start in range(0, n_cols, box_cols):
            chunk = row[start : start + box_cols]
            cells.append(" " + " ".join(s.rjust(width) for s in chunk) + " ")
        out.append("│" + "│".join(cells) + "│")
    out.append(rule("└", "┴", "┘"))
    return "\n".join(out)


_JUNCTION = {  # (up, down, left, right) -> box-drawing character
    (1, 1, 1, 1): "┼", (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴", (0, 0, 0, 1): "╶", (0, 0, 0, 0): " ",
}  # fmt: skip


def draw_with_holes(grid: list[list[int | None]]) -> str:
    """Draw a grid of numbers in a frame, ``■`` where a cell is not part of the puzzle
    (None: a Kakuro block, a Hidato hole)."""
    shown = [["■" if v is None else str(v) for v in row] for row in grid]
    return draw_grid(shown, len(shown), len(shown[0]))


def draw_regions(rows: list[list[str]], region: Sequence[Sequence[object]]) -> str:
    """Draw a grid of strings with lines only between cells of different regions (cages).

    ``region[r][c]`` names the region of each cell; the outer frame is always drawn.
    """
    n, m = len(rows), len(rows[0]) if rows else 0
    width = max((len(s) for row in rows for s in row), default=1)

    def wall_v(r: int, c: int) -> bool:  # wall on the left of cell (r, c); c may be m
        return c in (0, m) or region[r][c - 1] != region[r][c]

    def wall_h(r: int, c: int) -> bool:  # wall above cell (r, c); r may be n
        return r in (0, n) or region[r - 1][c] != region[r][c]

    out = []
    for r in range(n + 1):
        line = []
        for c in range(m + 1):
            arms = (r > 0 and wall_v(r - 1, c), r < n and wall_v(r, c),
                    c > 0 and wall_h(r, c - 1), c < m and wall_h(r, c))
            line.append(_JUNCTION[(int(arms[0]), int(arms[1]), int(arms[2]), int(arms[3]))])
            if c < m:
                line.append(("─" if wall_h(r, c) else " ") * (width + 2))
        out.append("".join(line).rstrip())
        if r < n:
            cells = []
            for c in range(m):
                cells.append("│" if wall_v(r, c) else " ")
                cells.append(" " + rows[r][c].rjust(width) + " ")
            cells.append("│")
            out.append("".join(cells))
    return "\n".join(out)


def parse_int(text: str, what: str, lo: int, hi: int, **place: Any) -> int:
    """Read a whole number in ``lo..hi`` or raise a PuzzleError naming ``what``."""
    s = text.strip()
    digits = s[1:] if s.startswith("-") else s
    if not digits or len(s) > 12 or not (digits.isascii() and digits.isdigit()):
        raise PuzzleError(f"{what} must be a whole number, got {text!r}", **place)
    n = int(s)
    if not lo <= n <= hi:
        raise PuzzleError(f"{what} must be between {lo} and {hi}, got {n}", **place)
    return n
