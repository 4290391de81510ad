"""n-ary minimum and maximum: z = min(xs) or max(xs), and the position of the maximum
(argmax), both bounds consistent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine import BOUNDS, DOMAIN, Inconsistency, IntView, Solver
from conundrum.propagators.arith_explain import Relation, minmax_change, minmax_failure
from conundrum.propagators.arith_hulls import argmax_hull, max_hull, min_hull

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred


# the widest span (values from the least lower bound to the greatest upper one) over which
# MinMax filters bit-set domains (a few words a mask); wider, it keeps to bounds
DOMAIN_SPAN: Final = 256


class MinMax(Relation):
    """z = min(xs) (or max(xs) with is_max): domain consistent while every view is a bit
    set and their span is at most DOMAIN_SPAN values (`_filter`),
    bounds consistent otherwise. Each bounds inference is explained by the rule that made
    it (a few bounds, in O(n)); a hole, or a bound that skipped holes, is proved as a
    relation (arith_explain.py)."""

    priority = 1

    def __init__(self, solver: Solver, xs: list[IntView], z: IntView, is_max: bool) -> None:
        super().__init__(solver)
        self.xs, self.z, self.is_max = xs, z, is_max
        views = xs + [z]
        self.domain = all(v.bits >= 0 for v in views) and \
            max(v.hi for v in views) - min(v.lo for v in views) < DOMAIN_SPAN
        # only the domain filtering removes inner values (then the views keep bit sets)
        self.makes_holes = self.domain

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
        event = DOMAIN if self.domain else BOUNDS
        for x in self.xs:
            x.subscribe(self, event)
        self.z.subscribe(self, event)
        self.propagate()

    def propagate(self) -> None:
        self._bounds()
        if self.domain:
            _filter(self.xs, self.z, self.is_max)
        if self._entailed():
            # off for the rest of the branch, as a table is: dom_wdeg weighs only active
            # propagators (movement_puzzle's running maximum: 36,444 nodes while they
            # stayed on, 9,580 with them off, the tables' tree)
            self.deactivate()

    def _entailed(self) -> bool:
        """Whether every combination of the domains satisfies the constraint: z is fixed
        to v, no x can pass v, and one x is fixed to v."""
        z = self.z
        if z.lo != z.hi:
            return False
        v = z.lo
        carried = False
        for x in self.xs:
            if (x.hi > v) if self.is_max else (x.lo < v):
                return False
            if x.lo == x.hi:
                carried = carried or x.lo == v
        return carried

    def _bounds(self) -> None:
        # loops rather than max() over generators and a list of the able: compiled, those
        # allocated at every call (a third of talent_scheduling's search was MinMax)
        xs, z = self.xs, self.z
        if self.is_max:
            lo = xs[0].lo
            hi = xs[0].hi
            for x in xs:
                if x.lo > lo:
                    lo = x.lo
                if x.hi > hi:
                    hi = x.hi
            z.set_min(lo)
            z.set_max(hi)
            for x in xs:
                x.set_max(z.hi)
            # if only one x can reach z's lower bound, it carries the max
            able: IntView | None = None
            for x in xs:
                if x.hi >= z.lo:
                    if able is not None:
                        return
                    able = x
            if able is None:
                raise Inconsistency
            able.set_min(z.lo)
        else:
            lo = xs[0].lo
            hi = xs[0].hi
            for x in xs:
                if x.lo < lo:
                    lo = x.lo
                if x.hi < hi:
                    hi = x.hi
            z.set_min(lo)
            z.set_max(hi)
            for x in xs:
                x.set_min(z.lo)
            able = None
            for x in xs:
                if x.lo <= z.hi:
                    if able is not None:
                        return
                    able = x
            if able is None:
                raise Inconsistency
            able.set_max(z.hi)


def _masks(xs: list[IntView], z: IntView) -> tuple[int, int, list[int], int]:
    """(base, all ones over the views' span, the xs' bit sets and z's, relative to
    base): the least lower bound."""
    base = z.lo
    top = z.hi
    for x in xs:
        if x.lo < base:
            base = x.lo
        if x.hi > top:
            top = x.hi
    masks = [x.bits << (x.lo - base) for x in xs]
    return base, (1 << (top - base + 1)) - 1, masks, z.bits << (z.lo - base)


def _beyond(key: int, base: int, full: int, is_max: bool) -> int:
    """The values at least the oriented bound `key` (a lower bound for max; for min the
    negated upper bound: the values at most it), as a mask relative to base."""
    if is_max:
        return full ^ ((1 << (key - base)) - 1)
    return (1 << (-key - base + 1)) - 1


def _filter(xs: list[IntView], z: IntView, is_max: bool) -> None:
    """Domain consistency of z = max(xs) over bit sets, all relative to one base (min
    mirrored: read "upper bound" for "lower bound" and "down" for "up"):

    * z = w has a support iff some x_i can be w and every x is at least w possible: z
      keeps the union of the xs' values from the largest lower bound up;
    * x_i = v has one iff some value w >= v of z is one of another x_j's and at least
      every other lower bound (all values of x_i up to the largest such w, M_i), or v
      itself is a value of z at least the others' lower bounds.

    Masks read before a change stand for larger domains, so filtering with them is sound
    (the propagator runs again on its own changes)."""
    base, full, masks, zmask = _masks(xs, z)
    n = len(xs)
    # oriented bounds (larger is tighter), and the one no variable imposes
    keys = [x.lo if is_max else -x.hi for x in xs]
    loose = base if is_max else -(base + full.bit_length() - 1)
    union = 0
    tightest = loose
    for j in range(n):
        union |= masks[j]
        if keys[j] > tightest:
            tightest = keys[j]
    zmask &= union & _beyond(tightest, base, full, is_max)
    if not zmask:
        raise Inconsistency
    z.keep_mask(base, zmask)
    # the others of x_i: prefix and suffix unions and tightest bounds
    suffix_or = [0] * (n + 1)
    suffix_key = [loose] * (n + 1)
    for j in range(n - 1, -1, -1):
        suffix_or[j] = suffix_or[j + 1] | masks[j]
        suffix_key[j] = keys[j] if keys[j] > suffix_key[j + 1] else suffix_key[j + 1]
    prefix_or = 0
    prefix_key = loose
    for i in range(n):
        others = prefix_or | suffix_or[i + 1]
        key = prefix_key if prefix_key > suffix_key[i + 1] else suffix_key[i + 1]
        keep = zmask & _beyond(key, base, full, is_max)
        reach = keep & others
        if reach:  # every value of x_i up to (for min: down to) the farthest such w
            keep |= (1 << reach.bit_length()) - 1 if is_max else full ^ ((reach & -reach) - 1)
        mask = masks[i]
        if mask & ~keep:
            xs[i].keep_mask(base, keep)
        prefix_or |= mask
        if keys[i] > prefix_key:
            prefix_key = keys[i]


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
