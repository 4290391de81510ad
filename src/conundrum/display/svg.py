"""Grid puzzles as SVG pictures: thin cell lines, thick lines around boxes and regions,
dashed cage outlines with their sums, relation marks between cells, clues outside the grid,
dark blocks, givens in black and found values in blue.

The markup is standalone XML (it also works as a file or an <img>) with presentation
attributes only: a <style> element inside inline SVG would restyle the whole page. Classes
and data-cell attributes (r1c1 is the top left) name the parts for tests and for CSS.
"""

from __future__ import annotations

from typing import Any

from conundrum.display.html import SOLVED, esc
from conundrum.display.layout import Board, Cell, Marks

GIVEN = "#111"
THIN = "#9a9a9a"
THICK = "#222"
BLOCK = "#3a3a3a"
CLUE = "#333"
PALE = ("#fde2e2", "#e2f0fd", "#e4f7e1", "#fdf3d8", "#efe3fa", "#dff5f3", "#fbe5f1",
        "#eaeaea", "#fde9d9", "#e3e8fb", "#f2f7d9", "#f9e0e9")  # region shades, in turn
CHAR = 0.6  # width of a digit, in font sizes (Helvetica, Arial)
CLASH = "#f28b82"  # a clashing clue's cells, under the lines and digits (the page's colour)
CLASH_TEXT = "#c5221f"  # a clashing clue written outside the cells


def _name(cell: Cell) -> str:
    return f"r{cell[0] + 1}c{cell[1] + 1}"


def _f(x: float) -> str:
    """A coordinate, short: 12, 12.5, 12.33."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, text: str, size: float, cls: str, fill: str = GIVEN,
          anchor: str = "middle", extra: str = "") -> str:
    """A text whose middle (anchor) is at x and whose digits are centred on y."""
    return (f'<text class="{cls}" x="{_f(x)}" y="{_f(y + 0.35 * size)}" '
            f'font-size="{_f(size)}" fill="{fill}" text-anchor="{anchor}"{extra}>'
            f"{esc(text)}</text>")


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """The [start, end) runs of True in flags."""
    runs, start = [], None
    for k, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = k
        elif not flag and start is not None:
            runs.append((start, k))
            start = None
    return runs


def _thick_lines(board: Board, x0: float, y0: float, s: float) -> list[str]:
    """Thick inner lines between boxes and between regions, each straight run one <line>."""
    rows, cols = board.shape

    def wall(a: Cell, b: Cell) -> bool:
        if board.box is not None:
            bh, bw = board.box
            if a[0] // bh != b[0] // bh or a[1] // bw != b[1] // bw:
                return True
        regions = board.regions
        return regions is not None and regions[a[0]][a[1]] != regions[b[0]][b[1]]

    out = []
    attrs = f'stroke="{THICK}" stroke-width="{_f(max(2.0, s / 14))}" stroke-linecap="square"'
    for r in range(1, rows):
        for a, b in _runs([wall((r - 1, c), (r, c)) for c in range(cols)]):
            out.append(f'<line class="thick" x1="{_f(x0 + a * s)}" y1="{_f(y0 + r * s)}" '
                       f'x2="{_f(x0 + b * s)}" y2="{_f(y0 + r * s)}" {attrs}/>')
    for c in range(1, cols):
        for a, b in _runs([wall((r, c - 1), (r, c)) for r in range(rows)]):
            out.append(f'<line class="thick" x1="{_f(x0 + c * s)}" y1="{_f(y0 + a * s)}" '
                       f'x2="{_f(x0 + c * s)}" y2="{_f(y0 + b * s)}" {attrs}/>')
    return out


def _cage_path(cells: list[Cell], x0: float, y0: float, s: float, d: float) -> str:
    """The outline of a cage, inset by d inside its cells: one segment per cell side on the
    cage's border, ending inset at an outer corner, at the cell's edge where the border
    goes straight on, and d beyond it at an inner corner, so that the segments meet."""
    inside = set(cells)
    segments = []
    for r, c in cells:
        cx, cy = x0 + (c + 0.5) * s, y0 + (r + 0.5) * s
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):  # the side facing (dr, dc)
            if (r + dr, c + dc) in inside:
                continue
            ends = []
            for tr, tc in ((dc, dr), (-dc, -dr)):  # along the side, both ways
                side = (r + tr, c + tc) in inside
                diagonal = (r + tr + dr, c + tc + dc) in inside
                reach = s / 2 + (-d if not side else d if diagonal else 0)
                ends.append((cx + dc * (s / 2 - d) + tc * reach,
                             cy + dr * (s / 2 - d) + tr * reach))
            (xa, ya), (xb, yb) = ends
            segments.append(f"M{_f(xa)} {_f(ya)}L{_f(xb)} {_f(yb)}")
    return "".join(segments)


def _chevron(small: Cell, large: Cell, x0: float, y0: float, s: float) -> str:
    """A < between two neighbours, its point towards the smaller one."""
    (r1, c1), (r2, c2) = small, large
    mx = x0 + (min(c1, c2) + (1 if c1 != c2 else 0.5)) * s
    my = y0 + (min(r1, r2) + (1 if r1 != r2 else 0.5)) * s
    w, h = s * 0.08, s * 0.13  # depth and half-height of the mark
    if r1 == r2:
        k = 1 if c1 < c2 else -1  # the point on the smaller cell's side
        points = [(mx + k * w, my - h), (mx - k * w, my), (mx + k * w, my + h)]
    else:
        k = 1 if r1 < r2 else -1
        points = [(mx - h, my + k * w), (mx, my - k * w), (mx + h, my + k * w)]
    pts = " ".join(f"{_f(x)},{_f(y)}" for x, y in points)
    return (f'<polyline class="rel" data-small="{_name(small)}" data-large="{_name(large)}" '
            f'points="{pts}" fill="none" stroke="{GIVEN}" stroke-width="{_f(max(1.5, s / 22))}" '
            'stroke-linejoin="round" stroke-linecap="round"/>')


def _marked_clues(board: Board, marks: Marks | None) -> set[tuple[str, Any]]:
    """Where the marked clues outside the cells are drawn: (side, index) or (kind, cell)."""
    if marks is None:
        return set()
    return {board.clue_at[label] for label in marks.labels if label in board.clue_at}


def board_svg(board: Board, solution: Any = None, marks: Marks | None = None) -> str:
    """The picture of a grid puzzle, with the solution's values when one is given, and
    `marks` (a clash's clues) in red: their cells shaded (``rect.clash``, under the lines
    and digits), their clues outside the cells written in red (class ``clash``)."""
    rows, cols = board.shape
    s = float(max(14, min(40, 600 // max(rows, cols, 1))))  # cell size: 9x9 at 40 px
    texts = board.solved(solution) if solution is not None else None
    # what each cell shows: its given, else its value in the solution (blocks show none)
    shown = [["" if g is None else g or (texts[r][c] if texts is not None else "")
              for c, g in enumerate(row)] for r, row in enumerate(board.givens)]
    widest = max((len(t) for row in shown for t in row), default=1)
    crowded = bool(board.cages or board.corners)  # corner labels: smaller, lower digits
    size = s * min(0.5 if crowded else 0.56, 0.85 / (CHAR * max(widest, 1)))
    clue = max(9.0, s * 0.42)
    line = clue * 1.25
    pad = s * 0.25

    def lines(texts: list[str]) -> int:
        return max((len(t.split("\n")) for t in texts if t), default=0)

    def width(texts: list[str]) -> float:
        return max((len(t) for t in texts), default=0) * CHAR * clue

    top = lines(board.top) * line + (pad if lines(board.top) else 0)
    bottom = lines(board.bottom) * line + (pad if lines(board.bottom) else 0)
    left = width(board.left) + (pad if width(board.left) else 0)
    right = width(board.right) + (pad if width(board.right) else 0)
    caption = clue * 2 if board.caption else 0
    m = 4.0  # room for the frame's stroke
    x0, y0 = m + left, m + top
    w, h = x0 + cols * s + right + m, y0 + rows * s + bottom + caption + m
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="cn-board" width="{_f(w)}" '
           f'height="{_f(h)}" viewBox="0 0 {_f(w)} {_f(h)}" '
           'font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{_f(w)}" height="{_f(h)}" fill="white"/>']

    def cell_rect(r: int, c: int, fill: str, cls: str) -> str:
        return (f'<rect class="{cls}" data-cell="{_name((r, c))}" x="{_f(x0 + c * s)}" '
                f'y="{_f(y0 + r * s)}" width="{_f(s)}" height="{_f(s)}" fill="{fill}"/>')

    # backgrounds: region shades, chessboard squares, blocks, filled cells
    if board.shade_regions and board.regions is not None:
        shade: dict[str, str] = {}
        for r, row in enumerate(board.regions):
            for c, label in enumerate(row):
                tint = shade.setdefault(label, PALE[len(shade) % len(PALE)])
                out.append(cell_rect(r, c, tint, "region"))
    for r, row in enumerate(shown):
        for c, text in enumerate(row):
            if board.givens[r][c] is None:
                out.append(cell_rect(r, c, BLOCK, "block"))
            elif board.filled is not None and text == board.filled:
                out.append(cell_rect(r, c, GIVEN, "filled"))
            elif board.checkered and (r + c) % 2:
                out.append(cell_rect(r, c, "#e8e8e8", "dark"))
    if marks is not None and marks.cells:
        out.append('<g class="highlights">')
        out += [cell_rect(r, c, CLASH, "clash").replace("/>", ' fill-opacity="0.55"/>')
                for r, c in marks.cells]
        out.append("</g>")
    red = _marked_clues(board, marks)

    def colour(where: tuple[str, Any], cls: str, fill: str) -> tuple[str, str]:
        return (f"{cls} clash", CLASH_TEXT) if where in red else (cls, fill)
    # thin lines, then thick ones, then the frame over them
    thin = "".join(f"M{_f(x0)} {_f(y0 + r * s)}h{_f(cols * s)}" for r in range(1, rows))
    thin += "".join(f"M{_f(x0 + c * s)} {_f(y0)}v{_f(rows * s)}" for c in range(1, cols))
    if thin:
        out.append(f'<path class="thin" d="{thin}" stroke="{THIN}" stroke-width="1" '
                   'fill="none"/>')
    out += _thick_lines(board, x0, y0, s)
    out.append(f'<rect class="frame" x="{_f(x0)}" y="{_f(y0)}" width="{_f(cols * s)}" '
               f'height="{_f(rows * s)}" fill="none" stroke="{THICK}" '
               f'stroke-width="{_f(max(2.5, s / 12))}"/>')
    # Kakuro clues: a diagonal, the down sum below it, the across sum above it
    for (r, c), (down, across) in sorted(board.block_clues.items()):
        x, y = x0 + c * s, y0 + r * s
        out.append(f'<line class="diagonal" x1="{_f(x)}" y1="{_f(y)}" x2="{_f(x + s)}" '
                   f'y2="{_f(y + s)}" stroke="#bbb" stroke-width="1"/>')
        small = s * 0.3
        if down:
            out.append(_text(x + s * 0.3, y + s * 0.72, down, small,
                             *colour(("down", (r, c)), "down", "white"),
                             extra=f' data-cell="{_name((r, c))}"'))
        if across:
            out.append(_text(x + s * 0.7, y + s * 0.3, across, small,
                             *colour(("across", (r, c)), "across", "white"),
                             extra=f' data-cell="{_name((r, c))}"'))
    # cages: a dashed outline, the sum at the top left with a white halo over the dashes
    label_size = s * 0.26
    halo = f' stroke="white" stroke-width="{_f(label_size / 3)}" paint-order="stroke"'
    for cells, text in board.cages:
        path = _cage_path(cells, x0, y0, s, s * 0.1)
        out.append(f'<path class="cage" d="{path}" fill="none" stroke="{CLUE}" '
                   'stroke-width="1" stroke-dasharray="3 2"/>')
        r, c = min(cells)
        out.append(_text(x0 + c * s + s * 0.08, y0 + r * s + s * 0.17, text, label_size,
                         *colour(("cage", (r, c)), "cage-sum", CLUE), "start",
                         halo + f' data-cell="{_name((r, c))}"'))
    for (r, c), text in sorted(board.corners.items()):
        out.append(_text(x0 + c * s + s * 0.07, y0 + r * s + s * 0.17, text, label_size,
                         *colour(("corner", (r, c)), "corner", CLUE), "start",
                         f' data-cell="{_name((r, c))}"'))
    for small_cell, large_cell in board.relations:
        out.append(_chevron(small_cell, large_cell, x0, y0, s))
    # the values: givens in black, found values in blue
    low = s * 0.06 if crowded else 0.0
    for r, row in enumerate(shown):
        for c, text in enumerate(row):
            if not text or board.givens[r][c] is None or text == board.filled:
                continue
            given = bool(board.givens[r][c])
            out.append(_text(x0 + (c + 0.5) * s, y0 + (r + 0.5) * s + low, text, size,
                             "given" if given else "value", GIVEN if given else SOLVED,
                             extra=f' data-cell="{_name((r, c))}"'
                             + (' font-weight="bold"' if given else "")))
    # clues outside: top and bottom ones stacked towards the grid
    for c, text in enumerate(board.top):
        parts = text.split("\n") if text else []
        for k, part in enumerate(parts):
            y = y0 - pad - (len(parts) - k - 0.5) * line
            out.append(_text(x0 + (c + 0.5) * s, y, part, clue,
                             *colour(("top", c), "clue top", CLUE)))
    for c, text in enumerate(board.bottom):
        for k, part in enumerate(text.split("\n") if text else []):
            y = y0 + rows * s + pad + (k + 0.5) * line
            out.append(_text(x0 + (c + 0.5) * s, y, part, clue,
                             *colour(("bottom", c), "clue bottom", CLUE)))
    for r, text in enumerate(board.left):
        if text:
            out.append(_text(x0 - pad, y0 + (r + 0.5) * s, text, clue,
                             *colour(("left", r), "clue left", CLUE), "end"))
    for r, text in enumerate(board.right):
        if text:
            out.append(_text(x0 + cols * s + pad, y0 + (r + 0.5) * s, text, clue,
                             *colour(("right", r), "clue right", CLUE), "start"))
    if board.caption:
        out.append(_text(x0 + cols * s / 2, y0 + rows * s + bottom + caption / 2,
                         board.caption, clue, "caption", CLUE))
    out.append("</svg>")
    return "\n".join(out)
