"""Searches made of several runs of one compiled model (large neighbourhood search,
objective bisection): each part is a CompiledModel.run with options of its own, and the
whole run's statistics add up the parts' counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.search.stats import SearchStats

# what a progress report of the whole run takes from it before adding a part's counts
COPIED = ("status", "nodes", "fails", "propagations", "solutions", "max_depth", "restarts",
          "objective", "bound", "search")

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel
    from conundrum.lang.expr import Var
    from conundrum.search.options import SearchOptions


def sub_options(opts: SearchOptions, stats: SearchStats, budget: int | None,
                hints: dict[Var, int] | None) -> SearchOptions:
    """One part's options: the caller's, with the nodes left of its node limit (and at
    most `budget`), `hints` if given, and progress calls that report the whole run."""
    sub = opts.copy()
    report = opts.on_progress
    if report is not None:
        def progress(part: SearchStats) -> None:
            whole = SearchStats(stats.stopped_by)
            for name in COPIED:
                setattr(whole, name, getattr(stats, name))
            merge_counts(whole, part)
            report(whole)

        sub.on_progress = progress
    left = None if opts.node_limit is None else max(0, opts.node_limit - stats.nodes)
    if budget is not None:
        left = budget if left is None else min(left, budget)
    sub.node_limit = left
    if hints is not None:
        sub.hints = hints
    return sub


def merge_counts(stats: SearchStats, sub: SearchStats) -> None:
    """Add one part's counts to the whole run's."""
    stats.nodes += sub.nodes
    stats.fails += sub.fails
    stats.solutions += sub.solutions
    stats.restarts += sub.restarts
    stats.max_depth = max(stats.max_depth, sub.max_depth)
    stats.propagations = sub.propagations  # the solver's own running total
    stats.seconds = sub.seconds
    if sub.search == "learning":
        stats.search = sub.search


def first_solution(compiled: CompiledModel, opts: SearchOptions, stats: SearchStats,
                   start: float, best: list[int]) -> list[int] | None:
    """The options' own search, stopped at its first solution (its values; `best` then
    holds its objective). None when there is none: stats.stopped_by then says whether a
    limit came first (None: proved unsatisfiable)."""
    sub = SearchStats()
    run = compiled.run(sub_options(opts, stats, None, None), sub, start, best)
    try:
        values = next(run, None)
    finally:
        run.close()
    merge_counts(stats, sub)
    stats.search = sub.search
    if values is None:
        stats.stopped_by = sub.stopped_by
    return values
