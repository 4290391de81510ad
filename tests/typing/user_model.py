"""User code as a type checker sees it: `mypy --strict` must accept every line, and the
assert_type calls pin what the API's annotations promise (tests/test_typing.py)."""

from fractions import Fraction
from typing import assert_type

import conundrum as cn

m = cn.Model()
x, y = m.int_vars("x y", 0, 9)
assert_type(x, cn.Var)
z = m.int_var([1, 3, 5], "z")
grid = m.int_matrix(3, 3, 1, 9, "g")
assert_type(grid, cn.Matrix)
assert_type(grid[0, 1], cn.Var)
assert_type(grid[0], cn.Array[cn.Var])
assert_type(grid[x, y], cn.Expr)
assert_type(grid[0][x], cn.Expr)
assert_type(grid[x][y], cn.Expr)
assert_type(m.int_vars(3, 0, 2, "k")[x], cn.Expr)
assert_type(cn.array([3, 1, 4])[x], cn.Expr)
assert_type(cn.array([3, 1, 4]), cn.Array[int])
assert_type(cn.array([[3, 1], [4, 1]]), cn.Matrix)
assert_type(grid[0:2, 0:2], cn.Matrix)
assert_type(grid.rows, list[list[cn.Var]])

total = x + 2 * y - z
assert_type(total, cn.Expr)
relation: cn.Expr = x == y
m += total == 10
m += (x < y) | (y < z)
m.add(cn.all_different(grid), label="every cell")
m.add([row[0] <= row[1] for row in grid.rows])
m += cn.all_different([x, y, z], strength="bounds")
m += cn.integral(x / y + Fraction(1, 2) * z == 5)
m += cn.table([x, y], [(1, 2), (3, 4)])
m += cn.regular([x, y], {(0, 1): 1, (1, 3): 2}, 0, [2])

task = m.interval(start=(0, 5), size=2, optional=True, name="task")

options: cn.SearchKeywords = {"var_select": "first_fail", "value_select": "min"}
sol = m.solve(**options)
assert_type(sol, cn.Solution | None)
if sol is not None:
    assert_type(sol[x], int)
    assert_type(sol["x"], int)
    assert_type(sol[task], tuple[int, int] | None)
    assert_type(sol.value(x / 3), int | Fraction)
    assert_type(sol.as_dict(), dict[str, int | frozenset[int]])

for s in m.solutions(limit=3, method=cn.lds(2), time_limit=1.5, node_limit=10_000):
    assert_type(s, cn.Solution)
n: int = m.count(var_select="dom_wdeg", workers=2)
best = m.minimize(x + y, value_select="split", on_progress=lambda stats: print(stats.nodes))
assert_type(best, cn.Solution | None)
for better in m.improving(x - y, "max", limit=5, var_select="first_fail"):
    assert_type(better, cn.Solution)
assert_type(m.stats, cn.SearchStats)
assert_type(m.stats.complete, bool)
