"""Parallel and distributed search: `workers=N` and `scheduler=` on count, solutions,
solve, minimize and maximize.

Embarrassingly parallel search: the coordinator splits the tree into many more
subproblems than workers with the search's own heuristics (split.py), worker processes
(local.py, worker.py) or Dask tasks (cluster.py) search them (subproblem.py), and the
coordinator merges their results (coordinator.py). Imported only when a search asks for
more than one worker.
"""

from conundrum.parallel.coordinator import parallel_search

__all__ = ["parallel_search"]
