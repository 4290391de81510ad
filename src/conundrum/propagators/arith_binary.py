"""Interval reasoning for the binary operations of arith.py's BinaryFunction: z = x*y,
z = exact_div(x, y), z = x // y and z = x % y. The result's bounds come from the arguments'
bounds and back, with interval division over the negative and positive parts of a divisor
(so a gap around 0 is kept), exact with Python integers (arith_intervals.py).
"""

from __future__ import annotations

from conundrum.engine import Inconsistency, IntView
from conundrum.propagators.arith_intervals import (
    ceil_div,
    clip_le,
    corner_products,
    iroot,
    iroot_ceil,
    keep_union,
    min_abs,
    nonzero_parts,
    quotient_range,
    remove_between,
)


def _product_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x*y: z lies between the corner products, and |z| >= min|x| * min|y|."""
    lo, hi = corner_products(x.lo, x.hi, y.lo, y.hi)
    z.set_bounds(lo, hi)
    if z.lo < 0 < z.hi:
        m = min_abs(x) * min_abs(y)
        if m > 0:
            remove_between(z, -m, m)


def _factor_bounds(a: IntView, b: IntView, z: IntView, b_nonzero: bool) -> None:
    """a from z = a*b: a lies in z / b, divided over b's negative and positive parts
    separately (the union of the two ranges may leave a gap around 0). Nothing follows
    when b and z can both be 0, unless b is known to be nonzero (a divisor)."""
    z_zero = z.contains(0)
    if z_zero and not b_nonzero and b.contains(0):
        return
    if not z_zero:
        a.remove(0)  # a*b != 0
    nl, nh, pl, ph = nonzero_parts(b)
    zl, zh = z.lo, z.hi
    l1, h1 = quotient_range(zl, zh, nl, nh) if nl <= nh else (1, 0)
    l2, h2 = quotient_range(zl, zh, pl, ph) if pl <= ph else (1, 0)
    keep_union(a, l1, h1, l2, h2)


def _quadratic_range(lo: int, hi: int, d: int) -> tuple[int, int]:
    """Least and greatest v*(v+d) over the integers v in lo..hi (lo <= hi)."""
    # a convex parabola: greatest at an end, least at the integer nearest its vertex -d/2
    c1 = min(max((-d) // 2, lo), hi)
    c2 = min(max(-(d // 2), lo), hi)
    return min(c1 * (c1 + d), c2 * (c2 + d)), max(lo * (lo + d), hi * (hi + d))


def _shared_product_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x*y where y = x + d views the same variable: z = x*(x+d), and (2x+d)**2 =
    4z + d*d gives x from integer square roots, with the excluded middle, exactly.
    (Bounds exchanged between the two views would converge one unit per round.)"""
    d = y.offset - x.offset
    z.set_bounds(*_quadratic_range(x.lo, x.hi, d))
    top = 4 * z.hi + d * d
    if top < 0:
        raise Inconsistency
    s_hi = iroot(top, 2)  # |2x + d| <= s_hi
    s_lo = iroot_ceil(max(4 * z.lo + d * d, 0), 2)  # |2x + d| >= s_lo
    l1, h1 = ceil_div(-s_hi - d, 2), (-s_lo - d) // 2
    l2, h2 = ceil_div(s_lo - d, 2), (s_hi - d) // 2
    keep_union(x, l1, h1, l2, h2)
    # z from the values of x left on either side of the middle
    zlo: int | None = None
    zhi: int | None = None
    for a, b in ((max(l1, x.lo), min(h1, x.hi)), (max(l2, x.lo), min(h2, x.hi))):
        if a <= b:
            lo, hi = _quadratic_range(a, b, d)
            zlo = lo if zlo is None or lo < zlo else zlo
            zhi = hi if zhi is None or hi > zhi else zhi
    if zlo is None or zhi is None:
        raise Inconsistency
    z.set_bounds(zlo, zhi)


def times_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """Interval reasoning for z = x*y: z from the corner products; x from z / y and y from
    z / x (with x fixed this is the linear z = c*y, solved exactly both ways). Two views
    of one variable make a quadratic, solved by square roots."""
    if x.root is y.root:
        _shared_product_bounds(x, y, z)
        return
    _product_bounds(x, y, z)
    _factor_bounds(x, y, z, False)
    _factor_bounds(y, x, z, False)
    _product_bounds(x, y, z)


def exact_div_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x / y exactly, i.e. x = y*z with y != 0: times reasoning where z, the
    quotient, is bounded even when x may be 0 (y is never 0)."""
    y.remove(0)
    _product_bounds(y, z, x)
    _factor_bounds(z, y, x, True)
    _factor_bounds(y, z, x, False)
    _product_bounds(y, z, x)


def _floor_div_result(x: IntView, nl: int, nh: int, pl: int, ph: int, z: IntView) -> None:
    """z = x // y from x and y's parts: floor(x / y) is monotone in x and in y while y
    keeps one sign, so its extremes are at the corners of each part."""
    lo: int | None = None
    hi: int | None = None
    for a, b in ((nl, nh), (pl, ph)):
        if a > b:
            continue
        for xv in (x.lo, x.hi):
            for yv in (a, b):
                q = xv // yv
                if lo is None or q < lo:
                    lo = q
                if hi is None or q > hi:
                    hi = q
    if lo is None or hi is None:
        raise Inconsistency
    z.set_bounds(lo, hi)


def _floor_div_dividend(x: IntView, nl: int, nh: int, pl: int, ph: int, z: IntView) -> None:
    """x from y and z = x // y: y*z <= x <= y*(z+1) - 1 for y > 0 and y*(z+1) + 1 <= x <=
    y*z for y < 0; the products are extremal at the corners of each part."""
    zl, zh = z.lo, z.hi
    l1, h1 = 1, 0
    if nl <= nh:
        l1 = corner_products(nl, nh, zl + 1, zh + 1)[0] + 1
        h1 = corner_products(nl, nh, zl, zh)[1]
    l2, h2 = 1, 0
    if pl <= ph:
        l2 = corner_products(pl, ph, zl, zh)[0]
        h2 = corner_products(pl, ph, zl + 1, zh + 1)[1] - 1
    keep_union(x, l1, h1, l2, h2)


def _floor_div_divisor(x: IntView, y: IntView, z: IntView) -> None:
    """y from x and z = x // y, part by part. For y > 0: y*z <= x needs y*z.lo <= x.hi, and
    x < y*(z+1) needs y*(z.hi+1) > x.lo; for y < 0 the inequalities are reversed
    (x <= y*z needs x.lo <= y*z.lo, x > y*(z+1) needs x.hi > y*(z.hi+1))."""
    xl, xh, zl, zh = x.lo, x.hi, z.lo, z.hi
    nl, nh, pl, ph = nonzero_parts(y)
    if nl <= nh:
        nl, nh = clip_le(nl, nh, -zl, -xl)
        nl, nh = clip_le(nl, nh, zh + 1, xh - 1)
    if pl <= ph:
        pl, ph = clip_le(pl, ph, zl, xh)
        pl, ph = clip_le(pl, ph, -(zh + 1), -(xl + 1))
    keep_union(y, nl, nh, pl, ph)


def floor_div_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x // y (Python floor division, y != 0)."""
    y.remove(0)
    nl, nh, pl, ph = nonzero_parts(y)
    _floor_div_result(x, nl, nh, pl, ph, z)
    _floor_div_dividend(x, nl, nh, pl, ph, z)
    _floor_div_divisor(x, y, z)


def _mod_fixed(x: IntView, d: int, z: IntView) -> None:
    """z = x % d for a constant d != 0. The remainders form the range m..m+|d|-1 (m = 0
    for d > 0, d+1 for d < 0) and grow by one with x inside each block of |d| values, so
    x's bounds move to the nearest values whose remainder z allows, and z's bounds follow
    from x's when x's range is narrower than a block."""
    size = d if d > 0 else -d
    m = 0 if d > 0 else d + 1
    z.set_bounds(m, m + size - 1)
    xl, xh = x.lo, x.hi
    rl, rh = xl % d, xh % d
    if xh - xl < size:
        if rl <= rh:  # one block: z = x - (its start), a shift
            z.set_bounds(rl, rh)
        else:  # the range wraps into the next block: no remainder strictly between
            remove_between(z, rh, rl)
    # lower bound: the next allowed remainder in this block, else the first one in the next
    w = z.lo if z.lo >= rl else z.next_value(rl - 1)
    x.set_min(xl + (w - rl) if w is not None else xl - rl + size + z.lo)
    rh = x.hi % d
    w = z.hi if z.hi <= rh else z.prev_value(rh + 1)
    x.set_max(x.hi - (rh - w) if w is not None else x.hi - rh - size + z.hi)


def _mod_result(x: IntView, nl: int, nh: int, pl: int, ph: int, z: IntView) -> None:
    """z = x % y from x and y's parts. For y > 0: 0 <= z <= y-1, z <= x when x >= 0, and
    z >= x + y when x < 0 (the floor quotient is then at most -1); mirrored for y < 0."""
    zl1, zh1 = 1, 0
    if nl <= nh:
        zl1, zh1 = nl + 1, 0
        if x.hi <= 0:
            zl1 = max(zl1, x.lo)
        elif x.lo > 0:
            zh1 = min(zh1, x.hi + nh)
    zl2, zh2 = 1, 0
    if pl <= ph:
        zl2, zh2 = 0, ph - 1
        if x.lo >= 0:
            zh2 = min(zh2, x.hi)
        elif x.hi < 0:
            zl2 = max(zl2, x.lo + pl)
    keep_union(z, zl1, zh1, zl2, zh2)


def mod_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x % y (Python: a nonzero z has the sign of y, and |z| < |y|)."""
    y.remove(0)
    if y.lo == y.hi:
        _mod_fixed(x, y.lo, z)
        return
    nl, nh, pl, ph = nonzero_parts(y)
    # z has the sign of y: 0 <= z < y for y > 0, y < z <= 0 for y < 0
    if z.lo > 0:
        nl, nh = 1, 0
    else:
        nh = min(nh, z.hi - 1)
    if z.hi < 0:
        pl, ph = 1, 0
    else:
        pl = max(pl, z.lo + 1)
    keep_union(y, nl, nh, pl, ph)
    nl, nh, pl, ph = nonzero_parts(y)
    _mod_result(x, nl, nh, pl, ph, z)
    if not z.contains(0):
        x.remove(0)  # 0 % y == 0
    if nl > nh and x.lo >= 0:
        if x.hi < pl:  # 0 <= x < y: the remainder is x itself
            z.set_bounds(x.lo, x.hi)
        x.set_bounds(z.lo, z.hi if x.hi < pl else x.hi)  # z <= x
    elif pl > ph and x.hi <= 0:
        if x.lo > nh:  # y < x <= 0
            z.set_bounds(x.lo, x.hi)
        x.set_bounds(z.lo if x.lo > nh else x.lo, z.hi)  # x <= z
