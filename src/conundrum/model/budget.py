"""One time and node limit shared by the many small searches of a long computation (an
explanation, a grade, a generated puzzle): each search gets what is left, and the whole
stops within about a second of the limit, with LimitReached, wherever the time goes.

The clock starts when the Budget is made (at the start of the call), so reading and
compiling count too; the nodes are those of every search run under it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from conundrum.lang.errors import ModelError
from conundrum.search.stats import SearchStats

PROGRESS_INTERVAL = 0.2  # seconds between two reports to on_progress


class LimitReached(Exception):
    """A time or node limit stopped a computation before it could give its answer.
    `reason` is "time_limit" or "node_limit" (as SearchStats.stopped_by)."""

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or f"stopped by the {reason.replace('_', ' ')}")
        self.reason = reason


def check_limits(time_limit: object, node_limit: object) -> None:
    """ModelError unless time_limit is None or seconds > 0 and node_limit None or >= 0."""
    from conundrum.search.options import check_options

    try:
        check_options({"time_limit": time_limit, "node_limit": node_limit})
    except ValueError as exc:
        raise ModelError(str(exc)) from None


class Budget:
    """What is left of a time limit (seconds) and a node limit; `on_progress` is called
    with the statistics so far (nodes, seconds) at most every PROGRESS_INTERVAL."""

    def __init__(self, time_limit: float | None = None, node_limit: int | None = None,
                 on_progress: Callable[[SearchStats], object] | None = None,
                 start: float | None = None) -> None:
        check_limits(time_limit, node_limit)
        self.start = time.perf_counter() if start is None else start
        self.deadline = 0.0 if time_limit is None else self.start + time_limit
        self.node_limit = node_limit
        self.on_progress = on_progress
        self.stats = SearchStats()  # the total over every search run under the budget
        self.next_progress = self.start + PROGRESS_INTERVAL

    @property
    def limited(self) -> bool:
        """Whether there is any limit to keep."""
        return bool(self.deadline) or self.node_limit is not None

    def check(self) -> None:
        """Raise LimitReached once a limit is passed; report progress when it is time."""
        now = time.perf_counter()
        stats = self.stats
        if self.deadline and now > self.deadline:
            self._stop("time_limit", now)
        if self.node_limit is not None and stats.nodes >= self.node_limit:
            self._stop("node_limit", now)
        if self.on_progress is not None and now >= self.next_progress:
            self.next_progress = now + PROGRESS_INTERVAL
            stats.seconds = now - self.start
            self.on_progress(stats)

    def _stop(self, reason: str, now: float) -> None:
        self.stats.stop(reason)
        self.stats.seconds = now - self.start
        raise LimitReached(reason)

    def search_limits(self) -> dict[str, Any]:
        """The time_limit, node_limit and on_progress keywords for one search: what is
        left of the limits (after check(), so both are positive), and progress reports
        that count the nodes before this search too."""
        self.check()
        out: dict[str, Any] = {}
        if self.deadline:
            out["time_limit"] = max(self.deadline - time.perf_counter(), 1e-6)
        if self.node_limit is not None:
            out["node_limit"] = self.node_limit - self.stats.nodes
        if self.on_progress is not None:
            out["on_progress"] = self._report
        return out

    def _report(self, search: SearchStats) -> None:
        """A search's progress, as the whole computation's."""
        now = time.perf_counter()
        if self.on_progress is None or now < self.next_progress:
            return
        self.next_progress = now + PROGRESS_INTERVAL
        total = SearchStats()
        total.nodes = self.stats.nodes + search.nodes
        total.fails = self.stats.fails + search.fails
        total.seconds = now - self.start
        self.on_progress(total)

    def charge(self, stats: SearchStats) -> None:
        """Count a finished search's nodes; LimitReached if the budget's limit cut it
        short (its answer then means "not found", never "none"). A search given a node
        limit of its own, below what is left, may stop at it: that is its own answer."""
        self.stats.nodes += stats.nodes
        self.stats.fails += stats.fails
        if not stats.complete and stats.stopped_by == "time_limit":
            self._stop("time_limit", time.perf_counter())
        self.check()  # the total nodes against the node limit

    def finish(self) -> SearchStats:
        """The statistics of the whole computation, its seconds filled in."""
        self.stats.seconds = time.perf_counter() - self.start
        return self.stats
