"""Subproblems on a Dask distributed cluster (`scheduler="tcp://host:8786"` or a Client).

Each subproblem is one Dask task: the pickled job (scattered once to every worker) plus a
Task (the decisions that lead to the subproblem), returning its solutions, count and
statistics. The incumbent of an optimisation travels with each task as it is submitted;
only two tasks per thread are in flight, so that later ones start with a recent incumbent
(counts and enumerations queue every subproblem at once: each task costs a round trip
through the scheduler). A task whose worker dies is run again by Dask itself (`retries`).

dask.distributed is an optional extra (`pip install ".[distributed]"`, or `pip install
"dask[distributed]"`), imported only here.
"""

from __future__ import annotations

import time
from typing import Any

from conundrum.lang.errors import ModelError
from conundrum.parallel.subproblem import Reporter, Searcher, Task

RETRIES = 2  # a task is run again this many times when its worker dies
CONNECT_TIMEOUT = 5  # seconds to reach the scheduler before giving up


def search_task(job: bytes, task: Task) -> dict[str, Any]:
    """Search one subproblem on a Dask worker (a plain function Dask can send)."""
    from dask.distributed import get_worker

    worker = get_worker()
    searcher = _searcher(worker, job)
    reporter = Reporter()
    stats, count = searcher.run(task, reporter)
    return {"stats": stats.as_dict(), "count": count, "solutions": reporter.solutions,
            "improved": reporter.improved, "worker": worker.address}


def _searcher(worker: Any, job: bytes) -> Searcher:
    """The Searcher of this job for this worker thread, kept on the Dask worker object so
    that the model is unpickled and compiled once per thread, not once per subproblem
    (tasks of one worker may run in several threads at once: each has its own engine)."""
    import hashlib
    import pickle
    import threading

    key = (hashlib.sha1(job).hexdigest(), threading.get_ident())
    cache: dict = worker.__dict__.setdefault("_conundrum_searchers", {})
    searcher = cache.get(key)
    if searcher is None:
        # one job at a time per thread: drop the engines of earlier searches
        for old in [k for k in cache if k[1] == key[1]]:
            del cache[old]
        searcher = cache[key] = Searcher(pickle.loads(job))
    return searcher


class DaskPool:
    """A Dask cluster searching the subproblems of one job."""

    def __init__(self, scheduler: object, workers: int | None, job: bytes,
                 optimize: bool) -> None:
        try:
            from dask.distributed import Client
        except ImportError:
            raise ModelError("scheduler= needs dask.distributed: pip install "
                             "\"dask[distributed]\"") from None
        self.own_client = isinstance(scheduler, str)
        if self.own_client:
            try:
                self.client = Client(scheduler, timeout=CONNECT_TIMEOUT)
            except (OSError, TimeoutError) as e:
                raise ModelError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        else:
            self.client = scheduler  # type: ignore[assignment]  # a Client, checked before
        threads = sum(self.client.nthreads().values())
        if threads == 0:
            self.close()
            raise ModelError("the Dask cluster has no workers")
        self.capacity = workers or threads
        # Each task costs a round trip through the scheduler: counts and solutions keep
        # every subproblem queued on the cluster, an optimisation only two per thread so
        # that later ones start with a recent incumbent.
        self.in_flight = 2 * self.capacity if optimize or workers else 1 << 30
        # a key of its own (hash=False): another search of the same model may release its copy
        self.job = self.client.scatter(job, broadcast=True, hash=False)
        self.running: dict[Any, int] = {}  # future -> subproblem number

    def idle(self) -> int:
        """How many more tasks may be in flight."""
        return self.in_flight - len(self.running)

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
        finished = []
        for future in done:
            if future.status == "error":
                number = self.running.pop(future)
                events.append(("error", number, f"{type(future.exception()).__name__}: "
                                                f"{future.exception()}"))
            else:
                finished.append(future)
        # one round trip for the whole batch (a result() each costs ~10 ms)
        for future, result in zip(finished, self.client.gather(finished), strict=True):
            number = self.running.pop(future)
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
