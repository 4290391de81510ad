"""bin_packing: items of constant sizes go into bins, and each bin's load is the total size
of its items.

`BinPacking` filters, at each call, with R_b the sizes of the items already in bin b and
P_b those of the items that may still go there (a simplified form of Shaw's propagator,
CP 2004, without its knapsack reasoning):

* each load lies in [R_b, P_b], and in [T - sum of the other loads' maxima, T - sum of
  their minima] where T is the total size (every item goes somewhere);
* an item leaves bin b when it no longer fits (R_b + size > max load of b), and goes into
  bin b when b cannot reach its minimum load without it (P_b - size < min load of b).

O(items x bins) per call; exact once every item is placed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.engine import BOUNDS, DOMAIN, IntView, Propagator, Solver
from conundrum.propagators.packing_explain import explain_entry, explain_failure

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred


class BinPacking(Propagator):
    """loads[b] == the sum of sizes[i] over the items i with bins[i] == b (0-based bins)."""

    priority = 2
    explains = True  # by the items and loads behind each sum (packing_explain.py)

    def __init__(self, solver: Solver, loads: list[IntView], bins: list[IntView],
                 sizes: list[int]) -> None:
        super().__init__(solver)
        self.loads, self.bins, self.sizes = loads, bins, sizes
        self.total = 0
        for w in sizes:
            self.total += w
        # each item's bins as last listed, by the domain they were listed from: most items
        # keep their domain from one call to the next, and listing a bit set's values was a
        # third of the propagator's time (bin packing u120 under learning)
        self.listed_lo = [0] * len(bins)
        self.listed_bits = [-1] * len(bins)
        self.listed: list[list[int]] = [[] for _ in bins]

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return explain_entry(journal, self.loads, self.bins, self.sizes, self.total, e, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_failure(journal, self.loads, self.bins, self.sizes, self.total, out)

    def post(self) -> None:
        k = len(self.loads)
        for x in self.bins:
            x.set_min(0)
            x.set_max(k - 1)
            x.subscribe(self, DOMAIN)
        for load in self.loads:
            load.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        loads, bins, sizes = self.loads, self.bins, self.sizes
        k = len(loads)
        required = [0] * k
        possible = [0] * k
        open_bins: list[list[int]] = []  # each unplaced item's bins, read once
        for i in range(len(bins)):
            x, w = bins[i], sizes[i]
            if x.lo == x.hi:
                required[x.lo] += w
                possible[x.lo] += w
                open_bins.append([])
            else:
                where = self._bins_of(i, x)
                open_bins.append(where)
                for b in where:
                    possible[b] += w
        low_sum = 0
        high_sum = 0
        for b in range(k):
            loads[b].set_bounds(required[b], possible[b])
            low_sum += loads[b].lo
            high_sum += loads[b].hi
        for b in range(k):
            load = loads[b]
            # the other bins hold at least low_sum - load.lo and at most high_sum - load.hi
            load.set_bounds(self.total - (high_sum - load.hi), self.total - (low_sum - load.lo))
        for i in range(len(bins)):
            x, w = bins[i], sizes[i]
            if x.lo == x.hi or w == 0:
                continue
            where = open_bins[i]
            if len(where) != x.card:  # x occurs twice and has changed since
                where = self._bins_of(i, x)
            for b in where:
                if required[b] + w > loads[b].hi:
                    x.remove(b)
                elif possible[b] - w < loads[b].lo:
                    x.assign(b)
                    break

    def _bins_of(self, i: int, x: IntView) -> list[int]:
        """The values of item i's bin x (a list never changed in place: it is kept for the
        next call while x keeps this domain)."""
        if x.bits >= 0 and x.bits == self.listed_bits[i] and x.lo == self.listed_lo[i]:
            return self.listed[i]
        where = x.values_list()
        self.listed[i] = where
        self.listed_bits[i] = x.bits
        self.listed_lo[i] = x.lo
        return where
