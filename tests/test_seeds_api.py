"""The seed puzzles through the public API, with the figures stated in the seeds."""

from __future__ import annotations

import pytest

import conundrum as cn

# The 20 solutions printed in the seed (ECLiPSe, #=), as (A, B, C, D, E, F, G, H, I).
SEED_INTEGRAL_SOLUTIONS = """
6 9 3 5 2 1 8 7 4
5 9 3 6 2 1 8 7 4
9 3 1 6 2 5 8 7 4
6 3 1 9 2 5 8 7 4
6 9 3 5 2 1 7 8 4
5 9 3 6 2 1 7 8 4
9 3 1 6 2 5 7 8 4
6 3 1 9 2 5 7 8 4
7 3 1 5 2 6 9 8 4
5 3 1 7 2 6 9 8 4
7 3 1 5 2 6 8 9 4
5 3 1 7 2 6 8 9 4
9 4 1 5 2 7 8 3 6
5 4 1 9 2 7 8 3 6
9 4 1 5 2 7 3 8 6
5 4 1 9 2 7 3 8 6
5 2 1 3 4 7 9 8 6
3 2 1 5 4 7 9 8 6
5 2 1 3 4 7 8 9 6
3 2 1 5 4 7 8 9 6
"""


def snake(integral: bool) -> tuple[cn.Model, list]:
    m = cn.Model()
    A, B, C, D, E, F, G, H, I = xs = m.int_vars("A B C D E F G H I", 1, 9)
    m += cn.all_different(xs)
    c = A + 13 * B / C + D + 12 * E - F - 11 + G * H / I - 10 == 66
    m += cn.integral(c) if integral else c
    return m, xs


def test_snake_rational_has_136_solutions():
    m, xs = snake(False)
    sols = list(m.solutions())
    assert len(sols) == 136
    assert len({tuple(s[x] for x in xs) for s in sols}) == 136
    assert m.stats.complete


def test_snake_integral_has_the_20_seed_solutions():
    m, xs = snake(True)
    got = {tuple(s[x] for x in xs) for s in m.solutions()}
    expected = {tuple(map(int, line.split()))
                for line in SEED_INTEGRAL_SOLUTIONS.strip().splitlines()}
    assert len(expected) == 20
    assert got == expected
    assert m.count() == 20


def alphametic(words: list[str], result: str) -> tuple[cn.Model, dict, callable]:
    m = cn.Model()
    letters = sorted(set("".join(words) + result))
    L = dict(zip(letters, m.int_vars(" ".join(letters), 0, 9)))
    m += cn.all_different(list(L.values()))

    def num(w: str):
        return cn.sum(10 ** i * L[ch] for i, ch in enumerate(reversed(w)))

    for w in [*words, result]:
        m += L[w[0]] != 0
    m += cn.sum(num(w) for w in words) == num(result)
    return m, L, num


@pytest.mark.parametrize("words,result,expected", [
    (["SEND", "MORE"], "MONEY", (9567, 1085, 10652)),
    (["DONALD", "GERALD"], "ROBERT", (526485, 197485, 723970)),
])
def test_cryptarithms_have_exactly_one_solution(words, result, expected):
    m, L, num = alphametic(words, result)
    sols = list(m.solutions())
    assert len(sols) == 1
    assert tuple(sols[0].value(num(w)) for w in [*words, result]) == expected


def test_send_most_money_maximised():
    m = cn.Model()
    L = {c: m.int_var(0, 9, c) for c in "SENDMOTY"}

    def num(w: str):
        return cn.sum(10 ** i * L[ch] for i, ch in enumerate(reversed(w)))

    m += cn.all_different(list(L.values()))
    m += (L["S"] != 0) & (L["M"] != 0)
    m += num("SEND") + num("MOST") == num("MONEY")
    best = m.maximize(num("MONEY"))
    assert best is not None and best.value(num("MONEY")) == 10876
    assert m.stats.complete


def test_equation_grid_with_shared_digits():
    m = cn.Model()
    L = {c: m.int_var(0, 9, c) for c in "PXYZUTRSQO"}

    def num(w: str):
        return cn.sum(10 ** i * L[ch] for i, ch in enumerate(reversed(w)))

    for w in ["P", "XYZ", "XUTU", "RSU", "Z", "RQT", "RQO", "TX", "RPX"]:
        m += L[w[0]] != 0
    m += [num("P") * num("XYZ") == num("XUTU"), num("RSU") + num("Z") == num("RQT"),
          num("RQO") + num("TX") == num("RPX"), num("P") + num("RSU") == num("RQO"),
          num("XYZ") / num("Z") == num("TX"), num("XUTU") - num("RQT") == num("RPX")]
    sols = list(m.solutions())
    assert len(sols) == 1
    s = sols[0]
    assert [s.value(num(w)) for w in ["P", "XYZ", "XUTU", "RSU", "Z", "RQT", "RQO", "TX",
                                      "RPX"]] == [7, 189, 1323, 643, 9, 652, 650, 21, 671]


# The seed's Greater-Than Sudoku, in the ECLiPSe program's own encoding: 15 rows; rows of
# 6 symbols are horizontal relations inside the boxes, rows of 9 are vertical ones.
GT_PROBLEM = [
    "><><<>", "^v^vv^^^^", "><<<>>", "v^^^^v^v^", "<><>><",
    "><><<<", "v^^v^v^vv", "<<<>><", "vvv^v^v^^", ">>><<>",
    ">><>><", "v^v^^^v^v", "<><><>", "^^^vv^vvv", "<>><<>",
]
GT_SOLUTION = ["834967251", "915238764", "276451839", "657329148", "489175623",
               "321846597", "743582916", "162793485", "598614372"]


def greater_than_sudoku() -> tuple[cn.Model, cn.Matrix]:
    m = cn.Model()
    g = m.int_matrix(9, 9, 1, 9, "s")
    for row in g.rows:
        m += cn.all_different(row)
    for col in g.columns:
        m += cn.all_different(col)
    for bi in range(3):
        for bj in range(3):
            m += cn.all_different(g[3 * bi:3 * bi + 3, 3 * bj:3 * bj + 3])

    def rel(sym: str, a, b):
        return a > b if sym in ">v" else a < b

    for i in range(9):  # horizontal, as in the ECLiPSe program (0-based here)
        a = 5 * (i // 3) + 2 * (i % 3)
        for t in range(6):
            j = 3 * (t // 2) + t % 2
            m += rel(GT_PROBLEM[a][t], g[i][j], g[i][j + 1])
    for j in range(9):  # vertical
        for t in range(6):
            a = 5 * (t // 2) + 2 * (t % 2) + 1
            i = 3 * (t // 2) + t % 2
            m += rel(GT_PROBLEM[a][j], g[i][j], g[i + 1][j])
    return m, g


@pytest.mark.parametrize("var_select", ["most_constrained", "first_fail", "input_order"])
def test_greater_than_sudoku_is_unique(var_select):
    m, g = greater_than_sudoku()
    sols = list(m.solutions(var_select=var_select))
    assert len(sols) == 1
    assert ["".join(str(sols[0][x]) for x in row) for row in g.rows] == GT_SOLUTION


def queens(n: int) -> cn.Model:
    m = cn.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(n)])
    m += cn.all_different([q[i] - i for i in range(n)])
    return m


@pytest.mark.parametrize("n,count", [(4, 2), (6, 4), (8, 92), (10, 724)])
def test_queens_counts(n, count):
    assert queens(n).count(var_select="first_fail") == count


def magic(n: int) -> cn.Model:
    m = cn.Model()
    g = m.int_matrix(n, n, 1, n * n, "g")
    s = n * (n * n + 1) // 2
    m += cn.all_different(g)
    m += [cn.sum(r) == s for r in g.rows]
    m += [cn.sum(c) == s for c in g.columns]
    m += cn.sum(g[i][i] for i in range(n)) == s
    m += cn.sum(g[i][n - 1 - i] for i in range(n)) == s
    return m


def test_magic_square_3_has_8_solutions():
    assert magic(3).count() == 8


@pytest.mark.slow
def test_magic_square_4_has_7040_solutions():
    assert magic(4).count(var_select="first_fail") == 7040
