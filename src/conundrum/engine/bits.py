"""Bit sets as Python ints: the representation of small domains (engine/var.py).

Bit i of a domain's set stands for the value `lo + i`. These helpers build a set from bit
positions, count its bits and list them, each with a fast path for sets of a machine word
or so and another for very wide ones (where each operation on a huge int copies it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

BITSET_LIMIT: Final = 1 << 16
WIDE: Final = 4096  # bit sets longer than this are scanned as text, not bit by bit


def mask_of(offsets: Iterable[int]) -> int:
    """The bit set with the given bit positions (>= 0). Wide sparse sets are built in a
    bytearray: OR-ing single bits into a huge int would copy it once per bit."""
    positions = list(offsets)
    if not positions:
        return 0
    top = max(positions)
    if top < WIDE or len(positions) < 4:
        m = 0
        for o in positions:
            m |= 1 << o
        return m
    buf = bytearray(top // 8 + 1)
    for o in positions:
        buf[o >> 3] |= 1 << (o & 7)
    return int.from_bytes(buf, "little")


def count_bits(bits: int) -> int:
    """The number of set bits of a non-negative int. A loop over the set bits for a word
    or less (int.bit_count is a generic method call in compiled code, several times the
    cost of a few loop turns); bit_count beyond."""
    if bits.bit_length() > 64:
        return bits.bit_count()
    n = 0
    while bits:
        bits &= bits - 1
        n += 1
    return n


def offsets(bits: int) -> Iterator[int]:
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



def window(a: int, b: int, lo: int, hi: int, bits: int) -> int:
    """The domain (lo, hi, bits) seen through the values a..b: bit i set when a + i is in
    it (bits < 0: every value of lo..hi)."""
    first = max(a, lo)
    last = min(b, hi)
    if first > last:
        return 0
    if bits < 0:
        return ((1 << (last - first + 1)) - 1) << (first - a)
    m = bits << (lo - a) if lo >= a else bits >> (a - lo)
    return m & ((1 << (b - a + 1)) - 1)


def lost(a: int, b: int, before: tuple[int, int, int],
         after: tuple[int, int, int]) -> Iterator[int]:
    """The values of a..b, in increasing order, that the domain `before` holds and `after`
    does not (each a (lo, hi, bits) triple). One pass over the two sets, not a membership
    test per value: each test on a wide set copies it."""
    if a > b:
        return
    gone = window(a, b, before[0], before[1], before[2]) & \
        ~window(a, b, after[0], after[1], after[2])
    for o in offsets(gone):
        yield a + o
