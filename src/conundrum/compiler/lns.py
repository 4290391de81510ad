"""Large neighbourhood search (issue 30, `lns=True`): a branch and bound that, after a
first solution, searches small parts of the model around the incumbent instead of the whole
tree, as Gecode's restart-based LNS, OscaR and CP-SAT's LNS workers do.

- **Neighbourhoods**: a share `relax` of the decision variables is left free; every other
  one is fixed to its value in the incumbent (the decisions of a path, as a subproblem of
  the parallel search is given: CompiledModel.run). The objective is never fixed: branch
  and bound asks each solution to beat the incumbent. The free variables are drawn at
  random. (Related neighbourhoods were tried, 2026-11-27: variables sharing constraints,
  grown breadth first over the constraint graph, alternating with the random ones or
  chosen by their improvements as CP-SAT picks its generators. Under the same node
  budgets, 3 seeds, they did better on ft10 (mean 944 against 948) and worse on the RCPSP
  J30_13 (59.3 against 58.3) and the open shop (1020 against 1015), so they were left out.)
- **Each neighbourhood** is searched by the options' search, its value choices following
  the incumbent first (hints), within NEIGHBOURHOOD_NODES nodes; every better solution it
  finds is handed over at once and becomes the incumbent.
- **Adaptive size**: a neighbourhood searched to its end without a better solution grows
  `relax` (GROW); one its node budget stopped shrinks it (SHRINK), never below one
  variable. Once `relax` reaches 1 the whole model is searched from the incumbent, without
  a node budget: a search that ends there proves the incumbent optimal, so a model small
  enough ends with a proof, as the exact search would.
- **With a time limit**, once EXACT_SHARE of it has gone the rest goes to the exact search
  from the incumbent (hinted by it, bounded by it), as if the neighbourhoods had grown to
  the whole model: the neighbourhoods give good answers early, the exact search the proofs
  that an open shop or a Golomb ruler need (measured, 2026-11-27: with neighbourhoods to
  the end, the open shop j7per10-1 was 1014 after 60 s where the default proved 1000 in
  30 s).
- **Ends** at the options' `time_limit` or `node_limit` (over every neighbourhood), or with
  the proof above. Without a limit it runs until that proof.

The neighbourhoods are drawn from `seed`: under a node limit a run is repeatable, and the
compiled and pure engines give the same answers.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator
from typing import TYPE_CHECKING

from conundrum.compiler.bisection import is_wide
from conundrum.compiler.subrun import first_solution, merge_counts, sub_options
from conundrum.search.selectors import EQ
from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel, PathStep
    from conundrum.search.options import SearchOptions
    from conundrum.search.slicing import Slice

NEIGHBOURHOOD_NODES = 1000  # the node budget of one neighbourhood
INITIAL_RELAX = 0.25  # the share of the decision variables left free at first
GROW = 1.25  # relax grows by this factor after a neighbourhood exhausted in vain
SHRINK = 1.1  # and shrinks by this one after a neighbourhood stopped by its budget
EXACT_SHARE = 0.5  # the share of a time limit given to neighbourhoods, the rest exact


def chosen(compiled: CompiledModel, opts: SearchOptions) -> bool:
    """Whether an optimisation runs as a large neighbourhood search: when asked for
    (lns=True), or by default (lns=None) when a time limit is given, the method is the
    complete one and the objective is not one for bisection (compiler/bisection.py)."""
    if compiled.obj is None or opts.lns is False:
        return False
    if opts.lns:
        return True
    return opts.time_limit is not None and opts.method == "complete" and not is_wide(compiled)


def lns(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats,
        start: float) -> Generator[list[int], None, None]:
    """The values of each improving solution, as CompiledModel.run gives them (see the
    module); `stats` gathers the counts of every neighbourhood's search."""
    best: list[int] = []
    values = first_solution(compiled, opts, stats, start, best)
    if values is None:
        return
    yield values
    hood = Neighbourhoods(compiled, opts.seed)
    # with a time limit, its second part goes to the exact search (see the module)
    exact_at = None if opts.time_limit is None else start + EXACT_SHARE * opts.time_limit
    while True:
        whole = hood.whole() or (exact_at is not None and time.perf_counter() >= exact_at)
        run, sub = around(compiled, opts, stats, start, best, values,
                          [] if whole else hood.draw(values),
                          None if whole else NEIGHBOURHOOD_NODES)
        improved = False
        try:
            for found in run:
                values = found
                improved = True
                yield found
        finally:
            run.close()
        merge_counts(stats, sub)
        if whole or sub.stopped_by not in (None, "node_limit"):
            stats.stopped_by = sub.stopped_by  # the proof (None), or a limit of the run
            return
        if opts.node_limit is not None and stats.nodes >= opts.node_limit:
            stats.stopped_by = "node_limit"
            return
        hood.searched(exhausted=sub.stopped_by is None, improved=improved)


def around(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats, start: float,
           best: list[int], values: list[int], path: list[PathStep], budget: int | None,
           ) -> tuple[Generator[list[int], None, None], SearchStats]:
    """The search of one neighbourhood of `values` (the decisions of `path` fixing what it
    does not free; [] for the whole model), hinted by `values`, within `budget` nodes
    (None: none), and the statistics it fills (the caller merges them into `stats`)."""
    sub = SearchStats()
    sub_opts = sub_options(opts, stats, budget, dict(zip(compiled.variables, values,
                                                         strict=True)))
    return compiled.run(sub_opts, sub, start, best, path), sub


def neighbourhood_turns(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats,
                        start: float, best: list[int], incumbent: list[list[int]],
                        slicer: Slice) -> Generator[list[int] | None, None, None]:
    """Large neighbourhood search as an arm of the portfolio (compiler/portfolio.py):
    neighbourhoods around the portfolio's latest solution (`incumbent[0]`, which the
    caller keeps up to date), each searched within NEIGHBOURHOOD_NODES nodes and bounded
    by the shared incumbent `best`. Yields each better solution's values, and None when
    its slice is spent (after a neighbourhood: one at least a turn). Once the
    neighbourhoods have grown to the whole model, one searched to its end within its
    budget is a proof (a new tree from the root, under the incumbent's tight bound and
    hinted by it, can be small where the exact arms, deep in trees begun under a loose
    bound, take far longer: the job shop la02 in 1.1 s, where the default took 12 s
    without it): the arm ends with `stats.stopped_by` None. Otherwise it ends only at a
    limit of the run, which `stats.stopped_by` names."""
    hood = Neighbourhoods(compiled, opts.seed)
    while True:
        values = incumbent[0]
        path = hood.draw(values)
        run, sub = around(compiled, opts, stats, start, best, values, path,
                          NEIGHBOURHOOD_NODES)
        improved = False
        try:
            for found in run:
                improved = True
                yield found
        finally:
            run.close()
        merge_counts(stats, sub)
        if sub.stopped_by not in (None, "node_limit"):
            stats.stopped_by = sub.stopped_by  # the run's time limit
            return
        if not path and sub.stopped_by is None:
            return  # the whole model, searched to its end: the proof (stopped_by None)
        hood.searched(exhausted=sub.stopped_by is None, improved=improved)
        if slicer.due(stats):
            yield None


class Neighbourhoods:
    """The neighbourhoods of one large neighbourhood search (see the module): which
    variables each frees, and the share `relax` they free, adapted to what each search
    found. Used by the sequential search above and by the parallel one's coordinator."""

    __slots__ = ("rng", "free_vars", "relax")

    def __init__(self, compiled: CompiledModel, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.free_vars = free_positions(compiled)
        self.relax = INITIAL_RELAX

    def whole(self) -> bool:
        """Whether the next search is the whole model (the neighbourhoods grew to it)."""
        return self.relax >= 1.0 or len(self.free_vars) <= 1

    def draw(self, values: list[int]) -> list[PathStep]:
        """The next neighbourhood around the incumbent `values`: the decisions fixing every
        variable it does not free."""
        free_vars = self.free_vars
        keep = len(free_vars) - max(1, round(self.relax * len(free_vars)))
        return [(k, EQ, values[k]) for k in sorted(self.rng.sample(free_vars, keep))]

    def searched(self, exhausted: bool, improved: bool) -> None:
        """A neighbourhood was searched: to its end (`exhausted`) or until its node budget
        stopped it; `improved` if it found a better solution."""
        if exhausted:
            if not improved:
                self.relax = min(1.0, self.relax * GROW)
        else:
            self.relax = max(1.0 / len(self.free_vars), self.relax / SHRINK)


def free_positions(compiled: CompiledModel) -> list[int]:
    """The positions of the decision variables a neighbourhood may fix: not fixed at the
    root already, and not the objective's own variable."""
    obj = compiled.obj
    obj_index = -1 if obj is None else obj.root.index
    return [k for k, x in enumerate(compiled.decision)
            if x.lo != x.hi and x.index != obj_index]
