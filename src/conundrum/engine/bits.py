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
WORD: Final = 62  # bits of a small int in compiled code (mypyc tags 63-bit ints)
WORD_MASK: Final = (1 << WORD) - 1
# each byte's bits in the reverse order (for `reversed_bits`), by the multiply-and-modulus
# trick (Hacker's Delight): 40 us at import where reversing each byte's text took 120
BYTE_REVERSED: Final = bytes((b * 0x0202020202 & 0x010884422010) % 1023 for b in range(256))


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


def periodic_mask(first: int, step: int, width: int) -> int:
    """The bits first, first + step, first + 2*step, ... below `width` (step >= 1): built
    by doubling, a few shifts of a big int whatever the count."""
    if first >= width:
        return 0
    needed = (width - first + step - 1) // step  # how many bits
    mask = 1
    count = 1
    while count < needed:
        mask |= mask << (count * step)
        count *= 2
    return (mask & ((1 << (width - first)) - 1)) << first


def reversed_bits(bits: int, width: int) -> int:
    """The `width` low bits of `bits` (bits >= 0 below 2**width) in the reverse order: bit
    i becomes bit width-1-i. Byte by byte through a table: a tenth of the cost of reversing
    the binary text on a set of 2,000 bits, half on one of 100."""
    n = (width + 7) >> 3
    flipped = int.from_bytes(bits.to_bytes(n, "little").translate(BYTE_REVERSED), "big")
    return flipped >> (8 * n - width)


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


def offsets(bits: int) -> list[int]:
    """The positions of the set bits, in increasing order, as a list (a plain loop: a
    generator costs a frame switch per bit in compiled code)."""
    out: list[int] = []
    if bits.bit_length() <= WORD:
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out
    if bits.bit_length() <= WIDE:
        # a word at a time: the inner loop then works on small ints, where `bits & -bits`
        # on the whole set would build two big ints per bit
        base = 0
        while bits:
            word = bits & WORD_MASK
            bits >>= WORD
            while word:
                low = word & -word
                out.append(base + low.bit_length() - 1)
                word ^= low
            base += WORD
        return out
    # each shift or `bits & -bits` on a huge int copies it: find the ones in its binary
    # text instead
    text = bin(bits)[:1:-1]
    i = text.find("1")
    while i >= 0:
        out.append(i)
        i = text.find("1", i + 1)
    return out


def window(a: int, b: int, lo: int, hi: int, bits: int) -> int:
    """The domain (lo, hi, bits) seen through the values a..b: bit i set when a + i is in
    it (bits < 0: every value of lo..hi). The result is as wide as a..b, whatever the
    domain: callers keep a..b short (`lost` only looks through bit-set domains, at most
    BITSET_LIMIT values wide)."""
    first = max(a, lo)
    last = min(b, hi)
    if first > last:
        return 0
    if bits < 0:
        return ((1 << (last - first + 1)) - 1) << (first - a)
    # lo <= last <= b, so neither shift goes further than a..b is wide
    m = bits << (lo - a) if lo >= a else bits >> (a - lo)
    return m & ((1 << (b - a + 1)) - 1)


def _held(a: int, b: int, lo: int, hi: int, bits: int) -> Iterator[int]:
    """The values of a..b that the domain (lo, hi, bits) holds, in increasing order. A
    bounds-only domain gives a range, one value at a time (it may be 10^18 long: the
    caller stops when it has enough); a bit set gives its bits in a window no wider than
    itself."""
    if a < lo:
        a = lo
    if b > hi:
        b = hi
    if a > b:
        return
    if bits < 0:
        v = a
        while v <= b:
            yield v
            v += 1
        return
    for o in offsets(window(a, b, lo, hi, bits)):
        yield a + o


def lost(a: int, b: int, before: tuple[int, int, int],
         after: tuple[int, int, int]) -> Iterator[int]:
    """The values of a..b, in increasing order, that the domain `before` holds and `after`
    does not (each a (lo, hi, bits) triple). Nothing here is as wide as the span of a..b
    or of `before`: within `after`'s bounds only a bit-set `after` has holes (a
    bounds-only one has none), and those are found in one pass over two windows at most
    BITSET_LIMIT wide (not a membership test per value: each test on a wide set copies
    it); outside them, the values of `before` come one at a time (`_held`), so a caller
    that stops early (a cap on holes) never pays for a range of 10^18 values it does not
    read."""
    if a > b:
        return
    blo, bhi, bbits = before
    alo, ahi, abits = after
    yield from _held(a, min(b, alo - 1), blo, bhi, bbits)
    first = max(a, alo, blo)
    last = min(b, ahi, bhi)
    if abits >= 0 and first <= last:
        gone = window(first, last, blo, bhi, bbits) & ~window(first, last, alo, ahi, abits)
        for o in offsets(gone):
            yield first + o
    yield from _held(max(a, ahi + 1), b, blo, bhi, bbits)
