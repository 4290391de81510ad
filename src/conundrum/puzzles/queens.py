"""N-queens: N queens on an N x N board, no two on a row, column or diagonal."""

from __future__ import annotations

from conundrum.display.layout import Board

from .base import Puzzle, blank, parse_int

MAX_N = 1000
BOARD_MAX = 60  # larger boards are shown as a list of columns


def parse(text: str, source: str = "N") -> Puzzle:
    """Build the N-queens puzzle; ``text`` is N. One variable per row: its queen's column."""
    import conundrum as cn

    n = parse_int(text, "N", 1, MAX_N, source=source)
    m = cn.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(n)])
    m += cn.all_different([q[i] - i for i in range(n)])

    def columns(sol) -> list[int]:
        return [sol[v] for v in q]

    def render(sol) -> str:
        cols = columns(sol)
        if n > BOARD_MAX:
            return "columns by row: " + " ".join(str(c + 1) for c in cols)
        return "\n".join(" ".join("Q" if c == col else "·" for c in range(n)) for col in cols)

    def to_json(sol) -> dict:
        return {"queens": [c + 1 for c in columns(sol)]}

    def board(sol) -> list[list[str]]:
        cols = columns(sol)
        return [["♛" if c == col else "" for c in range(n)] for col in cols]

    # larger boards have no picture either: the notebook shows the text's list of columns
    layout = Board(blank(n, n), board, checkered=True) if n <= BOARD_MAX else None
    return Puzzle(m, render, to_json, layout=layout)
