"""Arithmetic propagators: z = f(x, y) for times, exact division, floor division, modulo,
and z = f(x) for abs and powers; n-ary min and max.

Small domains are tabulated by the compiler (compact-table, domain consistent). Larger
domains get interval reasoning specific to each operation, and enumeration once they
shrink enough. An operation returns None where it is
undefined (division or modulo by zero, inexact division): such pairs have no support.
"""

from __future__ import annotations

from collections.abc import Callable

from conundrum.engine import BOUNDS, DOMAIN, Inconsistency, IntView, Propagator, Solver

ENUMERATION_LIMIT = 1024


def _ceil_div(p: int, q: int) -> int:
    return -((-p) // q)


def quotient_hull(zlo: int, zhi: int, ylo: int, yhi: int) -> tuple[int, int]:
    """Integer hull of {x : x*y = z, z in zlo..zhi, y in ylo..yhi, y != 0} over the reals.

    With y != 0 the quotient stays bounded; raises Inconsistency when y can only be 0."""
    parts = []
    if yhi >= 1:
        parts.append((max(ylo, 1), yhi))
    if ylo <= -1:
        parts.append((ylo, min(yhi, -1)))
    if not parts:
        raise Inconsistency
    lo: int | None = None
    hi: int | None = None
    for a, b in parts:
        qs = []
        for z in (zlo, zhi):
            for y in (a, b):
                qs.append((z, y))
        # the real quotient z/y over a box is extremal at the corners (y has one sign)
        cands_lo = [_ceil_div(z, y) for z, y in qs]
        cands_hi = [z // y for z, y in qs]
        plo, phi = min(cands_lo), max(cands_hi)
        lo = plo if lo is None else min(lo, plo)
        hi = phi if hi is None else max(hi, phi)
    assert lo is not None and hi is not None
    return lo, hi


def times_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """Interval reasoning for z = x*y."""
    xl, xh, yl, yh = x.lo, x.hi, y.lo, y.hi
    ps = (xl * yl, xl * yh, xh * yl, xh * yh)
    z.set_min(min(ps))
    z.set_max(max(ps))
    for a, b in ((x, y), (y, x)):
        if b.lo <= 0 <= b.hi and z.lo <= 0 <= z.hi:
            continue  # a is unconstrained when b and z can both be 0
        if b.lo == 0 == b.hi:
            continue
        hull = quotient_hull(z.lo, z.hi, b.lo, b.hi)
        a.set_min(hull[0])
        a.set_max(hull[1])


def exact_div_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x / y exactly, i.e. x = y*z with y != 0."""
    y.remove(0)
    times_bounds(y, z, x)


def floor_div_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x // y: z lies between the floors of the corner quotients."""
    y.remove(0)
    if y.lo <= 0 <= y.hi and y.lo == 0 == y.hi:
        raise Inconsistency
    lo: int | None = None
    hi: int | None = None
    for a, b in ((y.lo, min(y.hi, -1)), (max(y.lo, 1), y.hi)):
        if a > b:
            continue
        for xv in (x.lo, x.hi):
            for yv in (a, b):
                q = xv // yv
                lo = q if lo is None else min(lo, q)
                hi = q if hi is None else max(hi, q)
    if lo is None or hi is None:
        raise Inconsistency
    z.set_bounds(lo, hi)
    if y.lo == y.hi and y.lo > 0:
        d = y.lo
        x.set_min(z.lo * d)
        x.set_max(z.hi * d + d - 1)


def mod_bounds(x: IntView, y: IntView, z: IntView) -> None:
    """z = x % y (Python: the sign of z follows y)."""
    y.remove(0)
    if y.lo > 0:
        z.set_min(0)
        z.set_max(y.hi - 1)
        if x.lo >= 0:
            z.set_max(x.hi)
    elif y.hi < 0:
        z.set_max(0)
        z.set_min(y.lo + 1)
        if x.hi <= 0:
            z.set_min(x.lo)
    else:
        z.set_min(y.lo + 1)
        z.set_max(y.hi - 1)


def _times(a: int, b: int) -> int:
    return a * b


def _exact_div(a: int, b: int) -> int | None:
    if b == 0 or a % b:
        return None
    return a // b


def _floor_div(a: int, b: int) -> int | None:
    return None if b == 0 else a // b


def _mod(a: int, b: int) -> int | None:
    return None if b == 0 else a % b


BINARY_OPS: dict[str, tuple[Callable, Callable]] = {
    "*": (_times, times_bounds),
    "exact_div": (_exact_div, exact_div_bounds),
    "//": (_floor_div, floor_div_bounds),
    "%": (_mod, mod_bounds),
}


class BinaryFunction(Propagator):
    """z = f(x, y) for one of BINARY_OPS, for domains too large to tabulate (the compiler
    posts a compact-table of every (a, b, f(a, b)) for small ones). Interval reasoning
    specific to the operation; once the domains are small, every pair is enumerated for
    domain consistency; with x and y fixed, z is computed and checked."""

    priority = 0

    def __init__(self, solver: Solver, op: str, x: IntView, y: IntView, z: IntView) -> None:
        super().__init__(solver)
        self.op = op
        self.f, self.bounds = BINARY_OPS[op]
        self.x, self.y, self.z = x, y, z

    def post(self) -> None:
        for v in (self.x, self.y, self.z):
            v.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, y, z = self.x, self.y, self.z
        if x.lo == x.hi and y.lo == y.hi:
            r = self.f(x.lo, y.lo)
            if r is None:
                raise Inconsistency
            z.assign(r)
            self.deactivate()
        elif x.bits >= 0 and y.bits >= 0 and x.size() * y.size() <= ENUMERATION_LIMIT:
            self._enumerate()
        else:
            self.bounds(x, y, z)

    def _enumerate(self) -> None:
        x, y, z = self.x, self.y, self.z
        f = self.f
        zs = set()
        xs_ok = set()
        ys_ok = set()
        yvals = y.values_list()
        zcontains = z.contains
        for a in x.values():
            for b in yvals:
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


def _ipow_root(v: int, k: int) -> int:
    """Largest r >= 0 with r**k <= v, for v >= 0."""
    if v < 2:
        return v
    r = int(round(v ** (1.0 / k))) if v < (1 << 1000) else 1 << (v.bit_length() // k + 1)
    while r ** k > v:
        r -= 1
    while (r + 1) ** k <= v:
        r += 1
    return r


class Abs(Propagator):
    """z = |x|."""

    priority = 0

    def __init__(self, solver: Solver, x: IntView, z: IntView) -> None:
        super().__init__(solver)
        self.x, self.z = x, z

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z = self.x, self.z
        z.set_min(0)
        if x.bits >= 0 and z.bits >= 0 and x.size() <= ENUMERATION_LIMIT:
            zs = {abs(a) for a in x.values() if z.contains(abs(a))}
            if not zs:
                raise Inconsistency
            z.keep_values(zs)
            x.keep_values([a for a in x.values() if abs(a) in zs])
            return
        if x.lo >= 0:
            z.set_min(x.lo)
            z.set_max(x.hi)
            x.set_min(z.lo)
            x.set_max(z.hi)
        elif x.hi <= 0:
            z.set_min(-x.hi)
            z.set_max(-x.lo)
            x.set_min(-z.hi)
            x.set_max(-z.lo)
        else:
            z.set_max(max(-x.lo, x.hi))
            x.set_min(-z.hi)
            x.set_max(z.hi)


class Power(Propagator):
    """z = x ** k for a constant k >= 2."""

    priority = 0

    def __init__(self, solver: Solver, x: IntView, k: int, z: IntView) -> None:
        super().__init__(solver)
        self.x, self.k, self.z = x, k, z

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z, k = self.x, self.z, self.k
        if x.bits >= 0 and x.size() <= ENUMERATION_LIMIT:
            zs = {a ** k for a in x.values() if z.contains(a ** k)}
            if not zs:
                raise Inconsistency
            z.keep_values(zs)
            x.keep_values([a for a in x.values() if a ** k in zs])
            return
        if k % 2:
            z.set_min(x.lo ** k)
            z.set_max(x.hi ** k)
            def root(v: int) -> int:
                return _ipow_root(v, k) if v >= 0 else -_ipow_root(-v, k)
            lo = root(z.lo)
            if lo ** k < z.lo:
                lo += 1
            x.set_min(lo)
            x.set_max(root(z.hi))
        else:
            if x.lo >= 0:
                z.set_min(x.lo ** k)
            elif x.hi <= 0:
                z.set_min(x.hi ** k)
            else:
                z.set_min(0)
            z.set_max(max(x.lo ** k, x.hi ** k))
            r = _ipow_root(max(z.hi, 0), k)
            x.set_min(-r)
            x.set_max(r)


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
