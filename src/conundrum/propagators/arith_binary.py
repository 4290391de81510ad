"""Arithmetic propagators: z = f(x, y) for times, exact division, floor division and modulo,
z = |x| and z = x ** k; n-ary min and max.

Small domains are tabulated by the compiler (compact-table, domain consistent), and the
propagators here enumerate every pair once the domains are small bit sets. Otherwise each
operation has its own interval reasoning, exact with Python integers (never a float):
the result's bounds from the arguments' bounds and back, interval division over the
negative and positive parts of a divisor, integer k-th roots rounded inwards, and the
excluded middle of |x| >= r (a bound inside the gap moves out of it; a bit set loses the
whole gap, a bounds-only domain cannot lose interior values).

An operation is undefined (None) for division or modulo by zero and for an inexact
exact_div: such pairs have no support. The unary propagators are left non-idempotent: the
engine runs them again until their own changes stop, which is what reaches the fixpoint
when one bound's rounding tightens another. BinaryFunction runs its own rounds instead,
at most BOUNDS_ROUNDS per call: on wide domains its interval reasoning may move the bounds
by one unit per round (x*y == p for a prime p about 2**61 visits every candidate divisor
up to sqrt(p), a factoring by trial division of a billion rounds), so past that many it
stops and leaves the rest to search.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from conundrum.engine import BOUNDS, DOMAIN, Inconsistency, IntView, Propagator, Solver

ENUMERATION_LIMIT = 1024
BOUNDS_ROUNDS = 64  # rounds of interval reasoning in one call of BinaryFunction

# ------------------------------------------------------------------ integer helpers


def _ceil_div(p: int, q: int) -> int:
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


def _corner_products(al: int, ah: int, bl: int, bh: int) -> tuple[int, int]:
    """Least and greatest a*b over a in al..ah and b in bl..bh (a bilinear form is
    extremal at the corners of a box)."""
    p1, p2, p3, p4 = al * bl, al * bh, ah * bl, ah * bh
    return min(p1, p2, p3, p4), max(p1, p2, p3, p4)


def _quotient_range(zl: int, zh: int, bl: int, bh: int) -> tuple[int, int]:
    """The integers between the least and the greatest z / b over z in zl..zh and b in
    bl..bh, a range of one sign without 0; lo > hi when no integer lies between."""
    # z / b is monotone in z and in b when b keeps one sign: extremal at the corners
    lo = min(_ceil_div(zl, bl), _ceil_div(zl, bh), _ceil_div(zh, bl), _ceil_div(zh, bh))
    hi = max(zl // bl, zl // bh, zh // bl, zh // bh)
    return lo, hi


def _clip_le(lo: int, hi: int, a: int, c: int) -> tuple[int, int]:
    """The integers y in lo..hi with a*y <= c, as a range (lo > hi when there are none)."""
    if a > 0:
        return lo, min(hi, c // a)
    if a < 0:
        return max(lo, _ceil_div(c, a)), hi
    return (lo, hi) if c >= 0 else (lo, lo - 1)


def quotient_hull(zlo: int, zhi: int, ylo: int, yhi: int) -> tuple[int, int]:
    """Integer hull of {x : x*y = z, z in zlo..zhi, y in ylo..yhi, y != 0} over the reals.

    With y != 0 the quotient stays bounded; raises Inconsistency when y can only be 0."""
    parts = []
    if ylo <= -1:
        parts.append(_quotient_range(zlo, zhi, ylo, min(yhi, -1)))
    if yhi >= 1:
        parts.append(_quotient_range(zlo, zhi, max(ylo, 1), yhi))
    if not parts:
        raise Inconsistency
    return min(p[0] for p in parts), max(p[1] for p in parts)


# ------------------------------------------------------------------- domain helpers


def _small(v: IntView) -> bool:
    """Whether the values of v can be listed: a bit set, or a fixed variable."""
    return v.bits >= 0 or v.lo == v.hi


def _min_abs(x: IntView) -> int:
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


def _nonzero_parts(b: IntView) -> tuple[int, int, int, int]:
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


# --------------------------------------------------------------- binary operations


def _product_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x*y: z lies between the corner products, and |z| >= min|x| * min|y|."""
    lo, hi = _corner_products(x.lo, x.hi, y.lo, y.hi)
    z.set_bounds(lo, hi)
    if z.lo < 0 < z.hi:
        m = _min_abs(x) * _min_abs(y)
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
    nl, nh, pl, ph = _nonzero_parts(b)
    zl, zh = z.lo, z.hi
    l1, h1 = _quotient_range(zl, zh, nl, nh) if nl <= nh else (1, 0)
    l2, h2 = _quotient_range(zl, zh, pl, ph) if pl <= ph else (1, 0)
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
    l1, h1 = _ceil_div(-s_hi - d, 2), (-s_lo - d) // 2
    l2, h2 = _ceil_div(s_lo - d, 2), (s_hi - d) // 2
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
        l1 = _corner_products(nl, nh, zl + 1, zh + 1)[0] + 1
        h1 = _corner_products(nl, nh, zl, zh)[1]
    l2, h2 = 1, 0
    if pl <= ph:
        l2 = _corner_products(pl, ph, zl, zh)[0]
        h2 = _corner_products(pl, ph, zl + 1, zh + 1)[1] - 1
    keep_union(x, l1, h1, l2, h2)


def _floor_div_divisor(x: IntView, y: IntView, z: IntView) -> None:
    """y from x and z = x // y, part by part. For y > 0: y*z <= x needs y*z.lo <= x.hi, and
    x < y*(z+1) needs y*(z.hi+1) > x.lo; for y < 0 the inequalities are reversed
    (x <= y*z needs x.lo <= y*z.lo, x > y*(z+1) needs x.hi > y*(z.hi+1))."""
    xl, xh, zl, zh = x.lo, x.hi, z.lo, z.hi
    nl, nh, pl, ph = _nonzero_parts(y)
    if nl <= nh:
        nl, nh = _clip_le(nl, nh, -zl, -xl)
        nl, nh = _clip_le(nl, nh, zh + 1, xh - 1)
    if pl <= ph:
        pl, ph = _clip_le(pl, ph, zl, xh)
        pl, ph = _clip_le(pl, ph, -(zh + 1), -(xl + 1))
    keep_union(y, nl, nh, pl, ph)


def floor_div_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x // y (Python floor division, y != 0)."""
    y.remove(0)
    nl, nh, pl, ph = _nonzero_parts(y)
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
    nl, nh, pl, ph = _nonzero_parts(y)
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
    nl, nh, pl, ph = _nonzero_parts(y)
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


def _times(a: int, b: int) -> int | None:
    return a * b


def _exact_div(a: int, b: int) -> int | None:
    if b == 0 or a % b:
        return None
    return a // b


def _floor_div(a: int, b: int) -> int | None:
    return None if b == 0 else a // b


def _mod(a: int, b: int) -> int | None:
    return None if b == 0 else a % b


Operation = Callable[[int, int], "int | None"]
Bounds = Callable[[IntView, IntView, IntView], None]

BINARY_OPS: dict[str, tuple[Operation, Bounds]] = {
    "*": (_times, times_bounds),
    "exact_div": (_exact_div, exact_div_bounds),
    "//": (_floor_div, floor_div_bounds),
    "%": (_mod, mod_bounds),
}


class BinaryFunction(Propagator):
    """z = f(x, y) for one of BINARY_OPS, for domains too large to tabulate (the compiler
    posts a compact-table of every (a, b, f(a, b)) for small ones). With x and y fixed, z
    is computed and checked; while x and y are small bit sets with at most `limit` pairs,
    every pair is enumerated (domain consistent); otherwise interval reasoning specific to
    the operation."""

    priority = 0

    def __init__(self, solver: Solver, op: str, x: IntView, y: IntView, z: IntView,
                 limit: int = ENUMERATION_LIMIT) -> None:
        super().__init__(solver)
        self.op = op
        self.f, self.bounds = BINARY_OPS[op]
        self.x, self.y, self.z = x, y, z
        self.limit = limit
        # one call reaches its own fixpoint (or gives up on a slow convergence, see the
        # module's docstring), so its own changes need not wake it: that is what stops a
        # slow convergence at BOUNDS_ROUNDS rounds. Views sharing a variable may wake it
        # usefully (the propagator checklist), and keep it non-idempotent.
        self.idempotent = (x.root is not y.root and x.root is not z.root
                           and y.root is not z.root)

    def post(self) -> None:
        for v in (self.x, self.y, self.z):
            v.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, y, z = self.x, self.y, self.z
        for _ in range(BOUNDS_ROUNDS):
            if x.lo == x.hi and y.lo == y.hi:
                r = self.f(x.lo, y.lo)
                if r is None:
                    raise Inconsistency
                z.assign(r)
                self.deactivate()
                return
            if _small(x) and _small(y) and x.size() * y.size() <= self.limit:
                self._enumerate()  # domain consistent in one pass
                return
            # domains only shrink: equal sizes mean nothing changed (holes included)
            xs, ys, zs = x.size(), y.size(), z.size()
            self.bounds(x, y, z)
            if xs == x.size() and ys == y.size() and zs == z.size():
                return

    def _enumerate(self) -> None:
        """Keep the values of x, y and z that take part in some z = f(x, y) (only the
        pairs (a, a + d) when y = x + d views the same variable)."""
        x, y, z = self.x, self.y, self.z
        f = self.f
        zs = set()
        xs_ok = set()
        ys_ok = set()
        shared = x.root is y.root
        d = y.offset - x.offset
        yvals = y.values_list()
        zcontains = z.contains
        for a in x.values():
            for b in ((a + d,) if shared else yvals):
                r = f(a, b)
                if r is not None and zcontains(r):
                    zs.add(r)
                    xs_ok.add(a)
                    ys_ok.add(b)
        if not zs:
            raise Inconsistency
        x.keep_values(xs_ok)
        y.keep_values(ys_ok)
        z.keep_values(zs)


# ---------------------------------------------------------------- unary operations


def abs_bounds(x: IntView, z: IntView) -> None:
    """z = |x|: z between min|x| and max|x|; x in -z.hi..-z.lo or z.lo..z.hi."""
    z.set_bounds(_min_abs(x), max(-x.lo, x.hi))
    keep_union(x, -z.hi, -z.lo, z.lo, z.hi)
    z.set_bounds(_min_abs(x), max(-x.lo, x.hi))


def power_bounds(x: IntView, k: int, z: IntView) -> None:
    """z = x**k (k >= 2): exact integer roots rounded inwards. An odd power is increasing;
    an even one is |x|**k: x in -r..-s or s..r with r the floor root of z.hi and s the
    ceiling root of z.lo."""
    if k % 2:
        z.set_bounds(x.lo ** k, x.hi ** k)
        x.set_bounds(root_ceil(z.lo, k), root_floor(z.hi, k))
        z.set_bounds(x.lo ** k, x.hi ** k)
        return
    z.set_bounds(_min_abs(x) ** k, max(x.lo ** k, x.hi ** k))
    r = iroot(z.hi, k)
    s = iroot_ceil(z.lo, k)
    z.set_bounds(s ** k, r ** k)  # only k-th powers are reachable
    keep_union(x, -r, -s, s, r)
    z.set_bounds(_min_abs(x) ** k, max(x.lo ** k, x.hi ** k))


class Abs(Propagator):
    """z = |x|: domain consistent by enumeration while x is a bit set of at most `limit`
    values, bounds (with the excluded middle) otherwise."""

    priority = 0

    def __init__(self, solver: Solver, x: IntView, z: IntView,
                 limit: int = ENUMERATION_LIMIT) -> None:
        super().__init__(solver)
        self.x, self.z = x, z
        self.limit = limit

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z = self.x, self.z
        if x.lo == x.hi:
            z.assign(abs(x.lo))
            self.deactivate()
        elif _small(x) and x.size() <= self.limit:
            zs = {abs(a) for a in x.values() if z.contains(abs(a))}
            if not zs:
                raise Inconsistency
            z.keep_values(zs)
            x.keep_values([a for a in x.values() if abs(a) in zs])
        else:
            abs_bounds(x, z)


class Power(Propagator):
    """z = x ** k for a constant k >= 2: domain consistent by enumeration while x is a bit
    set of at most `limit` values, bounds (integer roots, excluded middle) otherwise."""

    priority = 0

    def __init__(self, solver: Solver, x: IntView, k: int, z: IntView,
                 limit: int = ENUMERATION_LIMIT) -> None:
        super().__init__(solver)
        self.x, self.k, self.z = x, k, z
        self.limit = limit

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z, k = self.x, self.z, self.k
        if x.lo == x.hi:
            z.assign(x.lo ** k)
            self.deactivate()
        elif _small(x) and x.size() <= self.limit:
            zs = {a ** k for a in x.values() if z.contains(a ** k)}
            if not zs:
                raise Inconsistency
            z.keep_values(zs)
            x.keep_values([a for a in x.values() if a ** k in zs])
        else:
            power_bounds(x, k, z)


# ------------------------------------------------------------------------ min / max


class MinMax(Propagator):
    """z = min(xs) (or max(xs) with is_max), bounds consistent."""

    priority = 1
    makes_holes = False

    def __init__(self, solver: Solver, xs: list[IntView], z: IntView, is_max: bool) -> None:
        super().__init__(solver)
        self.xs, self.z, self.is_max = xs, z, is_max

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.z.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        xs, z = self.xs, self.z
        if self.is_max:
            z.set_min(max(x.lo for x in xs))
            z.set_max(max(x.hi for x in xs))
            for x in xs:
                x.set_max(z.hi)
            # if only one x can reach z's lower bound, it carries the max
            able = [x for x in xs if x.hi >= z.lo]
            if not able:
                raise Inconsistency
            if len(able) == 1:
                able[0].set_min(z.lo)
        else:
            z.set_min(min(x.lo for x in xs))
            z.set_max(min(x.hi for x in xs))
            for x in xs:
                x.set_min(z.lo)
            able = [x for x in xs if x.lo <= z.hi]
            if not able:
                raise Inconsistency
            if len(able) == 1:
                able[0].set_max(z.hi)


class ArgMax(Propagator):
    """i == the first position of the largest of xs (0-based), bounds consistent on xs:

    * position j stays possible for i while x_j can reach every other lower bound and
      exceed those before it (x_j.hi >= x_k.lo for k > j, x_j.hi > x_k.lo for k < j);
    * every x_k is at most the largest x_j.hi over the possible positions j (minus one if
      k comes before j), since the maximum is one of them;
    * once i is fixed, x_i is at least every later lower bound and above every earlier one.
    """

    priority = 1
    makes_holes = True  # removes positions from i

    def __init__(self, solver: Solver, xs: list[IntView], i: IntView) -> None:
        super().__init__(solver)
        self.xs, self.i = xs, i

    def post(self) -> None:
        self.i.set_min(0)
        self.i.set_max(len(self.xs) - 1)
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.i.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        xs, i = self.xs, self.i
        n = len(xs)
        # after[j] = the largest lower bound of xs[j+1:], before = of xs[:j]
        after = [0] * n
        best = -(1 << 62)
        for j in range(n - 1, -1, -1):
            after[j] = best
            if xs[j].lo > best:
                best = xs[j].lo
        before = -(1 << 62)
        keep = []
        for j in range(n):
            hi = xs[j].hi
            if i.contains(j) and hi > before and hi >= after[j]:
                keep.append(j)
            if xs[j].lo > before:
                before = xs[j].lo
        i.keep_values(keep)
        # the bound of each x_k from the possible positions (keep is increasing)
        top_from = [0] * (len(keep) + 1)  # the largest x_j.hi over keep[a:]
        top_from[len(keep)] = -(1 << 62)
        for a in range(len(keep) - 1, -1, -1):
            h = xs[keep[a]].hi
            top_from[a] = h if h > top_from[a + 1] else top_from[a + 1]
        a = 0
        top_before = -(1 << 62)  # the largest x_j.hi over positions j <= k
        for k in range(n):
            while a < len(keep) and keep[a] <= k:
                if xs[keep[a]].hi > top_before:
                    top_before = xs[keep[a]].hi
                a += 1
            later = top_from[a] - 1  # positions after k need x_k < x_j
            xs[k].set_max(top_before if top_before > later else later)
        if i.lo == i.hi:
            j = i.lo
            lo = after[j]
            for k in range(j):
                if xs[k].lo + 1 > lo:
                    lo = xs[k].lo + 1
            xs[j].set_min(lo)
