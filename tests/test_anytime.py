"""Optimisation made visible (issue 30, first slice): on_solution, the objective, bound and
gap of every run, Ctrl-C returning the best found, and hints that guide without
constraining. Bounds are checked against brute-force optima on random models."""

from __future__ import annotations

import gc
import os
import signal
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from optimisation_cases import brute_optimum, build_linear, linear_models


def knapsack(n: int = 5) -> tuple[cn.Model, list[cn.Var], cn.Expr]:
    m = cn.Model()
    weight = [12, 2, 1, 1, 4, 7, 3, 9, 5, 6][:n]
    value = [4, 2, 1, 2, 10, 8, 3, 9, 4, 7][:n]
    take = [m.bool_var(f"t{i}") for i in range(n)]
    m += cn.sum(w * t for w, t in zip(weight, take, strict=True)) <= 15
    return m, take, cn.sum(v * t for v, t in zip(value, take, strict=True))


@pytest.mark.parametrize("search", ["classic", "learning"])
def test_on_solution_hears_each_improving_solution(search: str) -> None:
    m, _, total = knapsack(8)
    heard: list[tuple[int, int]] = []
    best = m.maximize(total, search=search,
                      on_solution=lambda s: heard.append((s.value(total), m.stats.solutions)))
    assert best is not None and heard
    values = [v for v, _ in heard]
    assert values == sorted(set(values)) and values[-1] == best.value(total)
    assert [k for _, k in heard] == list(range(1, len(heard) + 1))  # live statistics
    assert m.stats.status == "optimal_solution"
    assert m.stats.objective == m.stats.bound == best.value(total) and m.stats.gap == 0.0
    with pytest.raises(cn.ModelError, match="on_solution"):
        m.minimize(total, on_solution=3)


def test_no_objective_no_bound() -> None:
    m, take, total = knapsack()
    m.solve()
    assert (m.stats.objective, m.stats.bound, m.stats.gap) == (None, None, None)
    m += total >= 100  # now unsatisfiable
    assert m.maximize(total) is None and m.stats.status == "unsatisfiable"
    assert (m.stats.objective, m.stats.bound, m.stats.gap) == (None, None, None)
    assert {"objective", "bound", "gap"} <= set(m.stats.as_dict())


def test_the_root_bound_before_any_solution() -> None:
    m, _, total = knapsack()
    assert m.maximize(total, node_limit=1) is None and m.stats.status == "unknown"
    # the fractional knapsack bound: items 4, 1, 3, 2 (best value per weight) fill 8 of
    # 15, then 7/12 of item 0 (4 * 7 // 12 = 2): 10 + 2 + 2 + 1 + 2 = 17
    assert m.stats.objective is None and m.stats.bound == 17 and m.stats.gap is None
    m.minimize(-total, node_limit=1)
    assert m.stats.bound == -17


@settings(max_examples=60, deadline=None)
@given(linear_models(), st.sampled_from(["min", "max"]),
       st.sampled_from(["classic", "learning"]), st.integers(1, 40))
def test_bounds_hold_against_brute_force(model, sense, search, node_limit):
    m, _, obj = build_linear(model)
    optimum = brute_optimum(model, sense)
    solve = m.minimize if sense == "min" else m.maximize
    best = solve(obj, search=search, node_limit=node_limit)
    st_ = m.stats
    if best is None:
        assert st_.objective is None and st_.gap is None
    else:
        assert st_.objective == best.value(obj)
        better_or_equal = (lambda a, b: a <= b) if sense == "min" else (lambda a, b: a >= b)
        assert better_or_equal(optimum, st_.objective)  # never better than the optimum
    if st_.bound is not None and optimum is not None:  # never beyond the optimum
        assert (st_.bound <= optimum) if sense == "min" else (st_.bound >= optimum)
    if st_.status == "optimal_solution":
        assert st_.objective == st_.bound == optimum and st_.gap == 0.0
    if st_.status == "unsatisfiable":
        assert optimum is None and st_.bound is None


def hard_knapsack() -> tuple[cn.Model, cn.Expr]:
    """A knapsack that depth-first branch and bound does not finish for a long time."""
    import random

    rng = random.Random(7)
    m = cn.Model()
    take = m.int_vars(60, 0, 1, "t")
    weight = [rng.randint(20, 90) for _ in take]
    value = [w + rng.randint(-10, 10) for w in weight]
    # an equation with a slack: the knapsack bound (propagators/knapsack.py) reads `<=` rows
    # and proves this one in a second
    slack = m.int_var(0, sum(weight) // 2, "slack")
    m += cn.sum(w * t for w, t in zip(weight, take, strict=True)) + slack == sum(weight) // 2
    return m, cn.sum(v * t for v, t in zip(value, take, strict=True))


@pytest.mark.parametrize("search", ["classic", "learning", "auto"])
def test_ctrl_c_returns_the_best_found(search: str) -> None:
    """A real SIGINT one second in: the compiled loops let it in (_interrupt.py).
    Hypothesis, run by earlier tests, leaves a garbage-collector callback behind, and an
    exception raised while such a callback runs is ignored by Python: the interrupt would
    be lost in it when a collection happens to coincide. The callbacks are set aside here."""
    m, total = hard_knapsack()
    callbacks = gc.callbacks[:]
    gc.callbacks.clear()
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        # (the time limit only turns a lost interrupt into a failure instead of a hang: a
        # CI run of 2026-11-27 hung here once, after three runs that passed; see
        # notes/ENGINE-BUGS.md)
        # (lp=False: the linear relaxation's fractional bound would prove it in a second)
        best = m.maximize(total, search=search, time_limit=60, lp=False)
    finally:
        timer.cancel()
        gc.callbacks.extend(callbacks)
    assert best is not None
    assert m.stats.status == "satisfied" and m.stats.stopped_by == "interrupted"
    assert m.stats.objective == best.value(total) and m.stats.solutions >= 1
    assert m.stats.bound is not None and m.stats.bound >= m.stats.objective


def test_ctrl_c_in_on_solution() -> None:
    m, _, total = knapsack(8)
    heard: list[int] = []

    def third(s: cn.Solution) -> None:
        heard.append(s.value(total))
        if len(heard) == 3:
            raise KeyboardInterrupt

    best = m.maximize(total, on_solution=third)
    assert best is not None and best.value(total) == heard[-1] and len(heard) == 3
    assert m.stats.status == "satisfied" and m.stats.stopped_by == "interrupted"


@pytest.mark.parametrize("search", ["classic", "learning"])
def test_a_hint_is_tried_first(search: str) -> None:
    m, take, total = knapsack(10)
    best = m.maximize(total)
    assert best is not None
    m.hint(best)
    first = next(iter(m.improving(total, "max", search=search)))
    assert first == best  # the first dive follows the hint
    assert m.stats.nodes <= len(take)


def test_hints_never_constrain() -> None:
    m = cn.Model()
    q = m.int_vars(6, 0, 5, "q")
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(6)])
    m += cn.all_different([q[i] - i for i in range(6)])
    truth = sorted(tuple(s[x] for x in q) for s in m.solutions())
    m.hint({q[0]: 3, q[1]: 3, q[2]: 99})  # inconsistent and out of the domain: harmless
    for search in ("classic", "learning"):
        got = [tuple(s[x] for x in q) for s in m.solutions(search=search)]
        assert sorted(got) == truth and got[0][0] == 3
        assert m.count(search=search) == len(truth)
    other = cn.Model().int_var(0, 1, "x")
    with pytest.raises(cn.ModelError, match="hint"):
        m.hint({other: 1})
    with pytest.raises(cn.ModelError, match="integer"):
        m.hint({q[0]: 1.5})
    m.hints.clear()
    assert [tuple(s[x] for x in q) for s in m.solutions()][0][0] != 3  # the default order


def test_hints_reach_the_workers() -> None:
    m, take, total = knapsack(10)
    best = m.maximize(total)
    assert best is not None
    m.hint(best)
    first = next(iter(m.improving(total, "max", workers=2)))
    assert first.value(total) == best.value(total)
