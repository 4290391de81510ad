"""The fractional knapsack bound of an objective (issue 30, item 2): Dantzig's bound.

For a gain G = sum(v_i y_i) and a capacity row sum(w_i y_i) <= C with every w_i >= 0 and
every y_i >= 0: each item at least its lower bound l_i (what it must take, of gain and of
capacity), then the rest of the capacity filled with the items of the best gain per unit
of weight first, the last one in part, gives the largest G the linear relaxation allows.
G is an integer, so the floor of that is a bound: the objective (a view equal to `sign` *
G + `shift`) gets it as its upper (sign +1) or lower (sign -1) bound. Depth-first branch
and bound on a knapsack then prunes every subtree whose relaxation cannot beat the
incumbent, and `stats.bound` means something from the root on.

Items of negative gain never take more than their lower bound; items of weight 0 and
positive gain take everything. An explanation (learning search) is the items' bounds just
before the inference: their lower bounds (taken) and upper bounds (what was left to take).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from conundrum.engine import BOUNDS, IntView, Propagator, Solver
from conundrum.engine.literals import GE, LE, Pred

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal


class KnapsackBound(Propagator):
    """obj <= shift + (the fractional knapsack bound of G) when sign is +1, obj >= shift -
    (that bound) when sign is -1 (see the module)."""

    priority = 2
    idempotent = True  # the objective is not an item: bounding it changes no input
    makes_holes = False
    explains = True

    def __init__(self, solver: Solver, gains: list[int], weights: list[int],
                 items: list[IntView], capacity: int, obj: IntView, sign: int,
                 shift: int) -> None:
        super().__init__(solver)
        order = _order(gains, weights)
        self.gains = [gains[k] for k in order]
        self.weights = [weights[k] for k in order]
        self.items = [items[k] for k in order]
        self.capacity = capacity
        self.obj = obj
        self.sign = sign
        self.shift = shift

    def post(self) -> None:
        for x in self.items:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        los = [x.lo for x in self.items]
        his = [x.hi for x in self.items]
        bound = self.bound(los, his)
        if self.sign > 0:
            self.obj.set_max(self.shift + bound)
        else:
            self.obj.set_min(self.shift - bound)

    def bound(self, los: list[int], his: list[int]) -> int:
        """The floor of the fractional knapsack bound of G over the items' bounds."""
        gains, weights = self.gains, self.weights
        total = 0
        room = self.capacity
        for k in range(len(los)):
            total += gains[k] * los[k]
            room -= weights[k] * los[k]
        if room < 0:
            return total  # over capacity already: the capacity row fails by itself
        for k in range(len(los)):
            g = gains[k]
            if g <= 0:
                continue
            more = his[k] - los[k]
            if more == 0:
                continue
            w = weights[k]
            if w * more <= room:
                total += g * more
                room -= w * more
            else:
                return total + g * room // w
        return total

    def _bounds_at(self, journal: Journal, pos: int) -> tuple[list[int], list[int]]:
        """The items' bounds just before journal position pos."""
        los: list[int] = []
        his: list[int] = []
        for x in self.items:
            i = x.root.index
            lo, hi, _ = journal.domain_at(i, journal.entry_before(i, pos))
            los.append(lo + x.offset)
            his.append(hi + x.offset)
        return los, his

    def _item_preds(self, journal: Journal, los: list[int], his: list[int],
                    out: list[Pred]) -> None:
        """The items' bounds (those tighter than at the root) as predicates."""
        for k in range(len(self.items)):
            x = self.items[k]
            r = x.root
            i = r.index
            if los[k] - x.offset > journal.root_lo[i]:
                out.append(Pred(r, GE, los[k] - x.offset))
            if his[k] - x.offset < journal.root_hi[i]:
                out.append(Pred(r, LE, his[k] - x.offset))

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        """Entry e bounded the objective: the items' bounds just before it. False (the
        generic explanation) if the new bound is not the computed one (it skipped holes)
        or the objective is also an item."""
        obj = self.obj
        i = journal.var[e]
        if i != obj.root.index:
            return False
        for x in self.items:
            if x.root.index == i:
                return False
        los, his = self._bounds_at(journal, e)
        bound = self.bound(los, his)
        lo, hi, _ = journal.domain_at(i, e)
        if self.sign > 0:
            if hi + obj.offset != self.shift + bound:
                return False
        elif lo + obj.offset != self.shift - bound:
            return False
        self._item_preds(journal, los, his, out)
        return True

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        """The objective's bound now lies beyond the knapsack bound: the items' bounds and
        the objective's bound. False if that is not so (the failure came from elsewhere)."""
        obj = self.obj
        r = obj.root
        for x in self.items:
            if x.root.index == r.index:
                return False
        now = len(journal)
        los, his = self._bounds_at(journal, now)
        bound = self.bound(los, his)
        lo, hi, _ = journal.domain_at(r.index, journal.entry_before(r.index, now))
        if self.sign > 0:
            if lo + obj.offset <= self.shift + bound:
                return False
            out.append(Pred(r, GE, lo))
        else:
            if hi + obj.offset >= self.shift - bound:
                return False
            out.append(Pred(r, LE, hi))
        self._item_preds(journal, los, his, out)
        return True


def _order(gains: list[int], weights: list[int]) -> list[int]:
    """The order in which the fractional bound takes items: weight 0 first, then by gain
    per unit of weight, best first (as exact fractions)."""
    light = [k for k in range(len(gains)) if weights[k] == 0]
    heavy = [k for k in range(len(gains)) if weights[k] != 0]
    heavy.sort(key=lambda k: Fraction(-gains[k], weights[k]))
    return light + heavy
