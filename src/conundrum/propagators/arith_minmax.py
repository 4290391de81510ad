"""n-ary minimum and maximum: z = min(xs) or max(xs), and the position of the maximum
(argmax), both bounds consistent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.engine import BOUNDS, DOMAIN, Inconsistency, IntView, Solver
from conundrum.propagators.arith_explain import Relation, minmax_change, minmax_failure
from conundrum.propagators.arith_hulls import argmax_hull, max_hull, min_hull

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred


class MinMax(Relation):
    """z = min(xs) (or max(xs) with is_max), bounds consistent. Each inference is explained
    by the rule that made it (a few bounds, in O(n)); one that skipped holes is proved as a
    relation (arith_explain.py)."""

    priority = 1
    makes_holes = False

    def __init__(self, solver: Solver, xs: list[IntView], z: IntView, is_max: bool) -> None:
        super().__init__(solver)
        self.xs, self.z, self.is_max = xs, z, is_max

    def views(self) -> list[IntView]:
        return self.xs + [self.z]

    def satisfied(self, values: list[int]) -> bool:
        n = len(self.xs)
        best = max(values[:n]) if self.is_max else min(values[:n])
        return values[n] == best

    def hull(self, k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
        return max_hull(k, lo, hi) if self.is_max else min_hull(k, lo, hi)

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        s = 1 if self.is_max else -1
        return minmax_change(journal, self.xs, self.z, s, e, out) or \
            super().explain(journal, e, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        s = 1 if self.is_max else -1
        return minmax_failure(journal, self.xs, self.z, s, out) or \
            super().explain_conflict(journal, out)

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.z.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        xs, z = self.xs, self.z
        if self.is_max:
            z.set_min(max(x.lo for x in xs))
            z.set_max(max(x.hi for x in xs))
            for x in xs:
                x.set_max(z.hi)
            # if only one x can reach z's lower bound, it carries the max
            able = [x for x in xs if x.hi >= z.lo]
            if not able:
                raise Inconsistency
            if len(able) == 1:
                able[0].set_min(z.lo)
        else:
            z.set_min(min(x.lo for x in xs))
            z.set_max(min(x.hi for x in xs))
            for x in xs:
                x.set_min(z.lo)
            able = [x for x in xs if x.lo <= z.hi]
            if not able:
                raise Inconsistency
            if len(able) == 1:
                able[0].set_max(z.hi)


class ArgMax(Relation):
    """i == the first position of the largest of xs (0-based), bounds consistent on xs:

    * position j stays possible for i while x_j can reach every other lower bound and
      exceed those before it (x_j.hi >= x_k.lo for k > j, x_j.hi > x_k.lo for k < j);
    * every x_k is at most the largest x_j.hi over the possible positions j (minus one if
      k comes before j), since the maximum is one of them;
    * once i is fixed, x_i is at least every later lower bound and above every earlier one.

    Explained as a relation (arith_explain.py: argmax_hull states the rules above).
    """

    priority = 1
    makes_holes = True  # removes positions from i

    def __init__(self, solver: Solver, xs: list[IntView], i: IntView) -> None:
        super().__init__(solver)
        self.xs, self.i = xs, i

    def views(self) -> list[IntView]:
        return self.xs + [self.i]

    def satisfied(self, values: list[int]) -> bool:
        n = len(self.xs)
        best = 0
        for j in range(1, n):
            if values[j] > values[best]:
                best = j
        return values[n] == best

    def hull(self, k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
        return argmax_hull(k, lo, hi, bits)

    def post(self) -> None:
        self.i.set_min(0)
        self.i.set_max(len(self.xs) - 1)
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.i.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        xs, i = self.xs, self.i
        n = len(xs)
        # after[j] = the largest lower bound of xs[j+1:], before = of xs[:j]
        after = [0] * n
        best = -(1 << 62)
        for j in range(n - 1, -1, -1):
            after[j] = best
            if xs[j].lo > best:
                best = xs[j].lo
        before = -(1 << 62)
        keep = []
        for j in range(n):
            hi = xs[j].hi
            if i.contains(j) and hi > before and hi >= after[j]:
                keep.append(j)
            if xs[j].lo > before:
                before = xs[j].lo
        i.keep_values(keep)
        # the bound of each x_k from the possible positions (keep is increasing)
        top_from = [0] * (len(keep) + 1)  # the largest x_j.hi over keep[a:]
        top_from[len(keep)] = -(1 << 62)
        for a in range(len(keep) - 1, -1, -1):
            h = xs[keep[a]].hi
            top_from[a] = h if h > top_from[a + 1] else top_from[a + 1]
        a = 0
        top_before = -(1 << 62)  # the largest x_j.hi over positions j <= k
        for k in range(n):
            while a < len(keep) and keep[a] <= k:
                if xs[keep[a]].hi > top_before:
                    top_before = xs[keep[a]].hi
                a += 1
            later = top_from[a] - 1  # positions after k need x_k < x_j
            xs[k].set_max(top_before if top_before > later else later)
        if i.lo == i.hi:
            j = i.lo
            lo = after[j]
            for k in range(j):
                if xs[k].lo + 1 > lo:
                    lo = xs[k].lo + 1
            xs[j].set_min(lo)
