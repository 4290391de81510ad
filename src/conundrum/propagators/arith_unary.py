"""Unary arithmetic propagators: z = |x| and z = x ** k for a constant k >= 2, domain
consistent by enumeration on small bit sets, otherwise by bounds with exact integer roots
and the excluded middle (arith_intervals.py).

They are left non-idempotent: the engine runs them again until their own changes stop,
which is what reaches the fixpoint when one bound's rounding tightens another.
"""

from __future__ import annotations

from conundrum.engine import DOMAIN, Inconsistency, IntView, Solver
from conundrum.engine.bits import reversed_bits, window
from conundrum.propagators.arith_explain import Relation
from conundrum.propagators.arith_hulls import abs_hull, power_hull
from conundrum.propagators.arith_intervals import (
    ENUMERATION_LIMIT,
    iroot,
    iroot_ceil,
    keep_union,
    listable,
    min_abs,
    root_ceil,
    root_floor,
)


def abs_bounds(x: IntView, z: IntView) -> None:
    """z = |x|: z between min|x| and max|x|; x in -z.hi..-z.lo or z.lo..z.hi."""
    z.set_bounds(min_abs(x), max(-x.lo, x.hi))
    keep_union(x, -z.hi, -z.lo, z.lo, z.hi)
    z.set_bounds(min_abs(x), max(-x.lo, x.hi))


def power_bounds(x: IntView, k: int, z: IntView) -> None:
    """z = x**k (k >= 2): exact integer roots rounded inwards. An odd power is increasing;
    an even one is |x|**k: x in -r..-s or s..r with r the floor root of z.hi and s the
    ceiling root of z.lo."""
    if k % 2:
        z.set_bounds(x.lo ** k, x.hi ** k)
        x.set_bounds(root_ceil(z.lo, k), root_floor(z.hi, k))
        z.set_bounds(x.lo ** k, x.hi ** k)
        return
    z.set_bounds(min_abs(x) ** k, max(x.lo ** k, x.hi ** k))
    r = iroot(z.hi, k)
    s = iroot_ceil(z.lo, k)
    z.set_bounds(s ** k, r ** k)  # only k-th powers are reachable
    keep_union(x, -r, -s, s, r)
    z.set_bounds(min_abs(x) ** k, max(x.lo ** k, x.hi ** k))


class Abs(Relation):
    """z = |x|: domain consistent on bit sets, by masks (x's values of each sign read as
    one mask from 0, the negative ones backwards); bounds (with the excluded middle)
    otherwise."""

    priority = 0

    def __init__(self, solver: Solver, x: IntView, z: IntView) -> None:
        super().__init__(solver)
        self.x, self.z = x, z

    def views(self) -> list[IntView]:
        return [self.x, self.z]

    def satisfied(self, values: list[int]) -> bool:
        return abs(values[0]) == values[1]

    def hull(self, k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
        return abs_hull(k, lo, hi, bits)

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z = self.x, self.z
        if x.lo == x.hi:
            z.assign(abs(x.lo))
            self.deactivate()
        elif x.bits >= 0:
            # the values of x listed and looked up one by one were most of the search of a
            # model of 21 |x[i] - x[j]| over -99..99 (MiniZinc's pair_divides_the_sum).
            # One pass is a fixpoint when x and z are different variables (z keeps the
            # image of x, x the values whose |x| z keeps, whose image is z's new domain):
            # its own changes need not run it again (on pair_divides_the_sum, 52% of its
            # calls changed nothing, 13% now)
            if x.root is z.root:
                _abs_by_masks(x, z)
            else:
                waker = self.waker
                scheduled = waker.scheduled
                waker.scheduled = True
                try:
                    _abs_by_masks(x, z)
                finally:
                    waker.scheduled = scheduled
        else:
            abs_bounds(x, z)


def _abs_by_masks(x: IntView, z: IntView) -> None:
    """z = |x| for a bit-set x, domain consistent (z's bounds when z has no bit set)."""
    xl, xb = x.lo, x.bits
    # the values of x as masks from 0: bit v of `pos` is x = v >= 0, bit v of `neg` is
    # x = -v <= 0 (the bits at and below 0, read backwards)
    if xl >= 0:
        pos, neg, width = xb << xl, 0, 0
    else:
        width = 1 - xl  # the bits of x for the values xl..0
        pos = xb >> (width - 1)
        neg = reversed_bits(xb & ((1 << width) - 1), width)
    image = pos | neg
    z.keep_mask(0, image)
    # z's values as a mask from 0, within x's reach (a bounds-only z: its range)
    zm = window(0, max(-xl, x.hi), z.lo, z.hi, z.bits)
    if not image & ~zm:
        return  # every value of x has its |x| in z
    kept = (zm & pos) >> xl if xl >= 0 else (zm & pos) << width - 1
    if width:
        kept |= reversed_bits(zm & ((1 << width) - 1), width)
    x.keep_mask(xl, kept)


class Power(Relation):
    """z = x ** k for a constant k >= 2: domain consistent by enumeration while x is a bit
    set of at most `limit` values, bounds (integer roots, excluded middle) otherwise."""

    priority = 0

    def __init__(self, solver: Solver, x: IntView, k: int, z: IntView,
                 limit: int = ENUMERATION_LIMIT) -> None:
        super().__init__(solver)
        self.x, self.k, self.z = x, k, z
        self.limit = limit

    def views(self) -> list[IntView]:
        return [self.x, self.z]

    def satisfied(self, values: list[int]) -> bool:
        power: int = values[0] ** self.k  # k >= 2: an int
        return power == values[1]

    def hull(self, k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
        return power_hull(k, self.k, lo, hi, bits)

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.z.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, z, k = self.x, self.z, self.k
        if x.lo == x.hi:
            z.assign(x.lo ** k)
            self.deactivate()
        elif listable(x) and x.size() <= self.limit:
            xs = x.values_list()
            kept = [a for a in xs if z.contains(a ** k)]
            if not kept:
                raise Inconsistency
            zs = {a ** k for a in kept}
            if len(zs) != z.size():  # as in Abs: no rebuild of a fully supported domain
                z.keep_values(zs)
            if len(kept) != len(xs):
                x.keep_values(kept)
        else:
            power_bounds(x, k, z)

