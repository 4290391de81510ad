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
