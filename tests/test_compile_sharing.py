"""The compiler makes no engine variable that only mirrors another (issue 41, per-node
cost): a model variable equal to another (`x == y`, MiniZinc's `bool2int`) is that
variable's engine variable, and a top-level `b == c` over a 0/1 variable b makes b the
truth of c (MiniZinc's `_reif` builtins, `array_bool_or(xs, r)`), where each used to be a
second variable and a propagator keeping the two equal on every change. The answers are
the brute-force ones."""

from __future__ import annotations

import itertools

import pytest

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.io.flatzinc.build import read
from conundrum.propagators.rel import EqualOffset


def compiled(m):
    c = compile_model(m.variables, m.constraints)
    assert c is not None
    return c


def test_equal_variables_share_one_engine_variable():
    m = cn.Model()
    x = m.int_var(1, 5, "x")
    y = m.int_var([3, 4, 6, 8], "y")
    z = m.int_var(0, 9, "z")
    m += x == y
    m += z == x + 1  # an offset: a view kept by a propagator, as before
    c = compiled(m)
    assert c.decision[0] is c.decision[1]
    assert list(c.decision[0].values()) == [3, 4]  # both domains at once
    assert sum(isinstance(p, EqualOffset) for p in c.solver.propagators) == 1
    sols = sorted((s[x], s[y], s[z]) for s in m.solutions())
    assert sols == [(3, 3, 4), (4, 4, 5)]


def test_equal_variables_with_disjoint_domains_have_no_solution():
    m = cn.Model()
    x = m.int_var(1, 3, "x")
    y = m.int_var(5, 7, "y")
    m += x == y
    assert m.solve() is None and m.count() == 0


def test_equal_wide_variables_keep_the_listed_values():
    """A bounds-only variable (too wide for a bit set) equal to one with listed values
    keeps exactly those values (a membership propagator, as for its own domain)."""
    m = cn.Model()
    x = m.int_var(-10**12, 10**12, "x")
    y = m.int_var([-10**11, 5, 10**11], "y")
    m += x == y
    assert sorted(s[x] for s in m.solutions()) == [-10**11, 5, 10**11]


@pytest.mark.parametrize("relation", ["x < y", "(x == 1) | (y == 2)", "x + y == 3",
                                      "cn.xor(x == 0, y == 0, x == y)", "~(x == y)"])
def test_a_truth_equality_makes_no_mirror(relation):
    """`b == c` at the top level: no variable kept equal to b by a propagator, and the
    solutions of brute force, with b free, fixed to 0 and fixed to 1."""
    for fixed in (None, 0, 1):
        m = cn.Model()
        x, y = m.int_vars("x y", 0, 3)
        b = m.bool_var("b")
        c = eval(relation, {"cn": cn, "x": x, "y": y})
        m += b == c
        if fixed is not None:
            m += b == fixed
        assert not any(isinstance(p, EqualOffset) for p in compiled(m).solver.propagators)
        expected = set()
        for vx, vy in itertools.product(range(4), repeat=2):
            truth = {"x < y": vx < vy, "(x == 1) | (y == 2)": vx == 1 or vy == 2,
                     "x + y == 3": vx + vy == 3,
                     "cn.xor(x == 0, y == 0, x == y)": (vx == 0) ^ (vy == 0) ^ (vx == vy),
                     "~(x == y)": vx != vy}[relation]
            if fixed is None or int(truth) == fixed:
                expected.add((vx, vy, int(truth)))
        assert {(s[x], s[y], s[b]) for s in m.solutions()} == expected


def test_truth_named_in_flatzinc_reified_builtins():
    """MiniZinc's reified builtins name their truth variable: the FlatZinc of a clause
    and a reified comparison compiles to no mirror variable."""
    problem = read("var 0..3: x :: output_var;\nvar 0..3: y :: output_var;\n"
                   "var bool: r :: output_var;\nvar bool: s :: output_var;\n"
                   "constraint int_le_reif(x, y, r);\n"
                   "constraint array_bool_or([r, s], true);\n"
                   "constraint int_eq_reif(x, 2, s);\nsolve satisfy;\n")
    c = compiled(problem.model)
    assert not any(isinstance(p, EqualOffset) for p in c.solver.propagators)
    got = {tuple(s[v] for v in problem.model.variables[:4])
           for s in problem.model.solutions()}
    expected = {(vx, vy, int(vx <= vy), int(vx == 2)) for vx in range(4) for vy in range(4)
                if vx <= vy or vx == 2}
    assert got == expected


@pytest.mark.parametrize("sign", [1, -1])
def test_abs_of_a_signed_expression_is_the_expression(sign):
    """|e| of an expression whose sign the domains decide compiles to e (or -e): no Abs
    propagator waking at every change of e. The solutions are the brute-force ones."""
    from conundrum.propagators.arith import Abs

    m = cn.Model()
    x = m.int_var(2, 3000, "x")  # too many values to tabulate |x + 4|
    y = m.int_var(-3000, 9000, "y")
    m += abs(sign * (x + 4)) + y == 10
    m += x % 500 == 7
    c = compiled(m)
    assert not any(isinstance(p, Abs) for p in c.solver.propagators)
    got = sorted((s[x], s[y]) for s in m.solutions())
    want = [(a, 10 - (a + 4)) for a in range(2, 3001) if a % 500 == 7]
    assert got == want
    # a sign the domains leave open keeps its Abs
    m = cn.Model()
    y, z, w = (m.int_var(-3000, 3000, n) for n in "yzw")
    m += abs(sign * (y - z)) == w
    assert sum(isinstance(p, Abs) for p in compiled(m).solver.propagators) == 1


@pytest.mark.parametrize("expr, affine", [
    ("abs(x)", True), ("abs(x - 50) * 2", True), ("x * x", False), ("60 // x", False),
    ("x % 31", True), ("x % 7", False),
])
def test_a_small_node_that_is_affine_in_its_variable_is_no_table(expr, affine):
    """A node over one variable small enough to tabulate, whose values are a*x + c for
    every x (|d| over d in 1..99, as MiniZinc's int_abs of a signed difference gives), is
    compiled linear: a table of it would copy x and wake at every change. Any other
    node keeps its table. The solutions are the brute-force ones either way."""
    from conundrum.propagators.table import Table

    m = cn.Model()
    x = m.int_var(1, 30, "x")
    y = m.int_var(-200, 200, "y")
    m += eval(expr, {"abs": abs, "x": x}) == y + 7
    tables = sum(isinstance(p, Table) and p.active for p in compiled(m).solver.propagators)
    assert (tables == 0) == affine
    f = eval(f"lambda x: {expr}")
    got = sorted((s[x], s[y]) for s in m.solutions())
    assert got == [(a, f(a) - 7) for a in range(1, 31) if -200 <= f(a) - 7 <= 200]


def test_an_offset_keeps_bit_sets_only_where_a_hole_can_arise():
    """x == y + c makes no hole of its own: over hole-free domains and otherwise only
    linear rows, both variables are bounds only (home_improvement's 88 variables of
    -11000..10000 each kept a 21,001-bit set for such a relation); a hole on either side
    keeps both bit sets, along a chain of such relations, so the hole still passes."""
    m = cn.Model()
    x, y, z = m.int_vars("x y z", 0, 1000)
    m += y == x + 1
    m += z == y + 1
    m += x + z <= 900
    c = compiled(m)
    assert sum(isinstance(p, EqualOffset) for p in c.solver.propagators) == 2
    assert all(v.bits < 0 for v in c.decision)
    assert sorted(s[x] for s in m.solutions())[-1] == 449
    m = cn.Model()
    x = m.int_var([v for v in range(1001) if v != 300], "x")  # one hole
    y, z = m.int_vars("y z", 0, 1000)
    m += y == x + 1
    m += z == y + 1
    m += x + z <= 900
    c = compiled(m)
    assert all(v.bits >= 0 for v in c.decision)
    assert not c.decision[2].contains(302) and c.decision[2].contains(303)
    assert 300 not in {s[x] for s in m.solutions()}


@pytest.mark.parametrize("flag", [False, True])
def test_a_product_keeps_bit_sets_only_for_a_flag(flag):
    """z = x*y over domains too large to tabulate makes only gaps around 0, which its
    interval reasoning finds again: with nothing else making holes, x, y and z are bounds
    only (golf_puzzle's products kept 20,001-bit sets). A factor that is a 0/1 flag from
    the start copies the other's values into z, and z keeps its bit set. The solutions
    are the brute-force ones either way."""
    from conundrum.propagators.arith import BinaryFunction

    m = cn.Model()
    x = m.int_var(0, 1, "x") if flag else m.int_var(-10, 10, "x")
    y = m.int_var(1, 1000, "y")
    z = m.int_var(-10000, 10000, "z")
    m += z == x * y
    m += z + y >= 1990
    m += z + y <= 2021
    c = compiled(m)
    assert sum(isinstance(p, BinaryFunction) for p in c.solver.propagators) == 1
    zvar = c.decision[2]
    assert (zvar.bits >= 0) == flag
    got = sorted((s[x], s[y], s[z]) for s in m.solutions())
    xs = range(0, 2) if flag else range(-10, 11)
    want = sorted((a, b, a * b) for a in xs for b in range(1, 1001) if 1990 <= a * b + b <= 2021)
    assert got == want
