"""Exact integer arithmetic for the arithmetic propagators (arith.py): integer k-th roots
rounded either way, the range of a product or a quotient over a box, and domain updates
that keep a union of two ranges (the excluded middle of |x| >= r: a bound inside the gap
moves out of it; a bit set loses the whole gap, a bounds-only domain cannot lose interior
values). Python integers throughout, never a float.
"""

from __future__ import annotations

import math
from typing import Final

from conundrum.engine import Inconsistency, IntView
from conundrum.engine.products import times

ENUMERATION_LIMIT: Final = 1024  # values (or pairs) the propagators enumerate, see `listable`

# ------------------------------------------------------------------ integer helpers


def ceil_div(p: int, q: int) -> int:
    """ceil(p / q) for q != 0, any signs."""
    return -((-p) // q)


def iroot(v: int, k: int) -> int:
    """The largest r >= 0 with r**k <= v, for v >= 0 and k >= 1 (integer Newton)."""
    if v < 2 or k == 1:
        return v
    if k == 2:
        return math.isqrt(v)
    # 2**ceil(bits/k) exceeds the real root; from above, each step decreases strictly
    # until the floor of the root, where it stops (floor of the real Newton step >= root)
    r = 1 << -(-v.bit_length() // k)
    while True:
        s = ((k - 1) * r + v // r ** (k - 1)) // k
        if s >= r:
            return r
        r = s


def iroot_ceil(v: int, k: int) -> int:
    """The smallest r >= 0 with r**k >= v, for v >= 0 and k >= 1."""
    r = iroot(v, k)
    return r if r ** k == v else r + 1


def root_floor(v: int, k: int) -> int:
    """The largest r with r**k <= v, for odd k (any v) or v >= 0."""
    return iroot(v, k) if v >= 0 else -iroot_ceil(-v, k)


def root_ceil(v: int, k: int) -> int:
    """The smallest r with r**k >= v, for odd k (any v) or v >= 0."""
    return iroot_ceil(v, k) if v >= 0 else -iroot(-v, k)


def corner_products(al: int, ah: int, bl: int, bh: int) -> tuple[int, int]:
    """Least and greatest a*b over a in al..ah and b in bl..bh (a bilinear form is
    extremal at the corners of a box)."""
    return corner_extremes(times(al, bl), times(al, bh), times(ah, bl), times(ah, bh))


def corner_extremes(p1: int, p2: int, p3: int, p4: int) -> tuple[int, int]:
    """The least and the greatest of four integers. Compared pair by pair, not by
    min()/max() over four arguments: compiled, those box each integer (a third of
    golf_puzzle's search went to the builtins' calls)."""
    lo1, hi1 = (p1, p2) if p1 <= p2 else (p2, p1)
    lo2, hi2 = (p3, p4) if p3 <= p4 else (p4, p3)
    return (lo1 if lo1 <= lo2 else lo2), (hi1 if hi1 >= hi2 else hi2)


def quotient_range(zl: int, zh: int, bl: int, bh: int) -> tuple[int, int]:
    """The integers between the least and the greatest z / b over z in zl..zh and b in
    bl..bh, a range of one sign without 0; lo > hi when no integer lies between."""
    # z / b is monotone in z and in b when b keeps one sign: extremal at the corners
    # (indexed, not unpacked into `_`: compiled, the unused half was boxed and freed)
    lo = corner_extremes(ceil_div(zl, bl), ceil_div(zl, bh), ceil_div(zh, bl),
                         ceil_div(zh, bh))[0]
    hi = corner_extremes(zl // bl, zl // bh, zh // bl, zh // bh)[1]
    return lo, hi


def clip_le(lo: int, hi: int, a: int, c: int) -> tuple[int, int]:
    """The integers y in lo..hi with a*y <= c, as a range (lo > hi when there are none)."""
    if a > 0:
        return lo, min(hi, c // a)
    if a < 0:
        return max(lo, ceil_div(c, a)), hi
    return (lo, hi) if c >= 0 else (lo, lo - 1)


def quotient_hull(zlo: int, zhi: int, ylo: int, yhi: int) -> tuple[int, int]:
    """Integer hull of {x : x*y = z, z in zlo..zhi, y in ylo..yhi, y != 0} over the reals.

    With y != 0 the quotient stays bounded; raises Inconsistency when y can only be 0."""
    parts = []
    if ylo <= -1:
        parts.append(quotient_range(zlo, zhi, ylo, min(yhi, -1)))
    if yhi >= 1:
        parts.append(quotient_range(zlo, zhi, max(ylo, 1), yhi))
    if not parts:
        raise Inconsistency
    return min(p[0] for p in parts), max(p[1] for p in parts)


# ------------------------------------------------------------------- domain helpers


def listable(v: IntView) -> bool:
    """Whether the values of v can be listed: a bit set, or a fixed variable."""
    return v.bits >= 0 or v.lo == v.hi


def min_abs(x: IntView) -> int:
    """The smallest |v| over the domain of x."""
    if x.lo >= 0:
        return x.lo
    if x.hi <= 0:
        return -x.hi
    if x.contains(0):
        return 0
    # a bit set with a hole at 0: the nearest values on either side (both exist)
    above = x.next_value(0)
    below = x.prev_value(0)
    assert above is not None and below is not None
    return min(above, -below)


def nonzero_parts(b: IntView) -> tuple[int, int, int, int]:
    """(nl, nh, pl, ph): hulls of the negative and the positive values of b (a part with
    lo > hi is empty); a bit set's part ends at its value nearest to 0."""
    nl, nh, pl, ph = b.lo, min(b.hi, -1), max(b.lo, 1), b.hi
    if b.bits >= 0 and nl < 0 < ph:
        below = b.prev_value(0)
        above = b.next_value(0)
        assert below is not None and above is not None
        nh, pl = below, above
    return nl, nh, pl, ph


def remove_between(x: IntView, a: int, b: int) -> None:
    """Remove the values strictly between a and b: all of them from a bit set; from a
    bounds-only domain, each bound that lies inside moves out of the gap."""
    lo = a + 1 if a + 1 > x.lo else x.lo
    hi = b - 1 if b - 1 < x.hi else x.hi
    if lo > hi:
        return
    if x.bits >= 0:
        x.remove_mask(lo, (1 << (hi - lo + 1)) - 1)
        return
    if lo == x.lo:  # the lower bound is inside the gap
        x.set_min(b)
    if hi == x.hi:
        x.set_max(a)


def keep_union(x: IntView, l1: int, h1: int, l2: int, h2: int) -> None:
    """Keep only the values of x in l1..h1 or l2..h2 (a part with lo > hi is empty)."""
    if l1 > h1:
        x.set_bounds(l2, h2)
        return
    if l2 > h2:
        x.set_bounds(l1, h1)
        return
    if l2 < l1:
        l1, h1, l2, h2 = l2, h2, l1, h1
    x.set_bounds(l1, h1 if h1 > h2 else h2)
    if h1 + 1 < l2:
        remove_between(x, h1, l2)

