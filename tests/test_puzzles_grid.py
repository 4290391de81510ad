"""Grid front-ends: the plain and relation grid readers, cage files, Skyscrapers clues, and
small puzzles whose solution counts are checked against brute force."""

from __future__ import annotations

import itertools

import pytest

from conundrum.puzzles import futoshiki, kenken, killer, skyscrapers, sudoku
from conundrum.puzzles.base import PuzzleError
from conundrum.puzzles.grid import looks_like_relation_grid, read_plain, read_relations

SPEC_BAND = """\
.>.<.|.>.<.|.<.>.
^ v ^ v v ^ ^ ^ ^
.>.<.|.<.<.|.>.>.
v ^ ^ ^ ^ v ^ v ^
.<.>.|.<.>.|.>.<.
-----------------
"""


def test_relation_grid_reads_the_spec_example():
    g = read_relations(SPEC_BAND + "\n".join(["." * 9] * 6), "band")
    assert g.size == 9
    rel = {(r.small, r.large) for r in g.relations}
    assert ((0, 1), (0, 0)) in rel  # .>.   first cell larger than the second
    assert ((0, 1), (0, 2)) in rel  # .<.
    assert ((0, 0), (1, 0)) in rel  # ^ under row 1 column 1: upper smaller
    assert ((1, 1), (0, 1)) in rel  # v under row 1 column 2: upper larger
    assert ((2, 0), (2, 1)) in rel  # row 3 starts .<.
    assert len(g.relations) == 6 * 3 + 9 * 2
    assert not any(r.small[0] == 2 and r.large[0] == 3 for r in g.relations)


def test_relation_detection():
    assert looks_like_relation_grid(SPEC_BAND)
    assert looks_like_relation_grid("1 2\nv ^\n. .\n")
    assert not looks_like_relation_grid("12..\n....\n....\n....\n")


def test_plain_forms_agree():
    rows = ["1.3.", "..1.", ".1..", "2..1"]
    one_line = read_plain("".join(rows).replace(".", "0"), "x")
    multi = read_plain("\n".join(" ".join(r) for r in rows), "x")
    framed = read_plain("+--+--+\n|1.|3.|\n|..|1.|\n+--+--+\n|.1|..|\n|2.|.1|\n", "x")
    vals = [[c.value for c in row] for row in one_line.clues]
    assert vals == [[c.value for c in row] for row in multi.clues]
    assert vals == [[c.value for c in row] for row in framed.clues]
    assert vals[0] == [1, None, 3, None]


def test_numbers_and_letters_for_16x16():
    row = ["10", ".", "3"] + ["."] * 13
    text = "\n".join(" ".join(row) for _ in range(16))
    g = read_plain(text, "x")
    assert g.size == 16 and g.clues[0][0].value == 10 and g.clues[0][2].column == 6
    g = read_plain("G" + "." * 255, "x")
    assert g.size == 16 and g.clues[0][0].value == 16


def test_printed_grid_reads_back():
    p = sudoku.parse("1...\n..3.\n.4..\n...2\n", "x")
    sol = p.model.solve()
    again = read_plain(p.render(sol), "again")
    assert [[c.value for c in row] for row in again.clues] == p.to_json(sol)["grid"]


def latin_squares(n: int):
    """Every n x n Latin square of 1..n (brute force over row permutations)."""
    perms = list(itertools.permutations(range(1, n + 1)))
    stack: list[list[tuple[int, ...]]] = [[]]
    while stack:
        rows = stack.pop()
        if len(rows) == n:
            yield rows
            continue
        for p in perms:
            if all(p[c] != r[c] for r in rows for c in range(n)):
                stack.append(rows + [p])


def count(puzzle) -> int:
    return puzzle.model.count()


def test_futoshiki_count_matches_brute_force():
    text = ".<. .\n^\n. . .\n    v\n. .>.\n"
    rels = [((0, 0), (0, 1)), ((0, 0), (1, 0)), ((2, 2), (1, 2)), ((2, 2), (2, 1))]
    expected = sum(all(sq[a][b] < sq[c][d] for (a, b), (c, d) in rels)
                   for sq in latin_squares(3))
    assert count(futoshiki.parse(text, "x")) == expected


def test_sudoku_4x4_count_matches_brute_force():
    text = "1...\n....\n....\n...4\n"

    def ok(sq):
        boxes = all(len({sq[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
                    for br in (0, 2) for bc in (0, 2))
        return boxes and sq[0][0] == 1 and sq[3][3] == 4

    assert count(sudoku.parse(text, "x")) == sum(ok(sq) for sq in latin_squares(4))


def test_killer_4x4_count_matches_brute_force():
    text = "aabb\ncdde\ncfge\nhhgg\n\na=3 b=7 c=5 d=5 e=5 f=4 g=8 h=3\n"
    cages = {"a": [(0, 0), (0, 1)], "b": [(0, 2), (0, 3)], "c": [(1, 0), (2, 0)],
             "d": [(1, 1), (1, 2)], "e": [(1, 3), (2, 3)], "f": [(2, 1)],
             "g": [(2, 2), (3, 2), (3, 3)], "h": [(3, 0), (3, 1)]}
    sums = {"a": 3, "b": 7, "c": 5, "d": 5, "e": 5, "f": 4, "g": 8, "h": 3}

    def ok(sq):
        if not all(len({sq[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
                   for br in (0, 2) for bc in (0, 2)):
            return False
        for k, cells in cages.items():
            vals = [sq[r][c] for r, c in cells]
            if sum(vals) != sums[k] or len(set(vals)) != len(vals):
                return False
        return True

    assert count(killer.parse(text, "x")) == sum(ok(sq) for sq in latin_squares(4))


def test_kenken_count_matches_brute_force():
    text = "aab\ncdb\ncdd\n\na=2/ b=4+ c=5+ d=6*\n"

    def ok(sq):
        a = (sq[0][0], sq[0][1])
        d = sq[1][1] * sq[2][1] * sq[2][2]
        return (max(a) == 2 * min(a) and sq[0][2] + sq[1][2] == 4
                and sq[1][0] + sq[2][0] == 5 and d == 6)

    assert count(kenken.parse(text, "x")) == sum(ok(sq) for sq in latin_squares(3))


def test_kenken_minus_cage_matches_brute_force():
    text = "ab\nab\n\na=1- b=3+\n"
    assert count(kenken.parse(text, "x")) == sum(
        abs(sq[0][0] - sq[1][0]) == 1 and sq[0][1] + sq[1][1] == 3 for sq in latin_squares(2))


def test_skyscrapers_count_matches_brute_force():
    text = "  3 . . .\n. . . . . .\n. . . . . 2\n. . . . . .\n. . . . . .\n  . . 1 .\n"

    def seen(line):
        k = top = 0
        for v in line:
            if v > top:
                k, top = k + 1, v
        return k

    def ok(sq):
        col0 = [sq[r][0] for r in range(4)]
        col2 = [sq[r][2] for r in range(4)]
        return seen(col0) == 3 and seen(sq[1][::-1]) == 2 and seen(col2[::-1]) == 1

    assert count(skyscrapers.parse(text, "x")) == sum(ok(sq) for sq in latin_squares(4))


def test_sudoku_refuses_a_clue_breaking_the_box_rule():
    with pytest.raises(PuzzleError, match="box") as info:
        sudoku.parse("1...\n.1..\n....\n....\n", "x")
    assert (info.value.line, info.value.column) == (2, 2)


def test_cage_drawing():
    from conundrum.puzzles.base import draw_regions

    drawing = draw_regions([["1", "2"], ["3", "4"]], [["a", "a"], ["b", "a"]])
    assert drawing.split("\n") == [
        "┌───────┐",
        "│ 1   2 │",
        "├───┐   │",
        "│ 3 │ 4 │",
        "└───┴───┘",
    ]


def test_printed_kenken_reads_back():
    p = kenken.parse("aab\ncdb\ncdd\n\na=2/ b=4+ c=5+ d=6*\n", "x")
    sol = p.model.solve()
    again = read_plain(p.render(sol), "again")
    assert [[c.value for c in row] for row in again.clues] == p.to_json(sol)["grid"]
