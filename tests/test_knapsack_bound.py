"""The fractional knapsack bound (propagators/knapsack.py, posted by compiler/knapsack.py
when an optimisation's objective is a weighted sum and a `<=` row of positive weights
covers its items): never cuts a solution off, the optimum against brute force under every
search, its conflict explanation sound, and the proof of a 40-item knapsack within a node
budget where plain branch and bound does not finish."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.propagators.knapsack import KnapsackBound
from optimisation_cases import knapsack


@st.composite
def knapsacks(draw):
    n = draw(st.integers(1, 5))
    highs = [draw(st.integers(1, 3)) for _ in range(n)]
    offsets = [draw(st.integers(0, 2)) for _ in range(n)]
    weights = [draw(st.integers(1, 5)) for _ in range(n)]
    gains = [draw(st.integers(-3, 6)) for _ in range(n)]
    capacity = draw(st.integers(0, 20))
    rows = draw(st.integers(1, 2))
    return highs, offsets, weights, gains, capacity, rows


def build(spec):
    highs, offsets, weights, gains, capacity, rows = spec
    m = cn.Model()
    x = [m.int_var(0, h, f"x{i}") for i, h in enumerate(highs)]
    items = [xi + o for xi, o in zip(x, offsets, strict=True)]
    m += cn.sum(w * y for w, y in zip(weights, items, strict=True)) <= capacity
    if rows == 2:  # a second capacity row, over the reversed weights
        m += cn.sum(w * y for w, y in zip(reversed(weights), items, strict=True)) <= capacity
    gain = cn.sum(g * y for g, y in zip(gains, items, strict=True))
    return m, x, gain


def brute(spec):
    highs, offsets, weights, gains, capacity, rows = spec
    out = []
    for p in itertools.product(*(range(h + 1) for h in highs)):
        ys = [v + o for v, o in zip(p, offsets, strict=True)]
        if sum(w * y for w, y in zip(weights, ys, strict=True)) > capacity:
            continue
        if rows == 2 and sum(w * y for w, y in zip(reversed(weights), ys, strict=True)) \
                > capacity:
            continue
        out.append(sum(g * y for g, y in zip(gains, ys, strict=True)))
    return out


@settings(max_examples=150, deadline=None)
@given(knapsacks(), st.sampled_from(["min", "max"]),
       st.sampled_from(["classic", "learning", "portfolio", "auto"]))
def test_the_optimum_and_the_root_bound_against_brute_force(spec, sense, search):
    m, _, gain = build(spec)
    values = brute(spec)
    objective = gain if sense == "max" else -gain
    best = m.maximize(gain, search=search) if sense == "max" else \
        m.minimize(objective, search=search)
    if not values:
        assert best is None and m.stats.status == "unsatisfiable"
        return
    optimum = max(values) if sense == "max" else min(-v for v in values)
    assert best.value(objective) == optimum and m.stats.status == "optimal_solution"
    m.maximize(gain, node_limit=1) if sense == "max" else m.minimize(objective, node_limit=1)
    if m.stats.bound is not None:  # the root's bound never cuts the optimum off
        assert m.stats.bound >= optimum if sense == "max" else m.stats.bound <= optimum


def test_the_bound_is_posted_at_the_root():
    """Items of gain 5, 3, 4 and 2 (the last with values 1..3) under weights 3, 2, 4, 1
    and capacity 8: the last item at 3 (weight 3, gain 6), then item 1 (2, 3), then 3 of
    item 0's 3 (gain 5), full: 14, where the sum's own bounds allow 5 + 3 + 4 + 6 = 18."""
    spec = ([1, 1, 1, 2], [0, 0, 0, 1], [3, 2, 4, 1], [5, 3, 4, 2], 8, 1)
    m, x, gain = build(spec)
    c = compile_model(m.variables, m.constraints, gain, 1)
    bounds = [p for p in c.solver.propagators if isinstance(p, KnapsackBound)]
    assert len(bounds) == 1
    assert c.obj.hi == 14 == max(brute(spec))
    c = compile_model(m.variables, m.constraints, -gain, -1)
    assert c.obj.lo == -14  # minimising the opposite: the same bound, from below
    c = compile_model(m.variables, m.constraints)
    assert not any(isinstance(p, KnapsackBound) for p in c.solver.propagators)


def test_a_40_item_knapsack_is_proved_within_a_node_budget():
    m, total, optimum = knapsack(40, 1)
    best = m.maximize(total, search="classic", node_limit=30_000)
    assert best.value(total) == optimum and m.stats.status == "optimal_solution"


def test_no_bound_where_no_item_of_positive_gain_weighs_anything():
    """A cost minimised over the items of a capacity row (every gain negative), or items of
    positive gain outside it: the bound would be the objective row's own (every item at
    its lower bound), computed again at every change. MiniZinc's trucking: 8 such bounds
    over 35 items were half of the search, and cut no node. Not posted; the optimum is
    still the brute force's."""
    spec = ([1, 2, 1, 1], [0, 0, 0, 0], [3, 2, 4, 1], [-5, -3, -4, -2], 6, 2)
    m, x, gain = build(spec)
    m += cn.sum(x) >= 2  # a covering row: a cost to minimise
    c = compile_model(m.variables, m.constraints, -gain, -1)
    assert not any(isinstance(p, KnapsackBound) for p in c.solver.propagators)
    best = m.minimize(-gain)
    want = min(-sum(g * v for g, v in zip(spec[3], p, strict=True))
               for p in itertools.product(range(2), range(3), range(2), range(2))
               if sum(p) >= 2 and sum(w * v for w, v in zip(spec[2], p, strict=True)) <= 6
               and sum(w * v for w, v in zip(reversed(spec[2]), p, strict=True)) <= 6)
    assert best.value(-gain) == want
    # a gain of its own outside the row: no bound from the row either
    spec = ([1, 1], [0, 0], [3, 2], [-1, -1], 4, 1)
    m, x, gain = build(spec)
    y = m.int_var(0, 5, "y")
    c = compile_model(m.variables, m.constraints, gain + 2 * y, 1)
    assert not any(isinstance(p, KnapsackBound) for p in c.solver.propagators)
