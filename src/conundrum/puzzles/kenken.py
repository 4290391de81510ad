"""KenKen (Calcudoku): a Latin square with cages of a target and an operation.

The file is a cage map and one ``LABEL=TARGET OP`` rule per cage (``A=12*``, ``B=2/``,
``C=3-``, ``D=7+``, ``E=4`` for a single cell), see :mod:`conundrum.puzzles.cages`. ``-`` and
``/`` take two cells (the larger minus or divided by the smaller); ``+`` and ``*`` any number.
"""

from __future__ import annotations

from .base import Place, Puzzle, PuzzleError
from .cages import caged_puzzle, read_cages
from .latin import latin_model

MAX_SIZE = 12


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a KenKen into a puzzle."""
    import conundrum as cn

    cm = read_cages(text, source, ops=True)
    n = cm.size
    if not 2 <= n <= MAX_SIZE:
        raise PuzzleError(f"a KenKen has 2 to {MAX_SIZE} rows; this map has {n}", source=source)
    m, x = latin_model(n)
    clues = []
    for cage in cm.cages:
        place: Place = {"source": source, "line": cage.line, "column": cage.column}
        cells = [x[r][c] for r, c in cage.cells]
        t, op = cage.target, cage.op
        if op == "" and len(cells) != 1:
            raise PuzzleError(f"cage {cage.label!r} has {len(cells)} cells: give an "
                              "operation (+ - * /) after the target", **place)
        if op in "-/" and op and len(cells) != 2:
            raise PuzzleError(f"cage {cage.label!r}: {op!r} needs exactly 2 cells, it has "
                              f"{len(cells)}", **place)
        label = f"cage {cage.label} ({t}{op})"
        clues.append(label)
        if op == "":
            m.add(cells[0] == t, label=label)
        elif op == "+":
            m.add(cn.sum(cells) == t, label=label)
        elif op == "*":
            prod = cells[0]
            for v in cells[1:]:
                prod = prod * v
            m.add(prod == t, label=label)
        elif op == "-":
            m.add(abs(cells[0] - cells[1]) == t, label=label)
        else:
            a, b = cells
            m.add((a == t * b) | (b == t * a), label=label)

    return caged_puzzle(m, x, cm, clues=clues)
