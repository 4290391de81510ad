"""Finite-domain integer variables.

A domain is kept as bounds `lo..hi` plus, for ranges of at most `BITSET_LIMIT` values, a
Python int used as a bit set (bit i stands for the value `base + i`). Larger domains keep
bounds only: removing an interior value from them is a no-op, which is sound because every
propagator re-checks its constraint on fixed variables.

Changes are saved on the trail once per level and announced by scheduling the subscribed
propagators (see events.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from conundrum.engine.errors import Inconsistency

if TYPE_CHECKING:
    from conundrum.engine.solver import Solver

BITSET_LIMIT = 1 << 16
WIDE = 4096  # bit sets longer than this are scanned as text, not bit by bit


def mask_of(offsets) -> int:
    """The bit set with the given bit positions (>= 0). Wide sparse sets are built in a
    bytearray: OR-ing single bits into a huge int would copy it once per bit."""
    offsets = list(offsets)
    if not offsets:
        return 0
    top = max(offsets)
    if top < WIDE or len(offsets) < 4:
        m = 0
        for o in offsets:
            m |= 1 << o
        return m
    buf = bytearray(top // 8 + 1)
    for o in offsets:
        buf[o >> 3] |= 1 << (o & 7)
    return int.from_bytes(buf, "little")


def offsets(bits: int):
    """The positions of the set bits, in increasing order."""
    if bits.bit_length() <= WIDE:
        while bits:
            low = bits & -bits
            yield low.bit_length() - 1
            bits ^= low
        return
    # each `bits & -bits` on a huge int copies it: find the ones in its binary text instead
    text = bin(bits)[:1:-1]
    i = text.find("1")
    while i >= 0:
        yield i
        i = text.find("1", i + 1)


class IntVar:
    """An integer variable of the engine (not the model's Var)."""

    __slots__ = ("solver", "name", "lo", "hi", "bits", "base", "stamp",
                 "on_fix", "on_bounds", "on_domain", "index")

    def __init__(self, solver: Solver, lo: int, hi: int, name: str = "",
                 values: list[int] | None = None) -> None:
        self.solver = solver
        self.name = name
        self.stamp = -1
        self.on_fix: list = []
        self.on_bounds: list = []
        self.on_domain: list = []
        self.index = len(solver.vars)
        solver.vars.append(self)
        if values is not None:
            values = sorted(set(values))
            if not values:
                raise Inconsistency
            lo, hi = values[0], values[-1]
        if lo > hi:
            raise Inconsistency
        self.lo = lo
        self.hi = hi
        self.base = lo
        if hi - lo < BITSET_LIMIT:
            if values is None:
                self.bits = (1 << (hi - lo + 1)) - 1
            else:
                self.bits = mask_of(v - lo for v in values)
        else:
            self.bits = None  # bounds only

    # ----------------------------------------------------------------- queries
    def size(self) -> int:
        if self.bits is None:
            return self.hi - self.lo + 1
        return self.bits.bit_count()

    def contains(self, v: int) -> bool:
        if v < self.lo or v > self.hi:
            return False
        if self.bits is None:
            return True
        return (self.bits >> (v - self.base)) & 1 == 1

    def values(self) -> Iterator[int]:
        """The values in increasing order (a range for bounds-only domains)."""
        if self.bits is None:
            yield from range(self.lo, self.hi + 1)
            return
        base = self.base
        for o in offsets(self.bits):
            yield base + o

    def values_list(self) -> list[int]:
        return list(self.values())

    def next_value(self, v: int) -> int | None:
        """Smallest value > v, or None."""
        if v >= self.hi:
            return None
        if v < self.lo:
            return self.lo
        if self.bits is None:
            return v + 1
        rest = self.bits >> (v + 1 - self.base)
        low = rest & -rest
        return v + low.bit_length()

    def prev_value(self, v: int) -> int | None:
        """Largest value < v, or None."""
        if v <= self.lo:
            return None
        if v > self.hi:
            return self.hi
        if self.bits is None:
            return v - 1
        below = self.bits & ((1 << (v - self.base)) - 1)
        return self.base + below.bit_length() - 1

    def mask(self, lo: int, hi: int) -> int:
        """The domain's values within lo..hi as a bit set relative to `lo` (bitset domains)."""
        if self.bits is None:
            lo2, hi2 = max(lo, self.lo), min(hi, self.hi)
            if lo2 > hi2:
                return 0
            return ((1 << (hi2 - lo2 + 1)) - 1) << (lo2 - lo)
        shift = lo - self.base
        bits = self.bits >> shift if shift >= 0 else self.bits << -shift
        return bits & ((1 << (hi - lo + 1)) - 1)

    # ---------------------------------------------------------------- trailing
    def _save(self) -> None:
        trail = self.solver.trail
        if self.stamp != trail.stamp:
            trail.entries.append((self, self.lo, self.hi, self.bits))
            self.stamp = trail.stamp

    def restore(self, entry: tuple) -> None:
        """Undo one saved change (called by the trail)."""
        _, self.lo, self.hi, self.bits = entry
        self.stamp = -1

    # ----------------------------------------------------------------- events
    def _notify(self, old_lo: int, old_hi: int) -> None:
        # Schedule each subscribed propagator (the hottest loop of the engine): skip it when
        # inactive, already queued, or the idempotent propagator that is running.
        solver = self.solver
        current = solver.current
        queues = solver.queues
        if self.lo == self.hi:
            lists = (self.on_fix, self.on_bounds, self.on_domain)
        elif self.lo != old_lo or self.hi != old_hi:
            lists = (self.on_bounds, self.on_domain)
        else:
            lists = (self.on_domain,)
        for lst in lists:
            for p in lst:
                if p.scheduled or not p.active or (p is current and p.idempotent):
                    continue
                p.scheduled = True
                queues[p.priority].append(p)

    def _set_bits(self, bits: int) -> None:
        """Install a non-empty subset bit set, fixing bounds, and notify."""
        if bits == self.bits:
            return
        if not bits:
            raise Inconsistency
        self._save()
        old_lo, old_hi = self.lo, self.hi
        base = self.base
        self.bits = bits
        self.lo = base + (bits & -bits).bit_length() - 1
        self.hi = base + bits.bit_length() - 1
        self._notify(old_lo, old_hi)

    # ----------------------------------------------------------------- updates
    def set_min(self, v: int) -> None:
        """Remove every value below v."""
        if v <= self.lo:
            return
        if v > self.hi:
            raise Inconsistency
        if self.bits is None:
            self._save()
            old_lo = self.lo
            self.lo = v
            self._notify(old_lo, self.hi)
        else:
            shift = v - self.base
            self._set_bits((self.bits >> shift) << shift)

    def set_max(self, v: int) -> None:
        """Remove every value above v."""
        if v >= self.hi:
            return
        if v < self.lo:
            raise Inconsistency
        if self.bits is None:
            self._save()
            old_hi = self.hi
            self.hi = v
            self._notify(self.lo, old_hi)
        else:
            self._set_bits(self.bits & ((1 << (v - self.base + 1)) - 1))

    def assign(self, v: int) -> None:
        """Fix the variable to v."""
        if not self.contains(v):
            raise Inconsistency
        if self.lo == self.hi:
            return
        if self.bits is None:
            self._save()
            old_lo, old_hi = self.lo, self.hi
            self.lo = self.hi = v
            self._notify(old_lo, old_hi)
        else:
            self._set_bits(1 << (v - self.base))

    def remove(self, v: int) -> None:
        """Remove the value v (interior values of bounds-only domains stay)."""
        if v < self.lo or v > self.hi:
            return
        if self.bits is None:
            if v == self.lo:
                self.set_min(v + 1)
            elif v == self.hi:
                self.set_max(v - 1)
            return
        bit = 1 << (v - self.base)
        if self.bits & bit:
            self._set_bits(self.bits ^ bit)

    def keep_mask(self, lo: int, mask: int) -> None:
        """Keep only the values lo + i for the bits i set in mask."""
        if self.bits is None:
            if not mask:
                raise Inconsistency
            low = lo + (mask & -mask).bit_length() - 1
            high = lo + mask.bit_length() - 1
            self.set_min(low)
            self.set_max(high)
            return
        shift = lo - self.base
        m = mask << shift if shift >= 0 else mask >> -shift
        self._set_bits(self.bits & m)

    def keep_values(self, values) -> None:
        """Keep only the given values."""
        if self.bits is None:
            vs = [v for v in values if self.lo <= v <= self.hi]
            if not vs:
                raise Inconsistency
            self.set_min(min(vs))
            self.set_max(max(vs))
            return
        base, lo, hi = self.base, self.lo, self.hi
        self._set_bits(self.bits & mask_of(v - base for v in values if lo <= v <= hi))

    def remove_mask(self, lo: int, mask: int) -> None:
        """Remove the values lo + i for the bits i set in mask (bitset domains only)."""
        if self.bits is None:
            return
        shift = lo - self.base
        m = mask << shift if shift >= 0 else mask >> -shift
        self._set_bits(self.bits & ~m)

    def subscribe(self, prop, event: int) -> None:
        """Wake `prop` on `event` (events.FIX, BOUNDS or DOMAIN) of this variable."""
        (self.on_fix, self.on_bounds, self.on_domain)[event].append(prop)

    def degree(self) -> int:
        """Number of active propagators watching this variable."""
        seen = 0
        for lst in (self.on_fix, self.on_bounds, self.on_domain):
            for p in lst:
                if p.active:
                    seen += 1
        return seen

    def __repr__(self) -> str:
        if self.lo == self.hi:
            return f"{self.name or '_'}={self.lo}"
        return f"{self.name or '_'}in{self.lo}..{self.hi}"
