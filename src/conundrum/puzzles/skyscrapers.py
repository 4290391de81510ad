"""Skyscrapers: a Latin square of building heights 1..N; a clue outside the grid says how
many buildings are seen from there (a taller building hides every lower one behind it).

Format: the top clues, then N rows of ``LEFT cell ... cell RIGHT``, then the bottom clues,
all separated by spaces; ``.`` is no clue (or an empty cell)::

      . 3 . .
    . . . . . 2
    ...
      . . 1 .
"""

from __future__ import annotations

from conundrum.display.layout import Board

from .base import Place, Puzzle, PuzzleError, cell_names, texts, value_texts, values
from .grid import check_text
from .latin import draw_values, latin_model, post_givens

MAX_SIZE = 12


def _token(tok: str, n: int, what: str, place: Place) -> int | None:
    if tok in (".", "0", "-"):
        return None
    if tok.isascii() and tok.isdigit() and len(tok) <= 3 and 1 <= int(tok) <= n:
        return int(tok)
    raise PuzzleError(f"{what} {tok!r} is not '.' or a number from 1 to {n}", **place)


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Skyscrapers puzzle into a puzzle."""
    import conundrum as cn

    lines = [(i, line) for i, line in enumerate(check_text(text, source), 1)
             if line.strip() and not line.lstrip().startswith("#")]
    n = len(lines) - 2
    if not 2 <= n <= MAX_SIZE:
        raise PuzzleError(f"expected a line of top clues, 2 to {MAX_SIZE} rows and a line of "
                          f"bottom clues; found {len(lines)} lines", source=source)

    def tokens(i: int, line: str, count: int) -> list[tuple[int, str]]:
        toks, j = [], 0
        for part in line.split(" "):
            if part:
                toks.append((j + 1, part))
            j += len(part) + 1
        if len(toks) != count:
            raise PuzzleError(f"{len(toks)} entries in this line, expected {count}",
                              source=source, line=i)
        return toks

    def read(i: int, toks: list[tuple[int, str]], what: str) -> list[int | None]:
        return [_token(t, n, what, {"source": source, "line": i, "column": j}) for j, t in toks]

    top = read(lines[0][0], tokens(*lines[0], n), "clue")
    bottom = read(lines[-1][0], tokens(*lines[-1], n), "clue")
    left, right, cells = [], [], []
    for i, line in lines[1:-1]:
        toks = tokens(i, line, n + 2)
        left.append(read(i, toks[:1], "clue")[0])
        right.append(read(i, toks[-1:], "clue")[0])
        cells.append(read(i, toks[1:-1], "cell"))
    m, x = latin_model(n)
    clues = post_givens(m, x, cells)
    clue_at: dict[str, tuple[str, int]] = {}  # where each count is drawn

    def seen(line: list, clue: int | None, where: str, at: tuple[str, int]) -> None:
        if clue is None:
            return
        visible = [line[i] > cn.max(line[:i]) for i in range(1, n)]
        label = f"{clue} seen {where}"
        m.add(cn.sum(visible) + 1 == clue, label=label)
        clues.append(label)
        clue_at[label] = at

    for c in range(n):
        col = [x[r][c] for r in range(n)]
        seen(col, top[c], f"from above column {c + 1}", ("top", c))
        seen(col[::-1], bottom[c], f"from below column {c + 1}", ("bottom", c))
    for r in range(n):
        row = list(x[r])
        seen(row, left[r], f"from the left of row {r + 1}", ("left", r))
        seen(row[::-1], right[r], f"from the right of row {r + 1}", ("right", r))

    def render(sol) -> str:
        grid = draw_values(values(sol, x), None).split("\n")
        w = len(str(n))

        def clue(v: int | None) -> str:
            return (" " if v is None else str(v)).rjust(w)

        def clue_line(vs: list[int | None]) -> list[str]:
            line = " " * (w + 3) + " ".join(clue(v) for v in vs)
            return [line.rstrip()] if line.strip() else []

        body = [" " * (w + 1) + grid[0]]
        body += [f"{clue(left[r])} {grid[r + 1]} {clue(right[r])}".rstrip() for r in range(n)]
        body.append(" " * (w + 1) + grid[-1])
        return "\n".join(clue_line(top) + body + clue_line(bottom))

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    layout = Board([texts(row) for row in cells], value_texts(x), top=texts(top),
                   bottom=texts(bottom), left=texts(left), right=texts(right),
                   clue_at=clue_at)
    return Puzzle(m, render, to_json, cell_names(x), layout=layout, clues=clues)
