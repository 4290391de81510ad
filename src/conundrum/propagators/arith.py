"""Arithmetic propagators: z = f(x, y) for times, exact division, floor division, modulo,
and z = f(x) for abs and powers; n-ary min and max.

Small domains are filtered to domain consistency by enumerating the pairs (x, y): cheap
when |D(x)|*|D(y)| is small, and the strongest possible. Larger domains fall back to
interval reasoning specific to each operation. An operation returns None where it is
undefined (division or modulo by zero, inexact division): such pairs have no support.
"""

from __future__ import annotations

from collections.abc import Callable

from conundrum.engine import BOUNDS, DOMAIN, Inconsistency, Propagator
from conundrum.engine.var import WIDE, mask_of, offsets

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
    lo = hi = None
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
    return lo, hi


def times_bounds(x, y, z) -> None:
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


def exact_div_bounds(x, y, z) -> None:
    """z = x / y exactly, i.e. x = y*z with y != 0."""
    y.remove(0)
    times_bounds(y, z, x)


def floor_div_bounds(x, y, z) -> None:
    """z = x // y: z lies between the floors of the corner quotients."""
    y.remove(0)
    if y.lo <= 0 <= y.hi and y.lo == 0 == y.hi:
        raise Inconsistency
    lo = hi = None
    for a, b in ((y.lo, min(y.hi, -1)), (max(y.lo, 1), y.hi)):
        if a > b:
            continue
        for xv in (x.lo, x.hi):
            for yv in (a, b):
                q = xv // yv
                lo = q if lo is None else min(lo, q)
                hi = q if hi is None else max(hi, q)
    if lo is None:
        raise Inconsistency
    z.set_min(lo)
    z.set_max(hi)
    if y.lo == y.hi and y.lo > 0:
        d = y.lo
        x.set_min(z.lo * d)
        x.set_max(z.hi * d + d - 1)


def mod_bounds(x, y, z) -> None:
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


def _no_bounds(x, y, z) -> None:
    """No interval reasoning: wait until the arguments are fixed."""


def scaled_fraction(scale: int) -> Callable:
    """f(a, b) = frac(a / b) * scale, i.e. (a % b) * scale / b, in 0..scale-1; None when
    b == 0 or when that is not an integer (scale must be a multiple of the denominator)."""
    def f(a: int, b: int) -> int | None:
        if b == 0:
            return None
        q, r = divmod((a % b) * scale, b)
        return None if r else q
    return f


BINARY_OPS: dict[str, tuple[Callable, Callable]] = {
    "*": (_times, times_bounds),
    "exact_div": (_exact_div, exact_div_bounds),
    "//": (_floor_div, floor_div_bounds),
    "%": (_mod, mod_bounds),
}


class BinaryFunction(Propagator):
    """z = f(x, y) for one of BINARY_OPS (or a custom exact f).

    When |D(x)|*|D(y)| is small at post time, the valid triples (a, b, f(a, b)) are listed
    once and every call keeps exactly the supported values (domain consistency); the
    domains seen at the end of a call are remembered so that a wake-up that changed nothing
    costs one comparison."""

    priority = 0

    def __init__(self, solver, op: str, x, y, z, f: Callable | None = None) -> None:
        super().__init__(solver)
        self.op = op
        if f is None:
            self.f, self.bounds = BINARY_OPS[op]
        else:  # a custom exact function; fixed arguments are always checked
            self.f, self.bounds = f, _no_bounds
        self.x, self.y, self.z = x, y, z
        self.triples: list | None = None
        self.seen: tuple | None = None

    def post(self) -> None:
        x, y, z = self.x, self.y, self.z
        for v in (x, y, z):
            v.subscribe(self, DOMAIN)
        if x.bits is not None and y.bits is not None and x.size() * y.size() <= ENUMERATION_LIMIT:
            f = self.f
            by_a: dict[int, list] = {}
            by_b: dict[int, list] = {}
            for a in x.values():
                for b in y.values():
                    r = f(a, b)
                    if r is not None and z.contains(r):
                        # offsets from each variable's base, fixed for its lifetime
                        ao, bo, ro = a - x.base, b - y.base, r - z.base
                        by_a.setdefault(ao, []).append((bo, ro))
                        by_b.setdefault(bo, []).append((ao, ro))
            self.triples = (by_a, by_b)
        self.propagate()

    def _state(self) -> tuple:
        x, y, z = self.x, self.y, self.z
        return (x.bits, y.bits, z.bits, z.lo, z.hi)

    def propagate(self) -> None:
        if self.seen is not None and self.seen == self._state():
            return
        x, y, z = self.x, self.y, self.z
        if x.lo == x.hi and y.lo == y.hi:
            r = self.f(x.lo, y.lo)
            if r is None:
                raise Inconsistency
            z.assign(r)
            self.deactivate()
            return
        if self.triples is not None:
            self._filter_triples()
            self.seen = self._state()  # one filtering pass is a fixpoint
        elif x.bits is not None and y.bits is not None and x.size() * y.size() <= ENUMERATION_LIMIT:
            self._enumerate()
        else:
            self.bounds(x, y, z)

    def _filter_triples(self) -> None:
        """Keep the values with a support among the listed triples, looping over the
        argument with the smaller domain."""
        x, y, z = self.x, self.y, self.z
        by_a, by_b = self.triples
        if x.size() <= y.size():
            outer, inner, rows = x, y, by_a
        else:
            outer, inner, rows = y, x, by_b
        ib = inner.bits
        zlo, zhi = z.lo - z.base, z.hi - z.base
        zbits = z.bits
        out_ok = in_ok = z_mask = 0
        bits = outer.bits
        if zbits is not None and zbits.bit_length() <= WIDE:
            while bits:
                low = bits & -bits
                bits ^= low
                found = False
                for i, r in rows.get(low.bit_length() - 1, ()):
                    if (ib >> i) & 1 and zlo <= r <= zhi and (zbits >> r) & 1:
                        in_ok |= 1 << i
                        z_mask |= 1 << r
                        found = True
                if found:
                    out_ok |= low
            if not out_ok:
                raise Inconsistency
            outer.keep_mask(outer.base, out_ok)
            inner.keep_mask(inner.base, in_ok)
            z.keep_mask(z.base, z_mask)
            return
        # wide or bounds-only z: membership through a set, or bounds only
        zset = set(offsets(zbits)) if zbits is not None else None
        z_ok: set[int] = set()
        while bits:
            low = bits & -bits
            bits ^= low
            found = False
            for i, r in rows.get(low.bit_length() - 1, ()):
                if (ib >> i) & 1 and zlo <= r <= zhi and (zset is None or r in zset):
                    in_ok |= 1 << i
                    z_ok.add(r)
                    found = True
            if found:
                out_ok |= low
        if not out_ok:
            raise Inconsistency
        outer.keep_mask(outer.base, out_ok)
        inner.keep_mask(inner.base, in_ok)
        if zbits is not None:
            z.keep_mask(z.base, mask_of(z_ok))
        else:
            z.set_min(z.base + min(z_ok))
            z.set_max(z.base + max(z_ok))

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

    def __init__(self, solver, x, z) -> None:
        super().__init__(solver)
        self.x, self.z = x, z

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z = self.x, self.z
        z.set_min(0)
        if x.bits is not None and z.bits is not None and x.size() <= ENUMERATION_LIMIT:
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

    def __init__(self, solver, x, k: int, z) -> None:
        super().__init__(solver)
        self.x, self.k, self.z = x, k, z

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z, k = self.x, self.z, self.k
        if x.bits is not None and x.size() <= ENUMERATION_LIMIT:
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

    def __init__(self, solver, xs: list, z, is_max: bool) -> None:
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
