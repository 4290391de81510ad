"""Slices: a search that shares one core with other searches (the portfolio,
compiler/portfolio.py) runs until its slice is spent, then pauses and keeps its state.

A paused search yields PAUSE instead of a solution, at a point where the engine is at a
node after propagation, so that resuming it simply goes on. Work is counted in
propagator calls (the solver's own running total), plus `fail_work` for each failure,
which stands for what a failure costs beyond its propagation (a learned nogood's
analysis); never in seconds, so that a run is the same in both builds and on every
machine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conundrum.engine import Solver
    from conundrum.search.stats import SearchStats

PAUSE = 1  # what a sliced search yields when its slice is spent (a solution yields None)


class Slice:
    """The budget of a search's current slice: it pauses once its work reaches `until`,
    or its nodes `node_cap` (-1: no cap; a node limit shared by the portfolio's
    searches)."""

    __slots__ = ("until", "fail_work", "node_cap")

    def __init__(self, fail_work: int) -> None:
        self.until = 0
        self.fail_work = fail_work
        self.node_cap = -1

    def work(self, solver: Solver, stats: SearchStats) -> int:
        """The work done so far by the search on `solver` counting `stats`."""
        return solver.propagations + self.fail_work * stats.fails

    def due(self, solver: Solver, stats: SearchStats) -> bool:
        """Whether the slice is spent."""
        if 0 <= self.node_cap <= stats.nodes:
            return True
        return solver.propagations + self.fail_work * stats.fails >= self.until
