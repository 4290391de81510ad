"""The hulls of the arithmetic relations (arith_explain.py): for each relation and each of
its variables k, intervals holding every value of k (within k's own lo..hi) that has a
support in the box of the others' domains. They restate the interval reasoning of
arith_binary.py, arith_unary.py, arith_minmax.py and rel.py, but only to over-approximate:
an explanation is as sound as its hull is wide enough, so each bound here is one that no
solution in the box crosses, whatever rounding the propagator used.

Intervals are flattened (l1, h1, l2, h2, ...); an empty one (l > h) is allowed. A box gives
each variable lo..hi and a bit set `bits` (-1: bounds only); most hulls read the bounds
only, and a few the holes around 0 (signed_parts).
"""

from __future__ import annotations

from conundrum.engine.literals import contains_in
from conundrum.propagators.arith_intervals import (
    ceil_div,
    corner_products,
    iroot,
    iroot_ceil,
    quotient_range,
    root_ceil,
    root_floor,
)


def signed_parts(lo: int, hi: int, bits: int) -> tuple[int, int, int, int]:
    """(nl, nh, pl, ph): hulls of the negative and the positive values of a domain (a part
    with lo > hi is empty); a bit set's part ends at its value nearest to 0."""
    nl, nh, pl, ph = lo, min(hi, -1), max(lo, 1), hi
    if bits >= 0:
        while nl <= nh and not contains_in(nh, lo, hi, bits):
            nh -= 1
        while pl <= ph and not contains_in(pl, lo, hi, bits):
            pl += 1
    return nl, nh, pl, ph


def min_abs_of(lo: int, hi: int, bits: int) -> int:
    """The smallest |v| over a domain with at least one value."""
    if lo >= 0:
        return lo
    if hi <= 0:
        return -hi
    nl, nh, pl, ph = signed_parts(lo, hi, bits)
    if contains_in(0, lo, hi, bits):
        return 0
    best = -1
    if nl <= nh:
        best = -nh
    if pl <= ph and (best < 0 or pl < best):
        best = pl
    return best


def without_zero(hull: list[int]) -> list[int]:
    """The intervals with 0 taken out (a divisor is never 0)."""
    out: list[int] = []
    for t in range(0, len(hull), 2):
        a, b = hull[t], hull[t + 1]
        if a <= 0 <= b:
            out += [a, -1, 1, b]
        else:
            out += [a, b]
    return out


def quotients(zl: int, zh: int, nl: int, nh: int, pl: int, ph: int) -> list[int]:
    """The a with a*b in zl..zh for some b of the parts nl..nh (< 0) and pl..ph (> 0)."""
    out: list[int] = []
    if nl <= nh:
        lo, hi = quotient_range(zl, zh, nl, nh)
        out += [lo, hi]
    if pl <= ph:
        lo, hi = quotient_range(zl, zh, pl, ph)
        out += [lo, hi]
    return out


def times_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x*y (views 0, 1, 2): z between the corner products; a factor in z over the
    other factor's signed parts (anything when both the other and z can be 0)."""
    if k == 2:
        zl, zh = corner_products(lo[0], hi[0], lo[1], hi[1])
        return [zl, zh]
    o = 1 - k
    if contains_in(0, lo[o], hi[o], bits[o]) and contains_in(0, lo[2], hi[2], bits[2]):
        return [lo[k], hi[k]]
    nl, nh, pl, ph = signed_parts(lo[o], hi[o], bits[o])
    return quotients(lo[2], hi[2], nl, nh, pl, ph)


def exact_div_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x / y exactly (views 0, 1, 2): x = y*z with y != 0."""
    if k == 0:
        xl, xh = corner_products(lo[1], hi[1], lo[2], hi[2])
        return [xl, xh]
    if k == 2:
        nl, nh, pl, ph = signed_parts(lo[1], hi[1], bits[1])
        return quotients(lo[0], hi[0], nl, nh, pl, ph)
    if contains_in(0, lo[0], hi[0], bits[0]) and contains_in(0, lo[2], hi[2], bits[2]):
        return without_zero([lo[1], hi[1]])
    nl, nh, pl, ph = signed_parts(lo[2], hi[2], bits[2])
    return without_zero(quotients(lo[0], hi[0], nl, nh, pl, ph))


def floor_div_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x // y (views 0, 1, 2), y != 0, part by part of y's sign (arith_binary.py's
    reasoning, as hulls)."""
    xl, xh, zl, zh = lo[0], hi[0], lo[2], hi[2]
    nl, nh, pl, ph = signed_parts(lo[1], hi[1], bits[1])
    out: list[int] = []
    if k == 2:
        for a, b in ((nl, nh), (pl, ph)):
            if a <= b:
                qs = [xl // a, xl // b, xh // a, xh // b]
                out += [min(qs), max(qs)]
        return out
    if k == 0:
        if nl <= nh:  # y*(z+1) + 1 <= x <= y*z
            out += [corner_products(nl, nh, zl + 1, zh + 1)[0] + 1,
                    corner_products(nl, nh, zl, zh)[1]]
        if pl <= ph:  # y*z <= x <= y*(z+1) - 1
            out += [corner_products(pl, ph, zl, zh)[0],
                    corner_products(pl, ph, zl + 1, zh + 1)[1] - 1]
        return out
    if nl <= nh:
        nl, nh = _clip_le(nl, nh, -zl, -xl)
        nl, nh = _clip_le(nl, nh, zh + 1, xh - 1)
        out += [nl, nh]
    if pl <= ph:
        pl, ph = _clip_le(pl, ph, zl, xh)
        pl, ph = _clip_le(pl, ph, -(zh + 1), -(xl + 1))
        out += [pl, ph]
    return out


def _clip_le(lo: int, hi: int, a: int, c: int) -> tuple[int, int]:
    """The y in lo..hi with a*y <= c, as a range (lo > hi: none)."""
    if a > 0:
        return lo, min(hi, c // a)
    if a < 0:
        return max(lo, ceil_div(c, a)), hi
    return (lo, hi) if c >= 0 else (lo, lo - 1)


def mod_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x % y (views 0, 1, 2; Python's remainder, with the sign of y)."""
    xl, xh, zl, zh = lo[0], hi[0], lo[2], hi[2]
    nl, nh, pl, ph = signed_parts(lo[1], hi[1], bits[1])
    fixed = lo[1] == hi[1] and lo[1] != 0
    if k == 1:
        out: list[int] = []
        if nl <= nh and zl <= 0:
            out += [nl, min(nh, zh - 1)]  # y < z <= 0
        if pl <= ph and zh >= 0:
            out += [max(pl, zl + 1), ph]  # 0 <= z < y
        return out
    if k == 2:
        if fixed:
            return _fixed_remainders(xl, xh, lo[1])
        return _remainders(xl, xh, nl, nh, pl, ph)
    if fixed:
        out = _dividends(xl, xh, lo[1], zl, zh)
    else:
        a, b = xl, xh
        if nl > nh and a >= 0:  # y > 0 and x >= 0: x = y*q + z with q >= 0
            a = max(a, zl)
            if b < pl:  # x < y: x is its own remainder
                b = min(b, zh)
        elif pl > ph and b <= 0:  # mirrored for y < 0
            b = min(b, zh)
            if a > nh:
                a = max(a, zl)
        out = [a, b]
    if not contains_in(0, zl, zh, bits[2]):
        out = without_zero(out)  # 0 % y == 0
    return out


def _fixed_remainders(xl: int, xh: int, d: int) -> list[int]:
    """x % d over xl..xh for a constant d != 0."""
    size = d if d > 0 else -d
    m = 0 if d > 0 else d + 1
    if xh - xl >= size:
        return [m, m + size - 1]
    rl, rh = xl % d, xh % d
    if rl <= rh:
        return [rl, rh]
    return [m, rh, rl, m + size - 1]


def _remainders(xl: int, xh: int, nl: int, nh: int, pl: int, ph: int) -> list[int]:
    """x % y over xl..xh and y in the parts nl..nh (< 0), pl..ph (> 0)."""
    out: list[int] = []
    if nl <= nh:
        a, b = nl + 1, 0
        if xh <= 0:
            a = max(a, xl)
        elif xl > 0:
            b = min(b, xh + nh)
        out += [a, b]
    if pl <= ph:
        a, b = 0, ph - 1
        if xl >= 0:
            b = min(b, xh)
        elif xh < 0:
            a = max(a, xl + pl)
        out += [a, b]
    return out


def _dividends(xl: int, xh: int, d: int, zl: int, zh: int) -> list[int]:
    """The hull of the x in xl..xh with x % d in zl..zh, d a constant != 0: the
    remainders climb by one inside each block of |d| values."""
    size = d if d > 0 else -d
    m = 0 if d > 0 else d + 1
    tl = max(zl, m) - m  # the allowed remainders, counted from the block's start
    th = min(zh, m + size - 1) - m
    if tl > th:
        return []
    t = (xl - m) % size
    first = xl if tl <= t <= th else xl + tl - t if t < tl else xl + size - t + tl
    t = (xh - m) % size
    last = xh if tl <= t <= th else xh - (t - th) if t > th else xh - t - size + th
    return [first, last]


def abs_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = |x| (views 0, 1)."""
    if k == 1:
        return [min_abs_of(lo[0], hi[0], bits[0]), max(-lo[0], hi[0])]
    zl = max(lo[1], 0)
    return [-hi[1], -zl, zl, hi[1]]


def power_hull(k: int, e: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x ** e, e >= 2 (views 0, 1): exact integer roots."""
    if e % 2:
        if k == 1:
            return [lo[0] ** e, hi[0] ** e]
        return [root_ceil(lo[1], e), root_floor(hi[1], e)]
    if k == 1:
        return [min_abs_of(lo[0], hi[0], bits[0]) ** e, max(lo[0] ** e, hi[0] ** e)]
    if hi[1] < 0:
        return []
    r = iroot(hi[1], e)
    s = iroot_ceil(max(lo[1], 0), e)
    return [-r, -s, s, r]


def affine_hull(k: int, a: int, c: int, lo: list[int], hi: list[int]) -> list[int]:
    """z = a*x + c, a != 0 (views 0 = z, 1 = x)."""
    if k == 0:
        p, q = a * lo[1] + c, a * hi[1] + c
        return [min(p, q), max(p, q)]
    if a > 0:
        return [ceil_div(lo[0] - c, a), (hi[0] - c) // a]
    return [ceil_div(hi[0] - c, a), (lo[0] - c) // a]


def linear_hull(k: int, coefs: list[int], c: int, lo: list[int],
                hi: list[int]) -> list[int]:
    """sum(a_j x_j) + c == 0: a_k x_k = -(c + the others), over the others' bounds."""
    rest_lo = rest_hi = c
    for j in range(len(coefs)):
        if j == k:
            continue
        a = coefs[j]
        if a > 0:
            rest_lo += a * lo[j]
            rest_hi += a * hi[j]
        else:
            rest_lo += a * hi[j]
            rest_hi += a * lo[j]
    a = coefs[k]  # a * x_k in -rest_hi..-rest_lo
    if a > 0:
        return [ceil_div(-rest_hi, a), (-rest_lo) // a]
    return [ceil_div(-rest_lo, a), (-rest_hi) // a]


def max_hull(k: int, lo: list[int], hi: list[int]) -> list[int]:
    """z = max(xs) (views xs, then z last): z between the largest lower and upper bounds;
    an x at most z, and at least z when no other x can reach z."""
    n = len(lo) - 1
    if k == n:
        return [max(lo[:n]), max(hi[:n])]
    others_lo = others_hi = lo[n] - 1  # the largest other bounds (none: below z)
    first = True
    for j in range(n):
        if j != k:
            if first or lo[j] > others_lo:
                others_lo = lo[j]
            if first or hi[j] > others_hi:
                others_hi = hi[j]
            first = False
    if not first and others_lo > hi[n]:
        return []  # another x already exceeds z
    a = lo[n] if first or others_hi < lo[n] else lo[k]
    return [a, hi[n]]


def min_hull(k: int, lo: list[int], hi: list[int]) -> list[int]:
    """z = min(xs): max_hull on the negated values."""
    neg = max_hull(k, [-v for v in hi], [-v for v in lo])
    out: list[int] = []
    for t in range(0, len(neg), 2):
        out.append(-neg[t + 1])
        out.append(-neg[t])
    return out


def argmax_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """i == the first position of the largest of xs (views xs, then i last)."""
    n = len(lo) - 1
    # after[j]: the largest lower bound after position j; the one before it, as we go
    low = -(1 << 62) if n == 0 else min(lo[:n]) - 1
    after = [low] * n
    best = low
    for j in range(n - 1, -1, -1):
        after[j] = best
        if lo[j] > best:
            best = lo[j]
    positions: list[int] = []  # the positions i can take, as far as the bounds say
    before = low
    for j in range(n):
        if contains_in(j, lo[n], hi[n], bits[n]) and hi[j] > before and hi[j] >= after[j]:
            positions.append(j)
        if lo[j] > before:
            before = lo[j]
    if k == n:
        out: list[int] = []
        for j in positions:
            out += [j, j]
        return out
    if not positions:
        return []
    top = lo[k]
    if k not in positions:  # x_k is at most the maximum, and below it if earlier
        first = True
        for j in positions:
            h = hi[j] if j < k else hi[j] - 1
            if first or h > top:
                top = h
            first = False
        hi_k = top
    else:
        hi_k = hi[k]
    lo_k = lo[k]
    if len(positions) == 1 and positions[0] == k:  # x_k is the first maximum
        lo_k = max(lo_k, after[k])
        for j in range(k):
            lo_k = max(lo_k, lo[j] + 1)
    return [lo_k, hi_k]


