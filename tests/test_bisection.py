"""Objective bisection (compiler/bisection.py): an objective spanning more than
bisection.WIDE values is optimised by probes halfway to its bound. The optimum of the
issue's wide models in a few thousand nodes (a node limit, so both engines agree), and the
same optima as brute force on small models whose objective is wide."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.bisection import WIDE
from optimisation_cases import build_linear, linear_models, objective_values


def two_wide_rows() -> tuple[cn.Model, cn.Var, cn.Var]:
    """The issue's model: x + y to maximise under two rows 10**24 wide (optimum 8 * 10**23)."""
    m = cn.Model()
    x = m.int_var(0, 10**24, "x")
    y = m.int_var(0, 10**24, "y")
    m += x + 2 * y <= 10**24
    m += 3 * x + y <= 2 * 10**24
    return m, x, y


def test_a_wide_linear_objective_is_optimised_in_few_nodes():
    m, x, y = two_wide_rows()
    seen = [s.value(x + y) for s in m.improving(x + y, "max", node_limit=20_000)]
    assert seen[-1] == 8 * 10**23 and m.stats.status == "optimal_solution"
    assert seen == sorted(set(seen))  # each strictly better than the last
    best = m.minimize(-x - y, search="learning", node_limit=20_000)
    assert best.value(x + y) == 8 * 10**23 and m.stats.status == "optimal_solution"


def test_a_bound_proved_on_the_way():
    """A probe that finds nothing proves a bound: stopped early, the gap is known."""
    m, x, y = two_wide_rows()
    m.maximize(x + y, node_limit=400)
    assert m.stats.status == "satisfied"
    assert 8 * 10**23 <= m.stats.bound < 2 * 10**24  # below the root's 2 * 10**24


def test_the_narrowest_end_of_a_huge_domain():
    m = cn.Model()
    z = m.int_var(-10**30, -10**29, "z")
    assert m.maximize(z)[z] == -10**29 and m.stats.nodes <= 10


def test_under_auto_the_last_part_is_the_portfolio(monkeypatch):
    """Under search="auto" the plain branch and bound that ends a bisection is the
    portfolio, started from the incumbent (a partition model's last values took the
    learning search, chosen by auto's switch, over a minute; the classic search proves
    them in seconds): its first turn is the classic search, so a short last part has the
    classic tree. search="classic" keeps its own."""
    from conundrum.compiler import portfolio

    seeded: list[tuple[list[int] | None, bool]] = []
    real = portfolio.portfolio

    def spy(*args, **kwargs):
        seeded.append((list(kwargs.get("best") or []), kwargs.get("values") is not None))
        return real(*args, **kwargs)

    monkeypatch.setattr(portfolio, "portfolio", spy)
    m = cn.Model()
    xs = [m.int_var(0, 10_000, f"x{i}") for i in range(6)]
    m += cn.all_different(xs)
    for a, b in zip(xs, xs[1:]):
        m += (a - b) % 97 == 13
    objective = cn.sum([(i + 1) * x for i, x in enumerate(xs)])
    best = m.maximize(objective)
    nodes = m.stats.nodes
    assert m.stats.status == "optimal_solution"
    assert seeded == [([best.value(objective)], True)]  # the incumbent it started from
    classic = m.maximize(objective, search="classic")
    assert len(seeded) == 1
    assert classic.value(objective) == best.value(objective) and m.stats.nodes == nodes


@settings(max_examples=150, deadline=None)
@given(linear_models(wide=True), st.sampled_from(["min", "max"]),
       st.sampled_from(["classic", "learning", "auto", "auto:1"]),
       st.sampled_from([None, 5, 20, 60]))
def test_wide_objectives_reach_the_brute_force_optimum(model, sense, search, limit):
    """The optimum without a limit; under a node limit, an answer and a proved bound on
    either side of it."""
    doms, _, objective = model
    m, _, obj = build_linear(model)
    values = objective_values(model)
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
