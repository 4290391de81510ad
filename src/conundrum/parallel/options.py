"""The parallel search options of count/solutions/solve/minimize/maximize, checked."""

from __future__ import annotations

import os
from collections.abc import Mapping

from conundrum.lang.errors import ModelError

# subproblems per worker: many more than workers, so that a worker that finishes early
# takes another one (dynamic load balancing), as in embarrassingly parallel search
SUBPROBLEMS_PER_WORKER = 30
# worker processes on this machine: each is an interpreter of its own (tens of megabytes
# and a start-up of its own), so a number far beyond any machine's cores is a mistake
# (`-p 1000000` would start a million processes): refused before any process starts
MAX_WORKERS = 256


class Parallel:
    """Where and how a search runs in parallel.

    - `workers`: how many subproblems are searched at once: worker processes on this
      machine, or (with a scheduler) tasks in flight on the cluster (default: its threads);
    - `scheduler`: a Dask scheduler address ("tcp://host:8786") or a
      `dask.distributed.Client`; None searches in local worker processes;
    - `ordered`: yield the solutions in the order of the subproblems (each subproblem's in
      its own search order), the same on every run, instead of as they arrive;
    - `mode`: "solutions", "count" (only counts travel back) or "optimize" (the incumbent
      is shared by every worker)."""

    __slots__ = ("workers", "scheduler", "ordered", "mode")

    def __init__(self, workers: int | None, scheduler: object, ordered: bool,
                 mode: str) -> None:
        self.workers = workers
        self.scheduler = scheduler
        self.ordered = ordered
        self.mode = mode


def parallel_settings(kwargs: Mapping[str, object], search_kwargs: dict[str, object],
                      mode: str) -> Parallel | None:
    """The Parallel settings of the user's keywords (ModelError naming a wrong one), or None
    when they ask for the sequential search (workers=1, no scheduler)."""
    workers = kwargs.get("workers")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise ModelError(f"workers must be an integer >= 1, not {workers!r}")
    if workers is not None and workers > MAX_WORKERS and kwargs.get("scheduler") is None:
        raise ModelError(f"workers={workers}: at most {MAX_WORKERS} worker processes run on "
                         "one machine (a Dask scheduler= takes more tasks in flight)")
    scheduler = kwargs.get("scheduler")
    if scheduler is not None and not isinstance(scheduler, str) and not (
            hasattr(scheduler, "submit") and hasattr(scheduler, "nthreads")):
        raise ModelError(f"scheduler must be a Dask scheduler address such as "
                         f"'tcp://127.0.0.1:8786' or a dask.distributed.Client, "
                         f"not {scheduler!r}")
    ordered = kwargs.get("ordered", False)
    if not isinstance(ordered, bool):
        raise ModelError(f"ordered must be True or False, not {ordered!r}")
    if scheduler is None and (workers is None or workers == 1):
        return None  # ordered alone: the sequential order is deterministic already
    if scheduler is None and os.name != "posix":
        # the workers inherit their end of a socket pair (pass_fds): POSIX only
        raise ModelError("workers= needs worker processes on a POSIX system (Linux, "
                         "macOS); on this system use scheduler= with a Dask cluster")
    method = search_kwargs.get("method", "complete")
    from conundrum.search.options import parse_method

    if parse_method(method)[0] != "complete":
        raise ModelError(f"method {method} searches sequentially (its discrepancy or "
                         "failure budget spans the whole tree); use workers=1, or the "
                         "complete method with several workers")
    return Parallel(workers, scheduler, ordered, mode)
