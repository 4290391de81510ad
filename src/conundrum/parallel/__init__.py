"""Parallel and distributed search: `workers=N` and `scheduler=` on count, solutions,
solve, minimize and maximize.

Embarrassingly parallel search: the coordinator splits the tree into many more
subproblems than workers with the search's own heuristics (split.py), worker processes
(local.py, worker.py) or Dask tasks (cluster.py) search them (subproblem.py), and the
coordinator merges their results (coordinator.py). Imported only when a search asks for
more than one worker.
"""

from typing import Any

__all__ = ["parallel_search"]


def __getattr__(name: str) -> Any:
    # lazily: `conundrum.parallel.options` (imported by every command line) must not pull
    # in the coordinator, pickle and the worker machinery
    if name == "parallel_search":
        from conundrum.parallel.coordinator import parallel_search

        return parallel_search
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
