"""Property tests: global constraints (all_different at three strengths, element, table,
count, global_cardinality, increasing/decreasing, lex_less/lex_lesseq)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from test_properties_harness import (
    RELATIONS,
    Dom,
    check,
    check_exhaustive_options,
    doms,
    scaled,
)

REL = st.sampled_from(list(RELATIONS))
STRENGTHS = ["value", "bounds", "domain"]


@pytest.mark.parametrize("strength", STRENGTHS)
@settings(max_examples=scaled(1.2))
@given(data=st.data())
def test_all_different_each_strength(data: st.DataObject, strength: str) -> None:
    """cn.all_different(xs, strength=...) on 2-5 variables with overlapping small domains."""
    n = data.draw(st.integers(2, 5), label="n")
    domains = data.draw(doms(n, max_size=4 if n < 5 else 3, lo=-2, hi=2), label="domains")
    check(data, domains, f'm += cn.all_different(xs, strength="{strength}")',
          lambda t: oracle.all_different(t))


@settings(max_examples=scaled(0.8))
@given(data=st.data())
def test_all_different_default_strength_with_sum(data: st.DataObject) -> None:
    """cn.all_different(xs) (default strength) together with a linear sum."""
    n = data.draw(st.integers(3, 4), label="n")
    domains = data.draw(doms(n, max_size=4, lo=-1, hi=3), label="domains")
    k = data.draw(st.integers(-2, 8), label="k")
    check(data, domains, f"m += cn.all_different(xs)\nm += cn.sum(xs) == {k}",
          lambda t: oracle.all_different(t) and sum(t) == k)


@pytest.mark.parametrize("strength", STRENGTHS)
def test_all_different_pigeonhole_fails_at_each_strength(strength: str) -> None:
    """Four variables over three values: no solution (a Hall set / matching argument)."""
    check_exhaustive_options(
        [Dom((1, 2, 3), True)] * 3 + [Dom((1, 3), False)],
        f'm += cn.all_different(xs, strength="{strength}")', oracle.all_different)


@given(data=st.data())
def test_all_different_except_0(data: st.DataObject) -> None:
    """cn.all_different_except_0(xs): zeros may repeat, other values may not."""
    n = data.draw(st.integers(2, 5), label="n")
    domains = data.draw(doms(n, max_size=3 if n == 5 else 4, lo=-2, hi=2), label="domains")
    check(data, domains, "m += cn.all_different_except_0(xs)",
          lambda t: oracle.all_different_except_0(t))


@given(data=st.data(), rel=REL)
def test_element_of_constant_array(data: st.DataObject, rel: str) -> None:
    """cn.element(array, x0) OP x1, 0-based; out-of-range index values are no solution."""
    array = data.draw(st.lists(st.integers(-4, 4), min_size=1, max_size=5), label="array")
    domains = data.draw(doms(2, max_size=5, lo=-2, hi=4), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += cn.element({array}, x0) {rel} x1",
          lambda t: r(oracle.element(array, t[0]), t[1]),
          exprs=[(f"cn.element({array}, x0)", lambda t: oracle.element(array, t[0]))])


@given(data=st.data())
def test_element_of_variable_array_in_expression(data: st.DataObject) -> None:
    """cn.element([x1, x2, x3], x0) + x1 == 2: variable array, used inside an expression."""
    domains = data.draw(doms(4, max_size=3, lo=-1, hi=3), label="domains")
    check(data, domains, "m += cn.element([x1, x2, x3], x0) + x1 == 2",
          lambda t: oracle.element(t[1:], t[0]) + t[1] == 2,
          exprs=[("cn.element([x1, x2, x3], x0)", lambda t: oracle.element(t[1:], t[0]))])


@settings(max_examples=scaled(0.6))
@given(data=st.data())
def test_element_with_expression_index(data: st.DataObject) -> None:
    """cn.element([5, -1, 3, 0], x0 + x1) == x2: the index is an expression."""
    domains = data.draw(doms(3, max_size=4, lo=-2, hi=3), label="domains")
    arr = [5, -1, 3, 0]
    check(data, domains, f"m += cn.element({arr}, x0 + x1) == x2",
          lambda t: oracle.element(arr, t[0] + t[1]) == t[2])


@given(data=st.data())
def test_table(data: st.DataObject) -> None:
    """cn.table(xs, tuples) with random (possibly repeated, possibly empty) tuple lists."""
    n = data.draw(st.integers(1, 3), label="n")
    domains = data.draw(doms(n, max_size=4, lo=-2, hi=2), label="domains")
    tuples = data.draw(st.lists(st.tuples(*[st.integers(-3, 3)] * n), max_size=8),
                       label="tuples")
    check(data, domains, f"m += cn.table(xs, {[list(tp) for tp in tuples]})",
          lambda t: oracle.table(t, tuples))


@given(data=st.data(), v=st.integers(-2, 2), rel=REL)
def test_count_of_value(data: st.DataObject, v: int, rel: str) -> None:
    """cn.count(xs[:-1], v) OP x_last: the count is an expression."""
    n = data.draw(st.integers(2, 4), label="n")
    domains = data.draw(doms(n, max_size=3, lo=-2, hi=2), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += cn.count(xs[:-1], {v}) {rel} xs[-1]",
          lambda t: r(oracle.count(t[:-1], v), t[-1]),
          exprs=[(f"cn.count(xs[:-1], {v})", lambda t: oracle.count(t[:-1], v))])


@given(data=st.data())
def test_global_cardinality_constant_counts(data: st.DataObject) -> None:
    """cn.global_cardinality(xs, values, counts) with constant counts; other values free."""
    n = data.draw(st.integers(1, 4), label="n")
    domains = data.draw(doms(n, max_size=3, lo=-1, hi=2), label="domains")
    values = data.draw(st.lists(st.integers(-1, 3), min_size=1, max_size=3, unique=True),
                       label="values")
    counts = data.draw(st.lists(st.integers(0, 2), min_size=len(values), max_size=len(values)),
                       label="counts")
    check(data, domains, f"m += cn.global_cardinality(xs, {values}, {counts})",
          lambda t: oracle.global_cardinality(t, values, counts))


@settings(max_examples=scaled(0.6))
@given(data=st.data())
def test_global_cardinality_variable_counts(data: st.DataObject) -> None:
    """cn.global_cardinality(xs[:3], [0, 1], [x3, x4]): the counts are variables."""
    domains = data.draw(doms(3, max_size=3, lo=-1, hi=2), label="domains")
    cdoms = data.draw(doms(2, max_size=3, lo=0, hi=2), label="count domains")
    check(data, domains + cdoms, "m += cn.global_cardinality(xs[:3], [0, 1], [x3, x4])",
          lambda t: oracle.global_cardinality(t[:3], [0, 1], t[3:]))


@given(data=st.data(), fname=st.sampled_from(["increasing", "decreasing"]),
       strict=st.booleans())
def test_increasing_and_decreasing(data: st.DataObject, fname: str, strict: bool) -> None:
    """cn.increasing(xs, strict=...) and cn.decreasing(xs, strict=...)."""
    n = data.draw(st.integers(1, 4), label="n")
    domains = data.draw(doms(n, max_size=4, lo=-2, hi=2), label="domains")
    f = getattr(oracle, fname)
    check(data, domains, f"m += cn.{fname}(xs, strict={strict})", lambda t: f(t, strict=strict))


@settings(max_examples=scaled(0.5))
@given(data=st.data(), fname=st.sampled_from(["increasing", "decreasing"]))
def test_increasing_and_decreasing_default_not_strict(data: st.DataObject, fname: str) -> None:
    """Without strict=, increasing/decreasing allow equal neighbours."""
    domains = data.draw(doms(3, max_size=3, lo=-1, hi=1), label="domains")
    f = getattr(oracle, fname)
    check(data, domains, f"m += cn.{fname}(xs)", lambda t: f(t))


@given(data=st.data(), fname=st.sampled_from(["lex_less", "lex_lesseq"]))
def test_lex_less_and_lesseq(data: st.DataObject, fname: str) -> None:
    """cn.lex_less(xs, ys) / cn.lex_lesseq(xs, ys) for two equally long lists."""
    k = data.draw(st.integers(1, 3), label="length")
    domains = data.draw(doms(2 * k, max_size=3 if k == 3 else 4, lo=-1, hi=2), label="domains")
    f = getattr(oracle, fname)
    check(data, domains, f"m += cn.{fname}(xs[:{k}], xs[{k}:])",
          lambda t: f(t[:k], t[k:]))
