"""Bounds-consistent linear constraints: sum(a_i * x_i) + c  REL  0, REL one of <=, ==, !=.

The filtering is written as plain functions over (coefficients, variables, constant) so that
the reified versions (reified.py) run exactly the same code once their literal is decided.
"""

from __future__ import annotations

from conundrum.engine import BOUNDS, FIX, Inconsistency, Propagator


def linear_bounds(coefs: list[int], xs: list, c: int) -> tuple[int, int]:
    """The smallest and largest value of sum(a_i x_i) + c over the current bounds."""
    lo = hi = c
    for a, x in zip(coefs, xs):
        if a > 0:
            lo += a * x.lo
            hi += a * x.hi
        else:
            lo += a * x.hi
            hi += a * x.lo
    return lo, hi


def propagate_le(coefs: list[int], xs: list, c: int) -> bool:
    """Filter sum(a_i x_i) + c <= 0. Returns True when the constraint is entailed."""
    lo, hi = linear_bounds(coefs, xs, c)
    if lo > 0:
        raise Inconsistency
    if hi <= 0:
        return True
    # Each term may grow by at most the slack -lo above its own minimum.
    slack = -lo
    for a, x in zip(coefs, xs):
        if a > 0:
            span = a * (x.hi - x.lo)
            if span > slack:
                x.set_max(x.lo + slack // a)
        else:
            span = -a * (x.hi - x.lo)
            if span > slack:
                x.set_min(x.hi - slack // (-a))
    return False


def propagate_eq(coefs: list[int], xs: list, c: int) -> bool:
    """Filter sum(a_i x_i) + c == 0 to bounds consistency. True when entailed (all fixed)."""
    while True:
        lo, hi = linear_bounds(coefs, xs, c)
        if lo > 0 or hi < 0:
            raise Inconsistency
        if lo == hi:
            return True
        changed = False
        for a, x in zip(coefs, xs):
            xl, xh = x.lo, x.hi
            if a > 0:
                # a*x in [a*xl - hi, a*xl - lo]... derived from the others' range.
                new_hi = xl + (-lo) // a
                new_lo = xh - hi // a
            else:
                new_hi = xl + hi // (-a)
                new_lo = xh - (-lo) // (-a)
            if new_hi < xh:
                x.set_max(new_hi)
            if new_lo > xl:
                x.set_min(new_lo)
            if x.lo != xl or x.hi != xh:
                changed = True
        if not changed:
            return False


def propagate_ne(coefs: list[int], xs: list, c: int) -> bool:
    """Filter sum(a_i x_i) + c != 0: act when at most one variable is unfixed."""
    free = None
    total = c
    for a, x in zip(coefs, xs):
        if x.lo == x.hi:
            total += a * x.lo
        elif free is None:
            free = (a, x)
        else:
            return False
    if free is None:
        if total == 0:
            raise Inconsistency
        return True
    a, x = free
    if total % a:
        return True
    value = -total // a
    x.remove(value)
    # A bounds-only domain may keep an interior value: stay awake until it is gone.
    return not x.contains(value)


class LinearLe(Propagator):
    """sum(a_i x_i) + c <= 0."""

    priority = 1
    idempotent = True  # one pass is a fixpoint: bounds only shrink towards the slack

    def __init__(self, solver, coefs: list[int], xs: list, c: int) -> None:
        super().__init__(solver)
        self.coefs, self.xs, self.c = coefs, xs, c

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        if propagate_le(self.coefs, self.xs, self.c):
            self.deactivate()


class LinearEq(Propagator):
    """sum(a_i x_i) + c == 0, bounds consistent."""

    priority = 1
    idempotent = True

    def __init__(self, solver, coefs: list[int], xs: list, c: int) -> None:
        super().__init__(solver)
        self.coefs, self.xs, self.c = coefs, xs, c

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        if propagate_eq(self.coefs, self.xs, self.c):
            self.deactivate()


class LinearNe(Propagator):
    """sum(a_i x_i) + c != 0."""

    priority = 0
    idempotent = True

    def __init__(self, solver, coefs: list[int], xs: list, c: int) -> None:
        super().__init__(solver)
        self.coefs, self.xs, self.c = coefs, xs, c

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, FIX)
        self.propagate()

    def propagate(self) -> None:
        if propagate_ne(self.coefs, self.xs, self.c):
            self.deactivate()
