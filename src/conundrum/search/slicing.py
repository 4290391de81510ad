"""Slices: a search that shares one core with other searches (the portfolio,
compiler/portfolio.py) runs until its slice is spent, then pauses and keeps its state.

A paused search yields PAUSE instead of a solution, at a point where the engine is at a
node after propagation, so that resuming it simply goes on. Past the portfolio's first
turn (a failure count), a slice is a span of time: no count of the engine's work
(propagator calls, failures, nodes) stands for the same time in two searches, whose
costs per call and per failure differ by orders of magnitude from one model to the next
(measured on the benchmark's hard section, see notes/ISSUE-42-PLAN.md). An `until` of
0.0 pauses at every point: the searches then alternate node by node, the same way on
every run (the tests' setting).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from conundrum.search.stats import SearchStats

PAUSE: Final = 1  # what a sliced search yields when its slice is spent (a solution yields None)


class Slice:
    """The budget of a search's current slice: it pauses once the clock
    (time.perf_counter) reaches `until`, its failures reach `fail_cap` (-1: no cap; the
    portfolio's first turn, which is the same on every run), or its nodes reach
    `node_cap` (-1: no cap; a node limit shared by the portfolio's searches)."""

    __slots__ = ("until", "fail_cap", "node_cap")

    def __init__(self) -> None:
        self.until = 0.0
        self.fail_cap = -1
        self.node_cap = -1

    def due(self, stats: SearchStats) -> bool:
        """Whether the slice is spent."""
        if 0 <= self.node_cap <= stats.nodes or 0 <= self.fail_cap <= stats.fails:
            return True
        return self.until == 0.0 or time.perf_counter() >= self.until
