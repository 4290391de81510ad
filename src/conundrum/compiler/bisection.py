"""Objective bisection (issue 30): branch and bound that moves fast on a wide objective.

Plain branch and bound asks each solution only to beat the last one; on an objective
ranging over 10**24 values, with decisions labelled from their small end, it may improve by
one at a time for ever (`maximize x + y` under two linear rows crawled to 540,636 in 3 s
towards 8 * 10**23). Here, after a first solution of value f and with the objective's proved
bound b, each *probe* asks for a value at least halfway from f to b:

- the first solution found there (within PROBE_NODES nodes) is the new incumbent, and the
  next probe starts from it;
- a probe searched to its end without a solution proves the bound: b moves to just short
  of the target;
- a probe its node budget stops without a solution proves nothing: the next target is
  closer to f (`reach` halves), back to halfway after a success.

Once a probe would only ask for f's next value, the rest is the plain branch and bound
from the incumbent, without a budget: the answer stays exact
(the same optimum, proved), every option giving the same one. Under search="auto" that
last part is the portfolio (compiler/portfolio.py: the classic and the learning search
in turns, from the incumbent), as for any other objective: a partition model's last 160
values took the learning search, which auto's switch chose after 10,000 failures, more
than a minute, where the classic search proves them in seconds. Used for objectives whose
domain at the root spans more than WIDE values (model/running.py).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from conundrum.compiler.subrun import first_solution, merge_counts, sub_options
from conundrum.engine import Inconsistency
from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel
    from conundrum.search.options import SearchOptions

WIDE = 1 << 16  # objectives spanning more values than this are bisected
PROBE_NODES = 1000  # the node budget of one probe


def is_wide(compiled: CompiledModel) -> bool:
    """Whether the objective's root domain spans more than WIDE values."""
    obj = compiled.obj
    return obj is not None and obj.hi - obj.lo > WIDE


# the last part's search, given the incumbent's objective and values and its own stats
Finish = Callable[[list[int], list[int], SearchStats], Generator[list[int], None, None]]


def bisect(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats,
           start: float, finish: Finish | None = None) -> Generator[list[int], None, None]:
    """The values of each improving solution, as CompiledModel.run gives them (see the
    module). `finish`: the search of the last part (default: the options' own)."""
    obj = compiled.obj
    assert obj is not None
    sense = compiled.sense
    best: list[int] = []
    values = first_solution(compiled, opts, stats, start, best)
    if values is None:
        return
    yield values
    latest = list(values)  # the incumbent's values (a probe's find replaces them)
    bound = obj.hi if sense > 0 else obj.lo  # the root's: nothing beyond it
    reach = 2  # the target lies 1/reach of the way from the incumbent to the bound
    while True:
        f = best[0]
        gap = (bound - f) * sense
        step = gap // reach
        if gap <= 0:
            stats.stopped_by = None  # the bound is met: the incumbent is optimal
            return
        if step <= 1:
            # the plain branch and bound from the incumbent, to its end or a limit
            sub = SearchStats()
            run = (compiled.run(sub_options(opts, stats, None, None), sub, start, best)
                   if finish is None else finish(best, latest, sub))
            try:
                yield from run
            finally:
                run.close()
            merge_counts(stats, sub)
            stats.stopped_by = sub.stopped_by
            if sub.bound is not None:
                stats.tighten(sub.bound, sense)
            return
        target = f + sense * step
        outcome = yield from _probe(compiled, opts, stats, start, best, target, latest)
        if outcome == "stopped":
            return
        if outcome == "none":
            bound = target - sense  # nothing at least as good as the target
            stats.tighten(bound, sense)
            reach = 2
        elif outcome == "found":
            reach = 2
        else:  # "unknown": the budget ran out before a solution
            reach *= 2


def _probe(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats, start: float,
           best: list[int], target: int, latest: list[int]) -> Generator[list[int], None, str]:
    """Search for solutions with the objective at least as good as `target`, within
    PROBE_NODES nodes, and yield the first. Returns "found", "none" (proved there is
    none), "unknown" (the budget ran out first) or "stopped" (a limit of the whole run)."""
    obj = compiled.obj
    assert obj is not None
    solver = compiled.solver
    trail = solver.trail
    base = trail.depth
    trail.push_level()
    found = False
    try:
        try:
            if compiled.sense > 0:
                obj.set_min(target)
            else:
                obj.set_max(target)
            solver.fix_point()
        except Inconsistency:
            stats.fails += 1
            return "none"
        sub = SearchStats()
        run = compiled.run(sub_options(opts, stats, PROBE_NODES, None), sub, start, best)
        try:
            for values in run:
                found = True
                latest[:] = values
                yield values
                break
        finally:
            run.close()
        merge_counts(stats, sub)
    finally:
        while trail.depth > base:
            trail.pop_level()
    if found:
        return "found"
    if sub.stopped_by is None:
        return "none"
    if sub.stopped_by != "node_limit" or (
            opts.node_limit is not None and stats.nodes >= opts.node_limit):
        stats.stopped_by = sub.stopped_by
        return "stopped"
    return "unknown"
