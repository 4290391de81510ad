"""The engine's integer variable, `IntVar`: its domain, its saving on the trail, its updates
and the wake-ups they cause (the queries and offset views are in view.py, bit sets in bits.py).

A domain is kept as bounds `lo..hi` plus, for ranges of at most `BITSET_LIMIT` values, a
Python int used as a bit set: bit i stands for the value `lo + i`, so bit 0 is always set
and the int is no wider than the domain (a domain whose low end moves up shifts its bits
down: machine-sized ints stay machine-sized, which the compiled engine relies on).
Larger domains keep bounds only, and their `bits` is -1 (so the test for a bounds-only
domain is `bits < 0`; an `int` field rather than `int | None` lets the compiled engine keep
small bit sets as machine integers). Removing an interior value from a bounds-only domain is
a no-op, which is sound because every propagator re-checks its constraint on fixed
variables.

Changes are saved once per level (the variable keeps its old (bits, card, lo) on its own
history, hi following from them, and itself on the trail) and announced by scheduling the
subscribed propagators (see events.py). This module holds the hottest code of the engine,
so the update methods are written out in full rather than built from smaller helpers.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

# the bit set helpers and the views were defined here: still importable from here
from conundrum.engine.bits import BITSET_LIMIT, WIDE, count_bits, mask_of, offsets
from conundrum.engine.errors import Inconsistency
from conundrum.engine.view import IntView, OffsetView

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.propagator import Propagator, Waker
    from conundrum.engine.solver import Solver
    from conundrum.state.trail import Trail

__all__ = ["BITSET_LIMIT", "WIDE", "IntVar", "IntView", "OffsetView", "count_bits", "mask_of",
           "offsets"]


class SavedDomain:
    """A domain as IntVar saves it for its restore: the bit set (-1: bounds only), the
    size and the lowest value."""

    __slots__ = ("bits", "card", "lo")

    def __init__(self) -> None:
        self.bits = -1
        self.card = 0
        self.lo = 0


def _removed_count(kept: int, removed: int, card: int) -> int:
    """The size of the kept part of a bit set of `card` values split into kept and removed
    parts: the shorter of the two is counted. (set_bounds, which removes two parts, writes
    the same out: one helper for both cost 5% of golomb-10's time.)"""
    if removed.bit_length() < kept.bit_length():
        return card - count_bits(removed)
    return count_bits(kept)


class IntVar(IntView):
    """An integer variable of the engine (not the model's Var)."""

    __slots__ = ("solver", "trail", "stamp", "saved", "depth", "index", "on_fix", "on_bounds",
                 "on_domain", "wake_fix", "wake_bounds", "wake_domain", "mirrors", "views",
                 "journal")

    def __init__(self, solver: Solver, lo: int, hi: int, name: str = "",
                 values: list[int] | None = None, bitset: bool = True) -> None:
        if values is not None:
            values = sorted(set(values))
            if not values:
                raise Inconsistency
            lo, hi = values[0], values[-1]
        if lo > hi:
            raise Inconsistency
        bits = -1
        if bitset and hi - lo < BITSET_LIMIT:
            if values is None:
                bits = (1 << (hi - lo + 1)) - 1
            else:
                bits = mask_of(v - lo for v in values)
        card = hi - lo + 1 if bits < 0 else bits.bit_count()
        super().__init__(lo, hi, bits, card, name, None, 0)
        self.solver = solver
        self.trail = solver.trail
        self.stamp = -1
        # the domain (bits, card, lo) at each save, newest last, in saved[:depth]. The
        # records are reused: a list emptied by pop frees its buffer and the next save
        # allocates it again, and a list of integers boxes each one saved (list_resize,
        # realloc and the boxing were 10-15% of a search of cheap propagation)
        self.saved: list[SavedDomain] = []
        self.depth = 0
        self.index = len(solver.vars)
        solver.vars.append(self)
        self.on_fix: list[Propagator] = []
        self.on_bounds: list[Propagator] = []
        self.on_domain: list[Propagator] = []
        # whom to wake on each kind of change (FIX wakes every list, see events.py)
        self.wake_fix: list[Waker] = []  # (wakers: see engine/propagator.py)
        self.wake_bounds: list[Waker] = []
        self.wake_domain: list[Waker] = []
        self.mirrors: list[OffsetView] = []  # views whose fields follow this variable
        self.views: dict[int, OffsetView] = {}  # offset -> its view, so views are shared
        # the journal recording every change (a learning search's), else None
        self.journal: Journal | None = None

    # ---------------------------------------------------------------- trailing
    def restore(self) -> None:
        """Undo the last saved change (called by the trail)."""
        top = self.depth - 1
        self.depth = top
        saved = self.saved[top]
        bits = self.bits = saved.bits
        card = self.card = saved.card
        lo = self.lo = saved.lo
        # hi is not saved: it follows from the others
        hi = self.hi = lo + (card if bits < 0 else bits.bit_length()) - 1
        self.stamp = -1
        for w in self.mirrors:
            c = w.offset
            w.lo = lo + c
            w.hi = hi + c
            w.bits = bits
            w.card = card

    def _save(self, bits: int, trail: Trail) -> None:
        """Save (bits, card, lo) for `restore` and put this variable on the trail."""
        top = self.depth
        if top == len(self.saved):
            self.saved.append(SavedDomain())
        saved = self.saved[top]
        saved.bits = bits
        saved.card = self.card
        saved.lo = self.lo
        self.depth = top + 1
        trail.entries.append(self)
        self.stamp = trail.stamp

    # ----------------------------------------------------------------- updates
    def _set_bits(self, bits: int, card: int = -1, anchor: int = 0) -> None:
        """Install a subset of the current domain, given as a bit set relative to
        lo + anchor (fail if empty): shift it to its lowest value, fix the bounds, save the
        old state once per level and wake the subscribers. `card`, when the caller knows it,
        saves counting the bits (int.bit_count is not cheap in compiled code)."""
        if anchor == 0 and bits == self.bits:
            return
        if not bits:
            raise Inconsistency
        trail = self.trail
        if self.stamp != trail.stamp:
            self._save(self.bits, trail)
        if card < 0:
            card = count_bits(bits)
        lo = self.lo + anchor
        if not bits & 1:  # the lowest value went: shift the set down to the new one
            low = (bits & -bits).bit_length() - 1
            bits >>= low
            lo += low
        hi = lo + bits.bit_length() - 1
        if lo == hi:
            wake = self.wake_fix
        elif lo != self.lo or hi != self.hi:
            wake = self.wake_bounds
        else:
            wake = self.wake_domain
        self.lo = lo
        self.hi = hi
        self.bits = bits
        self.card = card
        for w in self.mirrors:
            c = w.offset
            w.lo = lo + c
            w.hi = hi + c
            w.bits = bits
            w.card = card
        journal = self.journal
        if journal is not None:
            journal.record(self)
        for waker in wake:
            if not waker.scheduled:
                waker.scheduled = True
                waker.queue.append(waker)

    def _set_bounds(self, lo: int, hi: int) -> None:
        """New bounds for a bounds-only domain, inside the current ones (fail if empty)."""
        if lo > hi:
            raise Inconsistency
        trail = self.trail
        if self.stamp != trail.stamp:
            self._save(-1, trail)
        card = hi - lo + 1
        self.lo = lo
        self.hi = hi
        self.card = card
        for w in self.mirrors:
            c = w.offset
            w.lo = lo + c
            w.hi = hi + c
            w.card = card
        journal = self.journal
        if journal is not None:
            journal.record(self)
        for waker in (self.wake_fix if lo == hi else self.wake_bounds):
            if not waker.scheduled:
                waker.scheduled = True
                waker.queue.append(waker)

    def set_min(self, v: int) -> None:
        """Remove every value below v."""
        if v <= self.lo:
            return
        if v > self.hi:
            raise Inconsistency
        bits = self.bits
        if bits < 0:
            self._set_bounds(v, self.hi)
        elif self.card == self.hi - self.lo + 1:  # no hole: the count is known
            shift = v - self.lo
            self._set_bits(bits >> shift, self.card - shift, shift)
        else:
            shift = v - self.lo
            kept = bits >> shift
            self._set_bits(kept, _removed_count(kept, bits & ((1 << shift) - 1), self.card),
                           shift)

    def set_max(self, v: int) -> None:
        """Remove every value above v."""
        if v >= self.hi:
            return
        if v < self.lo:
            raise Inconsistency
        bits = self.bits
        if bits < 0:
            self._set_bounds(self.lo, v)
        else:
            width = v - self.lo + 1
            if self.card == self.hi - self.lo + 1:  # no hole: all ones, one shift
                self._set_bits(bits >> (self.card - width), width)
                return
            kept = bits & ((1 << width) - 1)
            self._set_bits(kept, _removed_count(kept, bits >> width, self.card))

    def set_bounds(self, lo: int, hi: int) -> None:
        """Keep only the values in lo..hi (one change, one wake-up)."""
        if lo < self.lo:
            lo = self.lo
        if hi > self.hi:
            hi = self.hi
        if lo == self.lo and hi == self.hi:
            return
        if lo > hi:
            raise Inconsistency
        bits = self.bits
        if bits < 0:
            self._set_bounds(lo, hi)
        else:
            shift = lo - self.lo
            width = hi - lo + 1
            if self.card == self.hi - self.lo + 1:  # no hole: all ones, one shift
                self._set_bits(bits >> (self.card - width), width, shift)
                return
            kept = (bits >> shift) & ((1 << width) - 1)
            below = bits & ((1 << shift) - 1)
            above = bits >> (shift + width)
            if below.bit_length() + above.bit_length() < kept.bit_length():
                card = self.card - count_bits(below) - count_bits(above)
            else:
                card = count_bits(kept)
            self._set_bits(kept, card, shift)

    def assign(self, v: int) -> None:
        """Fix the variable to v."""
        if v < self.lo or v > self.hi:
            raise Inconsistency
        if self.lo == self.hi:
            return
        bits = self.bits
        if bits < 0:
            self._set_bounds(v, v)
        else:
            shift = v - self.lo
            if not (bits >> shift) & 1:
                raise Inconsistency
            self._set_bits(1, 1, shift)

    def remove(self, v: int) -> None:
        """Remove the value v (interior values of bounds-only domains stay)."""
        if v < self.lo or v > self.hi:
            return
        bits = self.bits
        if bits < 0:
            if v == self.lo:
                if v == self.hi:
                    raise Inconsistency
                self._set_bounds(v + 1, self.hi)
            elif v == self.hi:
                self._set_bounds(self.lo, v - 1)
            return
        bit = 1 << (v - self.lo)
        if bits & bit:
            self._set_bits(bits ^ bit, self.card - 1)

    def keep_mask(self, lo: int, mask: int) -> None:
        """Keep only the values lo + i for the bits i set in mask."""
        bits = self.bits
        if bits < 0:
            if not mask:
                raise Inconsistency
            self.set_bounds(lo + (mask & -mask).bit_length() - 1, lo + mask.bit_length() - 1)
            return
        shift = lo - self.lo
        if shift >= bits.bit_length():  # the mask starts past every value: none is kept
            raise Inconsistency
        self._set_bits(bits & (mask << shift if shift >= 0 else mask >> -shift))

    def remove_mask(self, lo: int, mask: int) -> None:
        """Remove the values lo + i for the bits i set in mask (bitset domains only)."""
        bits = self.bits
        if bits < 0:
            return
        shift = lo - self.lo
        # a mask that starts past every value removes none: shifting it there would build
        # an integer as wide as the distance (a view 10^18 away: a MemoryError)
        if shift >= bits.bit_length():
            return
        self._set_bits(bits & ~(mask << shift if shift >= 0 else mask >> -shift))

    def keep_values(self, values: Iterable[int]) -> None:
        """Keep only the given values."""
        lo, hi = self.lo, self.hi
        if self.bits < 0:
            vs = [v for v in values if lo <= v <= hi]
            if not vs:
                raise Inconsistency
            self.set_bounds(min(vs), max(vs))
            return
        self._set_bits(self.bits & mask_of(v - lo for v in values if lo <= v <= hi))

    def needs_bits(self) -> bool:
        """Whether its bit set holds something bounds cannot: a hole, or the possibility
        of one worth a bit set (a propagator watching it that `makes_holes` and whose
        holes need bits)."""
        if self.bits < 0:
            return False
        if self.card != self.hi - self.lo + 1:
            return True
        for w in self.wake_fix:
            p = w.prop
            if p.makes_holes and p.holes_need_bits:
                return True
        return False

    def drop_bits(self) -> None:
        """Keep bounds only from now on (the caller knows no hole can arise: see
        compiler/compile.py `drop_unneeded_bits`). Bit sets wider than a machine word are slow big
        integers, and a variable that only ever moves its bounds (a Golomb mark, a sum)
        does not need one."""
        self.bits = -1
        for w in self.mirrors:
            w.bits = -1

    # ----------------------------------------------------------------- events
    def subscribe(self, prop: Propagator, event: int) -> None:
        """Wake `prop` on `event` (events.FIX, BOUNDS or DOMAIN) of this variable."""
        (self.on_fix, self.on_bounds, self.on_domain)[event].append(prop)
        self._wake_lists()

    def unsubscribe(self, prop: Propagator) -> None:
        """Stop waking `prop` on any event of this variable."""
        for watchers in (self.on_fix, self.on_bounds, self.on_domain):
            while prop in watchers:
                watchers.remove(prop)
        self._wake_lists()

    def _wake_lists(self) -> None:
        """The wakers to schedule on each kind of change, from the subscriptions."""
        self.wake_domain = [p.waker for p in self.on_domain]
        self.wake_bounds = [p.waker for p in self.on_bounds] + self.wake_domain
        self.wake_fix = [p.waker for p in self.on_fix] + self.wake_bounds

    def degree(self) -> int:
        """Number of active propagators watching this variable that stand for constraints
        of the model (not the nogood store's watchers)."""
        n = 0
        for w in self.wake_fix:
            p = w.prop
            if p.active and p.is_constraint:
                n += 1
        return n

    def weighted_degree(self) -> int:
        """Sum of the failure weights of the active propagators watching this variable."""
        total = 0
        for w in self.wake_fix:
            p = w.prop
            if p.active:
                total += p.weight
        return total

    def view(self, offset: int) -> IntView:
        """The variable plus a constant, as a view (no new variable, no propagator)."""
        if offset == 0:
            return self
        w = self.views.get(offset)
        if w is None:
            w = self.views[offset] = OffsetView(self, offset)
            self.mirrors.append(w)
        return w
