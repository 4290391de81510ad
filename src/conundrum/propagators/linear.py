"""Bounds-consistent linear constraints: sum(a_i * x_i) + c  REL  0, REL one of <=, ==, !=.

The filtering is written as plain functions over (coefficients, variables, constant) so that
the reified versions (reified.py) run exactly the same code once their literal is decided.
"""

from __future__ import annotations

from math import gcd

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


def _bounds_eq(coefs: list[int], xs: list, c: int) -> bool | None:
    """Bounds consistency of sum + c == 0, to its fixpoint: True if entailed (all fixed),
    None otherwise. The sum's bounds are updated as each variable tightens, so the sum is
    computed once per call."""
    lo, hi = linear_bounds(coefs, xs, c)
    while True:
        if lo > 0 or hi < 0:
            raise Inconsistency
        if lo == hi:
            return True
        changed = False
        for a, x in zip(coefs, xs):
            xl, xh = x.lo, x.hi
            if a > 0:
                # a*x = -(the rest), and the rest lies in [lo - a*xl, hi - a*xh]
                new_hi = xl + (-lo) // a
                new_lo = xh - hi // a
            else:
                new_hi = xl + hi // (-a)
                new_lo = xh - (-lo) // (-a)
            if new_hi < xh:
                x.set_max(new_hi)
            if new_lo > xl:
                x.set_min(new_lo)
            nl, nh = x.lo, x.hi
            if nl != xl or nh != xh:
                changed = True
                if a > 0:
                    lo += a * (nl - xl)
                    hi += a * (nh - xh)
                else:
                    lo += a * (nh - xh)
                    hi += a * (nl - xl)
                if lo > 0 or hi < 0:
                    raise Inconsistency
        if not changed:
            return None


MODULAR_SIZE_LIMIT = 4096


def _modular_eq(coefs: list[int], xs: list, c: int) -> bool:
    """Divisibility reasoning for sum + c == 0. With r = -(c + the fixed terms) and, for an
    unfixed x_j, g the gcd of the other unfixed coefficients: a_j * x_j = r (mod g). This is
    the carry reasoning of alphametics and the fraction cancelling of rational equations.
    Returns True if a domain changed."""
    free_a = []
    free_x = []
    r = -c
    for a, x in zip(coefs, xs):
        if x.lo == x.hi:
            r -= a * x.lo
        else:
            free_a.append(a)
            free_x.append(x)
    n = len(free_a)
    if n < 2:
        return False
    # prefix and suffix gcds give, for each j, the gcd of the others
    prefix = [0] * (n + 1)
    for j in range(n):
        prefix[j + 1] = gcd(prefix[j], free_a[j])
    if r % prefix[n]:
        raise Inconsistency
    suffix = 0
    changed = False
    for j in range(n - 1, -1, -1):
        g = gcd(prefix[j], suffix)
        a = free_a[j]
        suffix = gcd(suffix, a)
        if g <= 1 or a % g == 0:
            continue
        x = free_x[j]
        if x.bits is None or x.size() > MODULAR_SIZE_LIMIT:
            continue
        keep = [v for v in x.values() if (a * v - r) % g == 0]
        if len(keep) != x.size():
            x.keep_values(keep)
            changed = True
    return changed


def can_use_divisibility(coefs: list[int]) -> bool:
    """Divisibility reasoning needs a coefficient other than +-1: with unit coefficients the
    gcd of the others is always 1."""
    return any(abs(a) != 1 for a in coefs)


def propagate_eq(coefs: list[int], xs: list, c: int, modular: bool = True) -> bool:
    """Filter sum(a_i x_i) + c == 0: bounds consistency plus divisibility reasoning.
    Returns True when entailed (all fixed)."""
    while True:
        if _bounds_eq(coefs, xs, c):
            return True
        if not (modular and _modular_eq(coefs, xs, c)):
            return False


def one_unfixed(coefs: list[int], xs: list, c: int) -> tuple[int, tuple | None] | None:
    """(c + the fixed terms, (a, x) of the only unfixed variable or None), or None when two
    or more variables are unfixed."""
    free = None
    total = c
    for a, x in zip(coefs, xs):
        if x.lo == x.hi:
            total += a * x.lo
        elif free is None:
            free = (a, x)
        else:
            return None
    return total, free


def propagate_ne(coefs: list[int], xs: list, c: int) -> bool:
    """Filter sum(a_i x_i) + c != 0: act when at most one variable is unfixed."""
    state = one_unfixed(coefs, xs, c)
    if state is None:
        return False
    total, free = state
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
    """sum(a_i x_i) + c == 0, bounds consistent, with divisibility reasoning."""

    priority = 1
    idempotent = True

    def __init__(self, solver, coefs: list[int], xs: list, c: int) -> None:
        super().__init__(solver)
        self.coefs, self.xs, self.c = coefs, xs, c
        self.modular = can_use_divisibility(coefs)

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        if propagate_eq(self.coefs, self.xs, self.c, self.modular):
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
