"""Subproblems on a Dask distributed cluster (`scheduler="tcp://host:8786"` or a Client).

Each subproblem is one Dask task: the pickled job (scattered once to every worker) plus a
Task (the decisions that lead to the subproblem), returning its solutions, count and
statistics. The incumbent of an optimisation travels with each task as it is submitted;
only as many tasks as the cluster can run at once are in flight, so later ones start with
the latest incumbent. A task whose worker dies is run again by Dask itself (`retries`).

dask.distributed is an optional extra (`pip install "conundrum[distributed]"`), imported
only here.
"""

from __future__ import annotations

import time
from typing import Any

from conundrum.model.errors import ModelError
from conundrum.parallel.subproblem import Reporter, Searcher, Task, stats_summary

RETRIES = 2  # a task is run again this many times when its worker dies


def search_task(job: bytes, task: Task) -> dict[str, Any]:
    """Search one subproblem on a Dask worker (a plain function Dask can send)."""
    import pickle

    from dask.distributed import get_worker

    searcher = Searcher(pickle.loads(job))
    reporter = Reporter()
    stats, count = searcher.run(task, reporter)
    return {"stats": stats_summary(stats), "count": count, "solutions": reporter.solutions,
            "improved": reporter.improved, "worker": get_worker().address}


class DaskPool:
    """A Dask cluster searching the subproblems of one job."""

    def __init__(self, scheduler: object, workers: int | None, job: bytes) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise ModelError("scheduler= needs dask.distributed: pip install "
                             "\"conundrum[distributed]\"") from None
        self.own_client = isinstance(scheduler, str)
        if self.own_client:
            try:
                self.client = Client(scheduler, timeout=10)
            except (OSError, TimeoutError) as e:
                raise ModelError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        else:
            self.client = scheduler
        threads = sum(self.client.nthreads().values())
        if threads == 0:
            self.close()
            raise ModelError("the Dask cluster has no workers")
        self.capacity = workers or threads
        self.job = self.client.scatter(job, broadcast=True)
        self.running: dict[Any, int] = {}  # future -> subproblem number

    def idle(self) -> int:
        """How many more tasks may be in flight."""
        return self.capacity - len(self.running)

    def submit(self, task: Task) -> None:
        """Send a subproblem to the cluster."""
        future = self.client.submit(search_task, self.job, task, pure=False, retries=RETRIES)
        self.running[future] = task.number

    def share_bound(self, value: int) -> None:
        """Running tasks keep the incumbent they started with (see the module's note)."""

    def poll(self, timeout: float) -> list[tuple]:
        """The finished tasks' results as the same events a worker process sends."""
        from dask.distributed import wait

        if not self.running:
            time.sleep(timeout)
            return []
        try:
            done, _ = wait(list(self.running), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        events: list[tuple] = []
        for future in done:
            number = self.running.pop(future)
            if future.status == "error":
                events.append(("error", number, f"{type(future.exception()).__name__}: "
                                                f"{future.exception()}"))
                continue
            result = future.result()
            if result["solutions"]:
                events.append(("solutions", number, result["solutions"]))
            for values, objective in result["improved"]:
                events.append(("improved", number, values, objective))
            events.append(("done", number, result["stats"], result["count"],
                           result["worker"], result["stats"]["seconds"]))
        return events

    def close(self) -> None:
        """Cancel what is still queued (a running task stops at its own time or node
        limit) and close the client if we opened it."""
        if self.running:
            self.client.cancel(list(self.running))
            self.running = {}
        if self.own_client:
            self.client.close()
