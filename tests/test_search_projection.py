"""Projected enumeration (the search option `project`): the solutions are distinct on the
projection variables, one per assignment of them that extends to a solution, under every
search option; compared with the brute-force solution set of random small models."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
import oracle
from test_properties_harness import METHODS, TIME_LIMIT, build, doms, scaled, search_options
from test_properties_models import constraint, subset


def projections(truth: list[tuple[int, ...]], idx: list[int]) -> set[tuple[int, ...]]:
    return {tuple(t[i] for i in idx) for t in truth}


@st.composite
def projected_model(draw: st.DrawFn) -> dict[str, Any]:
    """A random model over 3-5 variables, its brute-force solutions and a projection."""
    n = draw(st.integers(3, 5), label="n")
    cs = draw(st.lists(constraint(n), min_size=1, max_size=3), label="constraints")
    domains = draw(doms(n, max_size=3, lo=-2, hi=2), label="domains")
    idx = draw(subset(n, min_size=0), label="projection")
    truth = oracle.solutions([d.values for d in domains],
                             lambda t: all(bool(c.fn(t)) for c in cs))
    src = "\n".join(f"m += {c.src}" for c in cs)
    return {"domains": domains, "src": src, "idx": idx, "truth": truth}


@settings(max_examples=scaled(3), deadline=None)
@given(case=projected_model(), opts=search_options(), phase=st.booleans())
def test_projected_solutions_are_the_distinct_projections(case, opts, phase) -> None:
    """Each projection of the solution set exactly once (and every solution found is one),
    under every var_select, value_select and method, with and without a search phase that
    puts other variables first."""
    b = build(case["domains"], [f"x{i}" for i in range(len(case["domains"]))], case["src"])
    idx = case["idx"]
    xs = b.xs
    project = [xs[i] for i in idx]
    if phase:  # a phase over every variable, the last first: followed before the projection
        opts = dict(opts, phases=[(list(reversed(xs)), "input_order", "max")])
    got = []
    for sol in b.m.solutions(project=project, time_limit=TIME_LIMIT, **opts):
        full = tuple(sol[x] for x in xs)
        assert full in case["truth"], f"{full} is not a solution"
        got.append(tuple(full[i] for i in idx))
    assert b.m.stats.complete or opts["method"] != "complete"
    assert len(got) == len(set(got)), f"a projection twice: {got}"
    assert set(got) == projections(case["truth"], idx), (got, opts)
    assert b.m.stats.solutions == len(got)
    count = b.m.count(project=project, time_limit=TIME_LIMIT, **opts)
    assert count == len(got)


@settings(max_examples=scaled(2), deadline=None)
@given(case=projected_model(), method=st.sampled_from(METHODS),
       sense=st.sampled_from([-1, 1]), weights=st.lists(st.integers(-3, 3), min_size=5,
                                                       max_size=5))
def test_projection_keeps_the_optimum(case, method, sense, weights) -> None:
    """Branch and bound with a projection that leaves objective variables out still proves
    the brute-force optimum, and each solution it reports improves on the last."""
    n = len(case["domains"])
    b = build(case["domains"], [f"x{i}" for i in range(n)], case["src"])
    xs = b.xs
    objective = sum(w * x for w, x in zip(weights, xs, strict=False))
    truth = case["truth"]
    values = [sum(w * v for w, v in zip(weights, t, strict=False)) for t in truth]
    project = [xs[i] for i in case["idx"]]
    optimise = b.m.minimize if sense < 0 else b.m.maximize
    best = optimise(objective, project=project, method=method, time_limit=TIME_LIMIT)
    if not truth:
        assert best is None
        return
    want = min(values) if sense < 0 else max(values)
    assert best is not None and best.value(objective) == want
    assert b.m.stats.complete or method != "complete"


def test_a_better_completion_of_a_projection_is_not_cut() -> None:
    """The first completion of a projection found by branch and bound need not be the best
    one: the search goes on below it until the objective is fixed too."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 2)
    for value_select in ("min", "max"):
        for project, sense in (([], 1), ([], -1), ([x], 1), ([x], -1)):
            optimise = m.maximize if sense > 0 else m.minimize
            best = optimise(3 * y - x, project=project, value_select=value_select)
            assert best is not None and best.value(3 * y - x) == (6 if sense > 0 else -2)
            assert m.stats.complete


def test_projection_with_limits_stays_distinct() -> None:
    """A node limit stops a projected enumeration early; what it gave is still distinct."""
    m = cn.Model()
    xs = m.int_vars(6, 0, 3, "x")
    m += cn.all_different(xs[:4])
    for limit in (5, 20, 40):
        got = [(s[xs[0]], s[xs[1]]) for s in m.solutions(project=xs[:2], node_limit=limit)]
        assert len(got) == len(set(got))
        assert not m.stats.complete and m.stats.stopped_by == "node_limit"
    assert m.count(project=xs[:2]) == 12


def test_parallel_projected_enumeration() -> None:
    """workers=2: the subproblems are cut along projection variables, so each projection
    is reported once across workers; the count and the optimum agree with one worker."""
    m = cn.Model()
    xs = m.int_vars(7, 0, 3, "x")
    m += cn.all_different(xs[:3])
    m += xs[3] + xs[4] + xs[5] + xs[6] >= xs[0] + 2
    project = xs[:3] + [xs[6]]
    one = {tuple(s[x] for x in project) for s in m.solutions(project=project)}
    got = [tuple(s[x] for x in project) for s in m.solutions(project=project, workers=2)]
    assert len(got) == len(set(got)) and set(got) == one
    assert m.stats.complete and m.stats.solutions == len(one)
    assert m.count(project=project, workers=2) == len(one)
    objective = xs[0] * 4 - xs[4] + xs[5]
    best = m.maximize(objective, project=xs[1:3], workers=2)
    assert best is not None and best.value(objective) == m.maximize(objective).value(objective)


def test_project_errors() -> None:
    m = cn.Model()
    x = m.int_var(0, 1, "x")
    other = cn.Model().int_var(0, 1, "y")
    for bad in (other, [x, 3]):
        try:
            m.count(project=bad)
        except cn.ModelError as e:
            assert str(e).startswith("project:")
        else:
            raise AssertionError(f"project={bad!r} was accepted")
    assert m.count(project=x) == 2 and m.count(project=[]) == 1
