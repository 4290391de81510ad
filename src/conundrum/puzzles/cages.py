"""Reading cage puzzles (Killer Sudoku, KenKen): a map of cage labels, then the cage rules.

Format::

    # comment lines start with '#'
    AABBC          <- the cage map: one label per cell (spaces between labels are allowed)
    ADDBC
    ...
    A=3 B=15+ C=2/ <- rules: LABEL=TARGET, optionally followed by an operation

A label is any visible character other than ``=`` and ``#``. Lines containing ``=`` are
rules (several per line, separated by spaces or commas).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from conundrum.display.layout import Board

from .base import Puzzle, PuzzleError, blank, cell_names, draw_regions, value_texts, values
from .grid import check_text, square_size

_RULE = re.compile(r"(\S)\s*=\s*(\S+)")
OPS = {"+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "x": "*", "/": "/", "÷": "/", ":": "/"}
SIGNS = {"": "", "+": "+", "-": "−", "*": "×", "/": "÷"}  # as pictures write them


@dataclass
class Cage:
    """A cage: its label, cells (row, col), target and operation ('' for none)."""

    label: str
    cells: list[tuple[int, int]] = field(default_factory=list)
    target: int | None = None
    op: str = ""
    line: int = 0  # where the rule was written
    column: int = 0


@dataclass
class CageMap:
    """A parsed cage puzzle: the size and the cages in order of first appearance."""

    size: int
    cages: list[Cage]
    source: str


def read_cages(text: str, source: str, ops: bool) -> CageMap:
    """Read a cage map and its rules; ``ops`` says whether an operation may follow a target."""
    lines = check_text(text, source)
    rows: list[tuple[int, list[tuple[int, str]]]] = []
    cages: dict[str, Cage] = {}
    rules: list[tuple[int, int, str, str]] = []
    for i, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "=" in line:
            _read_rules(line, i, source, rules)
            continue
        if rules:
            raise PuzzleError("a row of the cage map after the cage rules", source=source,
                              line=i)
        rows.append((i, [(j, ch) for j, ch in enumerate(line, 1) if not ch.isspace()]))
    if not rows:
        raise PuzzleError("no cage map: the input has no row of cage labels", source=source)
    n = square_size(rows, source)
    for r, (_, row) in enumerate(rows):
        for c, (_, label) in enumerate(row):
            cages.setdefault(label, Cage(label)).cells.append((r, c))
    for i, j, label, spec in rules:
        cage = cages.get(label)
        if cage is None:
            raise PuzzleError(f"rule for cage {label!r}, which is not in the map",
                              source=source, line=i, column=j)
        if cage.target is not None:
            raise PuzzleError(f"a second rule for cage {label!r}", source=source, line=i,
                              column=j)
        cage.line, cage.column = i, j
        cage.target, cage.op = _target(spec, ops, source, i, j)
    for cage in cages.values():
        if cage.target is None:
            r, c = cage.cells[0]
            i, j = rows[r][0], rows[r][1][c][0]
            raise PuzzleError(f"cage {cage.label!r} has no rule (add {cage.label}=...)",
                              source=source, line=i, column=j)
    return CageMap(n, list(cages.values()), source)


def _read_rules(line: str, i: int, source: str, rules: list) -> None:
    pos = 0
    text = line.replace(",", " ").replace(";", " ")
    for match in _RULE.finditer(text):
        gap = text[pos : match.start()]
        if gap.strip():
            j = pos + len(gap) - len(gap.lstrip()) + 1
            raise PuzzleError(f"cannot read {gap.strip()!r} (a rule is LABEL=TARGET)",
                              source=source, line=i, column=j)
        rules.append((i, match.start() + 1, match.group(1), match.group(2)))
        pos = match.end()
    rest = text[pos:]
    if rest.strip():
        j = pos + len(rest) - len(rest.lstrip()) + 1
        raise PuzzleError(f"cannot read {rest.strip()!r} (a rule is LABEL=TARGET)",
                          source=source, line=i, column=j)


def _target(spec: str, ops: bool, source: str, i: int, j: int) -> tuple[int, str]:
    digits = spec
    op = ""
    if ops and spec and spec[-1] in OPS:
        digits, op = spec[:-1], OPS[spec[-1]]
    elif ops and spec and spec[0] in OPS and len(spec) > 1:
        digits, op = spec[1:], OPS[spec[0]]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 15:
        what = "a whole number and an operation (+ - * /)" if ops else "a whole number"
        raise PuzzleError(f"cage target {spec!r} is not {what}", source=source, line=i,
                          column=j)
    return int(digits), op


def caged_puzzle(m, x: list, cm: CageMap, box: tuple[int, int] | None = None,
                 clues: list[str] | None = None) -> Puzzle:
    """The Puzzle of a caged Latin-square model (Killer, KenKen): drawn with lines between
    cages, JSON as {"grid": ...}. Its picture has thick lines around the boxes and dashed
    cages with their sums when there are boxes (Killer), else thick lines around the cages
    and their targets in the corner (KenKen). `clues`: the labels of the cages' targets."""
    n = len(x)
    region = [[""] * n for _ in range(n)]
    for cage in cm.cages:
        for r, c in cage.cells:
            region[r][c] = cage.label
    if box is not None:
        layout = Board(blank(n, n), value_texts(x), box=box,
                       cages=[(cage.cells, str(cage.target)) for cage in cm.cages])
    else:
        layout = Board(blank(n, n), value_texts(x), regions=region,
                       corners={min(cage.cells): f"{cage.target}{SIGNS[cage.op]}"
                                for cage in cm.cages})

    # each cage's target is written at its first cell: a clash marks it there
    kind = "cage" if box is not None else "corner"
    layout.clue_at = {label: (kind, min(cage.cells))
                      for label, cage in zip(clues or [], cm.cages, strict=False)}

    def render(sol) -> str:
        return draw_regions([[str(v) for v in row] for row in values(sol, x)], region)

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    return Puzzle(m, render, to_json, cell_names(x), layout=layout, clues=clues or [])
