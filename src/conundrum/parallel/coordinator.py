"""The coordinator of a parallel search: split, hand out subproblems, merge the results.

1. The tree is split into about 30 subproblems per worker by the search's own heuristics
   (split.py); the workers start meanwhile. An optimisation first searches alone for
   PROBE_NODES nodes, for an incumbent and learned dom_wdeg weights to split with.
2. Each idle worker gets the next subproblem with the budget left (seconds, nodes) and the
   incumbent: dynamic load balancing, the first free worker takes the next one.
3. Results come back as events (see worker.py): solutions are passed on as they arrive
   (or, with `ordered`, in the order of the subproblems), counts are summed, a better
   incumbent is passed on and shared with every worker; statistics are summed.
4. The run stops at the global time limit, at the node limit (counted over every worker,
   from their reports every 0.2 s, so it may overshoot by what they did since), when the
   caller stops reading, or on an error; then every worker is stopped. A count stopped by
   a limit is the number found so far: the finished subproblems' counts, plus the running
   ones' final reports (at the time limit their workers stop too, and are waited for up to
   DRAIN_SECONDS) or else their last progress reports.

A subproblem whose worker died is searched again; the solutions already passed on for it
are not passed on twice.

With `lns=True` an optimisation runs a large neighbourhood search between the probe and
the split (`_lns`): each idle worker searches a neighbourhood of the incumbent (drawn by
compiler/lns.py's Neighbourhoods, the incumbent's values as hints, NEIGHBOURHOOD_NODES
nodes), every improvement becomes the incumbent that the next neighbourhoods are drawn
around and that every worker prunes with, and their share grows as they are exhausted in
vain. Once it has grown to the whole model, the split search above proves the incumbent
optimal, on every worker. A neighbourhood whose worker died is not searched again.
"""

from __future__ import annotations

import time
import warnings
from collections import deque
from collections.abc import Generator, Iterator
from typing import Any

from conundrum.compiler.compiled import CompiledModel
from conundrum.compiler.lns import chosen
from conundrum.lang.errors import WorkerError
from conundrum.parallel.options import SUBPROBLEMS_PER_WORKER, Parallel
from conundrum.parallel.split import Path, split
from conundrum.parallel.subproblem import JOB_OPTIONS, Job, Task
from conundrum.search.stats import SearchStats

PROGRESS_INTERVAL = 0.2
PROBE_NODES = 2000  # an optimisation's sequential start (see _Run._probe)
MAX_TRIES = 3  # a subproblem whose worker died this many times fails the search
# at the time limit, a count waits this long at most for the running subproblems' final
# counts (their workers stop at the same deadline, so they come within milliseconds)
DRAIN_SECONDS = 0.25
LNS_NUMBERS = 1 << 40  # neighbourhoods are numbered from here, apart from the subproblems


def parallel_search(compiled: CompiledModel, problem: tuple[list, list, object],
                    opts: Any, stats: SearchStats, start: float,
                    parallel: Parallel) -> Iterator[list[int]]:
    """Like CompiledModel.run, on several workers: the values of each solution (in count
    mode none: the total is left in stats.solutions); with an objective, each better
    than the last, the last one optimal when stats.complete."""
    variables, constraints, objective = problem
    options = {name: getattr(opts, name) for name in JOB_OPTIONS}
    job = Job(variables, constraints, objective, compiled.sense, options, parallel.mode,
              fresh=parallel.ordered).dumps()
    pool = _pool(parallel, job)
    run = _Run(compiled, opts, stats, start, parallel, pool)
    try:
        yield from run.search()
    except GeneratorExit:
        stats.stop("closed")
        raise
    finally:
        pool.close()
        run.finish()


def _pool(parallel: Parallel, job: bytes) -> Any:
    if parallel.scheduler is not None:
        from conundrum.parallel.cluster import DaskPool

        return DaskPool(parallel.scheduler, parallel.workers, job, parallel.mode == "optimize")
    from conundrum.parallel.local import LocalPool

    return LocalPool(parallel.workers or 1, job)


class _Run:
    """The state of one parallel search."""

    def __init__(self, compiled: CompiledModel, opts: Any, stats: SearchStats, start: float,
                 parallel: Parallel, pool: Any) -> None:
        self.compiled = compiled
        self.opts = opts
        self.stats = stats
        self.start = start
        self.mode = parallel.mode
        self.ordered = parallel.ordered
        self.pool = pool
        self.deadline = None if opts.time_limit is None else start + opts.time_limit
        self.node_limit: int | None = opts.node_limit
        self.best: list[int] = []
        self.incumbent: list[int] | None = None  # the best solution's values
        self.count = 0
        # per running subproblem: its (nodes, fails, propagations, solutions) reported so far
        self.running: dict[int, tuple[int, int, int, int]] = {}
        self.paths: dict[int, Path] = {}
        self.tries: dict[int, int] = {}
        # solutions passed on per running subproblem (so that a re-run repeats none)
        self.passed: dict[int, set[tuple[int, ...]]] = {}
        # what identifies a solution there: its projection in a projected enumeration (a
        # re-run may complete a projection differently), else all its values
        self.key_positions = compiled.project_positions(opts)
        self.retried: set[int] = set()
        # ordered: the lowest unfinished subproblem, the others' solutions held back
        self.next = 0
        self.finished: set[int] = set()
        self.held: dict[int, list[list[int]]] = {}
        stats.workers = pool.capacity

    # ------------------------------------------------------------------ the loop
    def search(self) -> Iterator[list[int]]:
        stats = self.stats
        if self.mode == "optimize":
            finished = yield from self._probe()
            if finished:
                return
            if chosen(self.compiled, self.opts) and self.incumbent is not None:
                finished = yield from self._lns()
                if finished:
                    return
        paths = self._split()
        stats.subproblems = len(paths)
        pending = deque(enumerate(paths))
        self.paths = dict(enumerate(paths))
        next_progress = time.perf_counter() + PROGRESS_INTERVAL
        while pending or self.running:
            if self._limit_reached():
                break
            while pending and self.pool.idle() > 0:
                number, path = pending.popleft()
                self.pool.submit(Task(number, path, self._time_left(), self._nodes_left(),
                                      list(self.best)))
                self.running[number] = (0, 0, 0, 0)
            wait = PROGRESS_INTERVAL
            if self.deadline is not None:
                wait = max(0.0, min(wait, self.deadline - time.perf_counter()))
            for event in self.pool.poll(wait):
                kind = event[0]
                if kind == "solutions":
                    yield from self._solutions(event[1], event[2])
                elif kind == "improved":
                    yield from self._improved(event[2], event[3])
                elif kind == "progress":
                    if event[1] in self.running:
                        self.running[event[1]] = (event[2], event[3], event[4], event[5])
                elif kind == "done":
                    yield from self._done(*event[1:])
                elif kind == "lost":
                    if event[1] is None:  # it died between subproblems
                        warnings.warn(f"{event[2]}; another was started", RuntimeWarning,
                                      stacklevel=2)
                    else:
                        self._lost(event[1], event[2])
                        pending.appendleft((event[1], self.paths[event[1]]))
                elif kind == "error":
                    what = "loading the model" if event[1] < 0 else f"subproblem {event[1]}"
                    raise WorkerError(f"a worker failed on {what}:\n{event[2]}")
                if stats.stopped_by is not None:
                    break  # a subproblem ran out of the budget it was given
            if stats.stopped_by is not None:
                break
            on_progress = self.opts.on_progress
            if on_progress is not None and time.perf_counter() >= next_progress:
                next_progress = time.perf_counter() + PROGRESS_INTERVAL
                on_progress(self._progress())
        if self.mode == "count" and stats.stopped_by == "time_limit":
            yield from self._drain()

    def _drain(self) -> Iterator[list[int]]:
        """Collect the final counts of the running subproblems, whose workers stop at the
        same deadline, for DRAIN_SECONDS at most (a count yields no solution)."""
        until = time.perf_counter() + DRAIN_SECONDS
        while self.running:
            wait = until - time.perf_counter()
            if wait <= 0:
                return
            for event in self.pool.poll(wait):
                if event[0] == "progress" and event[1] in self.running:
                    self.running[event[1]] = (event[2], event[3], event[4], event[5])
                elif event[0] == "done":
                    yield from self._done(*event[1:])
                elif event[0] == "lost" and event[1] is not None:
                    self.running.pop(event[1], None)  # its last report counts

    def _probe(self) -> Generator[list[int], None, bool]:
        """An optimisation first searches alone for a while (PROBE_NODES): its incumbent
        bounds the split, and the failures it learned steer dom_wdeg's choices there.
        Split without them, Golomb 10 took 4x the nodes of the sequential search (the
        subproblems were cut along choices the learned weights would not make, and none
        had an incumbent to prune with). True when the probe searched the whole tree."""
        from conundrum.search.options import SearchOptions

        opts = self.opts
        limit = PROBE_NODES if self.node_limit is None else min(PROBE_NODES, self.node_limit)
        probe_opts = SearchOptions(opts.var_select, opts.value_select, opts.method,
                                   opts.time_limit, limit, opts.seed, None, opts.phases,
                                   opts.project, opts.restarts, opts.search, opts.hints)
        probe = SearchStats()
        for values in self.compiled.run(probe_opts, probe, self.start, self.best):
            self.incumbent = values
            self.count += 1
            self.stats.solutions = self.count
            yield values
        stats = self.stats
        stats.nodes += probe.nodes
        stats.fails += probe.fails
        stats.restarts += probe.restarts
        stats.propagations += probe.propagations
        stats.max_depth = max(stats.max_depth, probe.max_depth)
        stats.search = probe.search  # the workers search as the probe did
        if probe.complete:
            return True
        if probe.stopped_by == "time_limit" or limit == self.node_limit:
            stats.stop(probe.stopped_by)  # type: ignore[arg-type]
            return True
        return False

    def _lns(self) -> Generator[list[int], None, bool]:
        """Neighbourhoods of the incumbent on every worker (see the module) until they
        have grown to the whole model (False: the split search goes on to the proof) or a
        limit stops the run (True)."""
        from conundrum.compiler.lns import NEIGHBOURHOOD_NODES, Neighbourhoods

        hood = Neighbourhoods(self.compiled, self.opts.seed)
        improved: dict[int, bool] = {}  # running neighbourhood -> it found a better one
        number = LNS_NUMBERS
        next_progress = time.perf_counter() + PROGRESS_INTERVAL
        while not hood.whole() or self.running:
            if self._limit_reached():
                return True
            while not hood.whole() and self.pool.idle() > 0:
                assert self.incumbent is not None
                path = tuple(hood.draw(self.incumbent))
                budget = self._nodes_left()
                budget = NEIGHBOURHOOD_NODES if budget is None \
                    else min(budget, NEIGHBOURHOOD_NODES)
                self.pool.submit(Task(number, path, self._time_left(), budget,
                                      list(self.best), list(self.incumbent)))
                self.running[number] = (0, 0, 0, 0)
                self.paths[number] = path
                improved[number] = False
                number += 1
            wait = PROGRESS_INTERVAL
            if self.deadline is not None:
                wait = max(0.0, min(wait, self.deadline - time.perf_counter()))
            for event in self.pool.poll(wait):
                kind = event[0]
                if kind == "improved":
                    before = list(self.best)
                    yield from self._improved(event[2], event[3])
                    if self.best != before and event[1] in improved:
                        improved[event[1]] = True
                elif kind == "progress":
                    if event[1] in self.running:
                        self.running[event[1]] = (event[2], event[3], event[4], event[5])
                elif kind == "done":
                    done, summary = event[1], event[2]
                    if done not in self.running:
                        continue
                    self._account(done, summary, event[4], event[5])
                    if summary["stopped_by"] not in (None, "node_limit"):
                        self.stats.stop(summary["stopped_by"])  # the run's time is up
                        return True
                    hood.searched(exhausted=summary["complete"],
                                  improved=improved.pop(done, False))
                elif kind == "lost":
                    if event[1] is None:
                        warnings.warn(f"{event[2]}; another was started", RuntimeWarning,
                                      stacklevel=2)
                    else:  # a neighbourhood is not worth searching again
                        self.running.pop(event[1], None)
                        improved.pop(event[1], None)
                        warnings.warn(f"{event[2]}; its neighbourhood is dropped",
                                      RuntimeWarning, stacklevel=2)
                elif kind == "error":
                    what = "loading the model" if event[1] < 0 else "a neighbourhood"
                    raise WorkerError(f"a worker failed on {what}:\n{event[2]}")
            on_progress = self.opts.on_progress
            if on_progress is not None and time.perf_counter() >= next_progress:
                next_progress = time.perf_counter() + PROGRESS_INTERVAL
                on_progress(self._progress())
        return False

    def _split(self) -> list[Path]:
        """The subproblems, under the incumbent's bound when there is one."""
        compiled = self.compiled
        trail = compiled.solver.trail
        trail.push_level()
        try:
            if self.best and compiled.obj is not None:
                from conundrum.engine import Inconsistency

                try:
                    if compiled.sense < 0:
                        compiled.obj.set_max(self.best[0] - 1)
                    else:
                        compiled.obj.set_min(self.best[0] + 1)
                    compiled.solver.fix_point()
                except Inconsistency:
                    compiled.solver.clear_queue()
                    return []  # nothing beats the incumbent: it is optimal
            target = SUBPROBLEMS_PER_WORKER * self.pool.capacity
            return split(compiled, self.opts, target, self.stats,
                         self.deadline, self.node_limit)
        finally:
            trail.pop_level()

    # ---------------------------------------------------------------- the events
    def _solutions(self, number: int, solutions: list[list[int]]) -> Iterator[list[int]]:
        passed = self.passed.setdefault(number, set())
        for values in solutions:
            key = self._key(values)
            if number in self.retried and key in passed:
                continue  # passed on before its worker died
            if self.ordered and number != self.next:
                self.held.setdefault(number, []).append(values)
                continue
            passed.add(key)
            self.count += 1
            self.stats.solutions = self.count
            yield values

    def _key(self, values: list[int]) -> tuple[int, ...]:
        positions = self.key_positions
        return tuple(values) if positions is None else tuple(values[k] for k in positions)

    def _improved(self, values: list[int], objective: int) -> Iterator[list[int]]:
        if self.compiled.improves(objective, self.best):
            self.best[:] = [objective]
            self.incumbent = values
            self.pool.share_bound(objective)
            self.count += 1
            self.stats.solutions = self.count
            yield values

    def _done(self, number: int, summary: dict, count: int, worker: str,
              seconds: float) -> Iterator[list[int]]:
        if number not in self.running:
            return  # a stale report of a subproblem already searched again
        self._account(number, summary, worker, seconds)
        stats = self.stats
        if self.mode == "count":
            self.count += count
            stats.solutions = self.count
        if not summary["complete"]:
            stats.stop(summary["stopped_by"])
        if self.ordered:
            self.finished.add(number)
            while self.next in self.finished:
                self.next += 1
                yield from self._release(self.next)

    def _account(self, number: int, summary: dict, worker: str, seconds: float) -> None:
        """Add a finished subproblem's counts to the run's statistics."""
        del self.running[number]
        self.passed.pop(number, None)
        stats = self.stats
        stats.nodes += summary["nodes"]
        stats.fails += summary["fails"]
        stats.restarts += summary["restarts"]
        stats.propagations += summary["propagations"]
        stats.max_depth = max(stats.max_depth, summary["max_depth"] + len(self.paths[number]))
        stats.subproblem_seconds.append(summary["seconds"])
        stats.worker_seconds[worker] = stats.worker_seconds.get(worker, 0.0) + seconds

    def _release(self, number: int) -> Iterator[list[int]]:
        """Pass on the held-back solutions of the subproblem that is now the next one."""
        held = self.held.pop(number, [])
        passed = self.passed.setdefault(number, set())
        for values in held:
            passed.add(self._key(values))
            self.count += 1
            self.stats.solutions = self.count
            yield values
        if number in self.finished:
            self.passed.pop(number, None)

    def _lost(self, number: int, why: str) -> None:
        self.running.pop(number, None)
        self.held.pop(number, None)  # the re-run sends them again
        self.retried.add(number)
        self.tries[number] = self.tries.get(number, 0) + 1
        if self.tries[number] >= MAX_TRIES:
            raise WorkerError(f"{why}; subproblem {number} was lost {MAX_TRIES} times, "
                              "giving up")
        warnings.warn(f"{why}; its subproblem {number} is searched again", RuntimeWarning,
                      stacklevel=2)

    # ---------------------------------------------------------------- the budget
    def _time_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(self.deadline - time.perf_counter(), 1e-6)

    def _nodes_left(self) -> int | None:
        if self.node_limit is None:
            return None
        return max(self.node_limit - self._nodes(), 0)

    def _nodes(self) -> int:
        return self.stats.nodes + sum(report[0] for report in self.running.values())

    def _running_count(self) -> int:
        """A count's solutions in the running subproblems, as last reported."""
        return sum(report[3] for report in self.running.values()) if self.mode == "count" else 0

    def _limit_reached(self) -> bool:
        stats = self.stats
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            stats.stop("time_limit")
        elif self.node_limit is not None and self._nodes() > self.node_limit:
            # (a subproblem given no nodes left stops at its first node and says so)
            stats.stop("node_limit")
        else:
            return False
        return True

    def _progress(self) -> SearchStats:
        """The totals so far (finished subproblems plus the running ones' reports)."""
        view = SearchStats()
        stats = self.stats
        view.nodes = self._nodes()
        view.fails = stats.fails + sum(report[1] for report in self.running.values())
        view.propagations = stats.propagations + sum(report[2]
                                                     for report in self.running.values())
        view.solutions = self.count + self._running_count()
        view.max_depth = stats.max_depth
        view.workers, view.subproblems = stats.workers, stats.subproblems
        view.seconds = time.perf_counter() - self.start
        return view

    def finish(self) -> None:
        """Final statistics: the running subproblems' last reports count too (a count
        stopped by a limit is the number found so far)."""
        stats = self.stats
        self.count += self._running_count()
        for nodes, fails, propagations, _ in self.running.values():
            stats.nodes += nodes
            stats.fails += fails
            stats.propagations += propagations
        self.running = {}
        if self.mode == "count":
            stats.solutions = self.count
        stats.seconds = time.perf_counter() - self.start

