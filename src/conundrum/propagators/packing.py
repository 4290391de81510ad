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
from conundrum.propagators.packing_explain import (
    explain_entry,
    explain_failure,
    explainable,
    largest_first,
)

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
        # whether its own explanations apply (else the generic one): asked once, not per
        # explanation (5% of bin packing u120's learning search)
        self.explainable = explainable(loads, bins, sizes)
        self.by_size = largest_first(sizes)
        self.total = 0
        for w in sizes:
            self.total += w
        # the sums below over each item's bins as last listed (`listed`, from the domain
        # `listed_lo`, `listed_bits`; -2: none, or a bounds-only domain, listed at every
        # call): a call lists again only the items whose domain differs, whichever way the
        # search went since, and moves their sizes between the sums. Listing every item's
        # bins at every call was most of a learning search's time on bin packing u120.
        n = len(bins)
        self.listed_lo = [0] * n
        self.listed_bits = [-2] * n
        self.listed: list[list[int]] = [[] for _ in bins]
        self.required = [0] * len(loads)  # per bin: the sizes of the items listed there alone
        self.possible = [0] * len(loads)  # per bin: the sizes of the items listed there

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return self.explainable and explain_entry(journal, self.loads, self.bins, self.sizes,
                                                  self.total, e, out, self.by_size)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return self.explainable and explain_failure(journal, self.loads, self.bins,
                                                    self.sizes, self.total, out, self.by_size)

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
        required, possible = self.required, self.possible
        listed, listed_lo, listed_bits = self.listed, self.listed_lo, self.listed_bits
        for i in range(len(bins)):
            x = bins[i]
            bits = x.bits
            if bits == listed_bits[i] and x.lo == listed_lo[i]:
                continue
            w = sizes[i]
            old = listed[i]
            for b in old:
                possible[b] -= w
            if len(old) == 1:
                required[old[0]] -= w
            where = x.values_list()
            for b in where:
                possible[b] += w
            if len(where) == 1:
                required[where[0]] += w
            listed[i] = where
            listed_lo[i] = x.lo
            listed_bits[i] = bits if bits >= 0 else -2
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
        # an item heavier than room[b] does not fit in bin b; one heavier than spare[b] is
        # needed there (the bin cannot reach its least load without it). The loads do not
        # move during the loop below (its changes are to the items' bins), so both are
        # read once, and an item no heavier than the smallest of each is left alone.
        room = [loads[b].hi - required[b] for b in range(k)]
        spare = [possible[b] - loads[b].lo for b in range(k)]
        light = min(min(room), min(spare)) if k else 0
        for i in range(len(bins)):
            x, w = bins[i], sizes[i]
            if x.lo == x.hi or w <= light:
                continue
            where = listed[i]
            if len(where) != x.card:  # x occurs twice and has changed since
                where = x.values_list()
            for b in where:
                if w > room[b]:
                    x.remove(b)
                elif w > spare[b]:
                    x.assign(b)
                    break
