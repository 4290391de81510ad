"""Property tests of the domain-consistent linear equation (propagators/linear_domain.py)
against brute force, on small random equations with positive and negative coefficients:

- at its fixpoint the propagator keeps exactly the values that belong to a solution (none
  supported is removed, every unsupported one is), and fails exactly when there is none;
- after more values are removed (a search step), it again keeps exactly the supported ones
  (its incremental cache is exercised), and undoing the step restores the domains;
- a depth-first search under it enumerates exactly the brute-force solutions;
- cn.linear_eq(..., strength="domain") counts as brute force does, and as "bounds" does.
"""

from __future__ import annotations

import itertools
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.engine import Inconsistency, Solver
from conundrum.propagators.linear_domain import SPAN_LIMIT, LinearEqDomain
from test_properties_harness import scaled

VALUES = st.frozensets(st.integers(-4, 6), min_size=1, max_size=5)
COEF = st.integers(-5, 5).filter(lambda a: a != 0)


def solutions(coefs, domains, c):
    """The tuples of the domains with sum(a*x) + c == 0."""
    return [t for t in itertools.product(*(sorted(d) for d in domains))
            if sum(a * v for a, v in zip(coefs, t)) + c == 0]


def supported(sols, n):
    return [{t[k] for t in sols} for k in range(n)]


def post(coefs, domains, c, wide=()):
    """A solver, its variables (those listed in `wide` bounds-only) and the propagator; None
    as the propagator when posting failed."""
    s = Solver()
    xs = []
    for k, d in enumerate(domains):
        if k in wide:
            xs.append(s.int_var(min(d), max(d), f"x{k}", bitset=False))
        else:
            xs.append(s.int_var_values(sorted(d), f"x{k}"))
    p = LinearEqDomain(s, coefs, xs, c)
    try:
        s.post(p)
    except Inconsistency:
        return s, xs, None
    return s, xs, p


@settings(max_examples=scaled(2))
@given(data=st.data(), n=st.integers(2, 4), c=st.integers(-15, 15))
def test_fixpoint_is_domain_consistent(data, n, c):
    coefs = data.draw(st.lists(COEF, min_size=n, max_size=n), label="coefs")
    domains = data.draw(st.lists(VALUES, min_size=n, max_size=n), label="domains")
    sols = solutions(coefs, domains, c)
    s, xs, p = post(coefs, domains, c)
    if not sols:
        assert p is None
        return
    assert p is not None
    assert [set(x.values()) for x in xs] == supported(sols, n)

    # a search step: remove some values, run to the fixpoint, compare again, undo
    removals = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(-4, 6)),
                                  max_size=4), label="removals")
    before = [set(x.values()) for x in xs]
    s.trail.push_level()
    narrowed = [set(x.values()) for x in xs]
    for k, v in removals:
        narrowed[k].discard(v)
    sols2 = solutions(coefs, narrowed, c) if all(narrowed) else []
    try:
        for k, v in removals:
            xs[k].remove(v)
        s.fix_point()
    except Inconsistency:
        s.clear_queue()
        assert not sols2
    else:
        assert sols2 and [set(x.values()) for x in xs] == supported(sols2, n)
    s.trail.pop_level()
    assert [set(x.values()) for x in xs] == before
    # the cache now holds the narrowed domains: a fresh removal must still be exact
    k, v = data.draw(st.tuples(st.integers(0, n - 1), st.integers(-4, 6)), label="again")
    s.trail.push_level()
    after = [set(x.values()) for x in xs]
    after[k].discard(v)
    sols3 = solutions(coefs, after, c) if all(after) else []
    try:
        xs[k].remove(v)
        s.fix_point()
    except Inconsistency:
        s.clear_queue()
        assert not sols3
    else:
        assert sols3 and [set(x.values()) for x in xs] == supported(sols3, n)
    s.trail.pop_level()


@settings(max_examples=scaled(1))
@given(data=st.data(), n=st.integers(2, 3), c=st.integers(-12, 12))
def test_bounds_only_domains_get_supported_bounds(data, n, c):
    """A bounds-only variable (no bit set) gets the smallest and largest supported value."""
    coefs = data.draw(st.lists(COEF, min_size=n, max_size=n), label="coefs")
    los = data.draw(st.lists(st.integers(-4, 3), min_size=n, max_size=n), label="lo")
    widths = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n), label="width")
    domains = [set(range(lo, lo + w + 1)) for lo, w in zip(los, widths)]
    wide = {0}
    sols = solutions(coefs, domains, c)
    s, xs, p = post(coefs, domains, c, wide)
    if not sols:
        assert p is None
        return
    sup = supported(sols, n)
    assert (xs[0].lo, xs[0].hi) == (min(sup[0]), max(sup[0]))
    for k in range(1, n):
        assert set(xs[k].values()) == sup[k]


def search(s, xs):
    """Every solution by depth-first search with an explicit stack (no recursion)."""
    found = []
    stack = [None]
    while stack:
        step = stack.pop()
        if step == "pop":
            s.trail.pop_level()
            continue
        s.trail.push_level()
        stack.append("pop")
        try:
            if step is not None:
                xs[step[0]].assign(step[1])
            s.fix_point()
        except Inconsistency:
            s.clear_queue()
            continue
        free = [k for k, x in enumerate(xs) if x.lo != x.hi]
        if not free:
            found.append(tuple(x.lo for x in xs))
            continue
        k = free[0]
        for v in reversed(list(xs[k].values())):
            stack.append((k, v))
    return found


@settings(max_examples=scaled(1))
@given(data=st.data(), n=st.integers(2, 5), c=st.integers(-20, 20))
def test_search_enumerates_brute_force(data, n, c):
    coefs = data.draw(st.lists(COEF, min_size=n, max_size=n), label="coefs")
    domains = data.draw(st.lists(VALUES, min_size=n, max_size=n), label="domains")
    sols = solutions(coefs, domains, c)
    s, xs, p = post(coefs, domains, c)
    if p is None:
        assert not sols
        return
    found = search(s, xs)
    assert sorted(found) == sorted(sols) and len(set(found)) == len(found)


@settings(max_examples=scaled(1))
@given(data=st.data(), n=st.integers(2, 4), rhs=st.integers(-12, 12))
def test_linear_eq_counts_as_brute_force(data, n, rhs):
    """cn.linear_eq with strength "domain", a variable possibly repeated, counts the
    brute-force solutions, as strength "bounds" does."""
    coefs = data.draw(st.lists(COEF, min_size=n, max_size=n), label="coefs")
    domains = data.draw(st.lists(VALUES, min_size=2, max_size=2), label="domains")
    which = data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n), label="vars")
    truth = sum(1 for t in itertools.product(*(sorted(d) for d in domains))
                if sum(a * t[w] for a, w in zip(coefs, which)) == rhs)
    for strength in ("domain", "bounds"):
        m = cn.Model()
        xs = [m.int_var(sorted(d), f"x{k}") for k, d in enumerate(domains)]
        m += cn.linear_eq(coefs, [xs[w] for w in which], rhs, strength=strength)
        assert m.count() == truth


@pytest.mark.parametrize("strength", ["domain", "bounds"])
def test_domain_consistency_sees_what_bounds_miss(strength):
    """x + y + z == 5 over {0, 3, 4} has no solution, but every bound has a bounds
    support: domain consistency fails at the root, bounds consistency needs a search."""
    m = cn.Model()
    xs = m.int_vars(3, [0, 3, 4], "x")
    m += cn.linear_eq([1, 1, 1], xs, 5, strength=strength)
    assert m.solve() is None
    assert (m.stats.nodes == 0) == (strength == "domain")


def test_span_limit_falls_back_to_bounds_with_a_warning():
    m = cn.Model()
    x = m.int_var(0, SPAN_LIMIT, "x")
    y = m.int_var(0, 3, "y")
    m += cn.linear_eq([1, 2], [x, y], 5, strength="domain")
    with pytest.warns(RuntimeWarning, match="bounds consistency instead"):
        assert m.count() == 3
    m = cn.Model()
    x = m.int_var(0, 100, "x")
    m += cn.linear_eq([1, 2], [x, y := m.int_var(0, 3, "y")], 5, strength="domain")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert m.count() == 3


@pytest.mark.parametrize("bad", [
    lambda m, x: cn.linear_eq([1, 2], x, 3, strength="value"),
    lambda m, x: cn.linear_eq([1], x, 3),
    lambda m, x: cn.linear_eq([1, 2.5], x, 3),
    lambda m, x: cn.linear_eq([1, 2], x, True),
])
def test_linear_eq_mistakes_are_model_errors(bad):
    m = cn.Model()
    x = m.int_vars(2, 0, 3, "x")
    with pytest.raises(cn.ModelError, match="linear_eq"):
        bad(m, x)


def test_failed_call_is_not_taken_for_consistent_when_its_domains_return():
    """Issue 40, item 1 (cell_block): a call that fails leaves its cache describing the
    failing domains; when the search comes back to exactly those domains (a backjump, a
    restart) the propagator must fail again, not return at once as if nothing changed."""
    s, xs, p = post([1, 4, -1], [{1, 2, 3, 4}, {3, 4}, set(range(1, 17))], -4)
    assert p is not None
    for _ in range(2):
        s.trail.push_level()
        with pytest.raises(Inconsistency):
            for x, v in zip(xs, (3, 3, 12)):  # 3 + 4*3 - 12 - 4 != 0
                x.assign(v)
            s.fix_point()
        s.clear_queue()
        s.trail.pop_level()


@settings(max_examples=scaled(2))
@given(data=st.data(), n=st.integers(2, 4), c=st.integers(-12, 12))
def test_same_domains_same_verdict_whatever_came_before(data, n, c):
    """Propagation is a function of the domains: a step (each variable cut down to some of
    its values, then the fixpoint), undone and made again, fails or keeps exactly what it
    did the first time, whatever steps (failed or not) came in between."""
    coefs = data.draw(st.lists(COEF, min_size=n, max_size=n), label="coefs")
    domains = data.draw(st.lists(VALUES, min_size=n, max_size=n), label="domains")
    s, xs, p = post(coefs, domains, c)
    if p is None:
        return
    cuts = st.lists(st.one_of(st.none(), st.frozensets(st.integers(-4, 6), min_size=1)),
                    min_size=n, max_size=n)
    steps = data.draw(st.lists(cuts, min_size=1, max_size=8), label="steps")

    def apply(step):
        s.trail.push_level()
        try:
            for x, keep in zip(xs, step):
                if keep is not None:
                    x.keep_values(sorted(keep))
            s.fix_point()
            outcome = [tuple(x.values()) for x in xs]
        except Inconsistency:
            s.clear_queue()
            outcome = None
        s.trail.pop_level()
        return outcome

    first = []
    for step in steps:
        first.append(apply(step))
        assert apply(step) == first[-1]  # at once again
    assert [apply(step) for step in reversed(steps)] == first[::-1]  # after the others
