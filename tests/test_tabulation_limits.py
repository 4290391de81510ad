"""Which non-linear subexpressions the compiler tabulates (compiler/tabulate.py): at most
TABLE_LIMIT combinations of their variables' values and at most VALUE_LIMIT distinct
values. A product over a wide range (MiniZinc's template_design: q * r over 0..9 x
204..451, 1,743 values) is left to the operation's bounds-reasoning propagator, which
pruned as much there at a tenth of the cost a node; a product over digits stays one
domain-consistent table.

Checked: where the line falls, and the solutions on both sides against brute force.
"""

from __future__ import annotations

import pytest

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.compiler.tabulate import TABLE_LIMIT, VALUE_LIMIT
from conundrum.propagators.table import Table


def _tables(m: cn.Model) -> int:
    compiled = compile_model(m.variables, m.constraints)
    assert compiled is not None
    return sum(isinstance(p, Table) for p in compiled.solver.propagators)


def _doubling(n: int) -> cn.Model:
    """x * y with x in {1, 2} and y in 1..n: n + n // 2 distinct values."""
    m = cn.Model()
    x = m.int_var([1, 2], "x")
    y = m.int_var(1, n, "y")
    z = m.int_var(0, 4 * n, "z")
    m += z == x * y
    return m


def test_the_value_limit_is_where_the_table_stops():
    n = 1  # the largest n with n + n // 2 <= VALUE_LIMIT
    while (n + 1) + (n + 1) // 2 <= VALUE_LIMIT:
        n += 1
    assert n + n // 2 <= VALUE_LIMIT < (n + 1) + (n + 1) // 2
    assert 2 * (n + 1) <= TABLE_LIMIT  # the combinations are not what decides
    assert _tables(_doubling(n)) == 1
    assert _tables(_doubling(n + 1)) == 0


def test_a_product_of_digits_is_a_table():
    m = cn.Model()
    a, b = m.int_var(1, 9, "a"), m.int_var(1, 9, "b")
    m += a * b == m.int_var(0, 81, "p")
    assert _tables(m) == 1


def _wide(bound: int) -> tuple[cn.Model, cn.Var, cn.Var, list[tuple[int, int]]]:
    """Products q * r over 0..9 x 204..451 (1,743 values: no table), and the brute
    force's solutions."""
    m = cn.Model()
    q = m.int_var(0, 9, "q")
    r = m.int_var(204, 451, "r")
    m += q * r >= bound
    m += q * r <= bound + 600
    m += q * r != bound + 60
    expected = sorted((a, b) for a in range(10) for b in range(204, 452)
                      if bound <= a * b <= bound + 600 and a * b != bound + 60)
    return m, q, r, expected


@pytest.mark.parametrize("search", ["classic", "learning", "auto"])
@pytest.mark.parametrize("bound", [1000, 2040])
def test_a_wide_product_untabulated_keeps_every_solution(search, bound):
    m, q, r, expected = _wide(bound)
    assert _tables(m) == 0
    found = sorted((s[q], s[r]) for s in m.solutions(search=search))
    assert found == expected


@pytest.mark.parametrize("options", [{"search": "classic"}, {"search": "learning"},
                                     {"search": "auto"}, {"lns": True, "time_limit": 2}])
def test_a_wide_product_untabulated_optimised_by_every_search(options):
    """The least r - 3 q (a sum of both, so that no search is led by one variable)."""
    m, q, r, expected = _wide(1000)
    best = m.minimize(r - 3 * q, **options)
    assert best is not None
    assert best[r] - 3 * best[q] == min(b - 3 * a for a, b in expected)
    assert (best[q], best[r]) in expected
