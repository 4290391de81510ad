"""Killer Sudoku: Sudoku rules plus cages whose different digits add up to a given sum.

The file is a cage map (one label per cell) and one ``LABEL=SUM`` rule per cage, see
:mod:`conundrum.puzzles.cages`.
"""

from __future__ import annotations

from math import isqrt

from .base import Place, Puzzle, PuzzleError
from .cages import caged_puzzle, read_cages
from .latin import latin_model

SIZES = (4, 9, 16, 25)


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Killer Sudoku into a puzzle."""
    import conundrum as cn

    cm = read_cages(text, source, ops=False)
    n = cm.size
    if n not in SIZES:
        raise PuzzleError(f"a Killer Sudoku has 4, 9, 16 or 25 rows; this map has {n}",
                          source=source)
    b = isqrt(n)
    m, x = latin_model(n, (b, b))
    clues = []
    for cage in cm.cages:
        place: Place = {"source": source, "line": cage.line, "column": cage.column}
        if len(cage.cells) > n:
            raise PuzzleError(f"cage {cage.label!r} has {len(cage.cells)} cells, more than "
                              f"the {n} different digits", **place)
        cells = [x[r][c] for r, c in cage.cells]
        label = f"cage {cage.label} (sum {cage.target})"
        m.add(cn.sum(cells) == cage.target, label=label)
        clues.append(label)
        if len(cells) > 1:
            m.add(cn.all_different(cells), label=f"cage {cage.label}")

    return caged_puzzle(m, x, cm, (b, b), clues)
