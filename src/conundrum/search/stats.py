"""Search statistics."""

from __future__ import annotations


class SearchStats:
    """What a run did. `complete` is False when any limit stopped the search early, so a
    missing solution then means "not found", never "none exists"."""

    FIELDS = ("nodes", "fails", "propagations", "solutions", "seconds", "max_depth",
              "complete", "stopped_by", "workers", "subproblems")

    def __init__(self, complete: bool = True, stopped_by: str | None = None) -> None:
        self.nodes = 0
        self.fails = 0
        self.propagations = 0
        self.solutions = 0
        self.seconds = 0.0
        self.max_depth = 0
        # depth_nodes[d - 1]: the nodes at depth d (d decisions from the root); a parallel
        # search leaves it empty (each worker has its own, below its subproblem)
        self.depth_nodes: list[int] = []
        self.complete = complete
        self.stopped_by = stopped_by
        # a parallel search (conundrum.parallel): how many workers searched how many
        # subproblems; the seconds each subproblem took, and each worker was busy
        self.workers = 1
        self.subproblems = 0
        self.subproblem_seconds: list[float] = []
        self.worker_seconds: dict[str, float] = {}

    def stop(self, reason: str) -> None:
        """Mark the run incomplete, stopped by `reason` unless a reason was given first."""
        self.complete = False
        if self.stopped_by is None:
            self.stopped_by = reason

    def as_dict(self) -> dict[str, object]:
        """The statistics as a plain dict (for JSON and printing)."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def __repr__(self) -> str:
        return f"SearchStats({', '.join(f'{k}={v!r}' for k, v in self.as_dict().items())})"

    def __str__(self) -> str:
        state = "complete" if self.complete else f"incomplete (stopped by {self.stopped_by})"
        return (f"nodes={self.nodes} fails={self.fails} propagations={self.propagations} "
                f"solutions={self.solutions} seconds={self.seconds:.3f} {state}")
