"""Objective bisection (compiler/bisection.py): an objective spanning more than
bisection.WIDE values is optimised by probes halfway to its bound. The optimum of the
issue's wide models in a few thousand nodes (a node limit, so both engines agree), and the
same optima as brute force on small models whose objective is wide."""

from __future__ import annotations

from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler import lns, portfolio
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


def first_solution_optimal(scale: int) -> tuple[cn.Model, cn.Expr]:
    """A vertex cover of a triangle weighted by `scale`: the first solution (two
    vertices) is optimal, the linear relaxation's bound (one and a half) far below it, and
    a few nodes refute any target under it."""
    m = cn.Model()
    b = m.int_vars(3, 0, 1, "b")
    w = m.int_var(0, 1000, "w")
    m += [b[0] + b[1] >= 1, b[1] + b[2] >= 1, b[0] + b[2] >= 1]
    return m, scale * cn.sum(b) + w


def test_a_cheap_refutation_is_followed_by_the_proof_itself():
    """After refuting the halfway target in a few nodes, the next probe asks for the
    proof (the incumbent's next value) at once: a handful of probes where halving would
    take one per bit of the gap (about thirty here)."""
    for search in ("classic", "learning", "auto"):
        m, cost = first_solution_optimal(10**9)
        best = m.minimize(cost, search=search)
        assert best.value(cost) == 2 * 10**9 and m.stats.status == "optimal_solution"
        assert m.stats.nodes <= 15, (search, m.stats)  # before: 58, 30 and 58


def smallest_number_model() -> tuple[cn.Model, cn.Expr]:
    """The smallest seven-digit number (leading zeros allowed) with digit sum 50 that
    leaves 13 modulo 97, labelled from its first digit up: the first solution, found after
    a few dozen nodes, is the optimum, and every branch left open above it is worse."""
    m = cn.Model()
    d = m.int_vars(7, 0, 9, "d")
    number = cn.sum(10 ** (6 - i) * d[i] for i in range(7))
    m += cn.sum(d) == 50
    m += number % 97 == 13
    return m, number


def test_the_first_branch_and_bound_goes_on_past_its_first_solution():
    """hakank's euler_52 in miniature: under the portfolio, the classic arm that found
    the first solution proves it optimal in a few more nodes of the same tree (as
    Gecode's branch and bound does), before the probes' turn (107 nodes here when the
    probes came first, 23,000 on euler_52). search="classic" keeps the probes right
    after the first solution (the portfolio's docstring says why)."""
    m, number = smallest_number_model()
    first = m.solve(var_select="input_order")
    first_nodes = m.stats.nodes
    for search in ("auto", "portfolio"):
        m, number = smallest_number_model()
        best = m.minimize(number, search=search, var_select="input_order")
        assert best.value(number) == first.value(number) == 889988
        assert m.stats.status == "optimal_solution"
        assert m.stats.nodes <= first_nodes + 10, (search, first_nodes, m.stats.nodes)
    m, number = smallest_number_model()
    assert m.minimize(number, search="classic", var_select="input_order").value(number) \
        == 889988


def test_under_auto_the_probes_are_an_arm_of_the_portfolio():
    """Under search="auto" a wide objective runs the portfolio with the probes as its
    second arm: the classic search's first turn ends at its first solution (it would
    crawl by one without a failure here, as the learning search does: neither would
    reach 8 * 10**23 in any time), and the probes find the optimum from there. Also with
    turns of a node or a probe each, the same on every run."""
    m, x, y = two_wide_rows()
    best = m.maximize(x + y, time_limit=60)
    assert best.value(x + y) == 8 * 10**23 and m.stats.status == "optimal_solution"
    with mock.patch.object(portfolio, "SLICE", 0.0):
        best = m.maximize(x + y, time_limit=60)
    assert best.value(x + y) == 8 * 10**23 and m.stats.status == "optimal_solution"


@settings(max_examples=150, deadline=None)
@given(linear_models(wide=True), st.sampled_from(["min", "max"]),
       st.sampled_from(["classic", "learning", "auto", "auto:1", "portfolio:1"]),
       st.sampled_from([None, 5, 20, 60]), st.booleans(), st.booleans())
def test_wide_objectives_reach_the_brute_force_optimum(model, sense, search, limit, tiny,
                                                       timed):
    """The optimum without a limit; under a node limit, an answer and a proved bound on
    either side of it. `tiny`: the portfolio's turns are a node or a probe each (after
    the first), so that the arms, the probes' among them, pause and resume everywhere.
    `timed`: under a time limit, where the portfolio takes large neighbourhood search as
    one more arm (neighbourhoods of at most 5 nodes here)."""
    doms, _, objective = model
    m, _, obj = build_linear(model)
    values = objective_values(model)
    solve = m.minimize if sense == "min" else m.maximize
    with mock.patch.object(portfolio, "SLICE", 0.0 if tiny else portfolio.SLICE), \
            mock.patch.object(lns, "NEIGHBOURHOOD_NODES", 5):
        best = solve(obj, search=search, node_limit=limit, time_limit=60 if timed else None)
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
