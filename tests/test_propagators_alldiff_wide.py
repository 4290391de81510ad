"""all_different on wide values, at engine level: small bit-set domains mixed with bounds-only
ones (short ranges, and ranges of up to 2 * 10^18 values), seen through offset views of up
to 10^18, under random event orders (bound moves, removals, assignments) with nested levels
and undo. After every step each stage is checked against the truth and against itself
posted from scratch (ENGINE-BUGS.md, "all_different on a bounds-only variable that shrinks"
and "all_different: memory grows with the span of the values").

The truth is `oracle.all_different_views` (a depth-first search over the roots' values).
A range longer than `ENUM` cannot be enumerated; it is represented by its K lowest and K
highest values and by every value at which one of its views meets a view of an enumerable
root (K = n * n // 4 + 1 for n views). That loses nothing: in a solution, a value of such a
root outside that set meets no enumerable view, and the values of its views block at most
K - 1 of its K lowest values, so it can move to a free one there and stay a solution. For
the same reason a value cut off with a bound has a represented witness cut off with it.

Checks after each step (the domains just after the event are "pre"):
(a) every stage: a value removed from pre has no support in pre, a failure means pre has
    no solution, and when every view is fixed their values differ;
(b) the domain stage without shared roots: every value of a bit set and both bounds of a
    bounds-only domain have a support, and it fails exactly when pre has no solution;
(c) bounds and domain stages: posting the same stages from scratch on pre gives the same
    domains (the event order does not matter), and popping a level restores the domains
    saved before it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from conundrum.engine import Inconsistency, Solver
from conundrum.propagators.alldiff import (
    AllDifferentBounds,
    AllDifferentDomain,
    AllDifferentValue,
)

ENUM = 40  # a bounds-only range of at most this many values is enumerated by the oracle
CENTERS = (0, 10**8, 10**17, 10**18, -(10**18))
VARIANTS = ("value", "bounds", "domain", "sparse", "fallback")
EXACT = ("domain", "sparse")  # domain consistent on bit sets, bounds on bounds-only domains


# ------------------------------------------------------------------------------ problems


@st.composite
def problems(draw):
    """(roots, entries, events): 2-5 roots (a bit set, a short bounds-only range or a
    huge one, each placed near one of CENTERS), 2-6 views root + offset landing near one or
    two of CENTERS, and 4-12 events."""
    nroots = draw(st.sampled_from((4, 3, 5, 2)))
    # one view per root twice out of three times (the domain stage is exact then)
    n = nroots if draw(st.integers(0, 2)) else draw(st.integers(nroots, 6))
    # values within a window about as wide as there are views: Hall sets are frequent
    width = draw(st.integers(max(2, n - 2), n + 1))
    window = st.integers(0, width - 1)
    roots = []
    huge = 0
    for _ in range(nroots):
        kind = draw(st.sampled_from(("bits", "bits", "short", "huge")))
        if kind == "huge" and huge == 2:
            kind = "short"
        base = draw(st.sampled_from(CENTERS))
        if kind == "bits":
            vals = draw(st.frozensets(window, min_size=1, max_size=width))
            roots.append(("bits", base, sorted(base + v for v in vals)))
        elif kind == "short":
            lo = draw(window)
            size = draw(st.integers(1, width))
            roots.append(("range", base, (base + lo, base + lo + size - 1)))
        else:
            huge += 1
            below = draw(st.sampled_from((1, 10**9, 10**18)))
            above = draw(st.sampled_from((width, 10**9, 10**18)))
            roots.append(("range", base, (base - below, base + above)))
    # the views land near one or two centers: far from their roots' values, close together
    centers = draw(st.lists(st.sampled_from(CENTERS), min_size=1, max_size=2, unique=True))
    entries = []
    for k in range(n):
        r = k if k < nroots else draw(st.integers(0, nroots - 1))
        center = draw(st.sampled_from(centers))
        entries.append((r, center - roots[r][1] + draw(st.integers(-1, 1))))
    entries = draw(st.permutations(entries))
    event = st.tuples(st.sampled_from(("remove", "min", "max", "assign", "remove", "min",
                                       "max", "pop")),
                      st.integers(0, n - 1), st.integers(0, 10**6))
    events = draw(st.lists(event, min_size=4, max_size=12))
    return roots, entries, events


def build(roots, entries, variant, doms=None):
    """A solver, its roots (from the specs or from snapshot `doms`) and the views."""
    s = Solver()
    rs = []
    for k, (kind, _, data) in enumerate(roots):
        dom = doms[k] if doms is not None else (kind, data)
        if dom[0] == "bits":
            rs.append(s.int_var_values(dom[1], f"r{k}"))
        else:
            rs.append(s.int_var(dom[1][0], dom[1][1], f"r{k}", bitset=False))
    xs = [rs[r].view(o) for r, o in entries]
    return s, rs, xs


def post(s, xs, variant) -> None:
    """The stages of all_different (as post_all_different stages them; `sparse` and
    `fallback` force the sparse graph and the bounds fallback of the domain stage)."""
    s.post(AllDifferentValue(s, xs))
    if variant == "bounds":
        s.post(AllDifferentBounds(s, xs))
    elif variant == "domain":
        s.post(AllDifferentDomain(s, xs))
    elif variant == "sparse":
        s.post(AllDifferentDomain(s, xs, direct_span=0))
    elif variant == "fallback":
        s.post(AllDifferentDomain(s, xs, direct_span=0, union_limit=0))


def snapshot(rs):
    """The roots' domains: ("bits", values) or ("range", (lo, hi))."""
    return [("bits", x.values_list()) if x.bits >= 0 else ("range", (x.lo, x.hi)) for x in rs]


# -------------------------------------------------------------------------------- oracle


def reps(doms, entries):
    """The values of each root the oracle tries (module docstring)."""
    k = len(entries) * len(entries) // 4 + 1
    enum = []
    for kind, data in doms:
        if kind == "bits":
            enum.append(data)
        elif data[1] - data[0] < ENUM:
            enum.append(list(range(data[0], data[1] + 1)))
        else:
            enum.append(None)
    out = []
    for r, (_, data) in enumerate(doms):
        if enum[r] is not None:
            out.append(enum[r])
            continue
        lo, hi = data
        cand = set(range(lo, lo + k)) | set(range(hi - k + 1, hi + 1))
        for r2, o in entries:
            if r2 != r:
                continue
            for s2, p in entries:
                if s2 != r and enum[s2] is not None:
                    cand.update(v for v in (w + p - o for w in enum[s2]) if lo <= v <= hi)
        out.append(sorted(cand))
    return out


class Truth:
    """Support queries on the domains `doms`, cached."""

    def __init__(self, doms, entries):
        self.entries = entries
        self.reps = reps(doms, entries)
        self.cache: dict = {}

    def solution(self, r=None, v=None):
        key = (r, v)
        if key not in self.cache:
            pins = {} if r is None else {r: v}
            self.cache[key] = oracle.all_different_views(self.reps, self.entries, pins)
        return self.cache[key]


def contains(dom, v) -> bool:
    kind, data = dom
    return v in data if kind == "bits" else data[0] <= v <= data[1]


def check_step(pre, ok, post_doms, xs, entries, variant, from_scratch) -> None:
    truth = Truth(pre, entries)
    if not ok:
        assert truth.solution() is None, f"failed, but {truth.solution()} is a solution"
        return
    for r, values in enumerate(truth.reps):  # (a) removed values have no support
        for v in values:
            if not contains(post_doms[r], v):
                sol = truth.solution(r, v)
                assert sol is None, f"root {r} lost {v}, used by the solution {sol}"
    if all(x.lo == x.hi for x in xs):
        assert len({x.lo for x in xs}) == len(xs), f"all fixed, not all different: {xs}"
    if variant in EXACT and len({r for r, _ in entries}) == len(entries):  # (b)
        assert truth.solution() is not None, "no solution, but no failure"
        for r, (_, data) in enumerate(post_doms):
            for v in data:  # every value of a bit set, both bounds of a range
                assert truth.solution(r, v) is not None, f"root {r}: {v} has no support"
    if from_scratch is not None:  # (c)
        assert from_scratch == post_doms, "incremental and from-scratch propagation differ"


def scratch(roots, entries, variant, pre):
    """The domains that the stages posted from scratch on `pre` reach (None: failure)."""
    s, rs, xs = build(roots, entries, variant, pre)
    try:
        post(s, xs, variant)
    except Inconsistency:
        return None
    return snapshot(rs)


# --------------------------------------------------------------------------------- tests


def run(problem, variant) -> None:
    roots, entries, events = problem
    s, rs, xs = build(roots, entries, variant)
    pre = snapshot(rs)
    try:
        post(s, xs, variant)
        ok = True
    except Inconsistency:
        ok = False
    check_step(pre, ok, snapshot(rs) if ok else None, xs, entries, variant,
               None if variant == "value" else scratch(roots, entries, variant, pre))
    if not ok:
        return
    saved = []  # the domains before each open level
    for ev in events:
        if ev[0] == "pop":  # (a generated one carries two unused numbers)
            if saved:
                s.trail.pop_level()
                assert snapshot(rs) == saved.pop(), "undo did not restore the domains"
            continue
        kind, e, pick = ev[:3]
        before = snapshot(rs)
        s.trail.push_level()
        x = xs[e]
        r, o = entries[e]
        if len(ev) == 4:  # a given value
            v = ev[3]
        else:  # a value near the domain or where views meet, chosen by `pick`
            choices = sorted({x.lo, x.hi, x.lo + 1, x.hi - 1}
                             | {v + o for v in reps(before, entries)[r]})
            v = choices[pick % len(choices)]
        try:
            {"min": x.set_min, "max": x.set_max, "remove": x.remove, "assign": x.assign}[kind](v)
        except Inconsistency:  # the event itself empties a domain: nothing to check
            s.clear_queue()
            s.trail.pop_level()
            continue
        pre = snapshot(rs)
        try:
            s.fix_point()
            ok = True
        except Inconsistency:
            s.clear_queue()
            ok = False
        check_step(pre, ok, snapshot(rs) if ok else None, xs, entries, variant,
                   None if variant == "value" else scratch(roots, entries, variant, pre))
        if ok:
            saved.append(before)
        else:
            s.trail.pop_level()
            assert snapshot(rs) == before, "undo after a failure did not restore the domains"


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=120, deadline=None)
@given(problem=problems())
def test_wide_alldiff_under_random_events(problem, variant) -> None:
    run(problem, variant)


@pytest.mark.parametrize("variant", VARIANTS)
def test_bounds_only_variable_shrinks_below_n(variant) -> None:
    """The FlatZinc reproduction of ENGINE-BUGS.md, at engine level: with two of n = 4
    variables fixed, a bounds-only variable of 10^9 values shrinks to 3 values, between
    the unfixed count + 1 and n - 1 (it used to index a table of nfree + 1 sizes)."""
    roots = [("range", 0, (1, 10**9)), ("bits", 0, [1, 2, 3, 4, 5]),
             ("bits", 0, [1, 2, 3, 4, 5]), ("bits", 0, [1, 2, 3, 4, 5])]
    entries = [(0, 0), (1, 0), (2, 0), (3, 0)]
    events = [("assign", 1, None, 1), ("assign", 2, None, 2), ("max", 0, None, 5), ("pop",),
              ("max", 0, None, 4), ("pop",), ("pop",), ("max", 0, None, 3),
              ("min", 0, None, 2)]
    run((roots, entries, events), variant)


@pytest.mark.parametrize("variant", VARIANTS)
def test_views_far_apart_in_one_graph(variant) -> None:
    """A small domain, the same root at + 10^17 and a huge bounds-only root that meets both
    once it shrinks: the graph spans 10^17 values (the old bit set had one bit per value)."""
    roots = [("bits", 0, [0, 1, 2]), ("range", 0, (-(10**18), 10**18)), ("bits", 0, [5, 6])]
    entries = [(0, 0), (0, 10**17), (1, 0), (2, 0)]
    events = [("min", 2, None, 0), ("max", 2, None, 10**17 + 2), ("remove", 0, None, 0),
              ("max", 2, None, 4), ("pop",), ("pop",), ("min", 2, None, 10**17),
              ("assign", 3, None, 5)]
    run((roots, entries, events), variant)


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_root_twice_beside_views_far_below(variant) -> None:
    """Found by the random events (it raised MemoryError now and then): a root in two
    places and four views 10^18 below theirs. Removing a matching's values from a view
    shifted the mask by the views' distance, an integer of 10^18 bits."""
    roots = [("bits", 0, [0, 1]), ("bits", 0, list(range(6))), ("bits", 0, list(range(6))),
             ("bits", 0, list(range(6))), ("bits", 0, [0])]
    entries = [(0, 0), (1, -(10**18)), (2, -(10**18)), (3, -(10**18)), (4, -(10**18)), (0, 0)]
    run((roots, entries, [("remove", 0, 0)] * 4), variant)


def test_masks_far_from_a_domain() -> None:
    """remove_mask past every value removes nothing; keep_mask there empties the domain."""
    s = Solver()
    x = s.int_var(0, 5)
    x.remove_mask(10**18, 1)
    assert (x.lo, x.hi) == (0, 5)
    with pytest.raises(Inconsistency):
        x.keep_mask(10**18, 1)


SPANS = {"direct": {}, "sparse": {"direct_span": 0}}


@pytest.mark.parametrize("graph", SPANS)
@pytest.mark.parametrize("base", [0, 10**18])
def test_hall_set_values_leave_wide_variables(graph, base) -> None:
    """{1, 2} is a Hall set: a wide bit set and a wide bounds-only domain lose 1 and 2
    (by value in the sparse graph), also with every value at 10^18."""
    s = Solver()
    a = s.int_var_values([base + 1, base + 2])
    b = s.int_var_values([base + 1, base + 2])
    c = s.int_var_values([base + 1, base + 2, base + 3, base + 5])
    d = s.int_var(base + 1, base + 10**9, bitset=False)
    xs = [a, b, c, d]
    s.post(AllDifferentDomain(s, xs, **SPANS[graph]))
    assert c.values_list() == [base + 3, base + 5]
    assert (d.lo, d.hi) == (base + 3, base + 10**9)


@pytest.mark.parametrize("graph", SPANS)
def test_values_of_fixed_variables_leave_bounds_only_graph_domains(graph) -> None:
    """Bounds-only 1..3 holds the fixed value 2 inside: its graph domain is {1, 3}, so with
    y in {1, 3} that is a Hall set and z in {1, 3, 5} is 5 (with 2 left in, nothing is)."""
    s = Solver()
    x = s.int_var(2, 2)
    w = s.int_var(1, 3, bitset=False)
    y = s.int_var_values([1, 3])
    z = s.int_var_values([1, 3, 5])
    s.post(AllDifferentDomain(s, [x, w, y, z], **SPANS[graph]))
    assert z.values_list() == [5]


def test_fallback_on_many_distinct_values_is_bounds_consistency() -> None:
    """Past union_limit distinct values the domain stage reasons on bounds (Hall
    intervals): the Hall interval 1..2 moves the others' bounds, holes stay."""
    s = Solver()
    xs = [s.int_var_values([1, 2]), s.int_var_values([1, 2]),
          s.int_var_values([1, 3, 5]), s.int_var_values([2, 4, 10**4])]
    p = AllDifferentDomain(s, xs, direct_span=0, union_limit=2)
    s.post(p)
    assert p.hall is not None  # it did fall back
    assert [x.values_list() for x in xs] == [[1, 2], [1, 2], [3, 5], [4, 10**4]]
