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
  closer to f (`reach` halves), back to halfway after a success;
- after a refutation that took at most PROBE_NODES // 4 nodes, the next probe asks for
  f's next value (the optimality proof) within twice those nodes, before halving again:
  where refuting costs about the same whatever the target (the bound propagates through
  the same few constraints), this ends at once what log2(gap) probes would each pay for
  again. MiniZinc's ATSP (mznc 2021, instance5_0p15): its first solution is the optimum,
  the root bound 36,724 below it; fifteen refutations of about 40 nodes each made 612
  nodes, where Gecode's plain branch and bound takes 69. The attempt costs at most
  twice the refutation before it.

Once a probe would only ask for f's next value, the rest is the plain branch and bound
from the incumbent, without a budget: the answer stays exact
(the same optimum, proved), every option giving the same one. That is `bisect`, the
search="classic" and "learning" of an objective whose domain at the root spans more than
WIDE values (model/running.py).

Under search="auto" (and "portfolio") the probes are instead one arm of the portfolio
(`probe_turns`, compiler/portfolio.py), beside the classic search from scratch and the
learning search, which may prove the optimum long before the last part does: that part,
started from a tight incumbent, is the model's search with
its top decisions chosen under that bound, a different tree, which may be far larger
than the one branch and bound from scratch walks (hakank's shopping_basket5 under its
annotation: 112 k nodes from scratch in Gecode, 10.7 M with the bound 44,545 given; the
probes reach 44,545 and the optimum is 42,013), while a model whose plain branch and
bound crawls (two rows 10**24 wide) is still proved by the probes.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, cast

from conundrum.compiler.subrun import first_solution, merge_counts, sub_options
from conundrum.engine import Inconsistency
from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel
    from conundrum.search.options import SearchOptions
    from conundrum.search.slicing import Slice

WIDE = 1 << 16  # objectives spanning more values than this are bisected
PROBE_NODES = 1000  # the node budget of one probe


def is_wide(compiled: CompiledModel) -> bool:
    """Whether the objective's root domain spans more than WIDE values."""
    obj = compiled.obj
    return obj is not None and obj.hi - obj.lo > WIDE


def bisect(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats,
           start: float) -> Generator[list[int], None, None]:
    """The values of each improving solution, as CompiledModel.run gives them (see the
    module): the options' own search for the first solution, the probes and the last
    part."""
    best: list[int] = []
    values = first_solution(compiled, opts, stats, start, best)
    if values is None:
        return
    yield values
    # (without a slicer the probes never pause)
    probes = cast("Generator[list[int], None, bool]",
                  _probes(compiled, opts, stats, start, best, None))
    if not (yield from probes):
        return
    # the plain branch and bound from the incumbent, to its end or a limit
    sub = SearchStats()
    run = compiled.run(sub_options(opts, stats, None, None), sub, start, best)
    try:
        yield from run
    finally:
        run.close()
    merge_counts(stats, sub)
    stats.stopped_by = sub.stopped_by
    if sub.bound is not None:
        stats.tighten(sub.bound, compiled.sense)


def probe_turns(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats,
                start: float, best: list[int], slicer: Slice,
                on_last_part: Callable[[], None] | None = None,
                ) -> Generator[list[int] | None, None, None]:
    """Bisection as an arm of the portfolio (compiler/portfolio.py), for an objective
    wide enough for it: probes from the shared incumbent `best` (which the portfolio's
    first turn has found), each within PROBE_NODES nodes. Yields each better solution's
    values, and None when its slice is spent (looked at between probes). Once a probe
    would only ask for the incumbent's next value, the plain branch and bound from the
    incumbent, in slices too: the arm is then `bisect` after its first solution, so the
    portfolio is never far behind what search="classic" does on such an objective. Ends
    with a proof of optimality (stats.stopped_by None) or a limit of the run (named
    there). `on_last_part` is told when the last part begins (the portfolio then shortens
    the arm's turns: it is a second branch and bound beside its classic arm)."""
    if (yield from _probes(compiled, opts, stats, start, best, slicer)):
        if on_last_part is not None:
            on_last_part()
        yield from compiled.sliced_run(opts, stats, start, best, (), slicer)


def _probes(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats, start: float,
            best: list[int], slicer: Slice | None) -> Generator[list[int] | None, None, bool]:
    """The probes from the incumbent `best` (see the module), yielding each better
    solution's values, and None when the slicer's slice is spent (looked at between
    probes). Returns True when the last part is left (a probe would only ask for the
    incumbent's next value), False when the run is over: the incumbent proved optimal
    (stats.stopped_by None) or a limit of the run (named there)."""
    obj = compiled.obj
    assert obj is not None
    sense = compiled.sense
    bound = obj.hi if sense > 0 else obj.lo  # the root's: nothing beyond it
    reach = 2  # the target lies 1/reach of the way from the incumbent to the bound
    proof = 0  # > 0: the next probe asks for the incumbent's next value in this budget
    while True:
        f = best[0]
        gap = (bound - f) * sense
        if gap <= 0:
            stats.stopped_by = None  # the bound is met: the incumbent is optimal
            return False
        if proof:  # the optimality proof itself, in the budget a cheap refutation earned
            target, budget = f + sense, proof
        else:
            step = gap // reach
            if step <= 1:
                return True
            target, budget = f + sense * step, PROBE_NODES
        proof = 0
        outcome, used = yield from _probe(compiled, opts, stats, start, best, target, budget)
        if outcome == "stopped":
            return False
        if outcome == "none":
            bound = target - sense  # nothing at least as good as the target
            stats.tighten(bound, sense)
            reach = 2
            if used <= PROBE_NODES // 4:  # cheap: try the proof itself (see the module)
                proof = max(2 * used, 2)
        elif outcome == "found":
            reach = 2
        elif budget == PROBE_NODES:  # "unknown" (a proof attempt's changes nothing)
            reach *= 2
        if slicer is not None and slicer.due(stats):
            yield None


def _probe(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats, start: float,
           best: list[int], target: int,
           budget: int) -> Generator[list[int], None, tuple[str, int]]:
    """Search for solutions with the objective at least as good as `target`, within
    `budget` nodes, and yield the first. Returns the outcome and the nodes it took: "found",
    "none" (proved there is none), "unknown" (the budget ran out first) or "stopped" (a
    limit of the whole run)."""
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
            return "none", 0
        sub = SearchStats()
        run = compiled.run(sub_options(opts, stats, budget, None), sub, start, best)
        try:
            for values in run:
                found = True
                yield values
                break
        finally:
            run.close()
        merge_counts(stats, sub)
    finally:
        while trail.depth > base:
            trail.pop_level()
    if found:
        return "found", sub.nodes
    if sub.stopped_by is None:
        return "none", sub.nodes
    if sub.stopped_by != "node_limit" or (
            opts.node_limit is not None and stats.nodes >= opts.node_limit):
        stats.stopped_by = sub.stopped_by
        return "stopped", sub.nodes
    return "unknown", sub.nodes
