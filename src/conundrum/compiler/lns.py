"""Large neighbourhood search (issue 30, `lns=True`): a branch and bound that, after a
first solution, searches small parts of the model around the incumbent instead of the whole
tree, as Gecode's restart-based LNS, OscaR and CP-SAT's LNS workers do.

- **Neighbourhoods**: a share `relax` of the decision variables is left free; every other
  one is fixed to its value in the incumbent (the decisions of a path, as a subproblem of
  the parallel search is given: CompiledModel.run). The objective is never fixed: branch
  and bound asks each solution to beat the incumbent. The free variables are drawn two
  ways: at random, and *related*: from a random variable, those that share constraints
  with the ones drawn (breadth first over the constraint graph, skipping constraints over
  more than a third of the variables, such as the objective's sum), as Perron, Shaw and
  Furnon's propagation-guided LNS frees variables that interact: a machine's tasks and
  their jobs' neighbours in a job shop, rather than a scattering that the fixed rest pins
  in place. Which way is chosen adapts, as CP-SAT's LNS picks among its generators: each
  way's score is a moving average of its neighbourhoods' improvements, and a way is
  drawn with probability proportional to its score (plus a floor, so neither is given up).
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
RANDOM, RELATED = 0, 1  # the ways of drawing a neighbourhood (Neighbourhoods.score)
DECAY = 0.1  # the weight of the last neighbourhood in a way's score
FLOOR = 0.05  # added to a way's score when drawing, so that neither is given up


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
    while True:
        whole = hood.whole()
        path, kind = ([], RANDOM) if whole else hood.draw(values)
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
        hood.searched(kind, exhausted=sub.stopped_by is None, improved=improved)


class Neighbourhoods:
    """The neighbourhoods of one large neighbourhood search (see the module): which
    variables each frees, and the share `relax` they free, adapted to what each search
    found. Used by the sequential search above and by the parallel one's coordinator."""

    __slots__ = ("rng", "free_vars", "related", "relax", "score")

    def __init__(self, compiled: CompiledModel, seed: int | None) -> None:
        self.rng = random.Random(seed)
        self.free_vars = free_positions(compiled)
        self.related = Related(compiled, self.free_vars)
        self.relax = INITIAL_RELAX
        # per way of drawing: a moving average of its neighbourhoods' improvements
        self.score = [0.5, 0.5]

    def whole(self) -> bool:
        """Whether the next search is the whole model (the neighbourhoods grew to it)."""
        return self.relax >= 1.0 or len(self.free_vars) <= 1

    def draw(self, values: list[int]) -> tuple[list[PathStep], int]:
        """The next neighbourhood around the incumbent `values`: the decisions fixing every
        variable it does not free, and the way it was drawn (RANDOM or RELATED)."""
        free_vars = self.free_vars
        size = max(1, round(self.relax * len(free_vars)))
        kind = RANDOM
        if self.related.linked:
            random_share = (self.score[RANDOM] + FLOOR) / (sum(self.score) + 2 * FLOOR)
            kind = RANDOM if self.rng.random() < random_share else RELATED
        if kind == RELATED:
            freed = self.related.draw(self.rng, size)
            kept = [k for k in free_vars if k not in freed]
        else:
            kept = sorted(self.rng.sample(free_vars, len(free_vars) - size))
        return [(k, EQ, values[k]) for k in kept], kind

    def searched(self, kind: int, exhausted: bool, improved: bool) -> None:
        """A neighbourhood drawn the way `kind` was searched: to its end (`exhausted`) or
        until its node budget stopped it; `improved` if it found a better solution."""
        self.score[kind] = (1 - DECAY) * self.score[kind] + DECAY * improved
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


class Related:
    """The constraint graph of the model as the neighbourhoods see it: which engine
    variables each constraint (propagator) watches, auxiliary ones included (a sum's
    partial sums, a product's result) so that decision variables related through them are
    neighbours. Constraints over more than a third of the free decision variables are left
    out: they relate everything to everything (an objective's sum, an all_different over
    the whole model) and would free a random share again."""

    __slots__ = ("free", "scopes", "touching", "linked")

    def __init__(self, compiled: CompiledModel, free_vars: list[int]) -> None:
        self.free = {compiled.decision[k].index: k for k in free_vars}  # engine index -> k
        wide = max(2, len(free_vars) // 3)
        members: dict[int, set[int]] = {}  # id(propagator) -> engine indices it watches
        for x in [*compiled.decision, *compiled.extra]:
            if x.lo == x.hi:
                continue
            for prop in x.wake_fix:
                if prop.is_constraint:
                    members.setdefault(id(prop), set()).add(x.index)
        self.scopes: list[list[int]] = []
        self.touching: dict[int, list[int]] = {}  # engine index -> scopes that hold it
        for scope in members.values():
            if len(scope) >= 2 and sum(i in self.free for i in scope) <= wide:
                for i in scope:
                    self.touching.setdefault(i, []).append(len(self.scopes))
                self.scopes.append(sorted(scope))
        # worth drawing from only if some free decision variable has neighbours
        self.linked = any(i in self.touching for i in self.free)

    def draw(self, rng: random.Random, size: int) -> set[int]:
        """The positions of `size` free decision variables, grown breadth first from a
        random one through the constraints that hold them (in random order); from another
        random seed when a component is used up."""
        freed: set[int] = set()  # positions in the decision list
        seen: set[int] = set()  # engine indices reached
        seeds = [i for i in self.free if i in self.touching]
        while len(freed) < size and seeds:
            seed = seeds.pop(rng.randrange(len(seeds)))
            if seed in seen:
                continue
            seen.add(seed)
            freed.add(self.free[seed])
            order = [seed]
            head = 0
            while head < len(order) and len(freed) < size:
                i = order[head]
                head += 1
                scopes = list(self.touching.get(i, ()))
                rng.shuffle(scopes)
                for j in scopes:
                    scope = list(self.scopes[j])
                    rng.shuffle(scope)
                    for other in scope:
                        if other in seen or len(freed) >= size:
                            continue
                        seen.add(other)
                        order.append(other)
                        if other in self.free:
                            freed.add(self.free[other])
        return freed
