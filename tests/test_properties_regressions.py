"""Minimal reproductions of the bugs the property harness found (notes/ENGINE-BUGS.md).

Each test is the shrunk reproduction of one entry, checked against its brute-force answer.
An open bug's test is ``xfail(strict=True)``: when the bug is fixed it XPASSes, which fails,
and the fixer removes the mark (and marks the entry FIXED in ENGINE-BUGS.md).
"""

from __future__ import annotations

import pytest

import conundrum as cn


def test_product_with_zero_factor_is_not_a_division_by_zero() -> None:
    """ENGINE-BUGS.md "x * y with a zero factor ..." (FIXED): 0 * 0 == 0, one solution."""
    m = cn.Model()
    x, y, z = m.int_vars("x y z", 0, 0)
    m += x * y == z
    assert m.count() == 1


def test_product_and_square_with_zero_in_domains() -> None:
    """x * y == z and x * x == w over small ranges with 0: brute-force counts."""
    m = cn.Model()
    x, y = m.int_vars("x y", -1, 2)
    z = m.int_var(-4, 4, "z")
    m += x * y == z
    assert m.count() == 16
    m = cn.Model()
    x = m.int_var(-2, 2, "x")
    w = m.int_var(0, 4, "w")
    m += x * x == w
    assert sorted((s[x], s[w]) for s in m.solutions()) == [(v, v * v) for v in range(-2, 3)]


def test_lds_with_random_values_enumerates_each_solution_once() -> None:
    """ENGINE-BUGS.md "method="lds:N" with value_select="random" ..." (FIXED): no
    constraint, x, y in 0..2: lds:1000 + random values gives the 9 pairs once each."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 2)
    got = [(s[x], s[y]) for s in m.solutions(method="lds:1000", value_select="random", seed=1)]
    assert sorted(got) == [(a, b) for a in range(3) for b in range(3)]


def test_maximize_with_lds_is_optimal() -> None:
    """ENGINE-BUGS.md "minimize/maximize with method="lds:N" ..." (FIXED): 2."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 1)
    best = m.maximize(x + y, method="lds:1000")
    assert best is not None and best.value(x + y) == 2


def test_maximize_with_lds_under_a_sum_constraint() -> None:
    """x + y <= 4 over 0..3: maximize(2*x + y) with lds:1000 is 7 (x=3, y=1)."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 3)
    m += x + y <= 4
    best = m.maximize(2 * x + y, method="lds:1000")
    assert best is not None and best.value(2 * x + y) == 7


def test_all_different_default_strength_keeps_solutions() -> None:
    """ENGINE-BUGS.md "all_different with the default strength ("domain") removes every
    solution" (FIXED): 3! permutations."""
    m = cn.Model()
    a, b, c = m.int_vars("a b c", 1, 3)
    m += cn.all_different([a, b, c])
    assert m.count() == 6


def test_abs_in_a_constraint() -> None:
    """ENGINE-BUGS.md "abs(...) in a constraint: TypeError when the constraint is added"
    (FIXED): brute-force counts 4 and 2."""
    m = cn.Model()
    a, b = m.int_vars("a b", 1, 3)
    m += abs(a - b) == 1
    assert m.count() == 4
    m = cn.Model()
    a = m.int_var(-1, 1, "a")
    m += abs(a) == 1
    assert m.count() == 2


def test_wide_value_list_keeps_its_holes() -> None:
    """int_var([0, 100000]) has two values; [5, 10**5] and [0, 2, 10**7] likewise."""
    for values in ([0, 100000], [5, 10**5], [0, 2, 10**7], [-(10**18), 0, 10**18]):
        m = cn.Model()
        x = m.int_var(values, "x")
        assert sorted(s[x] for s in m.solutions()) == values
        m = cn.Model()
        x = m.int_var(values, "x")
        y = m.int_var(-3, 3, "y")
        m += x + y >= 1
        assert m.count() == sum(1 for v in values for w in range(-3, 4) if v + w >= 1)


def test_anti_first_fail_on_a_nested_quotient() -> None:
    """x in {1, 3, 5}, x / (4 / x) < 5: 2 solutions under anti_first_fail, quickly."""
    m = cn.Model()
    x = m.int_var([1, 3, 5], "x")
    m += x / (4 / x) < 5
    assert m.count(var_select="anti_first_fail", time_limit=5.0) == 2
    assert m.stats.complete


@pytest.mark.parametrize("c", [2**40, -2**40, 10**9, 10**30])
def test_equality_with_a_huge_offset_needs_no_huge_bit_set(c: int) -> None:
    """x + c == y on small domains: the two bit sets are c apart, so they cannot overlap;
    shifting one by c to find out took 2**40 bits (MemoryError) or 134 MB for 10**9.
    With y placed around c the 11 solutions remain. Memory is bounded, not time."""
    import tracemalloc

    tracemalloc.start()
    try:
        m = cn.Model()
        x, y = m.int_var(0, 10, "x"), m.int_var(0, 10, "y")
        m += x + c == y
        assert m.count() == 0 and m.stats.nodes == 0
        m = cn.Model()
        x, y = m.int_var(0, 10, "x"), m.int_var(c, c + 10, "y")
        m += x + c == y
        assert m.count() == 11 and m.stats.nodes <= 30
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20, peak


def test_all_different_with_a_bounds_only_variable_that_shrinks() -> None:
    """ENGINE-BUGS.md "all_different on a bounds-only variable that shrinks ..." (FIXED):
    x3 in -10^9..10^9 becomes x2 - 1 in {2, 5, 8}; 5 is x1's: 2 solutions (it used to
    raise IndexError in the domain stage)."""
    m = cn.Model()
    x0 = m.int_var(1, 1, "x0")
    x1 = m.int_var(5, 5, "x1")
    x2 = m.int_var([3, 6, 9], "x2")
    x3 = m.int_var(-10**9, 10**9, "x3")
    m += x3 == x2 - x0
    m += cn.all_different([x3, x0, x2, x1])
    assert sorted((s[x2], s[x3]) for s in m.solutions()) == [(3, 2), (9, 8)]


@pytest.mark.parametrize("offset", [10**8, 10**17, 10**18])
def test_all_different_memory_does_not_follow_the_span(offset: int) -> None:
    """ENGINE-BUGS.md "all_different: memory grows with the span ..." (FIXED): views
    `offset` apart in one all_different; 4 solutions (x3 = x1 + 1 is one of them), with
    a small peak of Python memory (0.87 GB at 10^8, MemoryError at 10^17 before)."""
    import tracemalloc

    m = cn.Model()
    x1 = m.int_var(0, 3, "x1")
    x3 = m.int_var(-10**9, 10**9, "x3")
    m += x3 == 1 + x1
    m += cn.all_different([x1, x3, x1 + offset])
    tracemalloc.start()
    try:
        assert m.count() == 4
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20


def test_all_different_pigeonhole_with_a_far_view() -> None:
    """Three variables on {0, 1} and x + 10^17 in one all_different: no solution (the
    graph spans 10^17 values; this raised MemoryError while posting)."""
    m = cn.Model()
    x, y, z = m.int_vars("x y z", 0, 1)
    m += cn.all_different([x, x + 10**17, y, z])
    assert m.count() == 0
