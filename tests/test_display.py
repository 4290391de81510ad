"""Notebook displays: every puzzle family's picture (unsolved and solved) parsed as XML and
read back cell by cell, the alphametic and summary HTML checked for well-formedness and
content, hostile names escaped, and the display modules left unloaded by `import
conundrum`."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

import conundrum as cn
from conundrum.display.layout import Board
from conundrum.display.svg import board_svg
from conundrum.puzzles import (
    futoshiki,
    hidato,
    kakuro,
    kenken,
    killer,
    magic,
    nonogram,
    numbrix,
    queens,
    skyscrapers,
    starbattle,
    sudoku,
    survo,
    takuzu,
)
from conundrum.puzzles.alphametic import Options, Source
from conundrum.puzzles.alphametic import parse as alphametic
from conundrum.puzzles.grid import read_relations

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SVG = "{http://www.w3.org/2000/svg}"

FILES = {  # family module, example file
    "sudoku": (sudoku, "sudoku.txt"),
    "greater-than": (sudoku, "greater-than-sudoku.txt"),
    "sudoku-16": (sudoku, "sudoku-16x16.txt"),
    "futoshiki": (futoshiki, "futoshiki.txt"),
    "killer": (killer, "killer.txt"),
    "kenken": (kenken, "kenken.txt"),
    "skyscrapers": (skyscrapers, "skyscrapers.txt"),
    "kakuro": (kakuro, "kakuro.txt"),
    "nonogram": (nonogram, "nonogram.txt"),
    "takuzu": (takuzu, "takuzu.txt"),
    "starbattle": (starbattle, "starbattle.txt"),
    "hidato": (hidato, "hidato.txt"),
    "numbrix": (numbrix, "numbrix.txt"),
    "survo": (survo, "survo.txt"),
}
_SOLVED: dict[str, tuple] = {}


def solved(name: str) -> tuple:
    """(puzzle, solution) of an example, solved once per test session."""
    if name not in _SOLVED:
        if name in FILES:
            module, file = FILES[name]
            puzzle = module.parse((EXAMPLES / file).read_text(), file)
        else:
            puzzle = queens.parse("8") if name == "queens" else magic.parse("3")
        _SOLVED[name] = (puzzle, puzzle.model.solve())
    return _SOLVED[name]


def svg_tree(markup: str | None) -> ET.Element:
    assert markup is not None
    return ET.fromstring(markup)  # raises on anything that is not well-formed XML


def by_class(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in root.iter(SVG + tag) if cls in e.get("class", "").split()]


def cell_texts(root: ET.Element) -> dict[str, tuple[str, str]]:
    """data-cell -> (class, text) of the values drawn in the cells."""
    return {e.get("data-cell"): (e.get("class"), e.text)
            for e in root.iter(SVG + "text") if e.get("class") in ("given", "value")}


def name(r: int, c: int) -> str:
    return f"r{r + 1}c{c + 1}"


class WellFormed(HTMLParser):
    """Checks that every element of an HTML fragment is closed, in order."""

    VOID = {"br", "hr", "img", "input", "meta", "col", "wbr", "path", "line", "rect",
            "polyline"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (self.stack, tag)
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.text.append(data.strip())


def parse_html(markup: str | None) -> WellFormed:
    assert markup is not None
    checker = WellFormed()
    checker.feed(markup)
    checker.close()
    assert checker.stack == []
    return checker


def table_rows(markup: str, cls: str) -> list[list[str]]:
    """The text of each row of the table of class `cls`."""

    class Rows(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.inside = 0
            self.rows: list[list[str]] = []

        def handle_starttag(self, tag: str, attrs: list) -> None:
            if tag == "table" and ("class", cls) in attrs:
                self.inside = 1
            elif tag == "table" and self.inside:
                self.inside += 1
            elif tag == "tr" and self.inside:
                self.rows.append([])
            elif tag in ("td", "th") and self.inside:
                self.rows[-1].append("")

        def handle_endtag(self, tag: str) -> None:
            if tag == "table" and self.inside:
                self.inside -= 1

        def handle_data(self, data: str) -> None:
            if self.inside and self.rows and self.rows[-1]:
                self.rows[-1][-1] += data.strip()

    reader = Rows()
    reader.feed(markup)
    return reader.rows


# ------------------------------------------------------------------- every family


@pytest.mark.parametrize("family", [*FILES, "queens", "magic"])
def test_every_family_draws_its_givens_and_its_solution(family):
    puzzle, sol = solved(family)
    assert puzzle._repr_html_() is None  # a grid is a picture: SVG only
    unsolved = svg_tree(puzzle._repr_svg_())
    view = puzzle.display(sol)
    assert view._repr_html_() is None
    picture = svg_tree(view._repr_svg_())
    parse_html(view.html())  # the same picture inside an HTML fragment
    grid = puzzle.to_json(sol).get("grid")
    if family == "queens":
        grid = [[int(c + 1 == q) for c in range(8)] for q in puzzle.to_json(sol)["queens"]]
    shown = cell_texts(picture)
    givens = {cell for cell, (cls, _) in cell_texts(unsolved).items() if cls == "given"}
    assert all(cls == "given" for cls, _ in cell_texts(unsolved).values())
    filled = {e.get("data-cell") for e in by_class(picture, "rect", "filled")}
    blocks = {e.get("data-cell") for e in by_class(picture, "rect", "block")}
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            cell = name(r, c)
            if value is None:  # a Kakuro block, a Hidato hole
                assert cell in blocks and cell not in shown
            elif family == "nonogram":
                assert (cell in filled) == (value == 1) and cell not in shown
            elif family == "starbattle":
                assert shown.get(cell, (None, None))[1] == ("★" if value else None)
            elif family == "queens":
                assert shown.get(cell, (None, None))[1] == ("♛" if value else None)
            else:
                cls, text = shown[cell]
                assert text == str(value)
                assert cls == ("given" if cell in givens else "value")
    assert not by_class(unsolved, "rect", "filled")


def test_sudoku_digits_in_place_and_thick_box_lines():
    puzzle, sol = solved("sudoku")
    root = svg_tree(puzzle.display(sol).svg())
    texts = cell_texts(root)
    assert len(texts) == 81
    grid = puzzle.to_json(sol)["grid"]
    assert all(texts[name(r, c)][1] == str(grid[r][c]) for r in range(9) for c in range(9))
    assert texts["r1c1"] == ("given", "5") and texts["r1c3"] == ("value", "4")
    (frame,) = by_class(root, "rect", "frame")
    x0, y0, side = (float(frame.get(k)) for k in ("x", "y", "width"))
    s = side / 9
    thick = by_class(root, "line", "thick")
    assert len(thick) == 4  # two across, two down, each the whole width of the grid
    across = sorted(float(e.get("y1")) for e in thick if e.get("y1") == e.get("y2"))
    down = sorted(float(e.get("x1")) for e in thick if e.get("x1") == e.get("x2"))
    assert across == pytest.approx([y0 + 3 * s, y0 + 6 * s])
    assert down == pytest.approx([x0 + 3 * s, x0 + 6 * s])
    for e in thick:
        length = abs(float(e.get("x2")) - float(e.get("x1"))) + abs(
            float(e.get("y2")) - float(e.get("y1")))
        assert length == pytest.approx(side)
    unsolved = cell_texts(svg_tree(puzzle._repr_svg_()))
    assert len(unsolved) == 30 and unsolved["r9c9"] == ("given", "9")


def test_relation_marks_sit_between_their_cells_pointing_at_the_smaller():
    puzzle, sol = solved("greater-than")
    text = (EXAMPLES / "greater-than-sudoku.txt").read_text()
    relations = {(name(*r.small), name(*r.large)) for r in read_relations(text, "").relations}
    root = svg_tree(puzzle.display(sol).svg())
    marks = by_class(root, "polyline", "rel")
    assert {(e.get("data-small"), e.get("data-large")) for e in marks} == relations
    (frame,) = by_class(root, "rect", "frame")
    x0, y0, s = float(frame.get("x")), float(frame.get("y")), float(frame.get("width")) / 9
    values = {name(r, c): v for r, row in enumerate(puzzle.to_json(sol)["grid"])
              for c, v in enumerate(row)}

    def centre(cell: str) -> tuple[float, float]:
        r, c = (int(k) - 1 for k in cell[1:].split("c"))
        return x0 + (c + 0.5) * s, y0 + (r + 0.5) * s

    for e in marks:
        small, large = e.get("data-small"), e.get("data-large")
        assert values[small] < values[large]
        points = [tuple(map(float, p.split(","))) for p in e.get("points").split()]
        tip = points[1]
        (xs, ys), (xl, yl) = centre(small), centre(large)
        assert abs(xs - xl) + abs(ys - yl) == pytest.approx(s)  # neighbours
        mid = ((xs + xl) / 2, (ys + yl) / 2)
        assert all(abs(a - b) < s / 4 for p in points for a, b in zip(p, mid))
        assert (tip[0] - xs) ** 2 + (tip[1] - ys) ** 2 < (tip[0] - xl) ** 2 + (tip[1] - yl) ** 2


def test_futoshiki_marks_the_written_relations():
    puzzle, _ = solved("futoshiki")
    marks = {(e.get("data-small"), e.get("data-large"))
             for e in by_class(svg_tree(puzzle._repr_svg_()), "polyline", "rel")}
    assert ("r1c3", "r1c4") in marks  # . . .<. .
    assert ("r1c2", "r2c2") in marks  # ^ under row 1, column 2
    assert ("r2c3", "r2c2") in marks  # . .>. . .
    assert ("r4c5", "r3c5") in marks  # v under row 3, column 5
    assert len(marks) == 12


def test_killer_cages_and_their_sums():
    puzzle, sol = solved("killer")
    root = svg_tree(puzzle.display(sol).svg())
    sums = {e.get("data-cell"): e.text for e in by_class(root, "text", "cage-sum")}
    assert len(sums) == 35 and len(by_class(root, "path", "cage")) == 35  # a-z, A-I
    assert sums["r1c1"] == "11" and sums["r1c3"] == "22" and sums["r9c5"] == "5"
    assert len(by_class(root, "line", "thick")) == 4  # the boxes: cages are dashed
    (frame,) = by_class(root, "rect", "frame")
    x0, y0, s = float(frame.get("x")), float(frame.get("y")), float(frame.get("width")) / 9
    cage = by_class(root, "path", "cage")[0]  # cage a: r1c1 and r1c2
    numbers = [float(t) for t in cage.get("d").replace("M", " ").replace("L", " ").split()]
    xs, ys = numbers[0::2], numbers[1::2]
    assert x0 < min(xs) and max(xs) < x0 + 2 * s and y0 < min(ys) and max(ys) < y0 + s
    assert len(cell_texts(root)) == 81


def test_kenken_targets_in_the_corner_and_cages_as_thick_lines():
    puzzle, _ = solved("kenken")
    root = svg_tree(puzzle._repr_svg_())
    corners = {e.get("data-cell"): e.text for e in by_class(root, "text", "corner")}
    assert corners["r1c1"] == "20×" and corners["r1c3"] == "5÷" and corners["r2c4"] == "4×"
    assert corners["r3c2"] == "3" and corners["r1c6"] == "1−" and len(corners) == 17
    assert by_class(root, "line", "thick") and not by_class(root, "path", "cage")


def test_skyscraper_clues_outside_the_grid():
    puzzle, _ = solved("skyscrapers")
    root = svg_tree(puzzle._repr_svg_())
    (frame,) = by_class(root, "rect", "frame")
    x0, y0, side = (float(frame.get(k)) for k in ("x", "y", "width"))
    left = [(e.text, float(e.get("x")), float(e.get("y"))) for e in by_class(root, "text", "left")]
    bottom = [(e.text, float(e.get("x")), float(e.get("y")))
              for e in by_class(root, "text", "bottom")]
    assert [t for t, _, _ in left] == ["3", "2"] and all(x < x0 for _, x, _ in left)
    assert left[0][2] < left[1][2]  # rows 2 and 4, in order
    assert [t for t, _, _ in bottom] == ["2", "2", "2"]
    assert all(y > y0 + side for _, _, y in bottom)
    assert not by_class(root, "text", "top") and not by_class(root, "text", "right")


def test_kakuro_nonogram_survo_clues():
    k, _ = solved("kakuro")
    root = svg_tree(k._repr_svg_())
    down = {e.get("data-cell"): e.text for e in by_class(root, "text", "down")}
    across = {e.get("data-cell"): e.text for e in by_class(root, "text", "across")}
    assert down["r1c2"] == "23" and across["r2c1"] == "16"
    assert (down["r2c5"], across["r2c5"]) == ("17", "24")
    n, sol = solved("nonogram")
    root = svg_tree(n.display(sol).svg())
    left = [e.text for e in by_class(root, "text", "left")]
    assert left[6] == "1 2 1 1" and len(left) == 10
    # a column clue is stacked: column 8 is "3 1", two texts one above the other
    tops = [e for e in by_class(root, "text", "top")]
    assert len(tops) == sum(len(c.split()) for c in ("1", "7", "3 1", "4 4", "5 4", "5 1",
                                                       "4 2 1", "3 1", "7", "1"))
    assert len(by_class(root, "rect", "filled")) == sum(sum(row) for row in n.to_json(sol)["grid"])
    s, _ = solved("survo")
    root = svg_tree(s._repr_svg_())
    assert [e.text for e in by_class(root, "text", "right")] == ["30", "18", "30"]
    assert [e.text for e in by_class(root, "text", "bottom")] == ["27", "16", "10", "25"]


def test_star_battle_regions_hidato_holes_magic_caption():
    p, sol = solved("starbattle")
    root = svg_tree(p.display(sol).svg())
    assert sum(e.text == "★" for e in root.iter(SVG + "text")) == 6
    shades = {e.get("fill") for e in by_class(root, "rect", "region")}
    assert len(shades) == 6 and by_class(root, "line", "thick")
    h, _ = solved("hidato")
    holes = sum(row.split().count("X") for row in (EXAMPLES / "hidato.txt").read_text()
                .splitlines() if not row.startswith("#"))
    assert len(by_class(svg_tree(h._repr_svg_()), "rect", "block")) == holes
    m, sol = solved("magic")
    caption = by_class(svg_tree(m.display(sol).svg()), "text", "caption")
    assert [e.text for e in caption] == ["magic sum 15"]


def test_large_queens_board_falls_back_to_text_and_summary():
    puzzle = queens.parse("100")
    assert puzzle._repr_svg_() is None
    summary = parse_html(puzzle._repr_html_())
    assert "Model" in summary.text
    sol = puzzle.model.solve()
    text = puzzle.display(sol)._repr_html_()
    assert text.startswith('<pre class="cn-text">columns by row:')


# ---------------------------------------------------------------------- alphametics


def test_alphametic_letters_then_digits():
    puzzle = alphametic([Source("SEND + MORE = MONEY", "a")])
    unsolved = puzzle._repr_html_()
    assert puzzle._repr_svg_() is None
    checker = parse_html(unsolved)
    assert "".join(checker.text) == "SEND+MOREMONEY"  # one place per letter, a + before MORE
    sol = puzzle.model.solve()
    solved_html = puzzle.display(sol)._repr_html_()
    parse_html(solved_html)
    rows = table_rows(solved_html, "cn-addition")
    digits = ["".join(r) for r in rows[3:]]  # the second addition: the same, in digits
    assert digits == ["9567", "+1085", "10652"]
    assert ["".join(r) for r in rows[:3]] == ["SEND", "+MORE", "MONEY"]
    key = table_rows(solved_html, "cn-key")
    assert dict(zip(*key)) == {"S": "9", "E": "5", "N": "6", "D": "7", "M": "1", "O": "0",
                               "R": "8", "Y": "2"}


def test_alphametic_equations_with_digits_under_letters():
    puzzle = alphametic([Source("AB * 2 = BA + 9, A < B", "a")],
                        Options(leading_zeros=False))
    sol = puzzle.model.solve()
    markup = puzzle.display(sol)._repr_html_()
    parse_html(markup)
    first = table_rows(markup, "cn-equation")
    a, b = str(sol["A"]), str(sol["B"])
    assert first[0] == ["A", "B", "* 2 =", "B", "A", "+ 9"]
    assert first[1] == [a, b, "", b, a, ""]


# ------------------------------------------------------------------ models, solutions


def test_model_summary_of_a_sudoku():
    puzzle, _ = solved("sudoku")
    markup = puzzle.model._repr_html_()
    parse_html(markup)
    kinds = dict(row for row in table_rows(markup, "cn-kinds")[1:])
    assert kinds == {"all_different": "27", "x == c": "30"}
    facts = dict(table_rows(markup, "cn-facts"))
    assert facts["variables"] == "81"
    assert facts["domain sizes"] == "min 9, max 9, total 729"
    # the rules and the 30 givens, each labelled (a given as `r1c3 = 2`, for conflicts)
    assert facts["constraints"] == "57 (57 labelled)"
    assert facts["search space"].startswith("1077.3")  # 10<sup>77.3</sup>: 9 ** 81


def test_model_summary_kinds_and_last_run():
    m = cn.Model()
    x, y, z = m.int_vars("x y z", 0, 5)
    b = m.bool_var("b")
    m += x + 2 * y <= 7
    m += x * y == z
    m += (x == 1) | (y == 2)
    m += cn.table([x, y], [(1, 2), (2, 3)])
    m += cn.increasing([x, y, z])
    empty = table_rows(m._repr_html_(), "cn-facts")
    assert "last run" not in dict(empty)
    assert m.solve() is not None
    markup = m._repr_html_()
    kinds = dict(table_rows(markup, "cn-kinds")[1:])
    assert kinds == {"linear <=": "1", "nonlinear ==": "1", "logical or": "1", "table": "1",
                     "increasing": "1"}
    facts = dict(table_rows(markup, "cn-facts"))
    assert facts["variables"] == "4 (1 of them 0/1)" and b.boolean
    assert facts["last run"].startswith("1 solution, ")


def test_solution_grid_lists_and_values():
    m = cn.Model()
    x = m.int_matrix(2, 3, 0, 9, "x")
    q = m.int_vars(4, 0, 9, "q")
    t = m.int_var(0, 100, "t")
    m += cn.all_different(x.flat + q)
    m += t == cn.sum(x.flat)
    sol = m.solve()
    markup = sol._repr_html_()
    parse_html(markup)
    arrays = table_rows(markup, "cn-array")
    assert arrays[:2] == [[str(sol[v]) for v in row] for row in x.rows]
    assert arrays[2] == [str(sol[v]) for v in q]
    assert table_rows(markup, "cn-values") == [["t", str(sol[t])]]
    assert "x</b> (2×3)" in markup and "q</b> (4)" in markup


def test_large_solutions_are_cut_short():
    m = cn.Model()
    xs = m.int_vars(1000, 0, 1, "v")
    ys = [m.int_var(0, 1, f"y{k}") for k in range(500)]
    m += cn.sum(xs + ys) >= 0
    markup = m.solve()._repr_html_()
    parse_html(markup)
    # the list v is one array (30 values shown, then ...): the 500 scalars fill the rest
    assert len(table_rows(markup, "cn-values")) == 400 - 30
    assert "… and 130 more" in markup


def test_hostile_names_are_escaped():
    m = cn.Model()
    x = m.int_var(0, 3, "<script>alert('x')</script>")
    y = m.int_var(0, 3, 'a"&\x01b')
    m.add(x < y, label="<b>label</b>")
    for markup in (m.solve()._repr_html_(), m._repr_html_()):
        assert "<script" not in markup and "\x01" not in markup
        parse_html(markup)
    assert "&lt;script&gt;" in m.solve()._repr_html_()
    board = Board([["<script>", ""], ["&", None]], lambda sol: [["", "]]>"], ["", ""]],
                  caption="</svg><script>x</script>", top=['"', "<"], left=["'", "&amp;"])
    for markup in (board_svg(board), board_svg(board, object())):
        root = svg_tree(markup)
        assert not list(root.iter(SVG + "script")) and not list(root.iter("script"))
        texts = [e.text for e in root.iter(SVG + "text")]
        assert "<script>" in texts and "</svg><script>x</script>" in texts
        assert "&amp;" in texts and '"' in texts
    puzzle = alphametic([Source("ÉTÉ + ÉTÉ = HIVER", "a")])
    parse_html(puzzle._repr_html_())


def test_ipython_picks_the_one_format_offered():
    # IPython is in the test extra: a missing IPython fails this test, it never skips it
    from IPython.core.formatters import DisplayFormatter

    display = DisplayFormatter()
    puzzle, sol = solved("sudoku")
    data, _ = display.format(puzzle.display(sol))
    assert "image/svg+xml" in data and "text/html" not in data
    data, _ = display.format(alphametic([Source("A + A = B", "a")]))
    assert "text/html" in data and "image/svg+xml" not in data
    data, _ = display.format(puzzle.model)
    assert "text/html" in data


def test_import_conundrum_loads_no_display_module():
    # a parsed puzzle carries its layout (plain data); drawing waits for a display
    code = ("import sys, conundrum\n"
            "def loaded():\n"
            "    return sorted(m[17:] for m in sys.modules if m.startswith('conundrum.display'))\n"
            "before = loaded()\n"
            "from conundrum.puzzles import sudoku\n"
            "p = sudoku.parse('1' + '.' * 15)\n"
            "parsed = loaded()\n"
            "p._repr_svg_(); p.model._repr_html_()\n"
            "print(before, parsed, loaded())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(os.environ)).stdout.strip()
    assert out == "[] ['', '.layout'] ['', '.html', '.layout', '.svg']"


def test_the_gallery_page(tmp_path):
    page = tmp_path / "gallery.html"
    subprocess.run([sys.executable, str(EXAMPLES / "notebook_gallery.py"), str(page), "--all"],
                   check=True, env=dict(os.environ))
    checker = parse_html(page.read_text(encoding="utf-8").removeprefix("<!DOCTYPE html>"))
    assert checker.tags.count("figure") == 22 and checker.tags.count("svg") == 17
