"""Domain-consistent binary equality with an offset: x == y + c."""

from __future__ import annotations

from conundrum.engine import DOMAIN, Inconsistency, Propagator


class EqualOffset(Propagator):
    """x == y + c, filtered to domain consistency (bounds for bounds-only domains)."""

    priority = 0
    idempotent = True

    def __init__(self, solver, x, y, c: int) -> None:
        super().__init__(solver)
        self.x, self.y, self.c = x, y, c

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.y.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        x, y, c = self.x, self.y, self.c
        while True:
            x.set_min(y.lo + c)
            x.set_max(y.hi + c)
            y.set_min(x.lo - c)
            y.set_max(x.hi - c)
            if x.lo == y.lo + c and x.hi == y.hi + c:
                break
        if x.bits is not None and y.bits is not None:
            lo, hi = x.lo, x.hi
            common = x.mask(lo, hi) & y.mask(lo - c, hi - c)
            if not common:
                raise Inconsistency
            x.keep_mask(lo, common)
            y.keep_mask(lo - c, common)
        if x.lo == x.hi:
            self.deactivate()
