"""The portfolio search (issue 42, `search="portfolio"`): the depth-first search and the
learning search share one core in turns, each on an engine of its own and keeping its
state between turns, so that a run is never much slower than the better of the two.

- **Arms**: the classic search runs on the compiled model; the learning search on a
  second compilation of the same snapshot, made when its first turn comes (a model the
  classic search finishes in its first turn, every puzzle of the benchmark, is compiled
  once and searched exactly as `search="classic"` searches it).
- **Turns**: the classic arm goes first for FIRST_SLICE seconds, then the arms
  alternate, SLICE seconds each, doubled after every pair of turns. Since each arm goes
  on from where it paused, the run takes at most about twice what the arm that ends it
  needs alone. Turns are spans of time (search/slicing.py says why): past the first
  turn, the counts of a run (nodes, failures, which arm found which solution) vary from
  run to run; the answers do not (the optimum, the proof, a solution or the proof there
  is none).
- **Shared incumbent**: both branch and bounds hold the same incumbent list; the classic
  search applies it at its next node, the learning search by a restart when it resumes
  (its learned nogoods stay valid: bounds only tighten).
- **Ends** when an arm ends: a proof of optimality (or of no solution) by either stands
  for the whole run, as does a limit (time, nodes). With one solution asked for
  (`single`), the first found ends it.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from conundrum.search.slicing import Slice
from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel
    from conundrum.lang.expr import Expr, Var
    from conundrum.search.options import SearchOptions

FIRST_SLICE = 0.5  # seconds: the classic arm's first turn (a puzzle ends within it)
SLICE = 0.25  # seconds: the learning arm's first turn, and the next classic one
GROWTH = 2  # each pair of turns gets this many times the time of the pair before


class _Arm:
    """One search of the portfolio: its compiled model, options, statistics, slice and
    (once started) its run."""

    __slots__ = ("name", "compiled", "opts", "stats", "slice", "run", "seconds")

    def __init__(self, name: str, opts: SearchOptions) -> None:
        self.name = name
        self.compiled: CompiledModel | None = None
        self.opts = opts
        self.stats = SearchStats()
        self.slice = Slice()
        self.run: Generator[list[int] | None, None, None] | None = None
        self.seconds = 0.0  # the time its turns took


def arm_options(opts: SearchOptions, name: str) -> SearchOptions:
    """The options of the arm `name`: the caller's, with its own search, and no node
    limit (the portfolio counts the nodes of both); the learning arm branches by activity
    unless another heuristic than the default was named, as search="auto" does."""
    sub = opts.copy()
    sub.search = name
    sub.node_limit = None
    if name == "learning" and sub.var_select == "dom_wdeg":
        sub.var_select = "activity"
    return sub


def portfolio(compiled: CompiledModel, snapshot: tuple[list[Var], list[Expr]],
              objective: object, sense: int, opts: SearchOptions, stats: SearchStats,
              start: float, single: bool) -> Generator[list[int], None, None]:
    """The values of each solution, as CompiledModel.run gives them (each improving, with
    an objective); `stats` holds the sum of both arms' (see the module)."""
    from conundrum.compiler.compiled import compile_model
    from conundrum.engine import TimeUp

    report = opts.on_progress
    classic = _Arm("classic", arm_options(opts, "classic"))
    learning = _Arm("learning", arm_options(opts, "learning"))
    arms = (classic, learning)
    if report is not None:
        def progress(_part: SearchStats) -> None:
            _sum(stats, arms, start)
            report(stats)

        for arm in arms:
            arm.opts.on_progress = progress
    classic.compiled = compiled
    best: list[int] = []  # the incumbent both arms bound their search with
    budget = SLICE
    turn = 0
    try:
        while True:
            arm = arms[turn % 2]
            if arm.run is None:
                if arm.compiled is None:
                    variables, constraints = snapshot
                    deadline = 0.0 if opts.time_limit is None else start + opts.time_limit
                    try:
                        arm.compiled = compile_model(variables, constraints, objective, sense,
                                                     deadline=deadline)
                    except TimeUp:
                        stats.stop("time_limit")
                        return
                    if arm.compiled is None:  # cannot happen: the first one compiled
                        raise AssertionError("the second compilation failed at the root")
                arm.run = arm.compiled.run(arm.opts, arm.stats, start, best, (), arm.slice)
            length = FIRST_SLICE if turn == 0 else budget
            # (0.0: a pause at every point, the tests' node-by-node alternation)
            arm.slice.until = 0.0 if length <= 0 else time.perf_counter() + length
            if opts.node_limit is not None:
                arm.slice.node_cap = arm.stats.nodes + max(0, opts.node_limit
                                                             - _nodes(arms))
            ended = True
            began = time.perf_counter()
            for values in arm.run:
                if values is None:  # the slice is spent
                    ended = False
                    break
                arm.seconds += time.perf_counter() - began
                _sum(stats, arms, start)
                stats.search = arm.name
                yield values
                if single:
                    return
                began = time.perf_counter()
            arm.seconds += time.perf_counter() - began
            _sum(stats, arms, start)
            if ended:  # a proof, or a limit: either stands for the whole run
                stats.search = arm.name
                if arm.stats.stopped_by is not None:
                    stats.stop(arm.stats.stopped_by)
                return
            if opts.node_limit is not None and stats.nodes >= opts.node_limit:
                stats.stop("node_limit")
                return
            turn += 1
            if turn % 2 == 1 and turn > 1:
                budget *= GROWTH
    except GeneratorExit:
        stats.stop("closed")
        raise
    finally:
        for arm in arms:
            if arm.run is not None:
                arm.run.close()
        _sum(stats, arms, start)


def _nodes(arms: Sequence[_Arm]) -> int:
    return sum(arm.stats.nodes for arm in arms)


def _sum(stats: SearchStats, arms: Sequence[_Arm], start: float) -> None:
    """The whole run's counts: the sum of the arms', and the tightest bound either
    proved."""
    stats.nodes = _nodes(arms)
    stats.fails = sum(arm.stats.fails for arm in arms)
    stats.solutions = sum(arm.stats.solutions for arm in arms)
    stats.restarts = sum(arm.stats.restarts for arm in arms)
    stats.max_depth = max(arm.stats.max_depth for arm in arms)
    stats.propagations = sum(arm.compiled.solver.propagations for arm in arms
                             if arm.compiled is not None)
    depth_nodes: list[int] = []
    for arm in arms:
        for d, n in enumerate(arm.stats.depth_nodes):
            if d < len(depth_nodes):
                depth_nodes[d] += n
            else:
                depth_nodes.append(n)
    stats.depth_nodes = depth_nodes
    compiled = arms[0].compiled
    sense = 0 if compiled is None else compiled.sense
    for arm in arms:
        if arm.stats.bound is not None and sense:
            stats.tighten(arm.stats.bound, sense)
    stats.seconds = time.perf_counter() - start


def chosen(compiled: CompiledModel, opts: SearchOptions, single: bool) -> bool:
    """Whether a run is a portfolio: asked for (search="portfolio"), with the complete
    method, for an optimisation or one solution (an enumeration of every solution is
    searched once, depth-first), and no large neighbourhood search asked for."""
    from conundrum.search.options import parse_search

    if parse_search(opts.search)[0] != "portfolio" or opts.method != "complete" or opts.lns:
        return False
    return compiled.obj is not None or single
