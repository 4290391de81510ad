"""Nonogram (Griddlers, Paint by Numbers): fill cells so that each row and column shows
blocks of the clue's lengths, in order, separated by at least one empty cell. Each line is
a `regular` constraint over its 0/1 cells (the automaton of its clue).

Format: the row clues, one line per row (top to bottom), then a blank line, then the column
clues, one line per column (left to right). A clue is its block lengths separated by spaces
(or commas); ``0`` or ``-`` is an empty line. Lines starting with ``#`` are comments.
"""

from __future__ import annotations

from conundrum.display.layout import Board

from .base import Puzzle, PuzzleError, blank, cell_names, value_texts, values
from .grid import check_text

MAX_SIZE = 100

Clues = list[list[int]]


def read(text: str, source: str) -> tuple[Clues, Clues]:
    """(row clues, column clues)."""
    sections: list[Clues] = [[]]
    for number, line in enumerate(check_text(text, source), 1):
        stripped = line.strip()
        if stripped.startswith("#"):
            continue
        if not stripped:
            if sections[-1]:
                sections.append([])
            continue
        if stripped in ("0", "-"):
            sections[-1].append([])
            continue
        parts = stripped.replace(",", " ").split()
        if not all(p.isdigit() and len(p) <= 4 for p in parts):
            raise PuzzleError("a clue is block lengths separated by spaces, e.g. 3 1 2",
                              source=source, line=number, text=line)
        clue = [int(p) for p in parts]
        if any(v < 1 for v in clue):
            raise PuzzleError("block lengths are at least 1 (write 0 alone for an empty line)",
                              source=source, line=number, text=line)
        sections[-1].append(clue)
    sections = [s for s in sections if s]
    if len(sections) != 2:
        raise PuzzleError("expected the row clues, a blank line, then the column clues",
                          source=source)
    rows, columns = sections
    if len(rows) > MAX_SIZE or len(columns) > MAX_SIZE:
        raise PuzzleError(f"a Nonogram has at most {MAX_SIZE} rows and columns", source=source)
    for what, clues, length in (("row", rows, len(columns)), ("column", columns, len(rows))):
        for k, clue in enumerate(clues, 1):
            if sum(clue) + len(clue) - 1 > length:
                raise PuzzleError(f"{what} {k}'s blocks {' '.join(map(str, clue))} need "
                                  f"{sum(clue) + len(clue) - 1} cells; the {what} has {length}",
                                  source=source)
    return rows, columns


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Nonogram into a puzzle."""
    import conundrum as cn

    rows, columns = read(text, source)
    m = cn.Model()
    grid = m.int_matrix(len(rows), len(columns), 0, 1, "cell")
    clues = []  # every line's clue: what a clash may blame (issue 43)
    for what, lines, line_clues in (("row", grid.rows, rows), ("column", grid.columns, columns)):
        for k, (line, clue) in enumerate(zip(lines, line_clues), 1):
            label = f"{what} {k} ({' '.join(map(str, clue)) or '0'})"
            m.add(cn.regular(line, *cn.pattern_automaton(clue)), label=label)
            clues.append(label)

    def render(sol) -> str:
        return "\n".join("".join("#" if v else "." for v in row) for row in values(sol, grid))

    def to_json(sol) -> dict:
        return {"grid": values(sol, grid)}

    # the clues outside, column clues stacked; a thicker line every 5 cells helps counting
    layout = Board(blank(len(rows), len(columns)), value_texts(grid, {1: "#", 0: ""}),
                   box=(5, 5), filled="#", left=[" ".join(map(str, c)) or "0" for c in rows],
                   top=["\n".join(map(str, c)) or "0" for c in columns],
                   clue_at={label: ("left", k) if k < len(rows) else ("top", k - len(rows))
                            for k, label in enumerate(clues)})
    return Puzzle(m, render, to_json, cell_names(grid), value_words={1: "filled", 0: "empty"},
                  layout=layout, clues=clues)
