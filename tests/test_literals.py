"""Atomic predicates (engine/literals.py) against the domains they are read from: on bit-set,
bounds-only and view domains, `holds`, `falsified`, `make_true` and `negate` agree with the
domain's values, checked by brute force."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.engine import Inconsistency, Solver
from conundrum.engine.literals import (
    EQ,
    GE,
    LE,
    NE,
    Pred,
    falsified,
    from_decision,
    holds,
    key,
    make_true,
    negate,
    on_view,
)
from conundrum.search import selectors


def sat(kind: int, v: int, a: int) -> bool:
    """Whether the value a satisfies [_ <kind> v]."""
    return (a >= v, a <= v, a == v, a != v)[kind]


@st.composite
def domains(draw):
    """(values, bitset): a non-empty set of values, and whether it is kept as a bit set
    (a bounds-only domain is its interval)."""
    lo = draw(st.integers(-5, 5))
    vals = draw(st.sets(st.integers(lo, lo + 8), min_size=1))
    bitset = draw(st.booleans())
    if not bitset:
        vals = set(range(min(vals), max(vals) + 1))
    return sorted(vals), bitset


def make_var(s: Solver, vals: list[int], bitset: bool):
    if bitset:
        return s.int_var_values(vals, "x")
    return s.int_var(vals[0], vals[-1], "x", bitset=False)


@settings(max_examples=300, deadline=None)
@given(domains(), st.integers(0, 3), st.integers(-8, 16), st.integers(-3, 3))
def test_predicates_agree_with_the_domain(dom, kind, v, offset):
    vals, bitset = dom
    s = Solver()
    x = make_var(s, vals, bitset)
    assert x.bits < 0 or bitset
    view = x.view(offset)
    p = on_view(view, kind, v)
    assert p.var is x
    # on the root the value is shifted back by the view's offset
    root_v = v - offset
    assert holds(p) == all(sat(kind, root_v, a) for a in vals)
    assert falsified(p) == (not any(sat(kind, root_v, a) for a in vals))
    # the view's own values satisfy the view's predicate exactly when the root's do
    assert holds(p) == all(sat(kind, v, a) for a in view.values())
    q = negate(p)
    assert q.var is x and negate(q) == p
    assert holds(q) == falsified(p) and falsified(q) == holds(p)
    for a in range(vals[0] - 2, vals[-1] + 3):
        assert sat(q.kind, q.value, a) != sat(p.kind, p.value, a)
    # make_true keeps exactly the satisfying values, but an interior hole on a
    # bounds-only domain, which the domain cannot hold (it stays as it was)
    kept = [a for a in vals if sat(kind, root_v, a)]
    s.trail.push_level()
    interior_hole = (x.bits < 0 and kind == NE and vals[0] < root_v < vals[-1])
    try:
        make_true(p)
    except Inconsistency:
        assert not kept
    else:
        assert kept
        if interior_hole:
            assert x.values_list() == vals
            assert not holds(p)
        else:
            assert x.values_list() == kept
            assert holds(p)
    s.trail.pop_level()
    assert x.values_list() == vals


def test_decisions_as_predicates():
    # the engine repeats the search's decision kinds: they must agree
    assert (selectors.EQ, selectors.NE, selectors.LE, selectors.GT) == (0, 1, 2, 3)
    s = Solver()
    x = s.int_var(0, 9, "x")
    y = x.view(5)
    for kind in (selectors.EQ, selectors.NE, selectors.LE, selectors.GT):
        for v in range(5, 15):
            p = from_decision(y, kind, v)
            s.trail.push_level()
            try:
                selectors.apply_decision(x, kind, v - 5)
                expected = x.values_list()
            except Inconsistency:
                expected = None
            s.trail.pop_level()
            s.trail.push_level()
            try:
                make_true(p)
                got = x.values_list()
            except Inconsistency:
                got = None
            s.trail.pop_level()
            assert got == expected, (kind, v)


def test_keys_are_distinct_and_reprs_read_well():
    s = Solver()
    xs = [s.int_var(-3, 3, f"x{i}") for i in range(3)]
    preds = [Pred(x, k, v) for x in xs for k in (GE, LE, EQ, NE) for v in range(-4, 5)]
    keys = {key(p, len(s.vars)) for p in preds}
    assert len(keys) == len(preds) == len(set(preds))
    assert repr(Pred(xs[1], LE, -2)) == "[x1<=-2]"
    assert key(Pred(xs[0], GE, 10**30), 3) != key(Pred(xs[0], GE, 10**30 + 1), 3)
    assert Pred(xs[0], EQ, 1) != Pred(xs[1], EQ, 1)
