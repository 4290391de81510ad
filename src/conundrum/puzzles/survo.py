"""Survo: fill an m x n grid with 1, 2, ..., m*n, each once, so that the rows and columns add
up to the sums given.

Format: one line per row, its cells then the row's sum, separated by spaces; a cell is a
number (a given) or ``.``; then a last line of the column sums. Lines starting with ``#`` are
comments.
"""

from __future__ import annotations

from conundrum.display.layout import Board

from .base import Place, Puzzle, PuzzleError, cell_names, draw_grid, texts, value_texts, values
from .grid import check_text
from .latin import post_givens

MAX_CELLS = 100


def _number(tok: str, what: str, place: Place) -> int:
    if not tok.isdigit() or len(tok) > 6:
        raise PuzzleError(f"{what} {tok!r} is not a whole number", **place)
    return int(tok)


def read(text: str, source: str) -> tuple[list[list[int | None]], list[int], list[int]]:
    """(cells, row sums, column sums)."""
    lines = []
    for i, line in enumerate(check_text(text, source), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            lines.append((i, line, line.split()))
    if len(lines) < 2:
        raise PuzzleError("expected rows of cells each ending with its sum, then a line of "
                          "column sums", source=source)
    *body, (last_i, last_line, last) = lines
    n = len(last)
    cells: list[list[int | None]] = []
    row_sums = []
    for i, line, toks in body:
        place: Place = {"source": source, "line": i, "text": line}
        if len(toks) != n + 1:
            raise PuzzleError(f"{len(toks)} entries: expected {n} cells and the row's sum "
                              f"(the last line has {n} column sums)", **place)
        cells.append([None if t == "." else _number(t, "cell", place) for t in toks[:n]])
        row_sums.append(_number(toks[n], "row sum", place))
    col_sums = [_number(t, "column sum", {"source": source, "line": last_i,
                                          "text": last_line}) for t in last]
    if len(cells) * n > MAX_CELLS:
        raise PuzzleError(f"a Survo has at most {MAX_CELLS} cells", source=source)
    return cells, row_sums, col_sums


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Survo into a puzzle."""
    import conundrum as cn

    cells, row_sums, col_sums = read(text, source)
    rows, cols = len(cells), len(col_sums)
    total = rows * cols
    for r, row in enumerate(cells):
        for c, v in enumerate(row):
            if v is not None and not 1 <= v <= total:
                raise PuzzleError(f"r{r + 1}c{c + 1} = {v} is not a number from 1 to {total}",
                                  source=source)
    m = cn.Model()
    x = m.int_matrix(rows, cols, 1, total, "cell")
    clues = post_givens(m, x, cells)  # the givens and the sums: what a clash may blame
    m.add(cn.all_different(x.flat), label=f"1 to {total}, each once")
    for r, s in enumerate(row_sums):
        m.add(cn.sum(x.rows[r]) == s, label=f"row {r + 1} (sum {s})")
        clues.append(f"row {r + 1} (sum {s})")
    for c, s in enumerate(col_sums):
        m.add(cn.sum(x.columns[c]) == s, label=f"column {c + 1} (sum {s})")
        clues.append(f"column {c + 1} (sum {s})")
    def render(sol) -> str:
        return draw_grid([[str(v) for v in row] for row in values(sol, x)], rows, cols)

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    sums = [("right", r) for r in range(rows)] + [("bottom", c) for c in range(cols)]
    layout = Board([texts(row) for row in cells], value_texts(x), right=texts(row_sums),
                   bottom=texts(col_sums),
                   clue_at=dict(zip(clues[len(clues) - len(sums):], sums, strict=True)))
    return Puzzle(m, render, to_json, cell_names(x), layout=layout, clues=clues)
