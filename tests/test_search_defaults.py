"""Defaults that do not fall into a hole (issue 29, slice 3): an objective variable is
branched on after the decision variables, and under restarts ties between equally good
variables are broken by a seeded random stream that both builds share."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.engine import Solver
from conundrum.search.selectors import (
    INT_KEYS,
    VAR_SELECTS,
    Random32,
    _most_constrained_key,
    make_var_select,
)


def bin_packing(seed: int = 4, items: int = 30) -> tuple[cn.Model, list[cn.Var], cn.Var]:
    rng = random.Random(seed)
    sizes = [rng.randint(20, 60) for _ in range(items)]
    m = cn.Model()
    bins = m.int_vars(items, 0, items - 1, "b")
    loads = m.int_vars(items, 0, 100, "load")
    used = m.int_var(1, items, "used")
    m += cn.bin_packing(loads, bins, sizes)
    m += [b < used for b in bins]
    return m, bins, used


def test_the_objective_is_branched_on_last() -> None:
    """Bin packing: chosen first (it is in every constraint), the number of bins would be
    fixed at its lower bound, which no short search refutes; branched on last, the first
    placement found is a solution, then improved."""
    m, bins, used = bin_packing()
    best = m.minimize(used, node_limit=200)
    assert best is not None and best[used] == max(best[b] for b in bins) + 1
    assert m.stats.stopped_by == "node_limit"
    # the hole itself: the same search told to branch on the objective first finds nothing
    m, bins, used = bin_packing()
    assert m.minimize(used, node_limit=200, phases=[([used], "input_order", "min")]) is None


@pytest.mark.parametrize("sense", ["min", "max"])
def test_an_objective_left_free_is_labelled_toward_the_optimum(sense: str) -> None:
    """z is bounded by the others but not fixed by them: labelled last, toward the better
    end, so each solution is the best for its x and y; the optimum is exact under every
    method, lds included (its record of solutions seen counts the objective)."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 3)
    z = m.int_var(-10, 10, "z")
    m += x != y
    if sense == "min":
        m += z >= x - 2 * y
        want = -6
    else:
        m += z <= x + y
        want = 5
    for method in ("complete", "lds:1000", "bbs:10000"):
        values = [s[z] for s in m.improving(z, sense, method=method)]
        assert values[-1] == want, (method, values)
        assert len(set(values)) == len(values)
    assert m.stats.status == "optimal_solution"


def test_the_objective_in_phases_is_still_branched_first() -> None:
    """An explicit phase is the user's order and is kept."""
    m, bins, used = bin_packing(items=12)
    first = next(iter(m.improving(used, "min", phases=[([used], "input_order", "max")])))
    assert first[used] == 12  # the phase tried used = 12 first
    first = next(iter(m.improving(used, "min")))
    assert first[used] == max(first[b] for b in bins) + 1 < 12  # labelled last, lowest


# ------------------------------------------------------------------ random ties
def test_random32_stream() -> None:
    a, b = Random32(7), Random32(7)
    stream = [a.below(1000) for _ in range(200)]
    assert stream == [b.below(1000) for _ in range(200)]
    assert len(set(stream)) > 150  # not stuck
    assert stream != [Random32(8).below(1000) for _ in range(200)]
    counts = [0] * 4
    rng = Random32(0)
    for _ in range(4000):
        counts[rng.below(4)] += 1
    assert all(800 < c < 1200 for c in counts), counts
    assert Random32(0).state != 0


@pytest.mark.parametrize("name", VAR_SELECTS)
def test_ties_are_broken_at_random(name: str) -> None:
    """Eight unfixed variables that every heuristic finds equally good: without a stream
    the first is chosen; with one, each of them for some seed."""
    s = Solver()
    xs = [s.int_var(0, 5) for _ in range(8)]
    assert make_var_select(name)(xs) is xs[0]
    chosen = {make_var_select(name, Random32(seed))(xs) for seed in range(200)}
    if name == "input_order":
        assert chosen == {xs[0]}  # no ties: the order decides
    else:
        assert chosen == set(xs)


@pytest.mark.parametrize("name", VAR_SELECTS)
def test_random_ties_never_pick_a_worse_variable(name: str) -> None:
    s = Solver()
    xs = [s.int_var(0, 5) for _ in range(6)]
    xs.insert(3, s.int_var(0, 1))  # the smallest domain: first_fail and co. must pick it
    xs.insert(1, s.int_var(3, 3))  # fixed: never chosen
    plain = make_var_select(name)(xs)
    for seed in range(50):
        pick = make_var_select(name, Random32(seed))(xs)
        assert pick is not None and pick.lo != pick.hi
        if name in ("first_fail", "dom_wdeg", "most_constrained"):
            assert pick is plain is xs[4]


def _regret(x) -> int:
    nxt = x.next_value(x.lo)
    return 0 if nxt is None else nxt - x.lo


# what each integer-key selector means, written out here (ECLiPSe's names)
MEANINGS = {"anti_first_fail": lambda x: -x.card, "smallest": lambda x: x.lo,
            "largest": lambda x: -x.hi, "occurrence": lambda x: -x.degree(),
            "max_regret": lambda x: -_regret(x)}


@settings(max_examples=80, deadline=None)
@given(domains=st.lists(st.lists(st.integers(-6, 6), min_size=1, max_size=5), min_size=1,
                        max_size=8),
       name=st.sampled_from(sorted(INT_KEYS)), seed=st.integers(0, 50))
def test_integer_key_selectors_choose_what_their_keys_mean(domains, name, seed) -> None:
    """The selectors over an integer key choose the first unfixed variable with the
    smallest key (and, under restarts, one of those with the smallest key)."""
    s = Solver()
    xs = [s.int_var_values(sorted(set(d))) for d in domains]
    unfixed = [x for x in xs if x.lo != x.hi]
    key = MEANINGS[name]
    want = min(unfixed, key=key) if unfixed else None  # min keeps the first tie
    assert make_var_select(name)(xs) is want
    pick = make_var_select(name, Random32(seed))(xs)
    assert pick is want is None or key(pick) == key(want)


def test_unknown_selector() -> None:
    with pytest.raises(ValueError):
        make_var_select("best_guess")
    with pytest.raises(ValueError):
        make_var_select("best_guess", Random32(1))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 3)), min_size=1, max_size=8),
       st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=10))
def test_most_constrained_is_the_least_size_then_the_most_degree(
        sizes: list[tuple[int, int]], pairs: list[tuple[int, int]]) -> None:
    """most_constrained (degrees counted only where sizes tie) picks what the key (size,
    -degree) picks: the first of the least, over random sizes and x != y constraints
    (some decided, so that inactive ones must not count)."""
    m = cn.Model()
    xs = [m.int_var(lo, lo + size - 1, f"x{i}") for i, (size, lo) in enumerate(sizes)]
    for a, b in pairs:
        if a < len(xs) and b < len(xs) and a != b:
            m += xs[a] != xs[b] + 10  # often entailed by the bounds: inactive at the root
            m += xs[a] + xs[b] >= 1
    compiled = compile_model(m.variables, m.constraints)
    if compiled is None:
        return
    engine = compiled.decision
    unfixed = [x for x in engine if x.lo != x.hi]
    want = min(unfixed, key=_most_constrained_key) if unfixed else None
    assert make_var_select("most_constrained")(engine) is want
