"""Objective bisection (compiler/bisection.py): an objective spanning more than
bisection.WIDE values is optimised by probes halfway to its bound. The optimum of the
issue's wide models in a few thousand nodes (a node limit, so both engines agree), and the
same optima as brute force on small models whose objective is wide."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.bisection import WIDE


def test_a_wide_linear_objective_is_optimised_in_few_nodes():
    m = cn.Model()
    x = m.int_var(0, 10**24, "x")
    y = m.int_var(0, 10**24, "y")
    m += x + 2 * y <= 10**24
    m += 3 * x + y <= 2 * 10**24
    seen = [s.value(x + y) for s in m.improving(x + y, "max", node_limit=20_000)]
    assert seen[-1] == 8 * 10**23 and m.stats.status == "optimal_solution"
    assert seen == sorted(set(seen))  # each strictly better than the last
    best = m.minimize(-x - y, search="learning", node_limit=20_000)
    assert best.value(x + y) == 8 * 10**23 and m.stats.status == "optimal_solution"


def test_a_bound_proved_on_the_way():
    """A probe that finds nothing proves a bound: stopped early, the gap is known."""
    m = cn.Model()
    x = m.int_var(0, 10**24, "x")
    y = m.int_var(0, 10**24, "y")
    m += x + 2 * y <= 10**24
    m += 3 * x + y <= 2 * 10**24
    m.maximize(x + y, node_limit=400)
    assert m.stats.status == "satisfied"
    assert 8 * 10**23 <= m.stats.bound < 2 * 10**24  # below the root's 2 * 10**24


def test_the_narrowest_end_of_a_huge_domain():
    m = cn.Model()
    z = m.int_var(-10**30, -10**29, "z")
    assert m.maximize(z)[z] == -10**29 and m.stats.nodes <= 10


@st.composite
def wide_models(draw):
    n = draw(st.integers(2, 4))
    doms = [(draw(st.integers(-3, 0)), draw(st.integers(1, 4))) for _ in range(n)]
    rows = [([draw(st.integers(-3, 3)) for _ in range(n)], draw(st.integers(-3, 6)))
            for _ in range(draw(st.integers(1, 3)))]
    # big coefficients: the objective's root range is far wider than WIDE
    # one big coefficient makes the objective wide, small ones make its values dense
    objective = [draw(st.integers(10**5, 10**6)) * draw(st.sampled_from([-1, 1]))]
    objective += [draw(st.integers(-3, 3)) for _ in range(n - 1)]
    return doms, rows, objective


@settings(max_examples=150, deadline=None)
@given(wide_models(), st.sampled_from(["min", "max"]),
       st.sampled_from(["classic", "learning"]), st.sampled_from([None, 5, 20, 60]))
def test_wide_objectives_reach_the_brute_force_optimum(model, sense, search, limit):
    """The optimum without a limit; under a node limit, an answer and a proved bound on
    either side of it."""
    doms, rows, objective = model
    m = cn.Model()
    xs = [m.int_var(lo, hi, f"x{i}") for i, (lo, hi) in enumerate(doms)]
    for coefs, c in rows:
        m += cn.sum(a * x for a, x in zip(coefs, xs, strict=True)) <= c
    obj = cn.sum(a * x for a, x in zip(objective, xs, strict=True))
    values = [sum(a * v for a, v in zip(objective, p, strict=True))
              for p in itertools.product(*(range(lo, hi + 1) for lo, hi in doms))
              if all(sum(a * v for a, v in zip(coefs, p, strict=True)) <= c
                     for coefs, c in rows)]
    solve = m.minimize if sense == "min" else m.maximize
    best = solve(obj, search=search, node_limit=limit)
    span = sum(abs(a) * (hi - lo) for a, (lo, hi) in zip(objective, doms, strict=True))
    assert span > WIDE  # the models do take the bisection
    if not values:
        assert best is None and m.stats.status in ("unsatisfiable", "unknown")
        return
    optimum = (min if sense == "min" else max)(values)
    bound = m.stats.bound
    if sense == "max":
        assert bound is None or bound >= optimum
        assert best is None or best.value(obj) <= optimum
    else:
        assert bound is None or bound <= optimum
        assert best is None or best.value(obj) >= optimum
    if limit is None or m.stats.status == "optimal_solution":
        assert best.value(obj) == optimum and m.stats.status == "optimal_solution"
