"""The worker's side of a parallel search: a Job (everything every worker needs, sent
once, pickled) and the search of one subproblem (a Task) in it. Worker processes
(worker.py) and Dask tasks (cluster.py) both run subproblems through `Searcher`.

A subproblem is a small picklable description: the model's snapshot travels once per
worker in the Job, and each Task is only the decisions that lead to the subproblem, never
live engine state.
"""

from __future__ import annotations

import pickle
import time
from typing import Any

from conundrum.compiler.compiled import CompiledModel, PathStep, compile_model
from conundrum.lang.errors import ModelError
from conundrum.search.stats import SearchStats

# the search options a worker uses (on_progress stays with the caller: the workers report
# to the coordinator, which reports to the caller)
JOB_OPTIONS = ("var_select", "value_select", "method", "seed", "phases", "project",
               "restarts", "search", "hints", "lp")


class Job:
    """What every worker needs: the snapshot (variables, constraints), the objective and
    its sense, the search options, and what the run is for (mode)."""

    def __init__(self, variables: list, constraints: list, objective: object, sense: int,
                 options: dict[str, Any], mode: str, fresh: bool) -> None:
        self.variables = variables
        self.constraints = constraints
        self.objective = objective
        self.sense = sense
        self.options = options
        self.mode = mode
        # compile afresh for every subproblem, so that its search (and the order of its
        # solutions) does not depend on what the worker searched before (ordered=True)
        self.fresh = fresh

    def dumps(self) -> bytes:
        """The job pickled, or a ModelError saying what cannot be sent to a worker."""
        try:
            return pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as e:
            raise ModelError(f"the model cannot be sent to worker processes ({e}); a "
                             "parallel search needs a picklable model: no lambdas or local "
                             "functions in its constraints") from None


class Task:
    """One subproblem to search: its number, the decisions that lead to it, the budget
    left (seconds, nodes), the incumbent objective value ([] or [value]) and, for a
    neighbourhood of a large neighbourhood search, the incumbent's values as hints."""

    __slots__ = ("number", "path", "time_limit", "node_limit", "best", "hints")

    def __init__(self, number: int, path: tuple[PathStep, ...], time_limit: float | None,
                 node_limit: int | None, best: list[int],
                 hints: list[int] | None = None) -> None:
        self.number = number
        self.path = path
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.best = best
        self.hints = hints

    def __getstate__(self) -> tuple:
        return (self.number, self.path, self.time_limit, self.node_limit, self.best,
                self.hints)

    def __setstate__(self, state: tuple) -> None:
        (self.number, self.path, self.time_limit, self.node_limit, self.best,
         self.hints) = state


class Reporter:
    """Where a subproblem's results go as they are found (a worker process sends them to
    the coordinator; a Dask task collects them). The default collects."""

    def __init__(self) -> None:
        self.solutions: list[list[int]] = []
        self.improved: list[tuple[list[int], int]] = []

    def solution(self, values: list[int]) -> None:
        """A solution of the subproblem (mode "solutions")."""
        self.solutions.append(values)

    def improvement(self, values: list[int], objective: int) -> None:
        """A solution better than the incumbent (mode "optimize")."""
        self.improved.append((values, objective))

    def progress(self, stats: SearchStats, best: list[int]) -> None:
        """Called every 0.2 s during the search: may tighten `best` in place with a
        better incumbent found elsewhere."""

    def flush(self) -> None:
        """Send what is still held back."""


class Searcher:
    """Searches the subproblems of one job, compiling the model once (or once per
    subproblem when the job asks for fresh engines)."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.compiled: CompiledModel | None = None
        self.failed = False  # the model fails at the root: every subproblem is empty

    def engine(self) -> CompiledModel | None:
        """The compiled model (None if propagation at the root fails)."""
        job = self.job
        if job.fresh or (self.compiled is None and not self.failed):
            self.compiled = compile_model(job.variables, job.constraints, job.objective,
                                          job.sense, relax=job.options.get("lp") is not False)
            self.failed = self.compiled is None
        return self.compiled

    def run(self, task: Task, reporter: Reporter) -> tuple[SearchStats, int]:
        """Search one subproblem; its statistics and its number of solutions."""
        from conundrum.search.options import SearchOptions

        start = time.perf_counter()
        stats = SearchStats()
        compiled = self.engine()
        if compiled is None:
            return stats, 0
        best = list(task.best)
        options = dict(self.job.options)
        if task.hints is not None:  # a neighbourhood: the incumbent's values first
            options["hints"] = dict(zip(self.job.variables, task.hints, strict=True))

        def on_progress(progress: SearchStats) -> None:
            reporter.progress(progress, best)

        opts = SearchOptions(time_limit=task.time_limit, node_limit=task.node_limit,
                             on_progress=on_progress, **options)
        mode = self.job.mode
        count = 0
        before = compiled.solver.propagations  # the engine may have searched before
        for values in compiled.run(opts, stats, start, best, task.path):
            count += 1
            if mode == "solutions":
                reporter.solution(values)
            elif mode == "optimize":
                reporter.improvement(values, best[0])
        reporter.flush()
        stats.propagations = compiled.solver.propagations - before
        stats.seconds = time.perf_counter() - start
        return stats, count

