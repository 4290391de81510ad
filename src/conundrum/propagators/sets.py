"""The set constraints' own propagator (issue 31 item 4): one propagator per set constraint
over the sets' membership vectors, in the bounds (glb/lub) representation.

A set variable is a vector of 0/1 members over its universe (lang/setvar.py): its glb is
the members fixed to 1, its lub those not fixed to 0. Subset, equality, disjointness of
two sets, union, intersection, difference and symmetric difference all say the same thing
at every element e of the universes: the members (x_e, y_e[, z_e]) take one of the rows of
a small truth table (z_e = x_e | y_e for a union). `Elementwise` holds that table and the
vectors, and filters every element to the table's supports: with 0/1 members that is the
whole of bounds reasoning on sets (an element enters z's glb when it is in x's, leaves x's
lub when it left z's, ...). One propagator instead of three linear rows per element, with
the table as an index: each element's three domains are read as one number, which names
the domains it keeps (precomputed per table).

Explanations: a member fixed because the other value lost its last row is explained by the
other members of its element that were fixed before it (a single one when that alone kills
every row: `x_e = 1` alone puts e in a union); a failure by the fixed members of the
element left with no row. Members fixed at the root (constant operands) need nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.engine import FIX, Inconsistency, IntView, Propagator, Solver
from conundrum.engine.literals import GE, LE, on_view
from conundrum.state import RevInt

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred

__all__ = ["Elementwise", "keep_table"]


def keep_table(rows: int) -> list[int]:
    """For a relation over three 0/1 members given by `rows` (bit 4a + 2b + c set when the
    row (a, b, c) is allowed), the domains each combination of domains keeps. A 0/1 domain
    is coded `2*lo + hi`: 0 for {0}, 1 for {0, 1}, 3 for {1}; entry 16*ca + 4*cb + cc holds
    the codes kept, packed the same way, or -1 when no row is left."""
    masks = {0: 1, 1: 3, 3: 2}  # code -> bit per value
    codes = {1: 0, 3: 1, 2: 3}  # bit per value -> code
    out = [-1] * 64
    for ca, ma in masks.items():
        for cb, mb in masks.items():
            for cc, mc in masks.items():
                ka = kb = kc = 0
                for r in range(8):
                    a, b, c = r >> 2, (r >> 1) & 1, r & 1
                    if rows >> r & 1 and ma >> a & 1 and mb >> b & 1 and mc >> c & 1:
                        ka |= 1 << a
                        kb |= 1 << b
                        kc |= 1 << c
                if ka:
                    out[16 * ca + 4 * cb + cc] = 16 * codes[ka] + 4 * codes[kb] + codes[kc]
    return out


class Elementwise(Propagator):
    """At every element k, (xs[k], ys[k], zs[k]) is a row of the truth table `rows` (see
    `keep_table`); the members are 0/1 views (a constant operand's are fixed ones).

    The elements not yet fixed are the first `live` of `order` (a sparse set: an element
    whose members are all fixed, and checked, moves past `live`, which the trail restores),
    so that a wake scans only the elements that can still change."""

    priority = 0
    idempotent = True
    makes_holes = False
    explains = True

    def __init__(self, solver: Solver, xs: list[IntView], ys: list[IntView],
                 zs: list[IntView], rows: int) -> None:
        super().__init__(solver)
        self.xs, self.ys, self.zs = xs, ys, zs
        self.rows = rows
        self.keep = keep_table(rows)
        self.failed_at = -1  # the element left with no row, at the last failure
        self.order = list(range(len(xs)))
        self.live = RevInt(solver.trail, len(xs))
        # a member in two places: one pass may then change an element already visited
        roots = [x.root.index for group in (xs, ys, zs) for x in group if x.lo != x.hi]
        self.shared = len(set(roots)) < len(roots)
        self.places: dict[int, list[int]] = {}  # root index -> 3*k + position (explain)

    def post(self) -> None:
        for group in (self.xs, self.ys, self.zs):
            for x in group:
                if x.lo != x.hi:
                    x.subscribe(self, FIX)
        self.propagate()

    def propagate(self) -> None:
        xs, ys, zs, keep, order = self.xs, self.ys, self.zs, self.keep, self.order
        self.failed_at = -1
        live = start = self.live.value
        again = True
        while again:
            again = False
            i = 0
            while i < live:
                k = order[i]
                x, y, z = xs[k], ys[k], zs[k]
                ca, cb, cc = 2 * x.lo + x.hi, 2 * y.lo + y.hi, 2 * z.lo + z.hi
                kept = keep[16 * ca + 4 * cb + cc]
                if kept < 0:
                    self.failed_at = k
                    raise Inconsistency
                ka, kb, kc = kept >> 4, (kept >> 2) & 3, kept & 3
                if ka != ca:
                    x.assign(ka >> 1)
                    again = self.shared
                if kb != cb:
                    y.assign(kb >> 1)
                    again = self.shared
                if kc != cc:
                    z.assign(kc >> 1)
                    again = self.shared
                if ka != 1 and kb != 1 and kc != 1:  # all fixed: done with it
                    live -= 1
                    order[i], order[live] = order[live], k
                else:
                    i += 1
        if live != start:
            self.live.set(live)
            if live == 0:
                self.deactivate()

    # ------------------------------------------------------------------ explaining
    def _members(self, k: int) -> list[IntView]:
        return [self.xs[k], self.ys[k], self.zs[k]]

    def _fixed_before(self, journal: Journal, k: int, skip: int, e: int
                      ) -> list[tuple[int, int]]:
        """The positions of element k other than `skip` fixed before entry e (not at the
        root), with their values."""
        out: list[tuple[int, int]] = []
        for j, x in enumerate(self._members(k)):
            if j == skip:
                continue
            i = x.root.index
            if journal.root_lo[i] == journal.root_hi[i]:
                continue
            lo, hi, _ = journal.domain_at(i, journal.entry_before(i, e))
            if lo == hi:
                out.append((j, lo + x.offset))
        return out

    def _kills(self, journal: Journal, k: int, skip: int, value: int,
               fixed: list[tuple[int, int]]) -> bool:
        """Do the members fixed at the root and those of `fixed` leave no row with
        `value` at position `skip` of element k (any row, for skip = -1)?"""
        known = [-1, -1, -1]
        for j, x in enumerate(self._members(k)):
            i = x.root.index
            if journal.root_lo[i] == journal.root_hi[i]:
                known[j] = journal.root_lo[i] + x.offset
        for j, v in fixed:
            known[j] = v
        if skip >= 0:
            known[skip] = value
        for r in range(8):
            if self.rows >> r & 1:
                row = (r >> 2, (r >> 1) & 1, r & 1)
                if all(known[j] < 0 or known[j] == row[j] for j in range(3)):
                    return False
        return True

    def _state(self, k: int, fixed: list[tuple[int, int]], out: list[Pred]) -> None:
        members = self._members(k)
        for j, v in fixed:
            x = members[j]
            out.append(on_view(x, GE, 1) if v == 1 else on_view(x, LE, 0))

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        if not self.places:
            for k in range(len(self.xs)):
                for j, x in enumerate(self._members(k)):
                    self.places.setdefault(x.root.index, []).append(3 * k + j)
        places = self.places.get(journal.var[e], [])
        if len(places) != 1:
            return False  # a member in two places: which one moved is not known
        k, j = places[0] // 3, places[0] % 3
        x = self._members(k)[j]
        lo, hi, _ = journal.domain_at(journal.var[e], e)
        if lo != hi:
            return False
        lost = 1 - (lo + x.offset)  # the value that had no row left
        fixed = self._fixed_before(journal, k, j, e)
        for one in fixed:  # a single member may be reason enough
            if self._kills(journal, k, j, lost, [one]):
                self._state(k, [one], out)
                return True
        if not self._kills(journal, k, j, lost, fixed):
            return False
        self._state(k, fixed, out)
        return True

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        k = self.failed_at
        if k < 0:
            return False
        fixed = self._fixed_before(journal, k, -1, len(journal))
        if not self._kills(journal, k, -1, 0, fixed):
            return False  # the element has a row now: the failure was elsewhere
        self._state(k, fixed, out)
        return True
