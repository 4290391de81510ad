"""Normal magic squares: 1..N*N once each, every row, column and diagonal with the same sum."""

from __future__ import annotations

from conundrum.display.layout import Board

from .base import Puzzle, blank, parse_int, value_texts, values
from .latin import draw_values

MAX_N = 12


def parse(text: str, source: str = "N") -> Puzzle:
    """Build the magic square puzzle of order N (``text`` is N)."""
    import conundrum as cn

    n = parse_int(text, "N", 1, MAX_N, source=source)
    total = n * (n * n + 1) // 2
    m = cn.Model()
    x = m.int_matrix(n, n, 1, n * n, "cell")
    m += cn.all_different(x.flat)
    for line in list(x.rows) + list(x.columns):
        m += cn.sum(line) == total
    m += cn.sum(x[i][i] for i in range(n)) == total
    m += cn.sum(x[i][n - 1 - i] for i in range(n)) == total

    def render(sol) -> str:
        return draw_values(values(sol, x), None) + f"\nmagic sum {total}"

    def to_json(sol) -> dict:
        return {"grid": values(sol, x)}

    layout = Board(blank(n, n), value_texts(x), caption=f"magic sum {total}")
    return Puzzle(m, render, to_json, layout=layout)
