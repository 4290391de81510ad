"""The difference propagator z == x - y + c (propagators/rel.py, `Difference`), which the
compiler posts for a two-variable difference used as a term (`all_different([x[j] - x[i]
...])`, Golomb rulers), against brute force: random bit-set domains and bounds-only ranges,
every subset of the variables fixed first in every order (each order is a different
sequence of events), then the fixpoint compared with the truth:

(a) no solution is removed;
(b) bounds consistency: each bound of each variable has a support when the other domains
    are read as intervals;
(c) it fails only when there is no solution, and it fixes z once x and y are fixed.
"""

from __future__ import annotations

from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.engine import Inconsistency, Solver
from conundrum.engine.var import BITSET_LIMIT
from conundrum.propagators.rel import Difference

BIG = BITSET_LIMIT + 5


@st.composite
def domain(draw, lo: int, hi: int):
    """A set of values in lo..hi, or ("big", low) for a bounds-only range low..low+BIG."""
    if draw(st.integers(0, 5)) == 0:
        return ("big", draw(st.sampled_from((-BIG - 2, -BIG // 2, -3, 0))))
    return draw(st.sets(st.integers(lo, hi), min_size=1, max_size=8))


def make(s: Solver, spec, name: str):
    if isinstance(spec, tuple):
        return s.int_var(spec[1], spec[1] + BIG, name)
    return s.int_var_values(sorted(spec), name)


def members(spec) -> list[int]:
    """The values brute force tries: all of a set; a bounds-only range near its ends and 0."""
    if isinstance(spec, tuple):
        lo = spec[1]
        return sorted({v for v in (lo, lo + 1, lo + BIG - 1, lo + BIG, -1, 0, 1)
                       if lo <= v <= lo + BIG})
    return sorted(spec)


def contains(spec, v: int) -> bool:
    return spec[1] <= v <= spec[1] + BIG if isinstance(spec, tuple) else v in spec


@settings(max_examples=300, deadline=None)
@given(data=st.data(), c=st.integers(-3, 3))
def test_difference_against_brute_force(data: st.DataObject, c: int) -> None:
    zs = data.draw(domain(-14, 14), "z")
    xs_ = data.draw(domain(-6, 6), "x")
    ys = data.draw(domain(-6, 6), "y")
    specs = [zs, xs_, ys]
    # the solutions among the values brute force can try (all of them for bit sets)
    truth = [(a - b + c, a, b) for a in members(xs_) for b in members(ys)
             if contains(zs, a - b + c)]
    # a prefix of the variables fixed, in every order, to a value of a known solution
    fix_count = data.draw(st.integers(0, 2), "fix")
    target = data.draw(st.sampled_from(truth), "target") if truth and fix_count else None
    orders = list(permutations(range(3), fix_count)) if target else [()]
    for order in orders:
        s = Solver()
        z, x, y = (make(s, spec, n) for spec, n in zip(specs, "zxy"))
        vs = [z, x, y]
        try:
            s.post(Difference(s, z, x, y, c))
            s.fix_point()
            for i in order:
                s.trail.push_level()
                vs[i].assign(target[i])
                s.fix_point()
        except Inconsistency:
            expected = [t for t in truth if all(t[i] == target[i] for i in order)] \
                if target else truth
            assert not expected, (specs, c, order)  # (c) fails only without solutions
            continue
        for t in truth:  # (a)
            if target is None or all(t[i] == target[i] for i in order):
                assert all(v.contains(t[k]) for k, v in enumerate(vs)), (specs, c, t, order)
        # (b) bounds consistency over intervals
        zl, zh, xl, xh, yl, yh = z.lo, z.hi, x.lo, x.hi, y.lo, y.hi
        for v in (zl, zh):
            assert xl - yh + c <= v <= xh - yl + c
        for v in (xl, xh):
            assert zl + yl - c <= v <= zh + yh - c
        for v in (yl, yh):
            assert xl - zh + c <= v <= xh - zl + c
        if x.lo == x.hi and y.lo == y.hi:  # (c)
            assert z.lo == z.hi == x.lo - y.lo + c


@settings(max_examples=120, deadline=None)
@given(n=st.integers(2, 4), top=st.integers(2, 7), shift=st.integers(-3, 3))
def test_all_different_over_differences_counts_like_brute_force(n: int, top: int,
                                                                 shift: int) -> None:
    """Through the API: the differences become Difference propagators; the count of
    marks 0 <= x_0 < ... with distinct differences matches plain enumeration."""
    from itertools import combinations

    m = cn.Model()
    x = m.int_vars(n, 0, top, "x")
    m += cn.increasing(x, strict=True)
    m += cn.all_different([x[j] - x[i] + shift for i in range(n) for j in range(i + 1, n)])
    expected = sum(
        1 for marks in combinations(range(top + 1), n)
        if len({marks[j] - marks[i] for i in range(n) for j in range(i + 1, n)})
        == n * (n - 1) // 2)
    assert m.count() == expected
