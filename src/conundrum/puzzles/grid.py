"""Reading square grids of values: plain and relation grids (as docs/puzzles/ describes).

Plain grid: one line of N*N characters, or N lines of N characters (spaces, ``|`` and rule
lines of ``-``/``+``/box-drawing characters are ignored), or N lines of N space-separated
numbers. A blank is ``.``, ``0`` or ``_``; values above 9 are ``A`` (10), ``B`` (11), ...

Relation grid: cell rows alternate with relation rows. Between two cells of a cell row,
``<`` or ``>`` relates the neighbours (anything else, such as a space or ``|``, means no
relation); in a relation row, ``^`` under a cell says that cell is smaller than the one below
it and ``v`` that it is larger (anything else: no relation). Lines starting with ``#`` are
comments everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .base import PuzzleError

BOX_CHARS = set("─│┼┌┐└┘├┤┬┴═║╬╔╗╚╝╠╣╦╩━┃╋╵╷╴╶")
RULE_CHARS = set("-+=|_") | BOX_CHARS
BLANKS = set(".0")


@dataclass
class Clue:
    """A given value and where it was written (1-based line and column)."""

    value: int | None
    line: int
    column: int


@dataclass
class Relation:
    """``small`` < ``large`` between two cells (row, col), written at line/column."""

    small: tuple[int, int]
    large: tuple[int, int]
    line: int
    column: int
    symbol: str


@dataclass
class Grid:
    """A parsed square grid: clues[r][c] and the relations (empty for plain grids)."""

    size: int
    clues: list[list[Clue]]
    relations: list[Relation] = field(default_factory=list)
    source: str = ""


def check_text(text: str, source: str) -> list[str]:
    """Split into lines (tabs expanded) and refuse control characters, naming the place."""
    lines = text.split("\n")
    for i, line in enumerate(lines, 1):
        for j, ch in enumerate(line, 1):
            if ch != "\t" and ch != "\r" and not ch.isprintable():
                raise PuzzleError(f"unexpected character {ch!r} (not text)", source=source,
                                  line=i, column=j)
    return [line.rstrip("\r").expandtabs(8) for line in lines]


def cell_value(ch: str, source: str, line: int, col: int) -> int | None:
    """The value of a one-character cell: None for a blank, 1-9, A=10 ... Z=35."""
    if ch in BLANKS:
        return None
    if "1" <= ch <= "9":
        return int(ch)
    if "A" <= ch <= "Z":
        return ord(ch) - ord("A") + 10
    raise PuzzleError(f"unexpected {ch!r} in the grid (a cell is a digit, a letter A-Z "
                      "or '.')", source=source, line=line, column=col)


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _is_rule(line: str) -> bool:
    s = line.strip()
    return bool(s) and all(ch in RULE_CHARS or ch.isspace() for ch in s)


def looks_like_relation_grid(text: str) -> bool:
    """True when the text uses relation symbols (``<``, ``>``, ``^`` or a ``v`` row)."""
    for line in text.split("\n"):
        if _is_comment(line):
            continue
        if any(ch in "<>^" for ch in line):
            return True
        s = line.strip()
        if s and "v" in s and all(ch in "v^ -|+" for ch in s):
            return True
    return False


def read_plain(text: str, source: str) -> Grid:
    """Read a plain square grid (one-line, character rows or number rows)."""
    lines = check_text(text, source)
    rows: list[tuple[int, str]] = [
        (i, line) for i, line in enumerate(lines, 1)
        if line.strip() and not _is_comment(line) and not _is_rule(line)
    ]
    if not rows:
        raise PuzzleError("no grid: the input is empty", source=source)
    if len(rows) == 1:
        i, line = rows[0]
        line_cells = [(j, ch) for j, ch in enumerate(line, 1) if not ch.isspace()]
        n = int(round(len(line_cells) ** 0.5))
        if n * n != len(line_cells) or n < 2:
            raise PuzzleError(f"a one-line grid needs a square number of cells (16, 81, 256 "
                              f"or 625), found {len(line_cells)}", source=source, line=i)
        clues = [[Clue(cell_value(ch, source, i, j), i, j)
                  for j, ch in line_cells[r * n : r * n + n]] for r in range(n)]
        return Grid(n, clues, source=source)
    n = len(rows)
    token_rows = [_tokens(line) for _, line in rows]
    char_rows = [[(j, ch) for j, ch in enumerate(line, 1)
                  if not (ch.isspace() or ch in RULE_CHARS)] for _, line in rows]
    long_token = any(len(tok) > 1 for toks in token_rows for _, tok in toks)
    # numbers separated by spaces when that makes a square, or when the characters do not
    # even make rows of one width while the numbers do
    numeric = long_token and (all(len(toks) == n for toks in token_rows)
                              or (not _same_length(char_rows) and _same_length(token_rows)
                                  and len(token_rows[0]) > 1))
    cells: list[list[tuple[int, str]]] = token_rows if numeric else char_rows
    clues = []  # read first: a wrong character is named before the grid's shape
    for (i, _), row_cells in zip(rows, cells, strict=True):
        if numeric:
            clues.append([Clue(_number(tok, source, i, j), i, j) for j, tok in row_cells])
        else:
            clues.append([Clue(cell_value(ch, source, i, j), i, j) for j, ch in row_cells])
    n = square_size([(i, row) for (i, _), row in zip(rows, clues, strict=True)], source)
    return Grid(n, clues, source=source)


def square_size(rows: list[tuple[int, list[Any]]], source: str) -> int:
    """The size of a square grid from its rows of cells, (line, cells) each; a PuzzleError
    names the line where the grid is not square. When every row has the same width, the
    number of rows is what is wrong: the error points where the grid ends too early or
    goes on too long (not at its first line); otherwise at the row whose width differs
    from the others'."""
    width = rectangle_width(rows, source)
    n = len(rows)
    if width != n:
        if n < width:
            raise PuzzleError(f"the grid ends after {n} rows of {width} cells; a square grid "
                              f"needs {width} rows", source=source, line=rows[-1][0])
        raise PuzzleError(f"row {width + 1} of a grid {width} cells wide; a square grid has "
                          f"{width} rows", source=source, line=rows[width][0])
    return width


def rectangle_width(rows: list[tuple[int, list[Any]]], source: str) -> int:
    """The width of a grid whose rows, (line, cells) each, all have the same length; a
    PuzzleError names the line of a row whose width differs from the others' (the most
    common width is the one the grid meant)."""
    width = _usual_width([cells for _, cells in rows])
    for i, cells in rows:
        if len(cells) != width:
            raise PuzzleError(f"{len(cells)} cells in this row, expected {width} (as in "
                              "the other rows)", source=source, line=i)
    return width


def _same_length(rows: list[list[tuple[int, str]]]) -> bool:
    return len({len(row) for row in rows}) == 1


def _usual_width(rows: list[list[Any]]) -> int:
    """The most common row length (the first row's on a tie): the width the grid meant."""
    counts: dict[int, int] = {}
    for row in rows:
        counts[len(row)] = counts.get(len(row), 0) + 1
    return max(counts, key=lambda w: counts[w])  # dicts keep first-seen order for ties


def _tokens(line: str) -> list[tuple[int, str]]:
    out, j, n = [], 0, len(line)
    while j < n:
        # '-' and '+' draw rules, but before a digit they are a sign: "-5" must be refused
        # as a clue, not read as 5
        signed = line[j] in "-+" and j + 1 < n and line[j + 1].isdigit()
        if not signed and (line[j].isspace() or line[j] in RULE_CHARS):
            j += 1
            continue
        k = j + 1 if signed else j
        while k < n and not (line[k].isspace() or line[k] in RULE_CHARS):
            k += 1
        out.append((j + 1, line[j:k]))
        j = k
    return out


def _number(tok: str, source: str, line: int, col: int) -> int | None:
    if tok in BLANKS:
        return None
    if tok.isascii() and tok.isdigit() and len(tok) <= 3:
        return int(tok) or None
    if len(tok) == 1:
        return cell_value(tok, source, line, col)
    raise PuzzleError(f"unexpected {tok!r} in the grid (expected a number or '.')",
                      source=source, line=line, column=col)


def read_relations(text: str, source: str) -> Grid:
    """Read a relation grid (Greater-Than Sudoku, Futoshiki)."""
    lines = check_text(text, source)
    cell_rows: list[tuple[int, list[tuple[int, int | None]]]] = []  # (line, [(col0, value)])
    relations: list[Relation] = []
    pending: list[tuple[int, str]] = []  # relation lines after the last cell row
    for i, line in enumerate(lines, 1):
        if _is_comment(line):
            continue
        if any(ch in BLANKS or "1" <= ch <= "9" or "A" <= ch <= "Z" for ch in line):
            _attach_vertical(pending, cell_rows, relations, source)
            pending = []
            cell_rows.append((i, _cell_row(line, i, len(cell_rows), relations, source)))
        elif line.strip():  # a relation row: ^ and v count, anything else means none
            if any(ch in "^v" for ch in line):
                if not cell_rows:
                    raise PuzzleError("a relation row before the first row of cells",
                                      source=source, line=i)
                pending.append((i, line))
    if any(True for _ in pending):
        raise PuzzleError("a relation row after the last row of cells", source=source,
                          line=pending[0][0])
    if not cell_rows:
        raise PuzzleError("no grid: the input has no row of cells", source=source)
    n = square_size(cell_rows, source)
    clues = []
    for i, row in cell_rows:
        clues.append([Clue(v, i, j + 1) for j, v in row])
    for rel in relations:
        for r, c in (rel.small, rel.large):
            if r >= n or c >= n:
                raise PuzzleError(f"{rel.symbol!r} relates a cell outside the grid",
                                  source=source, line=rel.line, column=rel.column)
    return Grid(n, clues, relations, source)


def _cell_row(line: str, i: int, r: int, relations: list[Relation], source: str):
    cells: list[tuple[int, int | None]] = []
    sep: list[tuple[int, str]] = []
    for j, ch in enumerate(line):
        if ch in BLANKS or "1" <= ch <= "9" or "A" <= ch <= "Z":
            if len(sep) > 1:
                raise PuzzleError("two relation symbols between the same cells", source=source,
                                  line=i, column=sep[1][0] + 1)
            if sep and not cells:
                raise PuzzleError(f"{sep[0][1]!r} before the first cell of the row",
                                  source=source, line=i, column=sep[0][0] + 1)
            if sep:
                c = len(cells)
                a, b = (r, c - 1), (r, c)
                small, large = (a, b) if sep[0][1] == "<" else (b, a)
                relations.append(Relation(small, large, i, sep[0][0] + 1, sep[0][1]))
            cells.append((j, cell_value(ch, source, i, j + 1)))
            sep = []
        elif ch in "<>":
            sep.append((j, ch))
        # anything else between two cells (space, '|', ...) means no relation
    if sep:
        raise PuzzleError(f"{sep[0][1]!r} after the last cell of the row", source=source,
                          line=i, column=sep[0][0] + 1)
    return cells


def _attach_vertical(pending, cell_rows, relations, source) -> None:
    """Turn the ^/v marks between the last cell row and the next one into relations."""
    if not pending:
        return
    if len(pending) > 1:
        raise PuzzleError("two relation rows between the same rows of cells", source=source,
                          line=pending[1][0])
    i, line = pending[0]
    r = len(cell_rows) - 1
    above = {col: c for c, (col, _) in enumerate(cell_rows[-1][1])}
    for j, ch in enumerate(line):
        if ch in "^v":
            if j not in above:
                raise PuzzleError(f"{ch!r} is not under a cell of line {cell_rows[-1][0]}",
                                  source=source, line=i, column=j + 1)
            c = above[j]
            up, down = (r, c), (r + 1, c)
            small, large = (up, down) if ch == "^" else (down, up)
            relations.append(Relation(small, large, i, j + 1, ch))


def check_clues(grid: Grid, box: tuple[int, int] | None, what: str) -> None:
    """Refuse clues out of range, repeated in a row/column/box, or breaking a relation."""
    n = grid.size
    src = grid.source
    for row in grid.clues:
        for clue in row:
            if clue.value is not None and not 1 <= clue.value <= n:
                raise PuzzleError(f"{clue.value} is not a value of a {n}x{n} {what} (1-{n})",
                                  source=src, line=clue.line, column=clue.column)
    groups: list[tuple[str, list[Clue]]] = []
    for r in range(n):
        groups.append((f"row {r + 1}", grid.clues[r]))
    for c in range(n):
        groups.append((f"column {c + 1}", [grid.clues[r][c] for r in range(n)]))
    if box:
        bh, bw = box
        for br in range(0, n, bh):
            for bc in range(0, n, bw):
                cells = [grid.clues[r][c] for r in range(br, br + bh) for c in range(bc, bc + bw)]
                groups.append((f"the box at row {br + 1}, column {bc + 1}", cells))
    for name, cells in groups:
        seen: dict[int, Clue] = {}
        for clue in cells:
            if clue.value is None:
                continue
            if clue.value in seen:
                first = seen[clue.value]
                raise PuzzleError(f"{clue.value} appears twice in {name} (also at line "
                                  f"{first.line}, column {first.column})", source=src,
                                  line=clue.line, column=clue.column)
            seen[clue.value] = clue
    for rel in grid.relations:
        a = grid.clues[rel.small[0]][rel.small[1]].value
        b = grid.clues[rel.large[0]][rel.large[1]].value
        if a is not None and b is not None and not a < b:
            raise PuzzleError(f"{rel.symbol!r} does not hold between the given {a} and {b}",
                              source=src, line=rel.line, column=rel.column)
