"""z = min(xs) and z = max(xs) over bit-set domains with holes (propagators/arith_minmax.py):
after the fixpoint every value left in a domain has a support, and no supported value was
removed (domain consistency), against brute force over every combination; wider spans keep
to bounds and stay sound."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.engine import Inconsistency, Solver
from conundrum.propagators.arith_minmax import DOMAIN_SPAN, MinMax

domains = st.sets(st.integers(-4, 6), min_size=1, max_size=8).map(sorted)


def supported(doms: list[list[int]], is_max: bool) -> list[set[int]] | None:
    """The values of each variable (the xs, then z) in some solution; None: no solution."""
    seen: list[set[int]] = [set() for _ in doms]
    for xs in product(*doms[:-1]):
        z = max(xs) if is_max else min(xs)
        if z in doms[-1]:
            for k, v in enumerate((*xs, z)):
                seen[k].add(v)
    return seen if seen[-1] else None


def propagated(doms: list[list[int]], is_max: bool, offset: int = 0) -> list[set[int]] | None:
    """The domains after posting MinMax and running the fixpoint (xs read through views
    shifted by `offset` when it is not 0); None on failure."""
    s = Solver()
    variables = [s.int_var_values(d, f"v{k}") for k, d in enumerate(doms)]
    views = [v.view(offset) if offset else v for v in variables[:-1]] + [variables[-1]]
    try:
        s.post(MinMax(s, views[:-1], views[-1], is_max))
        s.fix_point()
    except Inconsistency:
        return None
    return [set(v.values()) for v in views]


@settings(max_examples=400, deadline=None)
@given(doms=st.lists(domains, min_size=2, max_size=4), is_max=st.booleans())
def test_domain_consistent_over_bit_sets(doms: list[list[int]], is_max: bool) -> None:
    truth = supported(doms, is_max)
    assert propagated(doms, is_max) == truth


@settings(max_examples=100, deadline=None)
@given(doms=st.lists(domains, min_size=2, max_size=3), is_max=st.booleans(),
       offset=st.integers(-3, 3))
def test_domain_consistent_through_views(doms: list[list[int]], is_max: bool,
                                         offset: int) -> None:
    shifted = [[v + offset for v in d] for d in doms[:-1]] + [doms[-1]]
    assert propagated(doms, is_max, offset) == supported(shifted, is_max)


@settings(max_examples=100, deadline=None)
@given(doms=st.lists(domains, min_size=1, max_size=3), is_max=st.booleans())
def test_wide_spans_keep_to_bounds_and_stay_sound(doms: list[list[int]],
                                                  is_max: bool) -> None:
    # a far value in z's domain makes the span wider than DOMAIN_SPAN: bounds reasoning
    far = [*doms[-1], DOMAIN_SPAN + 10]
    doms = [*doms, far]
    truth = supported(doms, is_max)
    got = propagated(doms, is_max)
    if truth is None:
        return  # bounds reasoning need not see every failure
    assert got is not None
    for kept, needed in zip(got, truth):
        assert needed <= kept
        assert min(kept) == min(needed) and max(kept) == max(needed)


@settings(max_examples=200, deadline=None)
@given(doms=st.lists(domains, min_size=2, max_size=4), is_max=st.booleans())
def test_switched_off_exactly_when_every_combination_satisfies(doms: list[list[int]],
                                                              is_max: bool) -> None:
    s = Solver()
    variables = [s.int_var_values(d, f"v{k}") for k, d in enumerate(doms)]
    p = MinMax(s, variables[:-1], variables[-1], is_max)
    try:
        s.post(p)
        s.fix_point()
    except Inconsistency:
        return
    left = [list(v.values()) for v in variables]
    every = all((max(c[:-1]) if is_max else min(c[:-1])) == c[-1] for c in product(*left))
    assert p.active is not every
