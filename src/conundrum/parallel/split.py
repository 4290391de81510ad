"""Split a search tree into subproblems, for embarrassingly parallel search (Régin, Rezgui
and Malapert, CP 2013): open the tree one level at a time with the search's own heuristics
until there are enough open nodes; each open node is a subproblem, described by the
decisions that lead to it.

The alternatives of a branching partition its node's solutions (x = v | x != v, or
x <= v | x > v, see search/selectors.py), so the subproblems partition the solutions of
the model: searched one by one, they give every solution exactly once.
"""

from __future__ import annotations

import heapq
import math
import time

from conundrum.compiler.compiled import CompiledModel, PathStep
from conundrum.engine import Inconsistency
from conundrum.search.dfs import ObjectiveBound, branching
from conundrum.search.options import SearchOptions
from conundrum.search.selectors import Outward
from conundrum.search.stats import SearchStats

Path = tuple[PathStep, ...]


def split(compiled: CompiledModel, opts: SearchOptions, target: int, stats: SearchStats,
          deadline: float | None = None, node_limit: int | None = None) -> list[Path]:
    """At least `target` subproblems below the root, in depth-first order (fewer when the
    tree is smaller). The open node with the largest search space (the product of its
    decision variables' domain sizes) is split first: x != v leaves a much bigger subtree
    than x = v, and splitting level by level would leave one subproblem with most of the
    work. A node that is already a solution, or whose next branching is on an auxiliary
    variable (which a worker's engine may number differently), stays whole; so does, in a
    projected enumeration (opts.project), a node whose projection variables are all fixed:
    its completions are one projection, to be reported once, so the subproblems are cut
    along projection variables alone and their projections are disjoint.

    The nodes tried are counted in `stats`; a node that fails is dropped. Splitting stops
    early (leaving bigger subproblems) at the deadline or the node limit."""
    solver = compiled.solver
    trail = solver.trail
    project = compiled.project(opts)
    # the objective, never applied here: its variable is split on last, as searched
    bound = None if compiled.obj is None else ObjectiveBound(compiled.obj, compiled.sense, [])
    choose = branching(solver, compiled.decision, compiled.extra, opts, compiled.phases(opts),
                       project, bound)
    members = None if project is None else {id(x) for x in project}
    # open nodes: (-log2 of the search space, order, path, position in depth-first order)
    heap: list[tuple[float, int, Path, tuple[int, ...]]] = [(-_space(compiled), 0, (), ())]
    closed: list[tuple[tuple[int, ...], Path]] = []
    made = 0
    while heap and len(heap) + len(closed) < target:
        if deadline is not None and time.perf_counter() > deadline:
            break
        if node_limit is not None and stats.nodes >= node_limit:
            break
        _, _, path, place = heapq.heappop(heap)
        trail.push_level()
        try:
            compiled.apply(path)  # it propagated without failure when it was made
            choice = choose()
            if choice is None or id(choice[0]) not in compiled.position or (
                    members is not None and id(choice[0]) not in members):
                closed.append((place, path))
                continue
            k = compiled.position[id(choice[0])]
            alts = choice[1]
            # a fixed list of subtrees (Outward makes its values as they are tried)
            listed = alts.partition() if isinstance(alts, Outward) else \
                [alts[j] for j in range(len(alts))]
            for i, (kind, v) in enumerate(listed):
                step = (k, kind, v)
                stats.nodes += 1
                trail.push_level()
                try:
                    compiled.apply((step,))
                    made += 1
                    heapq.heappush(heap, (-_space(compiled), made, path + (step,),
                                          place + (i,)))
                    stats.max_depth = max(stats.max_depth, len(path) + 1)
                except Inconsistency:
                    stats.fails += 1
                finally:
                    trail.pop_level()
        finally:
            trail.pop_level()
    nodes = closed + [(place, path) for _, _, path, place in heap]
    nodes.sort()  # depth-first order: by the alternatives taken along the way
    return [path for _, path in nodes]


def _space(compiled: CompiledModel) -> float:
    """log2 of the product of the decision variables' domain sizes (the search space)."""
    return sum(math.log2(x.size()) for x in compiled.decision if x.lo != x.hi)
