"""Search statistics."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SearchStats:
    """What a run did. `complete` is False when any limit stopped the search early, so a
    missing solution then means "not found", never "none exists"."""

    nodes: int = 0
    fails: int = 0
    propagations: int = 0
    solutions: int = 0
    seconds: float = 0.0
    max_depth: int = 0
    complete: bool = True
    stopped_by: str | None = None

    def as_dict(self) -> dict:
        """The statistics as a plain dict (for JSON and printing)."""
        return dict(self.__dict__)

    def __str__(self) -> str:
        state = "complete" if self.complete else f"incomplete (stopped by {self.stopped_by})"
        return (f"nodes={self.nodes} fails={self.fails} propagations={self.propagations} "
                f"solutions={self.solutions} seconds={self.seconds:.3f} {state}")
