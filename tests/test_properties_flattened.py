"""Property tests: the learning search and large neighbourhood search on random models in
the shape MiniZinc flattens a model into (tests/flattened_models.py), against brute force.

Issue 40, item 1: on MiniZinc's `cell_block` the learning search and LNS reported an
assignment that violates `int_lin_eq(...) :: domain`: LinearEqDomain took domains it had
failed on for consistent when the search came back to them. No random model of the other
property tests had that shape. Here:

* the learning search restarts after every one to three failures (every spelling of
  search/restarts.py), so that each model is searched with backjumps and restarts;
* the optimum (minimised or maximised) and, on smaller models, the whole solution set are
  compared with brute force, projected on the decision variables (the introduced ones
  follow from them), with no solution twice;
* large neighbourhood search starts from neighbourhoods that free one variable, and
  searches each with the learning search (restarting as above) or the depth-first one.

What makes these models find that bug (measured on the code before the fix, 2026-11-27):
five prisoners squeezed into the six cells of one sex's rows, so that the all-different,
the costs and the objective's bound fix a prisoner's row, column and cell index in one
propagation, by different routes, again and again. Spread over the grid, as in the first
version of these models, the same searches reported a wrong solution in about one run in
a hundred; squeezed, in about one learning branch and bound in six, one LNS run in four
(neighbourhoods of one variable; one in six with the default ones, in less time). Under
the ci profile both optimisation tests fail on that code; with the ci profile's sizes but
random examples (--hypothesis-seed 1..10) one of them or both fail in 9 runs of 10.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

from hypothesis import given, note, settings
from hypothesis import strategies as st

from flattened_models import Shape, build, shapes
from test_properties_harness import TIME_LIMIT, VALUE_SELECTS, VAR_SELECTS, scaled

#: restarts after every one to three failures, in each spelling search/restarts.py reads
RESTARTS = ("luby:1", "luby:2", "constant:1", "constant:2", "geometric:1", "geometric:2",
            "linear:1")
LEARNING_VAR_SELECTS = (*VAR_SELECTS, "activity")


@st.composite
def learning_options(draw: st.DrawFn) -> dict[str, Any]:
    """The learning search, restarting every one to three failures."""
    return {"search": "learning", "restarts": draw(st.sampled_from(RESTARTS)),
            "var_select": draw(st.sampled_from(LEARNING_VAR_SELECTS)),
            "value_select": draw(st.sampled_from(VALUE_SELECTS)),
            "seed": draw(st.integers(0, 3))}


def check_optimum(shape: Shape, sense: str, opts: dict[str, Any]) -> None:
    """minimize/maximize of the shape's objective under `opts`: the brute-force optimum,
    proved, at one of the brute-force solutions."""
    truth = shape.truth()
    note(f"brute force: {len(truth)} solutions")
    b = build(shape)
    obj = b.env[shape.objective]
    solve = b.m.minimize if sense == "min" else b.m.maximize
    best = solve(obj, time_limit=TIME_LIMIT, **opts)
    assert b.m.stats.stopped_by is None, f"{sense}imize({opts}) stopped: {b.m.stats!r}"
    if not truth:
        assert best is None and b.m.stats.status == "unsatisfiable"
        return
    values = [env[shape.objective] for env in truth.values()]
    want = min(values) if sense == "min" else max(values)
    assert best is not None, f"{sense}imize({opts}) found nothing, expected {want}"
    assert b.decision(best, shape) in truth, f"{sense}imize({opts}) gave a non-solution"
    assert best[obj] == want, f"{sense}imize({opts}) = {best[obj]}, expected {want}"
    assert b.m.stats.status == "optimal_solution"


@settings(max_examples=scaled(1))
@given(shape=shapes(), sense=st.sampled_from(["min", "max"]), opts=learning_options())
def test_learning_search_finds_the_optimum(shape: Shape, sense: str,
                                           opts: dict[str, Any]) -> None:
    """The optimum of the brute force, by the learning search's branch and bound."""
    note("model:\n" + shape.source())
    check_optimum(shape, sense, {**opts, "lns": False})


@settings(max_examples=scaled(0.7))
@given(shape=shapes(), sense=st.sampled_from(["min", "max"]), data=st.data())
def test_lns_finds_the_optimum(shape: Shape, sense: str, data: st.DataObject) -> None:
    """The optimum of the brute force, proved, by large neighbourhood search from
    neighbourhoods of one variable (compiler/lns.py has no option for their size: its
    INITIAL_RELAX is patched for the run), each searched by the learning search most of
    the time, else the depth-first one."""
    from conundrum.compiler import lns

    note("model:\n" + shape.source())
    if data.draw(st.integers(0, 3), label="learning?"):
        opts = data.draw(learning_options(), label="options")
    else:
        opts = {"search": "classic", "var_select": data.draw(st.sampled_from(VAR_SELECTS)),
                "value_select": data.draw(st.sampled_from(VALUE_SELECTS)),
                "seed": data.draw(st.integers(0, 3))}
    with mock.patch.object(lns, "INITIAL_RELAX", 0.01):  # round(0.01 * n) < 1: one variable
        check_optimum(shape, sense, {**opts, "lns": True})


@settings(max_examples=scaled(0.5))
@given(shape=shapes(pairs=(2, 3), columns=(3, 4)), opts=learning_options())
def test_learning_search_enumerates_every_solution(shape: Shape,
                                                   opts: dict[str, Any]) -> None:
    """Every solution once: the brute-force set (on the decision variables), each solution
    reported once, and the search complete."""
    note("model:\n" + shape.source())
    truth = shape.truth()
    b = build(shape)
    got = list(b.m.solutions(time_limit=TIME_LIMIT, **opts))
    assert b.m.stats.complete, f"solutions({opts}) incomplete: {b.m.stats!r}"
    full = [tuple(b.full(s, shape).values()) for s in got]
    assert len(full) == len(set(full)), f"solutions({opts}): a solution twice"
    mine = sorted(b.decision(s, shape) for s in got)
    assert len(mine) == len(set(mine)), f"solutions({opts}): decision values twice"
    missing = sorted(set(truth) - set(mine))
    wrong = sorted(set(mine) - set(truth))
    assert not missing and not wrong, (
        f"solutions({opts}): missing {missing[:5]}, not solutions {wrong[:5]}")
