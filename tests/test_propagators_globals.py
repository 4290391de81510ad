"""Engine-level tests of the global propagators (alldiff, element, table) against brute force.

Each test builds a Solver with random small domains (subsets of -3..6), posts one propagator,
runs the fixpoint and compares with the truth computed by ``itertools.product``:

(a) soundness: no value of any solution was removed;
(b) completeness: for the domain-consistent propagators every remaining value has a support;
    for the bounds ones both bounds have a support on the interval relaxation;
(c) failure (Inconsistency) exactly when there is no solution, for the GAC ones;
(d) a small depth-first search with an explicit stack (push_level, assign, fix_point,
    pop_level) enumerates exactly the brute-force solution set, without duplicates.

Bounds-only variables (a range wider than BITSET_LIMIT) cannot be enumerated: they are
represented by the values that matter (-3..7 within the range, both bounds, and two
"generic" values 1000 and 1001 that no constant uses), which keeps every check valid.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.engine import Inconsistency, Solver
from conundrum.engine.var import BITSET_LIMIT
from conundrum.propagators.alldiff import (
    AllDifferentBounds,
    AllDifferentDomain,
    AllDifferentExcept0,
    AllDifferentValue,
    freeable_values,
    maximum_matching,
    scc_sets,
    scc_tarjan,
)
from conundrum.propagators.element import ElementConst, ElementVar
from conundrum.propagators.table import Table

BIG = BITSET_LIMIT + 5
GENERIC = (1000, 1001)

# ------------------------------------------------------------------------------- helpers


def build(specs):
    """A solver and one variable per spec: a set of values, or ("big", lo) for lo..lo+BIG."""
    s = Solver()
    xs = []
    for k, spec in enumerate(specs):
        if isinstance(spec, tuple) and spec and spec[0] == "big":
            xs.append(s.int_var(spec[1], spec[1] + BIG, f"x{k}"))
        else:
            xs.append(s.int_var_values(sorted(spec), f"x{k}"))
    return s, xs


def make_reps(xs, relax: bool = False) -> list[list[int]]:
    """The values of each variable used by brute force: all of them for bitset domains
    (unless `relax`: then the domain is read as its interval); for bounds-only ones -3..7,
    the bounds of every bounds-only variable and the generic values, within the range."""
    extra = set(GENERIC) | set(range(-3, 8))
    for x in xs:
        if x.bits < 0 or relax:
            extra |= {x.lo, x.hi}
    reps = []
    for x in xs:
        if x.bits >= 0 and not relax:
            reps.append(x.values_list())
        else:
            reps.append(sorted(v for v in extra if x.lo <= v <= x.hi))
    return reps


def brute(reps, pred) -> list[tuple[int, ...]]:
    return [t for t in itertools.product(*reps) if pred(t)]


def checked_values(x) -> list[int]:
    """Values whose support is checked: all of them, or the bounds of bounds-only domains."""
    return x.values_list() if x.bits >= 0 else sorted({x.lo, x.hi})


def post(s, make, xs) -> bool:
    """Post the propagator; False when it fails."""
    try:
        s.post(make(s, xs))
        s.fix_point()
    except Inconsistency:
        return False
    return True


def dfs(s, xs, reps) -> list[tuple[int, ...]]:
    """Every solution below the current node, by an explicit-stack DFS over `reps` values."""

    def choose():
        for i, x in enumerate(xs):
            if x.lo != x.hi:
                return [i, [v for v in reps[i] if x.contains(v)], 0, False]
        return None

    sols = []
    top = choose()
    if top is None:
        return [tuple(x.lo for x in xs)]
    frames = [top]
    while frames:
        f = frames[-1]
        if f[3]:
            s.trail.pop_level()
            f[3] = False
        if f[2] == len(f[1]):
            frames.pop()
            continue
        v = f[1][f[2]]
        f[2] += 1
        s.trail.push_level()
        f[3] = True
        try:
            xs[f[0]].assign(v)
            s.fix_point()
        except Inconsistency:
            s.clear_queue()
            continue
        nxt = choose()
        if nxt is None:
            sols.append(tuple(x.lo for x in xs))
        else:
            frames.append(nxt)
    return sols


def run_checks(specs, make, pred, *, gac: bool, bounds_relax: bool = False, extra=None):
    """Checks (a)-(d) for one propagator on one set of domains; returns the solver state."""
    s, xs = build(specs)
    reps = make_reps(xs)
    sols = brute(reps, pred)

    s.trail.push_level()
    ok = post(s, make, xs)
    if not ok:
        assert not sols, f"failed although {sols[0]} is a solution"
    else:
        # (a) soundness
        for t in sols:
            for x, v in zip(xs, t, strict=True):
                assert x.contains(v), f"{x} lost {v}, used by solution {t}"
        if gac:
            # (c) failure iff no solution
            assert sols, f"no solution but no failure: {xs}"
            # (b) every remaining value has a support
            for i, x in enumerate(xs):
                supported = {t[i] for t in sols}
                for v in checked_values(x):
                    assert v in supported, f"{x}: value {v} has no support"
        if bounds_relax:
            check_bounds_relaxation(xs, pred)
        if extra is not None:
            extra(xs)
        # (d) search finds exactly the solutions, once each
        found = dfs(s, xs, reps)
        assert sorted(found) == sols, f"dfs {sorted(found)} != brute force {sols}"
    s.trail.pop_level()
    return s, xs


def check_bounds_relaxation(xs, pred) -> None:
    """Both bounds of every variable have a support when domains are read as intervals."""
    sols = brute(make_reps(xs, relax=True), pred)
    for i, x in enumerate(xs):
        supported = {t[i] for t in sols}
        assert x.lo in supported, f"{x}: lower bound unsupported on the interval relaxation"
        assert x.hi in supported, f"{x}: upper bound unsupported on the interval relaxation"


def all_different(t) -> bool:
    return len(set(t)) == len(t)


def all_different_except_0(t) -> bool:
    nz = [v for v in t if v != 0]
    return len(set(nz)) == len(nz)


SMALL_DOM = st.frozensets(st.integers(-3, 6), min_size=1, max_size=5)


@st.composite
def specs_strategy(draw, min_n=2, max_n=5, max_big=0, max_size=5):
    """2-5 variables; the values come from -3..top, a narrow top makes Hall sets frequent."""
    n = draw(st.integers(min_n, max_n))
    top = draw(st.integers(-1, 6))
    specs = []
    big = 0
    for _ in range(n):
        kind = draw(st.integers(0, 5))
        if big < max_big and kind == 0:
            specs.append(("big", draw(st.integers(-3, 6))))
            big += 1
        elif kind == 1:  # an interval
            lo = draw(st.integers(-3, top))
            hi = draw(st.integers(lo, min(top, lo + max_size - 1)))
            specs.append(frozenset(range(lo, hi + 1)))
        else:
            specs.append(draw(st.frozensets(st.integers(-3, top), min_size=1,
                                            max_size=max_size)))
    return specs


# ------------------------------------------------------------------------------ alldiff

ALLDIFF = [AllDifferentValue, AllDifferentBounds, AllDifferentDomain]


def no_fixed_value_elsewhere(skip_zero=False):
    def check(xs):
        for i, x in enumerate(xs):
            if x.lo == x.hi and not (skip_zero and x.lo == 0):
                for j, y in enumerate(xs):
                    if j != i and y.bits >= 0:
                        assert not y.contains(x.lo), f"{y} still holds fixed value of {x}"
    return check


@settings(max_examples=120, deadline=None)
@given(specs=specs_strategy(max_big=2, max_size=4))
def test_alldiff_value(specs):
    run_checks(specs, AllDifferentValue, all_different, gac=False,
               extra=no_fixed_value_elsewhere())


@settings(max_examples=120, deadline=None)
@given(specs=specs_strategy(max_big=2, max_size=4))
def test_alldiff_bounds(specs):
    run_checks(specs, AllDifferentBounds, all_different, gac=False, bounds_relax=True,
               extra=no_fixed_value_elsewhere())


@settings(max_examples=150, deadline=None)
@given(specs=specs_strategy(max_big=2, max_size=4))
def test_alldiff_domain(specs):
    run_checks(specs, AllDifferentDomain, all_different, gac=True)


def scc_both_ways(doms, hint):
    """Run the Régin steps on bit-set domains; the bit-set SCCs must equal Tarjan's."""
    match = list(hint)
    try:
        owner, matched = maximum_matching(doms, match)
    except Inconsistency:
        return None
    assert all((doms[k] >> match[k]) & 1 for k in range(len(doms)))
    assert len(set(match)) == len(match)
    fvals, pending = freeable_values(doms, match, matched)
    by_sets, by_tarjan = [fvals] * len(doms), [fvals] * len(doms)
    scc_sets(pending, doms, match, owner, fvals, by_sets)
    scc_tarjan(pending, doms, match, owner, fvals, by_tarjan)
    assert by_sets == by_tarjan
    return by_sets


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 12), data=st.data())
def test_alldiff_domain_scc_against_tarjan(n, data):
    """Random graphs (and stale matchings as hints): the two SCC implementations agree,
    and the values they allow are exactly those of some complete matching (brute force
    on the small ones)."""
    doms = [data.draw(st.integers(1, (1 << (n + 2)) - 1)) for _ in range(n)]
    hint = [data.draw(st.integers(-1, n + 1)) for _ in range(n)]
    allowed = scc_both_ways(doms, hint)
    if n > 6:
        return
    values = [[b for b in range(n + 2) if (d >> b) & 1] for d in doms]
    matchings = [t for t in itertools.product(*values) if len(set(t)) == len(t)]
    if allowed is None:
        assert not matchings
        return
    for k in range(n):
        supported = {t[k] for t in matchings}
        assert {b for b in values[k] if (allowed[k] >> b) & 1} == supported


@settings(max_examples=100, deadline=None)
@given(specs=specs_strategy(max_big=1, max_size=4))
def test_alldiff_except0(specs):
    run_checks(specs, AllDifferentExcept0, all_different_except_0, gac=False,
               extra=no_fixed_value_elsewhere(skip_zero=True))


@settings(max_examples=60, deadline=None)
@given(specs=specs_strategy(min_n=4, max_n=6, max_size=3))
def test_alldiff_domain_tight(specs):
    """Many variables on few values: Hall sets everywhere."""
    specs = [frozenset(v % 5 for v in d) for d in specs]
    run_checks(specs, AllDifferentDomain, all_different, gac=True)
    run_checks(specs, AllDifferentBounds, all_different, gac=False, bounds_relax=True)


def _domains(xs):
    return [x.values_list() for x in xs]


def test_regin_hall_pair_forces_third():
    s, xs = build([{1, 2}, {1, 2}, {1, 2, 3}])
    assert post(s, AllDifferentDomain, xs)
    assert _domains(xs) == [[1, 2], [1, 2], [3]]


def test_regin_removes_hall_values_from_wide_and_keeps_free_paths():
    # {1,2} is a Hall set; x2 may take 3 or 4; x3 is wide and loses 1, 2 only
    s, xs = build([{1, 2}, {1, 2}, {1, 2, 3, 4}, {1, 2, 3, 4, 5}])
    assert post(s, AllDifferentDomain, xs)
    assert _domains(xs) == [[1, 2], [1, 2], [3, 4], [3, 4, 5]]


def test_regin_scc_pruning_beyond_bounds():
    # x0,x1 in {1,3}: Hall set {1,3}, interior hole; bounds reasoning cannot see it
    s, xs = build([{1, 3}, {1, 3}, {1, 2, 3}])
    assert post(s, AllDifferentDomain, xs)
    assert _domains(xs) == [[1, 3], [1, 3], [2]]
    s, xs = build([{1, 3}, {1, 3}, {1, 2, 3}])
    assert post(s, AllDifferentBounds, xs)
    assert _domains(xs)[2] == [1, 2, 3]  # bounds consistent already


def test_regin_matching_hint_survives_backtracking():
    s, xs = build([range(1, 5)] * 4)
    p = AllDifferentDomain(s, xs)
    s.post(p)
    for i, v in enumerate((4, 3, 2)):
        s.trail.push_level()
        xs[i].assign(v)
        s.fix_point()
        assert all(not x.contains(v) for x in xs[i + 1:])
    assert _domains(xs) == [[4], [3], [2], [1]]
    for _ in range(3):
        s.trail.pop_level()
    assert _domains(xs) == [[1, 2, 3, 4]] * 4
    s.trail.push_level()
    xs[1].assign(1)
    xs[2].assign(2)
    s.fix_point()
    assert _domains(xs) == [[3, 4], [1], [2], [3, 4]]
    s.trail.pop_level()


@pytest.mark.parametrize("cls", ALLDIFF)
def test_pigeonhole_fails(cls):
    s, xs = build([{1, 2, 3}] * 3 + [{1, 3}])
    if cls is AllDifferentValue:
        assert post(s, cls, xs)  # value elimination cannot see it before search
        assert dfs(s, xs, [x.values_list() for x in xs]) == []
    else:
        assert not post(s, cls, xs)


@pytest.mark.parametrize("cls", ALLDIFF)
def test_pigeonhole_large_domain_propagators(cls):
    n = 8
    s, xs = build([set(range(n - 1))] * n)
    if cls is AllDifferentValue:
        return
    assert not post(s, cls, xs)


@pytest.mark.parametrize("cls", ALLDIFF + [AllDifferentExcept0])
def test_fixed_duplicate_on_bounds_only_domains(cls):
    """Removing an interior value of a bounds-only domain is a no-op: still caught later."""
    s, xs = build([("big", 0), ("big", -3), {5, 6}])
    assert post(s, cls, xs)
    for first, second, v in ((2, 1, 5), (0, 1, 7), (1, 0, 7)):
        s.trail.push_level()
        xs[first].assign(v)
        s.fix_point()
        with pytest.raises(Inconsistency):
            xs[second].assign(v)
            s.fix_point()
        s.clear_queue()
        s.trail.pop_level()


def test_except0_allows_many_zeros():
    s, xs = build([{0}, {0}, {0, 1}, {0, 1}])
    assert post(s, AllDifferentExcept0, xs)
    assert _domains(xs) == [[0], [0], [0, 1], [0, 1]]
    xs[2].assign(1)
    s.fix_point()
    assert _domains(xs)[3] == [0]


def test_bounds_hall_interval_with_bounds_only_variable():
    s, xs = build([{1, 2}, {1, 2}, ("big", 1)])
    assert post(s, AllDifferentBounds, xs)
    assert xs[2].lo == 3
    s, xs = build([{1, 2}, {1, 2}, ("big", 1)])
    assert post(s, AllDifferentDomain, xs)
    assert xs[2].lo == 3


def test_bounds_upper_hall_interval():
    s, xs = build([{2, 3}, {2, 3}, {1, 2, 3}])
    assert post(s, AllDifferentBounds, xs)
    assert _domains(xs) == [[2, 3], [2, 3], [1]]


def test_bounds_holes_reach_fixpoint():
    # the Hall interval {1,2} pushes x2 to 3, a hole: x2 = 4, so x3 = 3
    specs = [{1, 2}, {1, 2}, {1, 2, 4}, {3, 4}]
    s, xs = build(specs)
    assert post(s, AllDifferentBounds, xs)
    assert _domains(xs) == [[1, 2], [1, 2], [4], [3]]
    run_checks(specs, AllDifferentBounds, all_different, gac=False, bounds_relax=True)


def test_bounds_fixed_by_hall_interval_is_eliminated():
    # x2 is fixed to 3 by the Hall interval {1,2}; 3 is interior to x3: value elimination
    s, xs = build([{1, 2}, {1, 2}, {1, 2, 3}, {0, 3, 5}])
    assert post(s, AllDifferentBounds, xs)
    assert _domains(xs) == [[1, 2], [1, 2], [3], [0, 5]]


# ------------------------------------------------------------------------------ element


def element_pred(array):
    n = len(array)
    return lambda t: 0 <= t[0] < n and t[1] == array[t[0]]


ARRAY = st.lists(st.integers(-3, 6), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(array=ARRAY, specs=specs_strategy(min_n=2, max_n=2, max_big=1, max_size=6),
       big_result=st.sampled_from([None, -3, 0, 3]))
def test_element_const(array, specs, big_result):
    if isinstance(specs[0], tuple):
        specs = [frozenset(range(-1, 7)), specs[1]]  # the index stays a bitset domain
    if big_result is not None:
        specs[1] = ("big", big_result)
    run_checks(specs, lambda s, xs: ElementConst(s, array, xs[0], xs[1]),
               element_pred(array), gac=True)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_element_const_long_arrays_of_few_values(data):
    """A long array of few distinct values (filtered value by value, through each value's
    mask of positions, while the index has more values than the array has distinct ones;
    position by position after that): domain consistent after the post and after each
    of a sequence of removals, failing exactly when nothing is left."""
    n = data.draw(st.integers(16, 300), label="n")
    top = data.draw(st.integers(-3, 6), label="largest value")
    array = data.draw(st.lists(st.integers(-3, top), min_size=n, max_size=n), label="array")
    s = Solver()
    index = s.int_var(0, n - 1)
    result = s.int_var(-3, 6)
    # what the user removed: the truth is every pair left by those removals
    allowed_i = set(range(n)) - data.draw(st.sets(st.integers(0, n - 1)), label="holes")
    allowed_r = set(range(-3, 7))

    def pairs() -> list[tuple[int, int]]:
        return [(i, array[i]) for i in range(n) if i in allowed_i and array[i] in allowed_r]

    try:
        index.keep_values(sorted(allowed_i))
        s.post(ElementConst(s, array, index, result))
        while True:
            assert index.values_list() == [i for i, _ in pairs()]
            assert result.values_list() == sorted({v for _, v in pairs()})
            if not data.draw(st.integers(0, 8), label="go on"):
                return
            step = data.draw(st.sampled_from(["result", "positions of", "position"]))
            if step == "result":
                v = data.draw(st.integers(-3, 6), label="value")
                allowed_r.discard(v)
                result.remove(v)
            elif step == "positions of":  # the index loses every position of one value
                v = data.draw(st.integers(-3, 6), label="value")
                allowed_i -= {i for i in range(n) if array[i] == v}
                index.keep_values(sorted(allowed_i))
            else:
                i = data.draw(st.integers(0, n - 1), label="position")
                allowed_i.discard(i)
                index.remove(i)
            s.fix_point()
    except Inconsistency:
        assert not pairs()


def _intersects(a, b) -> bool:
    if a.bits >= 0:
        return any(b.contains(v) for v in a.values())
    if b.bits >= 0:
        return any(a.contains(v) for v in b.values())
    return max(a.lo, b.lo) <= min(a.hi, b.hi)


def element_var_properties(xs) -> None:
    index, result, array = xs[0], xs[1], xs[2:]
    assert 0 <= index.lo and index.hi < len(array)
    for i in index.values():
        assert _intersects(array[i], result), f"index {i} kept but {array[i]} misses {result}"
    if result.bits >= 0:
        for v in result.values():
            assert any(array[i].contains(v) for i in index.values()), f"result {v} unsupported"
    else:
        for v in (result.lo, result.hi):
            assert any(array[i].contains(v) for i in index.values()), f"result {v} unsupported"
    if index.lo == index.hi:
        a = array[index.lo]
        assert (a.lo, a.hi) == (result.lo, result.hi)
        if a.bits >= 0 and result.bits >= 0:
            assert a.values_list() == result.values_list()


@settings(max_examples=150, deadline=None)
@given(specs=specs_strategy(min_n=3, max_n=5, max_big=2, max_size=4),
       big_result=st.sampled_from([None, -3, 0, 3]))
def test_element_var(specs, big_result):
    if isinstance(specs[0], tuple):
        specs = [frozenset(range(-1, 4)), *specs[1:]]
    if big_result is not None:
        specs[1] = ("big", big_result)
    k = len(specs) - 2
    run_checks(specs, lambda s, xs: ElementVar(s, xs[2:], xs[0], xs[1]),
               lambda t: 0 <= t[0] < k and t[1] == t[2 + t[0]], gac=False,
               extra=element_var_properties)


def test_element_const_examples():
    s, xs = build([range(-2, 8), range(0, 10)])
    assert post(s, lambda s, xs: ElementConst(s, [5, 3, 9, 3, 12], xs[0], xs[1]), xs)
    assert _domains(xs) == [[0, 1, 2, 3], [3, 5, 9]]
    xs[1].remove(3)
    s.fix_point()
    assert _domains(xs) == [[0, 2], [5, 9]]
    s, xs = build([range(0, 3), [7, 8]])
    assert not post(s, lambda s, xs: ElementConst(s, [1, 2, 3], xs[0], xs[1]), xs)


def test_element_var_fixed_index_is_equality():
    s, xs = build([{0, 1}, range(0, 10), {1, 3, 5}, {2, 4}])
    assert post(s, lambda s, xs: ElementVar(s, xs[2:], xs[0], xs[1]), xs)
    assert _domains(xs)[1] == [1, 2, 3, 4, 5]
    xs[0].assign(0)
    s.fix_point()
    assert _domains(xs)[1] == [1, 3, 5]
    xs[1].remove(3)
    s.fix_point()
    assert _domains(xs)[2] == [1, 5]


# -------------------------------------------------------------------------------- table


@st.composite
def table_case(draw):
    specs = draw(specs_strategy(min_n=2, max_n=4, max_big=1, max_size=4))
    top = max(max(d) if isinstance(d, frozenset) else 6 for d in specs)
    tuples = draw(st.lists(st.tuples(*[st.integers(-3, top)] * len(specs)), max_size=14))
    return specs, tuples


@settings(max_examples=150, deadline=None)
@given(case=table_case())
def test_table(case):
    specs, tuples = case
    allowed = set(tuples)
    run_checks(specs, lambda s, xs: Table(s, xs, tuples), lambda t: t in allowed, gac=True)


@settings(max_examples=60, deadline=None)
@given(case=table_case(), data=st.data())
def test_table_incremental(case, data):
    """Random removals after posting, at nested levels: GAC is kept, undo is exact."""
    specs, tuples = case
    allowed = set(tuples)
    s, xs = build(specs)
    if not post(s, lambda s, xs: Table(s, xs, tuples), xs):
        return
    saved = []
    for _ in range(data.draw(st.integers(1, 4))):
        saved.append([(x.lo, x.hi, x.bits) for x in xs])
        s.trail.push_level()
        reps = make_reps(xs)
        removals = []  # one or two removals before the fixpoint
        for _ in range(data.draw(st.integers(1, 2))):
            i = data.draw(st.integers(0, len(xs) - 1))
            if not reps[i]:
                continue
            v = data.draw(st.sampled_from(reps[i]))
            removals.append((i, v))
            if xs[i].bits >= 0 or v in (xs[i].lo, xs[i].hi):
                reps[i] = [w for w in reps[i] if w != v]
        expected = brute(reps, lambda t: t in allowed)
        try:
            for i, v in removals:
                xs[i].remove(v)
            s.fix_point()
        except Inconsistency:
            s.clear_queue()
            assert not expected, f"removing {removals} failed, yet {expected[0]} remains"
            break
        sols = brute(make_reps(xs), lambda t: t in allowed)
        assert sols
        for k, x in enumerate(xs):
            supported = {t[k] for t in sols}
            for w in checked_values(x):
                assert w in supported
    while saved:
        s.trail.pop_level()
        assert [(x.lo, x.hi, x.bits) for x in xs] == saved.pop()


def test_table_examples():
    tuples = [(1, 2, 3), (2, 2, 2), (3, 1, 2), (9, 9, 9)]
    s, xs = build([{1, 2, 3}, {1, 2}, {2, 3, 4}])
    p_ok = post(s, lambda s, xs: Table(s, xs, tuples), xs)
    assert p_ok and _domains(xs) == [[1, 2, 3], [1, 2], [2, 3]]
    s.trail.push_level()
    xs[1].remove(2)
    s.fix_point()
    assert _domains(xs) == [[3], [1], [2]]
    s.trail.pop_level()
    assert _domains(xs) == [[1, 2, 3], [1, 2], [2, 3]]
    xs[2].remove(2)
    s.fix_point()
    assert _domains(xs) == [[1], [2], [3]]
    s, xs = build([{1}, {1}])
    assert not post(s, lambda s, xs: Table(s, xs, [(1, 2), (2, 1)]), xs)


def test_table_entailment_needs_every_combination():
    specs = [{1, 2}, {1, 2}]
    tuples = [(1, 1), (1, 2), (2, 1)]
    run_checks(specs, lambda s, xs: Table(s, xs, tuples), lambda t: t in tuples, gac=True)


def test_table_bounds_only_variable_loses_its_upper_bound():
    tuples = [(1, 1), (5, 2), (3, 3)]
    s, xs = build([("big", 0), {1, 2, 3}])
    assert post(s, lambda s, xs: Table(s, xs, tuples), xs)
    assert (xs[0].lo, xs[0].hi) == (1, 5)
    xs[1].remove(2)
    s.fix_point()
    assert (xs[0].lo, xs[0].hi) == (1, 3)  # 2 stays: interior of a bounds-only domain
    xs[1].remove(1)
    s.fix_point()
    assert (xs[0].lo, xs[0].hi) == (3, 3)


def test_table_bounds_only_column_changed_alone_moves_onto_a_supported_value():
    """A bounds-only column whose own bound moved (the only change) is still filtered: its
    new bound may be a value no tuple has (the quotient behind x - 80000 / y <= 5 kept
    -5..80000 instead of 80000 and search walked through all of it)."""
    tuples = [(1, -40), (2, 10), (3, 80)]
    s, xs = build([{1, 2, 3}, ("big", -40)])
    assert post(s, lambda s, xs: Table(s, xs, tuples), xs)
    assert (xs[1].lo, xs[1].hi) == (-40, 80)
    s.trail.push_level()
    xs[1].set_min(-5)
    s.fix_point()
    assert (xs[1].lo, xs[1].hi) == (10, 80) and xs[0].values_list() == [2, 3]
    s.trail.pop_level()
    xs[1].set_max(79)
    s.fix_point()
    assert (xs[1].lo, xs[1].hi) == (-40, 10) and xs[0].values_list() == [1, 2]


def test_table_two_variables_changed_before_the_call():
    tuples = [(1, 1), (2, 2), (2, 3), (1, 3)]
    s, xs = build([{1, 2}, {1, 2, 3}])
    assert post(s, lambda s, xs: Table(s, xs, tuples), xs)
    xs[0].remove(2)
    xs[1].remove(1)
    s.fix_point()
    assert _domains(xs) == [[1], [3]]


def test_table_refuses_two_columns_of_one_variable():
    """Two views of one variable in one table would filter each other behind the table's
    back; the compiler merges such columns (post_table), the propagator refuses them."""
    s = Solver()
    x = s.int_var(0, 3)
    with pytest.raises(ValueError, match="share a variable"):
        Table(s, [x, x.view(1)], [(0, 1), (1, 2)])


@pytest.mark.parametrize("items", [(1, 2, "x"), (2, 1, "x"), ("x", 1, 2), (1, 1, "x"),
                                   (3, "x", 3), (1, 2, 3), (3, 2, 1)])
@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("descending", [False, True])
def test_ordered_with_adjacent_constants_counts_like_brute_force(items, strict, descending):
    """increasing/decreasing over a mix of constants and a variable: two adjacent constants
    make a relation that is already True or False, which must hold (or fail) like any
    other, posted or reified (in a disjunction)."""
    def ordered(values):
        pairs = list(zip(values, values[1:]))
        if descending:
            pairs = [(b, a) for a, b in pairs]
        return all(a < b if strict else a <= b for a, b in pairs)

    make = cn.decreasing if descending else cn.increasing
    for reified in (False, True):
        m = cn.Model()
        x = m.int_var(0, 5, "x")
        c = make([x if i == "x" else i for i in items], strict=strict)
        m += (c | (x == 5)) if reified else c
        expected = sum(1 for v in range(6)
                       if ordered([v if i == "x" else i for i in items])
                       or (reified and v == 5))
        assert m.count() == expected, (items, strict, descending, reified)
