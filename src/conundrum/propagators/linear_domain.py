"""Domain-consistent linear equations: sum(a_i * x_i) + c == 0 over small domains.

`LinearEqDomain` keeps exactly the values that belong to some solution of the equation
(LinearEq in linear.py keeps only bounds). It is dynamic programming over partial sums,
each set of partial sums a Python int used as a bit set:

* every term a_k * x_k is written as base_k + off_k(v), with base_k its smallest value when
  the propagator was made, so off_k(v) >= 0 for every value v it can still take; the
  equation asks for sum(off_k) == T, T = -c - sum(base_k);
* forward: F_0 = {0}, F_{k+1} = union over v of F_k shifted up by off_k(v) (the partial
  sums of the first k+1 terms that can still reach T, i.e. cut at T);
* backward: G_n = {T}, G_k = union over v of G_{k+1} shifted down by off_k(v) (what the
  first k terms must add up to for the rest to reach T);
* a value v of x_k is kept iff F_k and G_{k+1} shifted down by off_k(v) meet: some partial
  sum before it, plus its own term, is completed by the terms after it.

One call is a fixpoint (the support of a kept value is a solution, and none of its values
is removed). It applies while the span of the sum, sum(|a_k| * (hi_k - lo_k)) when posted,
is at most SPAN_LIMIT: the model layer falls back to bounds consistency above it (and says
so). Terms that share a variable (x and a view x + c) are treated as independent: the
filtering is then sound but weaker than domain consistency, and the propagator is not
idempotent.

Incremental: F and G are cached with the domains they were computed from (a cache valid
whatever the search does, since it is a function of those domains alone). A call recomputes
F only from the first term whose domain changed since and G only down from the last one,
and a call that finds every domain as it left them returns at once.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import DOMAIN, Inconsistency, IntVar, IntView, Solver
from conundrum.engine.products import times
from conundrum.engine.var import offsets
from conundrum.propagators.arith_explain import Relation
from conundrum.propagators.arith_hulls import linear_hull

__all__ = ["SPAN_LIMIT", "LinearEqDomain", "linear_span"]

# the widest sum (values between its smallest and largest) filtered by dynamic programming:
# each bit set is at most this many bits, and a call costs a few big-int shifts per value
SPAN_LIMIT: Final = 1 << 16


def linear_span(coefs: list[int], bounds: list[tuple[int, int]]) -> int:
    """sum(|a_k| * (hi_k - lo_k)): the number of values between the smallest and largest
    value of the sum, less one."""
    total = 0
    for k in range(len(coefs)):
        lo, hi = bounds[k]
        a = coefs[k]
        total += (a if a > 0 else -a) * (hi - lo)
    return total


def _spread_up(bits: int, start: int, step: int, count: int) -> int:
    """The union of bits << (start + step*j) for j in 0..count-1, by doubling (a bounds-only
    domain is a range: log(count) shifts instead of count)."""
    result = 0
    shift = 0
    part = bits  # covers j in 0..width-1
    width = 1
    while count:
        if count & 1:
            result |= part << shift
            shift += width * step
        count >>= 1
        if count:
            part |= part << (width * step)
            width *= 2
    return result << start


class LinearEqDomain(Relation):
    """sum(a_i x_i) + c == 0, domain consistent (the coefficients are non-zero). Explained
    by the other terms' bounds when they imply a change, else their domains
    (arith_explain.py)."""

    priority = 2
    idempotent = True

    def __init__(self, solver: Solver, coefs: list[int], xs: list[IntView], c: int) -> None:
        super().__init__(solver)
        self.coefs = list(coefs)
        self.xs = list(xs)
        self.c = c
        n = len(self.xs)
        base: list[int] = []
        total = -c
        for k in range(n):
            a = self.coefs[k]
            x = self.xs[k]
            b = times(a, x.lo if a > 0 else x.hi)
            base.append(b)
            total -= b
        self.base = base
        self.target = total
        self.full = (1 << (total + 1)) - 1 if total >= 0 else 0  # offsets 0..T
        roots: set[IntVar] = set()
        for x in self.xs:
            roots.add(x.root)
        self.idempotent = len(roots) == n
        # the cache: F_0..F_n, G_0..G_n and the domains (lo, hi, bits) they were made from
        self.fwd: list[int] = [0] * (n + 1)
        self.bwd: list[int] = [0] * (n + 1)
        self.seen_lo: list[int] = [0] * n
        self.seen_hi: list[int] = [0] * n
        self.seen_bits: list[int] = [0] * n
        self.valid = False  # the cache describes the seen domains
        # the last call removed values after computing the cache, or failed on the seen
        # domains: either way the next call on those domains must not return at once
        self.pruned = True

    def views(self) -> list[IntView]:
        return self.xs

    def satisfied(self, values: list[int]) -> bool:
        total = self.c
        for k in range(len(values)):
            total += times(self.coefs[k], values[k])
        return total == 0

    def hull(self, k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
        return linear_hull(k, self.coefs, self.c, lo, hi)

    def post(self) -> None:
        if self.target < 0:
            raise Inconsistency
        for x in self.xs:
            x.subscribe(self, DOMAIN)
        self.propagate()

    def _changed(self) -> tuple[int, int]:
        """(first, last): the range of terms whose domain differs from the cache's."""
        xs = self.xs
        n = len(xs)
        if not self.valid:
            return 0, n - 1
        first = n
        last = -1
        slo, shi, sbits = self.seen_lo, self.seen_hi, self.seen_bits
        for k in range(n):
            x = xs[k]
            if x.lo != slo[k] or x.hi != shi[k] or x.bits != sbits[k]:
                if first == n:
                    first = k
                last = k
        return first, last

    def _term(self, k: int) -> tuple[int, int, int, int]:
        """(lo, hi, bits, |a_k|) of term k now."""
        x = self.xs[k]
        a = self.coefs[k]
        return x.lo, x.hi, x.bits, a if a > 0 else -a

    def _low_offset(self, k: int, lo: int, hi: int) -> int:
        """The smallest offset of term k over lo..hi."""
        a = self.coefs[k]
        return times(a, lo if a > 0 else hi) - self.base[k]

    def _forward(self, first: int) -> None:
        """F_{k+1} for k >= first."""
        fwd = self.fwd
        full = self.full
        fwd[0] = 1
        for k in range(first, len(self.xs)):
            f = fwd[k]
            lo, hi, bits, step = self._term(k)
            if bits < 0 or lo == hi:
                acc = _spread_up(f, self._low_offset(k, lo, hi), step, hi - lo + 1)
            else:
                acc = 0
                a = self.coefs[k]
                b = self.base[k]
                for o in offsets(bits):
                    acc |= f << (times(a, lo + o) - b)
            fwd[k + 1] = acc & full

    def _backward(self, last: int) -> None:
        """G_k for k <= last."""
        bwd = self.bwd
        n = len(self.xs)
        bwd[n] = 1 << self.target
        for k in range(last, -1, -1):
            g = bwd[k + 1]
            lo, hi, bits, step = self._term(k)
            if bits < 0 or lo == hi:
                # the union of g >> (start + step*j) = spread up of g >> start, shifted back
                m = hi - lo + 1
                acc = _spread_up(g >> self._low_offset(k, lo, hi), 0, step, m)
                acc >>= step * (m - 1)
            else:
                acc = 0
                a = self.coefs[k]
                b = self.base[k]
                for o in offsets(bits):
                    acc |= g >> (times(a, lo + o) - b)
            bwd[k] = acc

    def propagate(self) -> None:
        xs = self.xs
        n = len(xs)
        first, last = self._changed()
        if last < 0 and not self.pruned:
            return  # the domains are those the last call left: nothing to do
        if last >= 0:
            self.valid = False  # a failure below leaves the cache half made
            self._forward(first)
            self._backward(last)
            slo, shi, sbits = self.seen_lo, self.seen_hi, self.seen_bits
            for k in range(first, last + 1):
                x = xs[k]
                slo[k] = x.lo
                shi[k] = x.hi
                sbits[k] = x.bits
            self.valid = True
        if not (self.fwd[n] >> self.target) & 1:
            # the cache stays right (a function of the domains), but the early return
            # above must not take these domains for consistent if the search comes back
            # to them without this propagator running in between (a backjump, a restart)
            self.pruned = True
            raise Inconsistency
        self.pruned = False
        fixed = 0
        for k in range(n):
            if self._support(k):
                self.pruned = True
            if xs[k].lo == xs[k].hi:
                fixed += 1
        if fixed == n:
            self.deactivate()

    def _support(self, k: int) -> bool:
        """Remove the values of term k without support; True if any went."""
        x = self.xs[k]
        lo, hi, bits = x.lo, x.hi, x.bits
        if lo == hi:
            return False  # a fixed term is in every solution the target bit stands for
        f = self.fwd[k]
        g = self.bwd[k + 1]
        a = self.coefs[k]
        b = self.base[k]
        if bits < 0:
            # bounds only: move each bound to the nearest supported value
            new_lo = lo
            while not f & (g >> (times(a, new_lo) - b)):
                new_lo += 1
            new_hi = hi
            while not f & (g >> (times(a, new_hi) - b)):
                new_hi -= 1
            if new_lo == lo and new_hi == hi:
                return False
            x.set_bounds(new_lo, new_hi)
            return True
        keep = 0
        for o in offsets(bits):
            if f & (g >> (times(a, lo + o) - b)):
                keep |= 1 << o
        if keep == bits:
            return False
        x.keep_mask(lo, keep)
        return True
