"""The watch side of the nogood store (clauses.py): the VarWatch propagator that hands a
changed variable to the store, and the search of a sorted bound watch list.

A watch list is a flat list of pairs (entry, value) sorted by value (clauses.py, "Why a
scan is cheap"), so the watches whose predicate became true since the last scan are runs
of it, found by binary search (`first_above`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.engine.events import DOMAIN
from conundrum.engine.propagator import Propagator

if TYPE_CHECKING:
    from conundrum.engine.clauses import NogoodStore
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred
    from conundrum.engine.solver import Solver
    from conundrum.engine.var import IntVar


def first_above(ws: list[int], v: int) -> int:
    """The position of the first pair of a sorted watch list whose value exceeds v
    (len(ws) if none): a binary search over the pairs."""
    first = 0
    last = len(ws) >> 1
    while first < last:
        mid = (first + last) >> 1
        if ws[2 * mid + 1] <= v:
            first = mid + 1
        else:
            last = mid
    return 2 * first


class VarWatch(Propagator):
    """Wakes the nogood store when its variable changes (one per watched variable)."""

    priority = 0  # unit propagation is cheap, and it should run before the sums
    is_constraint = False  # not counted by IntVar.degree
    explains = True  # by the nogood it propagated (the journal's payload names it)

    def __init__(self, solver: Solver, store: NogoodStore, var: IntVar,
                 lists: list[list[int]]) -> None:
        super().__init__(solver)
        self.store = store
        self.var = var
        self.lists = lists  # the store's watch lists of var, by kind
        self.weight = 0  # not a model constraint: adds nothing to weighted degrees
        # the domain at the last scan on this branch; card -1: none yet, scan every list
        self.seen_lo = 0
        self.seen_hi = 0
        self.seen_card = -1
        self.seen_bits = -1
        self.stamp = -1  # the trail level that saved the seen domain last
        # (lo, hi, card, bits) of each save, newest last, in saved[:depth] (the list never
        # shrinks: see IntVar.saved)
        self.saved: list[int] = []
        self.depth = 0

    def post(self) -> None:
        self.var.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        self.store.scan(self.var, self)

    def see(self, lo: int, hi: int, card: int, bits: int) -> None:
        """Remember the domain a scan read, saving the old one once per trail level."""
        trail = self.solver.trail
        if self.stamp != trail.stamp:
            saved = self.saved
            top = self.depth
            if top == len(saved):
                saved.append(self.seen_lo)
                saved.append(self.seen_hi)
                saved.append(self.seen_card)
                saved.append(self.seen_bits)
            else:
                saved[top] = self.seen_lo
                saved[top + 1] = self.seen_hi
                saved[top + 2] = self.seen_card
                saved[top + 3] = self.seen_bits
            self.depth = top + 4
            trail.entries.append(self)
            self.stamp = trail.stamp
        self.seen_lo = lo
        self.seen_hi = hi
        self.seen_card = card
        self.seen_bits = bits

    def restore(self) -> None:
        """Undo the last `see` (called by the trail; a VarWatch never deactivates)."""
        saved = self.saved
        top = self.depth - 4
        self.depth = top
        self.seen_lo = saved[top]
        self.seen_hi = saved[top + 1]
        self.seen_card = saved[top + 2]
        self.seen_bits = saved[top + 3]
        self.stamp = -1

    def failed(self) -> None:
        """Nogood failures do not feed dom_wdeg (see the module docstring)."""

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return self.store.explain(journal, e, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return self.store.explain_conflict(journal, out)
