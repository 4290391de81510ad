"""Reified linear constraints: b <=> (sum(a_i x_i) + c  REL  0), b a 0/1 variable.

Every reified or Boolean construct of the model (x == 3 used as a value, &, |, ~,
implication, decompositions of globals) compiles to these, so they must be exact: once b
is decided they filter like the plain linear propagators; before that they decide b as
soon as the bounds entail or refute the relation.
"""

from __future__ import annotations

from conundrum.engine import BOUNDS, IntView, Propagator, Solver
from conundrum.propagators.linear import (
    linear_bounds,
    one_unfixed,
    propagate_eq,
    propagate_le,
    propagate_ne,
)

NEGATION = {"le": "gt", "eq": "ne", "ne": "eq"}


class ReifiedLinear(Propagator):
    """b <=> (sum(a_i x_i) + c REL 0) with REL in le, eq, ne."""

    priority = 0

    def __init__(self, solver: Solver, b: IntView, rel: str, coefs: list[int],
                 xs: list[IntView], c: int) -> None:
        super().__init__(solver)
        self.b, self.rel, self.coefs, self.xs, self.c = b, rel, coefs, xs, c
        # sum + c > 0  <=>  -sum - c + 1 <= 0
        self.neg_coefs = [-a for a in coefs]
        self.makes_holes = rel != "le"  # == and != remove single values

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.b.subscribe(self, BOUNDS)
        self.propagate()

    def _enforce(self, rel: str) -> bool:
        if rel == "le":
            return propagate_le(self.coefs, self.xs, self.c)
        if rel == "gt":
            return propagate_le(self.neg_coefs, self.xs, 1 - self.c)
        if rel == "eq":
            return propagate_eq(self.coefs, self.xs, self.c)
        return propagate_ne(self.coefs, self.xs, self.c)

    def propagate(self) -> None:
        b = self.b
        if b.lo == b.hi:
            rel = self.rel if b.lo == 1 else NEGATION[self.rel]
            if self._enforce(rel):
                self.deactivate()
            return
        lo, hi = linear_bounds(self.coefs, self.xs, self.c)
        rel = self.rel
        if rel == "le":
            if hi <= 0:
                b.assign(1)
            elif lo > 0:
                b.assign(0)
            else:
                return
        elif lo > 0 or hi < 0:
            b.assign(1 if rel == "ne" else 0)
        elif lo == hi == 0:
            b.assign(1 if rel == "eq" else 0)
        elif rel in ("eq", "ne") and self._value_excluded():
            b.assign(1 if rel == "ne" else 0)
        else:
            return
        self.deactivate()

    def _value_excluded(self) -> bool:
        """With one unfixed variable, is the value that would make the sum 0 absent?"""
        state = one_unfixed(self.coefs, self.xs, self.c)
        if state is None:
            return False
        total, a, x = state
        if x is None:
            return total != 0
        return total % a != 0 or not x.contains(-total // a)
