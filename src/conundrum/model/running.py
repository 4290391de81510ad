"""One run of a model: compile its snapshot, then search it sequentially, in parallel
(conundrum.parallel) or by large neighbourhood search (compiler/lns.py)."""

from __future__ import annotations

import time
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.lang.expr import Expr, Var
    from conundrum.model.model import Model
    from conundrum.model.solution import Solution
    from conundrum.parallel.options import Parallel
    from conundrum.search.options import SearchOptions


def run_snapshot(snapshot: tuple[list[Var], list[Expr]], opts: SearchOptions,
                 objective: object, sense: int, stats: SearchStats,
                 parallel: Parallel | None, single: bool = False,
                 ) -> Generator[list[int], None, None]:
    """The values of the snapshot's variables in each solution, in order (a fresh list
    each time), every one verified by the independent checker; with an objective (`sense`
    -1 minimises, +1 maximises), each one better than the last. `parallel` (workers > 1)
    searches in worker processes or on a Dask cluster. `single`: the caller takes one
    solution at most (a portfolio search may then end at the first, whichever search
    finds it)."""
    from conundrum._interrupt import deferred, deferring
    from conundrum.compiler.compiled import compile_model
    from conundrum.engine import TimeUp

    start = time.perf_counter()  # stats.seconds and time_limit count the compilation too
    variables, constraints = snapshot
    deadline = 0.0 if opts.time_limit is None else start + opts.time_limit
    try:
        # Ctrl-C waits for the engine's polls while it works (conundrum/_interrupt.py):
        # delivered inside a big-integer operation of the compiled build, it would abort
        with deferred():
            compiled = compile_model(variables, constraints, objective, sense,
                                     deadline=deadline, relax=opts.lp is not False)
    except TimeUp:  # the time limit ran out while posting or propagating at the root
        stats.stop("time_limit")
        stats.seconds = time.perf_counter() - start
        return
    if compiled is None:
        stats.seconds = time.perf_counter() - start
        return
    if compiled.obj is not None:  # the root's bound, before any search
        obj = compiled.obj
        stats.tighten(obj.lo if sense < 0 else obj.hi, sense)
    if parallel is not None:
        from conundrum.parallel import parallel_search

        # (not deferred: the workers ignore SIGINT, and the coordinator waits on them in
        # plain Python, where Ctrl-C must stop it at once)
        yield from parallel_search(compiled, (variables, constraints, objective), opts, stats,
                                   start, parallel)
        return
    from conundrum.compiler import portfolio
    from conundrum.search.options import parse_search

    if portfolio.chosen(compiled, opts, single):
        yield from deferring(portfolio.portfolio(
            compiled, snapshot, objective, sense, opts, stats, start, single,
            portfolio.with_neighbourhoods(compiled, opts), parse_search(opts.search)[1]))
        return
    from conundrum.compiler.lns import chosen

    if chosen(compiled, opts):
        from conundrum.compiler.lns import lns

        yield from deferring(lns(compiled, opts, stats, start))
        return
    from conundrum.compiler.bisection import bisect, is_wide

    if is_wide(compiled) and opts.method == "complete":
        yield from deferring(bisect(compiled, opts, stats, start))
        return
    yield from deferring(compiled.run(opts, stats, start))


def solution_stream(model: Model, limit: int | None, opts: SearchOptions,
                    parallel: Parallel | None, goal: str = "all", objective: object = None,
                    sense: int = 0, extra: Sequence[Expr] = (),
                    ) -> Generator[Solution, None, None]:
    """The solutions of a run of `model` asked for `goal` ("one": solve(), "all", or
    "best": each one better than the last for `objective` in direction `sense`), under the
    model's constraints and `extra` ones for this run only; the run's statistics become
    model.stats."""
    # this run's own statistics: another run of the model may have started meanwhile
    stats = SearchStats()
    if limit == 0:
        model.stats = stats
        stats.stop("limit")
        stats.conclude(goal)
        return
    found = 0
    snapshot = model._snapshot()
    snapshot[1].extend(extra)
    variables = snapshot[0]
    run = model._run(opts, objective, sense, snapshot, stats=stats, parallel=parallel,
                     single=goal == "one" or limit == 1)
    try:
        for values in run:
            found += 1
            solution = model._solution(variables, values)
            if goal == "best":
                stats.objective = int(solution.value(objective))  # type: ignore[arg-type]
            if limit is not None and found >= limit:
                # the run ends before the last solution is handed over: a caller that
                # takes it and stops reading (as solve() does) may never resume this
                # generator. Named "limit" first, so that closing it is not "closed".
                stats.stop("limit")
                run.close()
                if goal == "one":
                    stats.stopped_by = None  # solve(): the one solution asked for
                stats.conclude(goal)
                yield solution
                return
            yield solution
    except KeyboardInterrupt:
        # Ctrl-C: what was found stands (minimize/maximize return the best of it). The
        # search may already have been closed on the way ("closed"): the cause wins.
        stats.stopped_by = "interrupted"
        raise
    finally:
        run.close()
        stats.conclude(goal)
