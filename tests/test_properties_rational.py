"""Property tests: exact rational ``/`` and ``cn.integral`` (SPEC section 2).

``/`` is Python true division read exactly (fractions, never floats); ``cn.integral(c)``
reads every ``/`` of ``c`` as ``cn.exact_div``.  Both readings of the same expression are
checked against the oracle.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import div, exact_div
from test_properties_harness import (
    RELATIONS,
    Dom,
    check,
    check_exhaustive_options,
    doms,
    rational_expr,
    relation,
    scaled,
)

REL = st.sampled_from(list(RELATIONS))


@given(data=st.data(), rel=REL)
def test_rational_quotient_plus_variable(data: st.DataObject, rel: str) -> None:
    """x0 / x1 + x2 OP x3 exactly (7/2 is 7/2: no truncation, no floats)."""
    domains = data.draw(doms(4, max_size=3, lo=-3, hi=3), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += x0 / x1 + x2 {rel} x3",
          lambda t: r(div(t[0], t[1]) + t[2], t[3]),
          exprs=[("x0 / x1 + x2", lambda t: div(t[0], t[1]) + t[2])])


@given(data=st.data(), rel=REL)
def test_rational_quotients_compared(data: st.DataObject, rel: str) -> None:
    """x0 / x1 OP x2 / x3: comparing two rational values exactly."""
    domains = data.draw(doms(4, max_size=3, lo=-3, hi=3), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += x0 / x1 {rel} x2 / x3",
          lambda t: r(div(t[0], t[1]), div(t[2], t[3])),
          exprs=[("x0 / x1", lambda t: div(t[0], t[1]))])


@given(data=st.data(), rel=REL)
def test_rational_quotient_versus_variable(data: st.DataObject, rel: str) -> None:
    """x0 / x1 OP x2 (e.g. 5/2 < 3 but not 5/2 < 2)."""
    domains = data.draw(doms(3, max_size=5, lo=-5, hi=5), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += x0 / x1 {rel} x2", lambda t: r(div(t[0], t[1]), t[2]))


@given(data=st.data(), k=st.integers(1, 4))
def test_rational_scaled_quotients_sum(data: st.DataObject, k: int) -> None:
    """The snake's shape in small: x0 + k*x1/x2 + x3*x0/x1 == x3 (sum of two quotients)."""
    domains = data.draw(doms(4, max_size=3, lo=-2, hi=4), label="domains")
    check(data, domains, f"m += x0 + {k}*x1/x2 + x3*x0/x1 == x3",
          lambda t: t[0] + div(k * t[1], t[2]) + div(t[3] * t[0], t[1]) == t[3])


@given(data=st.data(), rel=REL)
def test_integral_versus_rational_same_expression(data: st.DataObject, rel: str) -> None:
    """x0/x1 + x2/x3 OP x0: rational reading and cn.integral reading, both brute-forced."""
    domains = data.draw(doms(4, max_size=3, lo=-3, hi=3), label="domains")
    r = RELATIONS[rel]
    body = f"x0/x1 + x2/x3 {rel} x0"
    check(data, domains, f"m += {body}",
          lambda t: r(div(t[0], t[1]) + div(t[2], t[3]), t[0]))
    check(data, domains, f"m += cn.integral({body})",
          lambda t: r(exact_div(t[0], t[1]) + exact_div(t[2], t[3]), t[0]))


@settings(max_examples=scaled(2))
@given(data=st.data(), rel=REL, integral=st.booleans())
def test_random_rational_expressions(data: st.DataObject, rel: str, integral: bool) -> None:
    """Random trees of / + - * and negation, compared with another tree; both readings."""
    a = data.draw(rational_expr(3, depth=2), label="lhs")
    b = data.draw(rational_expr(3, depth=1), label="rhs")
    domains = data.draw(doms(3, max_size=4, lo=-3, hi=3), label="domains")
    c = relation(rel, a, b)
    if integral:
        check(data, domains, f"m += cn.integral({c.src})", c.ifn, runs=1)
    else:
        check(data, domains, f"m += {c.src}", c.fn, exprs=[(a.src, a.fn)], runs=1)


@settings(max_examples=scaled(0.6))
@given(data=st.data(), fname=st.sampled_from(["abs", "cn.min", "cn.max"]))
def test_rational_inside_abs_min_max(data: st.DataObject, fname: str) -> None:
    """abs(x0/x1) and cn.min/cn.max(x0/x1, x2) compared with x2 / 2 (rational arguments)."""
    domains = data.draw(doms(3, max_size=4, lo=-3, hi=3), label="domains")
    f = {"abs": None, "cn.min": min, "cn.max": max}[fname]
    src = ("abs(x0 / x1) <= x2 / 2" if f is None else f"{fname}(x0 / x1, x2) == x2 / 2")

    def fn(t: tuple[int, ...]) -> bool:
        if f is None:
            return abs(div(t[0], t[1])) <= div(t[2], 2)
        return f(div(t[0], t[1]), t[2]) == div(t[2], 2)

    check(data, domains, f"m += {src}", fn, runs=1)


@settings(max_examples=scaled(0.5))
@given(data=st.data())
def test_integral_of_product_quotient(data: st.DataObject) -> None:
    """cn.integral(x0 * x1 / x2 == x3): (x0*x1) must be a multiple of x2."""
    domains = data.draw(doms(4, max_size=3, lo=-3, hi=3), label="domains")
    check(data, domains, "m += cn.integral(x0 * x1 / x2 == x3)",
          lambda t: exact_div(t[0] * t[1], t[2]) == t[3])


@settings(max_examples=scaled(0.5))
@given(data=st.data())
def test_division_by_zero_only_removes_that_assignment(data: st.DataObject) -> None:
    """x0 / x1 != 100 is true wherever defined: every assignment except x1 == 0."""
    domains = data.draw(doms(2, max_size=5, lo=-2, hi=2), label="domains")
    check(data, domains, "m += x0 / x1 != 100", lambda t: div(t[0], t[1]) != 100)


def test_nested_quotients_under_every_search_option() -> None:
    """x0 / (x2 / x0) < x1 and (x0 / 2) / (x2 / x0) < x1 * x1: every var_select, with
    several value_selects and methods (anti_first_fail once ran away here)."""
    domains = [Dom((1, 3, 5), False), Dom((-2, -1, 1, 5), False), Dom((1, 2, 4), False)]
    check_exhaustive_options(domains, "m += x0 / (x2 / x0) < x1",
                             lambda t: div(t[0], div(t[2], t[0])) < t[1],
                             value_selects=["min", "median", "split"], methods=["complete"])
    check_exhaustive_options(domains, "m += (x0 / 2) / (x2 / x0) < x1 * x1",
                             lambda t: div(div(t[0], 2), div(t[2], t[0])) < t[1] * t[1],
                             value_selects=["max", "middle", "random"],
                             methods=["complete", "lds:1000"])
