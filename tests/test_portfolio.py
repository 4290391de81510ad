"""The portfolio search (compiler/portfolio.py, issue 42 item 3): the classic and the
learning search in turns on one core, sharing the incumbent.

The turns are patched to none at all (after the classic search's first failure:
"portfolio:1"), so that the searches take turns at every node, the same way on every
run: each pauses mid-tree and resumes with an incumbent the other found meanwhile.
Against brute force: the optimum proved, one solution exactly when one exists, and
(search="portfolio" on an enumeration searches once, depth-first) every solution once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler import lns, portfolio
from flattened_models import Shape, build, shapes
from test_properties_flattened import check_optimum
from test_properties_harness import TIME_LIMIT, VALUE_SELECTS, scaled


@pytest.fixture
def tiny_slices() -> Iterator[None]:
    """Turns of a node or a decision each: the two searches alternate at every point
    where they may pause, the same way on every run (search/slicing.py)."""
    with mock.patch.object(portfolio, "SLICE", 0.0):
        yield


@st.composite
def portfolio_options(draw: st.DrawFn) -> dict[str, Any]:
    """search="portfolio" with one of the value choices."""
    return {"search": "portfolio:1", "value_select": draw(st.sampled_from(VALUE_SELECTS)),
            "seed": draw(st.integers(0, 3)), "lns": False}


@settings(max_examples=scaled(0.7))
@given(shape=shapes(), sense=st.sampled_from(["min", "max"]), opts=portfolio_options())
def test_portfolio_finds_the_optimum(shape: Shape, sense: str, opts: dict[str, Any]) -> None:
    """The brute-force optimum, proved, whichever search ends the run."""
    note("model:\n" + shape.source())
    with mock.patch.object(portfolio, "SLICE", 0.0):
        check_optimum(shape, sense, opts)


@settings(max_examples=scaled(0.7))
@given(shape=shapes(), opts=portfolio_options())
def test_portfolio_finds_a_solution_exactly_when_there_is_one(
        shape: Shape, opts: dict[str, Any]) -> None:
    """solve(): a brute-force solution, or the proof that there is none."""
    note("model:\n" + shape.source())
    truth = shape.truth()
    b = build(shape)
    with mock.patch.object(portfolio, "SLICE", 0.0):
        sol = b.m.solve(time_limit=TIME_LIMIT, **opts)
    assert b.m.stats.stopped_by is None, repr(b.m.stats)
    if truth:
        assert sol is not None and b.decision(sol, shape) in truth
        assert b.m.stats.status == "satisfied"
    else:
        assert sol is None and b.m.stats.status == "unsatisfiable"


def golomb(n: int) -> tuple[cn.Model, cn.Var]:
    m = cn.Model()
    marks = m.int_vars(n, 0, n * n, "x")
    m += marks[0] == 0
    for a, b in zip(marks, marks[1:]):
        m += a < b
    m += cn.all_different([marks[j] - marks[i] for i in range(n) for j in range(i + 1, n)])
    return m, marks[-1]


def test_both_searches_take_turns_and_share_the_incumbent(tiny_slices: None) -> None:
    """Golomb 7 with turns of a few calls: solutions come from both searches, each better
    than the last, the optimum 25 is proved, and the counts are the sum of both."""
    m, last = golomb(7)
    found: list[tuple[int, str]] = []
    best = m.minimize(last, search="portfolio:1",
                      on_solution=lambda s: found.append((s[last], m.stats.search)))
    assert best is not None and best[last] == 25
    assert m.stats.status == "optimal_solution" and m.stats.bound == 25
    values = [v for v, _ in found]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert {name for _, name in found} == {"classic", "learning"}
    assert m.stats.search in ("classic", "learning")


def test_a_run_the_first_turn_ends_is_the_classic_search() -> None:
    """A model the classic search finishes within its first turn (10,000 failures): the
    same tree as search="classic", in both builds (the benchmark rows' node counts stay
    as they were; tests/test_search_auto.py checks those rows)."""
    counts = {}
    for search in ("classic", "portfolio", "auto"):
        m, last = golomb(7)
        m.minimize(last, search=search)
        counts[search] = (m.stats.nodes, m.stats.fails, m.stats.solutions, m.stats.search)
    assert counts["portfolio"] == counts["classic"] == counts["auto"]


def test_enumeration_is_searched_once(tiny_slices: None) -> None:
    """search="portfolio" on every solution: each once, as the classic search gives
    them (a portfolio would find them twice)."""
    m = cn.Model()
    q = m.int_vars(6, 0, 5, "q")
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(6)])
    m += cn.all_different([q[i] - i for i in range(6)])
    got = [tuple(s[v] for v in q) for s in m.solutions(search="portfolio")]
    want = [tuple(s[v] for v in q) for s in m.solutions(search="classic")]
    assert got == want and len(got) == 4
    assert m.count(search="portfolio") == 4


def test_node_limit_counts_both_searches(tiny_slices: None) -> None:
    m, last = golomb(8)
    best = m.minimize(last, search="portfolio:1", node_limit=300)
    assert m.stats.stopped_by == "node_limit" and m.stats.nodes <= 300
    assert best is not None and m.stats.status == "satisfied"


def test_time_limit_stops_the_run() -> None:
    m, last = golomb(12)
    best = m.minimize(last, search="portfolio", time_limit=1.0)
    assert m.stats.stopped_by == "time_limit" and m.stats.seconds < 3.0
    assert best is not None and m.stats.bound is not None and m.stats.bound <= best[last]


def test_progress_reports_the_whole_run(tiny_slices: None) -> None:
    """on_progress sees the counts of both searches together, never going back (Golomb 8,
    node by node, runs to its 3 s limit in both builds: reports come every 0.2 s)."""
    m, last = golomb(8)
    seen: list[int] = []
    m.minimize(last, search="portfolio:1", on_progress=lambda s: seen.append(s.nodes),
               time_limit=3.0)
    assert m.stats.stopped_by == "time_limit"
    assert len(seen) > 1 and seen == sorted(seen) and seen[-1] <= m.stats.nodes


def test_the_command_line_takes_portfolio() -> None:
    from conundrum.cli.app import main

    assert main(["alphametic", "SEND + MORE = MONEY", "--search", "portfolio"]) == 0


@settings(max_examples=scaled(0.5))
@given(shape=shapes(), sense=st.sampled_from(["min", "max"]), opts=portfolio_options())
def test_with_neighbourhoods_the_optimum_is_still_proved(shape: Shape, sense: str,
                                                        opts: dict[str, Any]) -> None:
    """Under a time limit the default portfolio takes large neighbourhood search as a
    third arm (here one neighbourhood of at most 5 nodes a turn): the brute-force
    optimum, proved."""
    note("model:\n" + shape.source())
    with mock.patch.object(portfolio, "SLICE", 0.0), \
            mock.patch.object(lns, "NEIGHBOURHOOD_NODES", 5):
        check_optimum(shape, sense, {**opts, "lns": None, "search": "auto:1"})


def test_the_default_optimisation_is_the_portfolio(tiny_slices: None) -> None:
    """search="auto" (the default) on an optimisation: the portfolio, with the
    neighbourhoods under a time limit (of at most 5 nodes each here); lns=False leaves
    them out."""
    seen: dict[str, set[str]] = {}
    with mock.patch.object(lns, "NEIGHBOURHOOD_NODES", 5):
        run_each(seen)
    assert seen["{}"] == {"classic", "learning"}
    assert "lns" in seen[str({"time_limit": TIME_LIMIT})]
    assert seen[str({"time_limit": TIME_LIMIT, "lns": False})] == {"classic", "learning"}


def run_each(seen: dict[str, set[str]]) -> None:
    """Golomb 7 under the default portfolio (its first turn ends at the first failure),
    with a time limit, and with lns=False: which searches found its solutions."""
    for options in ({}, {"time_limit": TIME_LIMIT}, {"time_limit": TIME_LIMIT, "lns": False}):
        m, last = golomb(7)
        names: set[str] = set()
        best = m.minimize(last, search="auto:1", on_solution=lambda s, names=names, m=m:
                          names.add(m.stats.search), **options)
        assert best is not None and best[last] == 25 and m.stats.status == "optimal_solution"
        seen[str(options)] = names


def test_the_arm_that_progressed_last_takes_the_longer_turns() -> None:
    """Shares: equal turns until an arm progresses; then the latest to find a better
    solution or to tighten the proved bound leads (LEAD times the others' turn), and a
    turn that changes nothing leaves the lead where it is."""
    shares = portfolio.Shares()
    assert shares.factor("classic") == shares.factor("learning") == 1.0
    shares.record("learning", improved=False, tightened=True)
    assert shares.factor("learning") == portfolio.LEAD
    assert shares.factor("classic") == 1.0
    shares.record("classic", improved=False, tightened=False)
    assert shares.factor("learning") == portfolio.LEAD
    shares.record("classic", improved=True, tightened=False)
    assert (shares.factor("classic"), shares.factor("learning")) == (portfolio.LEAD, 1.0)


def test_a_lead_taken_by_the_bound_lasts_while_the_bound_moves() -> None:
    """An arm that leads by a tighter bound alone keeps the lead while its turns move
    the bound; a turn of its that leaves the bound where it was gives the lead back to
    the arm that found the incumbent (none yet: equal turns). A lead won by a solution
    is kept through turns without progress, as before."""
    shares = portfolio.Shares()
    shares.record("classic", improved=True, tightened=False)
    shares.record("learning", improved=False, tightened=True)
    assert shares.factor("learning") == portfolio.LEAD
    shares.record("classic", improved=False, tightened=False)
    shares.record("learning", improved=False, tightened=True)
    assert shares.factor("learning") == portfolio.LEAD  # still moving
    shares.record("learning", improved=False, tightened=False)
    assert (shares.factor("classic"), shares.factor("learning")) == (portfolio.LEAD, 1.0)
    shares.record("learning", improved=False, tightened=False)
    assert shares.factor("classic") == portfolio.LEAD  # a solution's lead stays
    fresh = portfolio.Shares()
    fresh.record("learning", improved=False, tightened=True)
    fresh.record("learning", improved=False, tightened=False)
    assert fresh.factor("learning") == fresh.factor("classic") == 1.0


def test_an_arm_that_overran_its_turn_owes_the_excess() -> None:
    """The turns are spans of time, but the clock is read between steps: an arm whose
    turn took longer (a slow step, its compilation) has the excess taken off its next
    turns, skipping whole ones it owes, so that the shares hold in time; the others are
    untouched, and a turn of 0 (a pause at every point) is never cut."""
    shares = portfolio.Shares()
    shares.took("learning", 0.25, 1.0)  # 0.75 s over
    assert shares.repaid("classic", 0.5) == 0.5
    assert shares.repaid("learning", 0.5) == -1.0  # skipped: 0.25 s still owed
    assert shares.repaid("learning", 0.5) == 0.25
    shares.took("learning", 0.25, 0.2)  # within its turn: nothing owed
    assert shares.repaid("learning", 0.5) == 0.5
    shares.took("learning", 0.0, 3.0)
    assert shares.repaid("learning", 0.0) == 0.0


def test_first_round_turns_are_no_longer_than_the_first_turn() -> None:
    """After a first turn (a failure budget) that took less than SLICE, the other arms'
    first turns take no longer than it did (a model the classic search nearly finished
    in it pays each about as much again), shares applied first; from the second round,
    or on a wide objective (whose first turn ends early), the rounds' SLICE times GROWTH
    as before."""
    first = portfolio.SLICE / 5
    assert portfolio.turn_length(1, 3, 1.0, first, False) == first
    assert portfolio.turn_length(2, 3, portfolio.FADE, first, False) == first
    assert portfolio.turn_length(2, 3, 0.1, first, False) == pytest.approx(0.1 * portfolio.SLICE)
    assert portfolio.turn_length(1, 3, 1.0, first, True) == portfolio.SLICE
    assert portfolio.turn_length(1, 3, 1.0, 10.0, False) == portfolio.SLICE
    assert portfolio.turn_length(3, 3, 1.0, first, False) == pytest.approx(
        portfolio.SLICE * portfolio.GROWTH)
    assert portfolio.turn_length(1, 2, 0.0, first, False) == 0.0  # node-by-node turns


def test_neighbourhoods_fade_while_they_find_nothing_better() -> None:
    """Large neighbourhood search proves only by chance: each of its turns without an
    improvement halves its next one, down to MIN_FADE, and an improvement gives it a
    whole turn again, but not the lead over the exact searches, which never fade."""
    shares = portfolio.Shares()
    shares.record("classic", improved=True, tightened=False)
    factors = []
    for _ in range(5):
        shares.record("lns", improved=False, tightened=False)
        shares.record("learning", improved=False, tightened=False)
        factors.append(shares.factor("lns"))
    assert factors == [0.5, 0.25, 0.125, 0.125, 0.125]
    assert (shares.factor("classic"), shares.factor("learning")) == (portfolio.LEAD, 1.0)
    shares.record("lns", improved=True, tightened=False)
    assert shares.factor("lns") == 1.0
    assert shares.factor("classic") == portfolio.LEAD


def test_neighbourhoods_grown_to_the_whole_model_prove_the_optimum() -> None:
    """The portfolio's LNS arm, in one long turn: neighbourhoods around a first solution
    of Golomb 6, each searched to its end in vain, grow to the whole model; one of those
    searched to its end (from the root, under the incumbent's bound, hinted by it) is a
    proof, which ends the arm: the optimum 17, no limit named, the solutions improving
    all the way. (Before, it went on drawing whole-model neighbourhoods until a limit.)"""
    import time

    from conundrum.compiler.compiled import compile_model
    from conundrum.search.options import SearchOptions
    from conundrum.search.slicing import Slice
    from conundrum.search.stats import SearchStats

    m, last = golomb(6)
    compiled = compile_model(list(m.variables), list(m.constraints), last, -1)
    assert compiled is not None
    opts = SearchOptions(search="classic")
    start = time.perf_counter()
    best: list[int] = []
    first = next(compiled.run(opts, SearchStats(), start, best))
    found = [best[0]]
    slicer = Slice()
    slicer.until = float("inf")
    slicer.node_cap = 200_000  # (the proof takes far fewer)
    stats = SearchStats()
    for values in lns.neighbourhood_turns(compiled, opts, stats, start, best, [first],
                                          slicer):
        assert values is not None, "no proof within 200,000 nodes"
        found.append(best[0])
    assert found[-1] == 17 and found == sorted(found, reverse=True) and len(found) > 1
    assert stats.stopped_by is None


def test_compilations_of_one_snapshot_share_one_checker() -> None:
    """The portfolio compiles a snapshot once per arm; the solution checker, prepared at
    the first solution only (tens of thousands of FlatZinc rows take seconds), is made
    once and shared by the twin compilation."""
    from conundrum.compiler.compiled import compile_model

    m, last = golomb(5)
    first = compile_model(list(m.variables), list(m.constraints), last, -1)
    assert first is not None and first._checker is None
    second = compile_model(list(m.variables), list(m.constraints), last, -1, twin=first)
    assert second is not None and second.check is first.check
    assert first._checker is not None


def test_the_probes_last_part_takes_half_turns() -> None:
    """Once only the probes' last part is left (plain branch and bound, the classic arm's
    kind of search), the probes' arm takes LAST_PART of the turn it would have, leading
    or not; the other arms' turns are unchanged."""
    shares = portfolio.Shares()
    shares.record("bisection", improved=True, tightened=False)
    assert shares.factor("bisection") == portfolio.LEAD
    shares.last_part()
    assert shares.factor("bisection") == portfolio.LEAD * portfolio.LAST_PART
    shares.record("classic", improved=True, tightened=False)
    assert shares.factor("bisection") == portfolio.LAST_PART
    assert (shares.factor("classic"), shares.factor("learning")) == (portfolio.LEAD, 1.0)


def test_the_probes_say_when_their_last_part_begins() -> None:
    """bisection.probe_turns calls its `on_last_part` once, when a probe would only ask
    for the incumbent's next value, and then goes on to the optimum (here the incumbent
    is one short of the root's bound: the last part at once)."""
    import time

    from conundrum.compiler.bisection import WIDE, probe_turns
    from conundrum.compiler.compiled import compile_model
    from conundrum.search.options import SearchOptions
    from conundrum.search.slicing import Slice
    from conundrum.search.stats import SearchStats

    m = cn.Model()
    x = m.int_var(0, WIDE + 10, "x")
    m += x != WIDE + 10
    compiled = compile_model(m.variables, m.constraints, x, 1)
    assert compiled is not None and compiled.obj is not None
    calls: list[int] = []
    start = compiled.obj.hi - 1
    best = [start]
    slicer = Slice()
    slicer.until = float("inf")
    found = list(probe_turns(compiled, SearchOptions(), SearchStats(), time.perf_counter(),
                             best, slicer, lambda: calls.append(best[0])))
    assert calls == [start]
    assert found and all(values is not None for values in found)
    assert best == [WIDE + 9]
