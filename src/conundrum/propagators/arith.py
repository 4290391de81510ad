"""Arithmetic propagators: z = f(x, y) for times, exact division, floor division and modulo
(`BinaryFunction` and its table of operations, `BINARY_OPS`); and, from their own modules,
z = |x| and z = x ** k (arith_unary.py), n-ary min, max and argmax (arith_minmax.py). Every
name is importable from here.

Small domains are tabulated by the compiler (compact-table, domain consistent), and the
propagators here enumerate every pair once the domains are small bit sets. Otherwise each
operation has its own interval reasoning (arith_binary.py), exact with Python integers
(arith_intervals.py).

An operation is undefined (None) for division or modulo by zero and for an inexact
exact_div: such pairs have no support. Where the engine runs the unary propagators again
until their own changes stop (arith_unary.py), BinaryFunction runs its own rounds instead,
at most BOUNDS_ROUNDS per call: on wide domains its interval reasoning may move the bounds
by one unit per round (x*y == p for a prime p about 2**61 visits every candidate divisor
up to sqrt(p), a factoring by trial division of a billion rounds), so past that many it
stops and leaves the rest to search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from conundrum.engine import DOMAIN, Inconsistency, IntView, Solver
from conundrum.engine.bits import window
from conundrum.engine.products import times
from conundrum.propagators.arith_binary import (
    exact_div_bounds,
    floor_div_bounds,
    mod_bounds,
    times_bounds,
)
from conundrum.propagators.arith_explain import Relation
from conundrum.propagators.arith_hulls import (
    exact_div_hull,
    floor_div_hull,
    mod_hull,
    times_hull,
)
from conundrum.propagators.arith_intervals import (
    ENUMERATION_LIMIT,
    iroot,
    iroot_ceil,
    keep_union,
    listable,
    quotient_hull,
    remove_between,
    root_ceil,
    root_floor,
)
from conundrum.propagators.arith_minmax import ArgMax, MinMax
from conundrum.propagators.arith_unary import Abs, Power, abs_bounds, power_bounds
from conundrum.propagators.rel import make_equal

__all__ = [
    "BINARY_OPS",
    "BOUNDS_ROUNDS",
    "ENUMERATION_LIMIT",
    "Abs",
    "ArgMax",
    "BinaryFunction",
    "MinMax",
    "Operation",
    "Power",
    "abs_bounds",
    "exact_div_bounds",
    "floor_div_bounds",
    "iroot",
    "iroot_ceil",
    "keep_union",
    "mod_bounds",
    "power_bounds",
    "quotient_hull",
    "remove_between",
    "root_ceil",
    "root_floor",
    "times_bounds",
]

TEXT_BITS: Final = 256  # bit sets wider than this are tested through their text (_enumerate)
BOUNDS_ROUNDS: Final = 64  # rounds of interval reasoning in one call of BinaryFunction


def _exact_div(a: int, b: int) -> int | None:
    if b == 0 or a % b:
        return None
    return a // b


def _floor_div(a: int, b: int) -> int | None:
    return None if b == 0 else a // b


def _mod(a: int, b: int) -> int | None:
    return None if b == 0 else a % b


Operation = Callable[[int, int], "int | None"]

# the value of each operation, or None where it is undefined (BinaryFunction._bounds has
# their interval reasoning)
BINARY_OPS: Final[dict[str, Operation]] = {
    "*": times,
    "exact_div": _exact_div,
    "//": _floor_div,
    "%": _mod,
}


def _flag(x: IntView) -> bool:
    return x.lo >= 0 and x.hi <= 1


class BinaryFunction(Relation):
    """z = f(x, y) for one of BINARY_OPS, for domains too large to tabulate (the compiler
    posts a compact-table of every (a, b, f(a, b)) for small ones). With x and y fixed, z
    is computed and checked; for a quotient or a remainder, while x and y are small bit
    sets with at most `limit` pairs, every pair is enumerated (domain consistent);
    otherwise (and for a product always) interval reasoning specific to the operation."""

    priority = 0

    def __init__(self, solver: Solver, op: str, x: IntView, y: IntView, z: IntView,
                 limit: int = ENUMERATION_LIMIT) -> None:
        super().__init__(solver)
        self.op = op
        self.f = BINARY_OPS[op]
        self.x, self.y, self.z = x, y, z
        self.limit = limit
        # a product's holes are gaps around 0, which its interval reasoning finds again
        # from the factors' bounds: alone they are not worth a bit set (golf_puzzle's
        # products over -10..10 x 1..1000 kept 20,001-bit sets, a third of its search).
        # z = b*y with b a 0/1 flag from the start copies y's holes into z (by masks) and
        # keeps them. It still makes holes: a bounds-only factor is no interval to walk
        # under a median search (a gap of 10**11 values around 0 would be walked)
        self.holes_need_bits = op != "*" or _flag(x) or _flag(y)
        # one call reaches its own fixpoint (or gives up on a slow convergence, see the
        # module's docstring), so its own changes need not wake it: that is what stops a
        # slow convergence at BOUNDS_ROUNDS rounds. Views sharing a variable may wake it
        # usefully (the propagator checklist), and keep it non-idempotent.
        self.idempotent = (x.root is not y.root and x.root is not z.root
                           and y.root is not z.root)

    def views(self) -> list[IntView]:
        return [self.x, self.y, self.z]

    def satisfied(self, values: list[int]) -> bool:
        r = self.f(values[0], values[1])
        return r is not None and r == values[2]

    def hull(self, k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
        op = self.op
        if op == "*":
            return times_hull(k, lo, hi, bits)
        if op == "exact_div":
            return exact_div_hull(k, lo, hi, bits)
        if op == "//":
            return floor_div_hull(k, lo, hi, bits)
        return mod_hull(k, lo, hi, bits)

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
            # z = b*y with b in {0, 1}, no two views of one variable: filtered by masks
            if self.op == "*" and self.idempotent:
                if x.lo >= 0 and x.hi <= 1:
                    self._times_flag(x, y, z)
                    return
                if y.lo >= 0 and y.hi <= 1:
                    self._times_flag(y, x, z)
                    return
            # domain consistent in one pass; never for a product (interval reasoning, as
            # Gecode's int_times): its domains are wide or the compiler tabulated it, and
            # enumerating the pairs of a product cost golf_puzzle 5x a node for the holes
            # it left in a product only sums read (its proof: 12 s, none in 60 s before)
            if (self.op != "*" and listable(x) and listable(y)
                    and x.size() * y.size() <= self.limit):
                self._enumerate()
                return
            # domains only shrink: equal sizes mean nothing changed (holes included)
            xs, ys, zs = x.size(), y.size(), z.size()
            self._bounds(x, y, z)
            if xs == x.size() and ys == y.size() and zs == z.size():
                return

    def _bounds(self, x: IntView, y: IntView, z: IntView) -> None:
        """One round of the operation's interval reasoning, called directly: through a
        function object in a table a compiled call boxed its arguments and parsed them
        again (5% of golf_puzzle's search)."""
        op = self.op
        if op == "*":
            times_bounds(x, y, z)
        elif op == "exact_div":
            exact_div_bounds(x, y, z)
        elif op == "//":
            floor_div_bounds(x, y, z)
        else:
            mod_bounds(x, y, z)

    def _times_flag(self, b: IntView, y: IntView, z: IntView) -> None:
        """z = b*y with b in {0, 1}: z is 0 (b = 0) or y (b = 1), filtered to domain
        consistency by masks, where listing the pairs (b, y) would cost a step per value of
        y (MiniZinc's `open[i]*ships[i,j]`, facility location's `open[i]*cost[i]` over
        hundreds of values, are such products)."""
        if b.lo == 1 or not z.contains(0):
            b.assign(1)
            make_equal(z, y, 0)
            if z.lo == z.hi:
                self.deactivate()
            return
        if b.hi == 0 or not _meet(y, z):
            b.assign(0)
            z.assign(0)
            self.deactivate()
            return
        # b open: z within {0} and y's values; y keeps every value (b = 0 supports it)
        if z.bits >= 0:
            zl = z.lo
            z.keep_mask(zl, window(zl, z.hi, y.lo, y.hi, y.bits) | window(zl, z.hi, 0, 0, -1))
        else:
            z.set_bounds(min(0, y.lo), max(0, y.hi))

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
        zlo, zhi, zbits = z.lo, z.hi, z.bits
        # z's bits as text, bit i at index i, when they are wider than a few words: a test
        # of `zbits >> i` copies the whole big int, once per pair (80% of facility
        # location's search when its products, since filtered by bounds, came here)
        text = bin(zbits)[:1:-1] if zbits.bit_length() > TEXT_BITS else ""
        for a in x.values():
            for b in ((a + d,) if shared else yvals):
                r = f(a, b)
                if r is None or r < zlo or r > zhi:
                    continue
                if text:
                    if text[r - zlo] != "1":
                        continue
                elif zbits >= 0 and (zbits >> (r - zlo)) & 1 == 0:
                    continue
                zs.add(r)
                xs_ok.add(a)
                ys_ok.add(b)
        if not zs:
            raise Inconsistency
        # a domain whose every value is supported keeps them all: rebuilding its mask
        # (z's may be thousands of bits wide) would cost a pass over it for nothing
        if len(xs_ok) != x.size():
            x.keep_values(xs_ok)
        if len(ys_ok) != y.size():
            y.keep_values(ys_ok)
        if len(zs) != z.size():
            z.keep_values(zs)


def _meet(y: IntView, z: IntView) -> bool:
    """Whether y and z have a value in common."""
    if z.bits >= 0:
        return window(z.lo, z.hi, y.lo, y.hi, y.bits) & z.bits != 0
    if y.bits >= 0:
        return window(y.lo, y.hi, z.lo, z.hi, z.bits) & y.bits != 0
    return max(y.lo, z.lo) <= min(y.hi, z.hi)
