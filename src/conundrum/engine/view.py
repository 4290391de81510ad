"""What propagators see of a variable: `IntView`, the common base of an engine variable and
of its offset views, with the queries on its domain; and `OffsetView`, x + c as a view of x.

A view's fields (bounds, bit set, size) are kept current by the variable it views (see
engine/var.py), so the queries here read fields only. The updates are implemented by
`IntVar` (on its own domain) and by `OffsetView` (passed to its variable, shifted back).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from conundrum.engine.bits import offsets
from conundrum.state import Reversible

if TYPE_CHECKING:
    from conundrum.engine.propagator import Propagator
    from conundrum.engine.var import IntVar


class IntView(Reversible):
    """What propagators work on: an `IntVar`, or an `OffsetView` of one. It offers bounds,
    a bit set relative to `lo` (-1 for bounds-only domains), the queries built on them,
    and the updates (which each subclass implements). Subclasses keep the fields current."""

    __slots__ = ("lo", "hi", "bits", "card", "name", "root", "offset")

    def __init__(self, lo: int, hi: int, bits: int, card: int, name: str,
                 root: IntVar | None, offset: int) -> None:
        self.lo = lo
        self.hi = hi
        self.bits = bits
        self.card = card  # the number of values (of lo..hi for bounds-only domains)
        self.name = name
        self.root: IntVar = root if root is not None else self  # type: ignore[assignment]
        self.offset = offset  # the view is root + offset

    def size(self) -> int:
        """Number of values (of the interval, for bounds-only domains)."""
        return self.card

    def contains(self, v: int) -> bool:
        """Whether v is in the domain."""
        if v < self.lo or v > self.hi:
            return False
        bits = self.bits
        if bits < 0 or self.card == self.hi - self.lo + 1:
            return True  # bounds only, or a bit set without a hole (no wide shift)
        return (bits >> (v - self.lo)) & 1 == 1

    def values(self) -> Iterator[int]:
        """The values in increasing order (a range for bounds-only domains)."""
        bits = self.bits
        if bits < 0:
            yield from range(self.lo, self.hi + 1)
            return
        lo = self.lo
        for o in offsets(bits):
            yield lo + o

    def values_list(self) -> list[int]:
        """The values in increasing order, as a list (cheaper than `values` in loops)."""
        bits = self.bits
        lo = self.lo
        if bits < 0:
            return list(range(lo, self.hi + 1))
        out = offsets(bits)
        if lo != 0:
            for i in range(len(out)):
                out[i] += lo
        return out

    def next_value(self, v: int) -> int | None:
        """Smallest value > v, or None."""
        if v >= self.hi:
            return None
        if v < self.lo:
            return self.lo
        bits = self.bits
        if bits < 0:
            return v + 1
        rest = bits >> (v + 1 - self.lo)
        low = rest & -rest
        return v + low.bit_length()

    def prev_value(self, v: int) -> int | None:
        """Largest value < v, or None."""
        if v <= self.lo:
            return None
        if v > self.hi:
            return self.hi
        bits = self.bits
        if bits < 0:
            return v - 1
        below = bits & ((1 << (v - self.lo)) - 1)
        return self.lo + below.bit_length() - 1

    def mask(self, lo: int, hi: int) -> int:
        """The domain's values within lo..hi as a bit set relative to `lo`."""
        bits = self.bits
        if bits < 0:
            lo2 = lo if lo > self.lo else self.lo
            hi2 = hi if hi < self.hi else self.hi
            if lo2 > hi2:
                return 0
            return ((1 << (hi2 - lo2 + 1)) - 1) << (lo2 - lo)
        shift = lo - self.lo
        bits = bits >> shift if shift >= 0 else bits << -shift
        return bits & ((1 << (hi - lo + 1)) - 1)

    # ------------------------------------------------- updates (see IntVar)
    def set_min(self, v: int) -> None:
        """Remove every value below v."""
        raise NotImplementedError

    def set_max(self, v: int) -> None:
        """Remove every value above v."""
        raise NotImplementedError

    def set_bounds(self, lo: int, hi: int) -> None:
        """Keep only the values in lo..hi."""
        raise NotImplementedError

    def assign(self, v: int) -> None:
        """Fix to v."""
        raise NotImplementedError

    def remove(self, v: int) -> None:
        """Remove the value v (interior values of bounds-only domains stay)."""
        raise NotImplementedError

    def keep_mask(self, lo: int, mask: int) -> None:
        """Keep only the values lo + i for the bits i set in mask."""
        raise NotImplementedError

    def remove_mask(self, lo: int, mask: int) -> None:
        """Remove the values lo + i for the bits i set in mask (bitset domains only)."""
        raise NotImplementedError

    def keep_values(self, values: Iterable[int]) -> None:
        """Keep only the given values."""
        raise NotImplementedError

    def subscribe(self, prop: Propagator, event: int) -> None:
        """Wake `prop` on `event` (events.FIX, BOUNDS or DOMAIN) of the variable."""
        raise NotImplementedError

    def degree(self) -> int:
        """Number of active propagators watching the variable."""
        raise NotImplementedError

    def weighted_degree(self) -> int:
        """Sum of the failure weights of the active propagators watching the variable."""
        raise NotImplementedError

    def view(self, offset: int) -> IntView:
        """This plus a constant, as a view (no new variable, no propagator)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        if self.lo == self.hi:
            return f"{self.name or '_'}={self.lo}"
        return f"{self.name or '_'}in{self.lo}..{self.hi}"


class OffsetView(IntView):
    """x + c as a view of x (Gecode's OffsetView, MiniCP's IntVarViewOffset).

    It reads like a variable: its fields are kept equal to x's, shifted by c, by x itself on
    every change and undo (a bit set is relative to lo, so it is the same int). Updates are
    passed to x with the value shifted back; subscribing subscribes to x, whose events are
    the view's events. So `all_different([q[i] + i])` needs no auxiliary variable and no
    equality propagator. Views are made by `IntVar.view`, which shares one per offset.
    """

    __slots__ = ()

    def __init__(self, var: IntVar, offset: int) -> None:
        sign = "+" if offset >= 0 else "-"
        super().__init__(var.lo + offset, var.hi + offset, var.bits, var.card,
                         f"{var.name or '_'}{sign}{abs(offset)}", var, offset)

    def set_min(self, v: int) -> None:
        self.root.set_min(v - self.offset)

    def set_max(self, v: int) -> None:
        self.root.set_max(v - self.offset)

    def set_bounds(self, lo: int, hi: int) -> None:
        c = self.offset
        self.root.set_bounds(lo - c, hi - c)

    def assign(self, v: int) -> None:
        self.root.assign(v - self.offset)

    def remove(self, v: int) -> None:
        self.root.remove(v - self.offset)

    def keep_mask(self, lo: int, mask: int) -> None:
        self.root.keep_mask(lo - self.offset, mask)

    def remove_mask(self, lo: int, mask: int) -> None:
        self.root.remove_mask(lo - self.offset, mask)

    def keep_values(self, values: Iterable[int]) -> None:
        c = self.offset
        self.root.keep_values([v - c for v in values])

    def subscribe(self, prop: Propagator, event: int) -> None:
        self.root.subscribe(prop, event)

    def degree(self) -> int:
        return self.root.degree()

    def weighted_degree(self) -> int:
        return self.root.weighted_degree()

    def view(self, offset: int) -> IntView:
        return self.root.view(self.offset + offset)
