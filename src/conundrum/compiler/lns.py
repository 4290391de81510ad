"""Large neighbourhood search (issue 30, `lns=True`): a branch and bound that, after a
first solution, searches small parts of the model around the incumbent instead of the whole
tree, as Gecode's restart-based LNS, OscaR and CP-SAT's LNS workers do.

- **Neighbourhoods**: a random share `relax` of the decision variables is left free; every
  other one is fixed to its value in the incumbent (the decisions of a path, as a
  subproblem of the parallel search is given: CompiledModel.run). The objective is never
  fixed: branch and bound asks each solution to beat the incumbent.
- **Each neighbourhood** is searched by the options' search, its value choices following
  the incumbent first (hints), within NEIGHBOURHOOD_NODES nodes; every better solution it
  finds is handed over at once and becomes the incumbent.
- **Adaptive size**: a neighbourhood searched to its end without a better solution grows
  `relax` (GROW); one its node budget stopped shrinks it (SHRINK), never below one
  variable. Once `relax` reaches 1 the whole model is searched from the incumbent, without
  a node budget: a search that ends there proves the incumbent optimal, so a model small
  enough ends with a proof, as the exact search would.
- **Ends** at the options' `time_limit` or `node_limit` (over every neighbourhood), or with
  the proof above. Without a limit it runs until that proof.

The neighbourhoods are drawn from `seed`: under a node limit a run is repeatable, and the
compiled and pure engines give the same answers.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import TYPE_CHECKING

from conundrum.compiler.subrun import first_solution, merge_counts, sub_options
from conundrum.search.selectors import EQ
from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel, PathStep
    from conundrum.search.options import SearchOptions

NEIGHBOURHOOD_NODES = 1000  # the node budget of one neighbourhood
INITIAL_RELAX = 0.25  # the share of the decision variables left free at first
GROW = 1.25  # relax grows by this factor after a neighbourhood exhausted in vain
SHRINK = 1.1  # and shrinks by this one after a neighbourhood stopped by its budget


def lns(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats,
        start: float) -> Generator[list[int], None, None]:
    """The values of each improving solution, as CompiledModel.run gives them (see the
    module); `stats` gathers the counts of every neighbourhood's search."""
    rng = random.Random(opts.seed)
    best: list[int] = []
    values = first_solution(compiled, opts, stats, start, best)
    if values is None:
        return
    yield values
    free_vars = _free_positions(compiled)
    relax = INITIAL_RELAX
    while True:
        whole = relax >= 1.0 or len(free_vars) <= 1
        path: list[PathStep] = []
        if not whole:
            keep = len(free_vars) - max(1, round(relax * len(free_vars)))
            path = [(k, EQ, values[k]) for k in sorted(rng.sample(free_vars, keep))]
        sub_opts = sub_options(opts, stats, None if whole else NEIGHBOURHOOD_NODES,
                            dict(zip(compiled.variables, values, strict=True)))
        sub = SearchStats()
        improved = False
        run = compiled.run(sub_opts, sub, start, best, path)
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
        if sub.stopped_by is None:
            if not improved:
                relax = min(1.0, relax * GROW)
        else:
            relax = max(1.0 / len(free_vars), relax / SHRINK)


def _free_positions(compiled: CompiledModel) -> list[int]:
    """The positions of the decision variables a neighbourhood may fix: not fixed at the
    root already, and not the objective's own variable."""
    obj = compiled.obj
    obj_index = -1 if obj is None else obj.root.index
    return [k for k, x in enumerate(compiled.decision)
            if x.lo != x.hi and x.index != obj_index]
