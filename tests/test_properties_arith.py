"""Property tests: non-linear integer arithmetic (SPEC section 2).

x*y, x*x, x**k, abs, cn.min / cn.max, Python floor ``//`` and ``%`` (negative values, zero
in the divisor's domain: that assignment is simply not a solution), cn.exact_div.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import exact_div, floordiv, mod
from test_properties_harness import (
    RELATIONS,
    TIME_LIMIT,
    Dom,
    build,
    check,
    doms,
    int_expr,
    names_for,
    scaled,
)

REL = st.sampled_from(list(RELATIONS))


@given(data=st.data(), op=REL)
def test_times_of_two_variables(data: st.DataObject, op: str) -> None:
    """x0 * x1 OP x2 (negative values, zero)."""
    domains = data.draw(doms(3, max_size=5), label="domains")
    rel = RELATIONS[op]
    check(data, domains, f"m += x0 * x1 {op} x2", lambda t: rel(t[0] * t[1], t[2]),
          exprs=[("x0 * x1", lambda t: t[0] * t[1])],
          objective=("x0 * x1 - x2 * x2", lambda t: t[0] * t[1] - t[2] * t[2]))


@st.composite
def untabulated(draw: st.DrawFn, image: Callable[[int, int], int]) -> list[Dom]:
    """Two value lists of 65 to 72 values in -100..100: more than the 4,096 pairs the
    compiler tabulates, so that the operation's own propagator filters it (a product by
    interval reasoning, an absolute value by masks); and a third list partly drawn from
    the images of the pairs, so that there are solutions."""
    pair = [Dom(tuple(sorted(draw(st.sets(st.integers(-100, 100), min_size=65,
                                          max_size=72)))), False) for _ in range(2)]
    images = sorted({image(a, b) for a in pair[0].values for b in pair[1].values})
    hits = draw(st.sets(st.sampled_from(images), min_size=1, max_size=8))
    others = draw(st.sets(st.integers(images[0] - 5, images[-1] + 5), max_size=8))
    return [*pair, Dom(tuple(sorted(hits | others)), False)]


OPERATIONS: dict[str, tuple[str, Callable[[int, int], int]]] = {
    "product": ("x0 * x1", lambda a, b: a * b),
    "abs": ("abs(x0 - x1)", lambda a, b: abs(a - b)),
    # spans under DOMAIN_SPAN with holes: MinMax's domain filtering (arith_minmax.py)
    "max": ("cn.max(x0, x1)", max),
    "min": ("cn.min(x0, x1)", min),
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
@settings(max_examples=scaled(0.5), deadline=None)
@given(data=st.data(), sense=st.sampled_from(["min", "max"]))
def test_operations_too_wide_to_tabulate(operation: str, data: st.DataObject,
                                         sense: str) -> None:
    """x0 * x1 == x2, abs(x0 - x1) == x2, max(x0, x1) == x2 and min(x0, x1) == x2 over
    domains the compiler does not tabulate (the propagators BinaryFunction, Abs and
    MinMax, which the small domains of the other tests never reach through the API):
    the brute-force solutions and optimum under the
    searches the harness draws (classic, learning, auto), and the optimum by large
    neighbourhood search from neighbourhoods of one variable."""
    from conundrum.compiler import lns

    expr, image = OPERATIONS[operation]
    domains = data.draw(untabulated(image), label="domains")
    src = f"m += {expr} == x2"
    objective = "x0 - 2 * x1 + x2"

    def value(t: tuple[int, ...]) -> int:
        return t[0] - 2 * t[1] + t[2]

    truth = check(data, domains, src, lambda t: image(t[0], t[1]) == t[2],
                  objective=(objective, value))
    b = build(domains, names_for(3), src)
    solve = b.m.minimize if sense == "min" else b.m.maximize
    with mock.patch.object(lns, "INITIAL_RELAX", 0.01):  # round(0.01 * n) < 1: one variable
        best = solve(eval(objective, b.env), lns=True, time_limit=TIME_LIMIT,
                     seed=data.draw(st.integers(0, 3), label="seed"))
    assert b.m.stats.stopped_by is None, f"LNS stopped: {b.m.stats!r}"
    assert truth, "the domains hold an image of a pair"
    assert best is not None, "LNS found nothing"
    tup = tuple(best[x] for x in b.xs)
    assert tup in set(truth), f"LNS gave a non-solution {tup}"
    want = min(map(value, truth)) if sense == "min" else max(map(value, truth))
    assert value(tup) == want, f"LNS's {sense}imum {value(tup)}, expected {want}"


@given(data=st.data(), op=REL, k=st.integers(-9, 9))
def test_times_compared_with_constant(data: st.DataObject, op: str, k: int) -> None:
    """x0 * x1 OP k and k * x0 * x1 - x1 OP 0."""
    domains = data.draw(doms(2, max_size=6, lo=-5, hi=5), label="domains")
    rel = RELATIONS[op]
    src = f"m += x0 * x1 {op} {k}\nm += 2 * x0 * x1 - x1 != 1"
    check(data, domains, src, lambda t: rel(t[0] * t[1], k) and 2 * t[0] * t[1] - t[1] != 1)


@given(data=st.data(), op=REL)
def test_square_same_variable_twice(data: st.DataObject, op: str) -> None:
    """x0 * x0 OP x1: a product of a variable with itself is a square (never negative)."""
    domains = data.draw(doms(2, max_size=6, lo=-5, hi=5), label="domains")
    rel = RELATIONS[op]
    check(data, domains, f"m += x0 * x0 {op} x1", lambda t: rel(t[0] * t[0], t[1]),
          exprs=[("x0 * x0", lambda t: t[0] * t[0])])


@given(data=st.data(), op=REL, k=st.integers(0, 4))
def test_power_with_constant_exponent(data: st.DataObject, op: str, k: int) -> None:
    """x0 ** k OP x1 for k in 0..4 (0 ** 0 == 1, odd powers keep the sign)."""
    domains = data.draw(doms(2, max_size=5, lo=-4, hi=4), label="domains")
    if k >= 3:  # keep the right-hand side in reach of the powers
        domains = [domains[0], Dom(tuple(v * 4 for v in domains[1].values), False)]
    rel = RELATIONS[op]
    check(data, domains, f"m += x0 ** {k} {op} x1", lambda t: rel(t[0] ** k, t[1]),
          exprs=[(f"x0 ** {k}", lambda t: t[0] ** k)])


@given(data=st.data(), op=REL)
def test_abs_of_variable_and_of_difference(data: st.DataObject, op: str) -> None:
    """abs(x0) == x1 and abs(x0 - x2) OP x1."""
    domains = data.draw(doms(3, max_size=5), label="domains")
    rel = RELATIONS[op]
    check(data, domains, f"m += abs(x0) <= x1 + 1\nm += abs(x0 - x2) {op} x1",
          lambda t: abs(t[0]) <= t[1] + 1 and rel(abs(t[0] - t[2]), t[1]),
          exprs=[("abs(x0 - x2)", lambda t: abs(t[0] - t[2]))])


@given(data=st.data(), op=REL, fname=st.sampled_from(["min", "max"]),
       form=st.sampled_from(["args", "list", "generator"]))
def test_min_max_of_variables(data: st.DataObject, op: str, fname: str, form: str) -> None:
    """cn.min / cn.max over 2-3 variables, as arguments or an iterable, OP a variable."""
    n = data.draw(st.integers(2, 3), label="n")
    domains = data.draw(doms(n + 1, max_size=4), label="domains")
    args = ", ".join(f"x{i}" for i in range(n))
    call = {"args": f"cn.{fname}({args})", "list": f"cn.{fname}([{args}])",
            "generator": f"cn.{fname}(x for x in xs[:{n}])"}[form]
    f = {"min": min, "max": max}[fname]
    rel = RELATIONS[op]
    check(data, domains, f"m += {call} {op} x{n}", lambda t: rel(f(t[:n]), t[n]),
          exprs=[(call, lambda t: f(t[:n]))])


@given(data=st.data(), fname=st.sampled_from(["min", "max"]), k=st.integers(-4, 4))
def test_min_max_of_expressions_with_constants(data: st.DataObject, fname: str, k: int) -> None:
    """cn.min(x0 + x1, 2*x1, k) == x2: expressions and constants as arguments."""
    domains = data.draw(doms(3, max_size=4), label="domains")
    f = {"min": min, "max": max}[fname]
    check(data, domains, f"m += cn.{fname}(x0 + x1, 2*x1, {k}) == x2",
          lambda t: f(t[0] + t[1], 2 * t[1], k) == t[2])


@given(data=st.data(), op=st.sampled_from(["//", "%"]), rel=REL)
def test_floor_div_and_mod_by_variable(data: st.DataObject, op: str, rel: str) -> None:
    """x0 // x1 OP x2 and x0 % x1 OP x2, divisors with zero and negative values."""
    domains = data.draw(doms(3, max_size=5, lo=-5, hi=5), label="domains")
    f = {"//": floordiv, "%": mod}[op]
    r = RELATIONS[rel]
    check(data, domains, f"m += x0 {op} x1 {rel} x2", lambda t: r(f(t[0], t[1]), t[2]),
          exprs=[(f"x0 {op} x1", lambda t: f(t[0], t[1]))],
          objective=(f"x0 {op} x1 - x2", lambda t: f(t[0], t[1]) - t[2]))


@given(data=st.data(), op=st.sampled_from(["//", "%"]),
       d=st.integers(-4, 4).filter(lambda d: d != 0), form=st.sampled_from(["x//d", "c//x"]))
def test_floor_div_and_mod_with_constant(data: st.DataObject, op: str, d: int, form: str) -> None:
    """x0 // d == x1 (d negative too) and c // x0 == x1 (x0 may be 0)."""
    domains = data.draw(doms(2, max_size=6, lo=-6, hi=6), label="domains")
    f = {"//": floordiv, "%": mod}[op]
    if form == "x//d":
        src, fn = f"x0 {op} ({d})", (lambda t: f(t[0], d))
    else:
        c = 7 * d
        src, fn = f"({c}) {op} x0", (lambda t: f(c, t[0]))
    check(data, domains, f"m += {src} == x1", lambda t: fn(t) == t[1], exprs=[(src, fn)])


@settings(max_examples=scaled(0.5))
@given(data=st.data(), op=st.sampled_from(["//", "%"]))
def test_floor_div_and_mod_identity(data: st.DataObject, op: str) -> None:
    """(x0 // x1) * x1 + x0 % x1 == x0 holds exactly when x1 != 0."""
    domains = data.draw(doms(2, max_size=6, lo=-5, hi=5), label="domains")
    check(data, domains, "m += (x0 // x1) * x1 + x0 % x1 == x0", lambda t: t[1] != 0)


@given(data=st.data(), rel=REL)
def test_exact_div(data: st.DataObject, rel: str) -> None:
    """cn.exact_div(x0, x1) OP x2: only exact quotients; divisor zero is no solution."""
    domains = data.draw(doms(3, max_size=5, lo=-6, hi=6), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += cn.exact_div(x0, x1) {rel} x2",
          lambda t: r(exact_div(t[0], t[1]), t[2]),
          exprs=[("cn.exact_div(x0, x1)", lambda t: exact_div(t[0], t[1]))])


@given(data=st.data(), k=st.integers(-4, 4))
def test_exact_div_of_expression(data: st.DataObject, k: int) -> None:
    """cn.exact_div(3*x0 + x1, x2) + 1 == k."""
    domains = data.draw(doms(3, max_size=4), label="domains")
    check(data, domains, f"m += cn.exact_div(3*x0 + x1, x2) + 1 == {k}",
          lambda t: exact_div(3 * t[0] + t[1], t[2]) + 1 == k)


@settings(max_examples=scaled(2))
@given(data=st.data(), op=REL)
def test_random_integer_expressions(data: st.DataObject, op: str) -> None:
    """Random trees of + - * neg abs min max // % ** exact_div, compared with a variable."""
    e = data.draw(int_expr(2, depth=2), label="expression")
    domains = data.draw(doms(3, max_size=4, lo=-3, hi=3), label="domains")
    rel = RELATIONS[op]
    check(data, domains, f"m += {e.src} {op} x2", lambda t: rel(e.fn(t), t[2]),
          exprs=[(e.src, e.fn)], objective=(e.src, e.fn), runs=1)


SAME_VAR_OPS = ["x0 * x0", "x0 - x0", "x0 // x0", "x0 % x0", "cn.exact_div(x0, x0)",
                "x0 / x0", "abs(x0 - x0)", "cn.min(x0, x0)", "cn.max(x0, -x0)", "x0 ** 2 - x0 * x0"]


@settings(max_examples=scaled(1.5))
@given(data=st.data(), e=st.sampled_from(SAME_VAR_OPS), op=REL)
def test_same_variable_on_both_sides_of_an_operator(data: st.DataObject, e: str, op: str) -> None:
    """x0 OP' x0 (x0 // x0 is 1 except at 0, where it is undefined, ...) compared with x1."""
    domains = data.draw(doms(2, max_size=5, lo=-3, hi=3), label="domains")
    fns = {
        "x0 * x0": lambda t: t[0] * t[0], "x0 - x0": lambda t: 0,
        "x0 // x0": lambda t: floordiv(t[0], t[0]), "x0 % x0": lambda t: mod(t[0], t[0]),
        "cn.exact_div(x0, x0)": lambda t: exact_div(t[0], t[0]),
        "x0 / x0": lambda t: Fraction(1) if t[0] else floordiv(1, 0),
        "abs(x0 - x0)": lambda t: 0, "cn.min(x0, x0)": lambda t: t[0],
        "cn.max(x0, -x0)": lambda t: abs(t[0]), "x0 ** 2 - x0 * x0": lambda t: 0,
    }
    fn = fns[e]
    rel = RELATIONS[op]
    check(data, domains, f"m += {e} {op} x1", lambda t: rel(fn(t), t[1]), exprs=[(e, fn)])
