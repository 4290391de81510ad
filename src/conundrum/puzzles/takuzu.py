"""Takuzu (Binairo): fill an even-sized grid with 0 and 1 so that every row and column holds
as many 0s as 1s, no three neighbours in a row or column are alike, and no two rows (no two
columns) are the same.

Format: one line per row, a character per cell: ``0``, ``1`` or ``.`` for an empty cell
(spaces are ignored); lines starting with ``#`` are comments.
"""

from __future__ import annotations

from conundrum.display.layout import Board

from .base import Puzzle, PuzzleError, cell_names, texts, value_texts, values
from .grid import check_text, square_size
from .latin import post_givens

MAX_SIZE = 30


def read(text: str, source: str) -> list[list[int | None]]:
    """The grid: 0, 1 or None per cell."""
    rows: list[list[int | None]] = []
    lines: list[int] = []  # where each row was written
    for i, line in enumerate(check_text(text, source), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        row: list[int | None] = []
        for j, ch in enumerate(line, 1):
            if ch in " \t\r":
                continue
            if ch not in "01.":
                raise PuzzleError(f"unexpected {ch!r}: a cell is 0, 1 or '.'", source=source,
                                  line=i, column=j, text=line)
            row.append(None if ch == "." else int(ch))
        rows.append(row)
        lines.append(i)
    n = len(rows)
    if n == 0:
        raise PuzzleError("no grid: expected rows of 0, 1 and '.'", source=source)
    square_size(list(zip(lines, rows, strict=True)), source)
    if n % 2 or n > MAX_SIZE:
        raise PuzzleError(f"a Takuzu has an even number of rows, at most {MAX_SIZE}; this one "
                          f"has {n}", source=source, line=lines[-1])
    return rows


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Takuzu into a puzzle."""
    import conundrum as cn

    rows = read(text, source)
    n = len(rows)
    m = cn.Model()
    x = m.int_matrix(n, n, 0, 1, "cell")
    clues = post_givens(m, x, rows)
    lines = [(f"row {k + 1}", list(line)) for k, line in enumerate(x.rows)]
    lines += [(f"column {k + 1}", list(line)) for k, line in enumerate(x.columns)]
    for name, line in lines:
        m.add(cn.sum(line) == n // 2, label=f"{name} (half 0s, half 1s)")
        for k in range(n - 2):
            trio = line[k:k + 3]
            m.add((cn.sum(trio) >= 1) & (cn.sum(trio) <= 2),
                  label=f"{name}, cells {k + 1}-{k + 3} (not three alike)")
    for kind, group in (("rows", x.rows), ("columns", x.columns)):
        group = [list(g) for g in group]
        for i in range(n):
            for j in range(i + 1, n):
                m.add(cn.sum([a != b for a, b in zip(group[i], group[j])]) >= 1,
                      label=f"{kind} {i + 1} and {j + 1} differ")
    def render(sol) -> str:
        return "\n".join(" ".join(str(v) for v in row) for row in values(sol, x))

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    layout = Board([texts(row) for row in rows], value_texts(x))
    return Puzzle(m, render, to_json, cell_names(x), layout=layout, clues=clues)
