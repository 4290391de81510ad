"""Bounds-consistent linear constraints: sum(a_i * x_i) + c  REL  0, REL one of <=, ==, !=.

The filtering is written as plain functions over the first n terms of (coefficients,
variables) and a constant, so that the reified versions (reified.py) run exactly the same
code once their literal is decided.

Compiled code note: mypyc multiplies machine integers inline only when both are
non-negative (a negative factor takes a slow path through Python objects), so the hot loops
below multiply a coefficient by a bound through `times` (engine/products.py), or inline
the same way where a call would cost the pure-Python build (`linear_bounds`), and
coefficients +1 and -1 (differences, sums) do not multiply at all.

The propagators keep their terms incrementally (`_Terms`): the unfixed terms are the first
`nfree` of their arrays and the fixed ones sit behind them, their total folded into a
trailed constant. A call only walks the unfixed terms, so a long sum costs little once most
of it is decided (MiniCP's Sum, Gecode's linear propagators do the same).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.engine import BOUNDS, FIX, Inconsistency, IntView, Propagator, Solver
from conundrum.engine.products import times
from conundrum.propagators.linear_explain import (
    explain_all_fixed,
    explain_bounds,
    explain_failure,
    explain_removal,
)
from conundrum.propagators.linear_modular import can_use_divisibility, modular_eq
from conundrum.state import RevInt

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred


def linear_bounds(coefs: list[int], xs: list[IntView], c: int, n: int = -1) -> tuple[int, int]:
    """The smallest and largest value of sum(a_i x_i) + c over the first n terms (all by
    default), over the current bounds."""
    lo = hi = c
    n = len(xs) if n < 0 else n
    # zip: compiled, a for loop's list reads skip an indexed read's call and bounds check
    for a, x in zip(coefs, xs):
        if n == 0:
            break
        n -= 1
        if a == 1:
            lo += x.lo
            hi += x.hi
        elif a == -1:
            lo -= x.hi
            hi -= x.lo
        elif a > 0:  # (the signs out of the products inline: see the module's note)
            v = x.lo
            lo += a * v if v >= 0 else -(a * -v)
            v = x.hi
            hi += a * v if v >= 0 else -(a * -v)
        else:
            b = -a
            v = x.hi
            lo -= b * v if v >= 0 else -(b * -v)
            v = x.lo
            hi -= b * v if v >= 0 else -(b * -v)
    return lo, hi


def propagate_le(coefs: list[int], xs: list[IntView], c: int, n: int = -1) -> bool:
    """Filter sum(a_i x_i) + c <= 0 over the first n terms. Returns True when entailed.
    One pass is a fixpoint: tightening a term lowers only the sum's upper bound."""
    if n < 0:
        n = len(xs)
    lo, hi = linear_bounds(coefs, xs, c, n)
    return filter_le(coefs, xs, n, lo, hi)


def filter_le(coefs: list[int], xs: list[IntView], n: int, lo: int, hi: int) -> bool:
    """propagate_le over the first n terms, the sum's bounds (lo, hi) given."""
    if lo > 0:
        raise Inconsistency
    if hi <= 0:
        return True
    # Each term may grow by at most the slack -lo above its own minimum.
    slack = -lo
    for a, x in zip(coefs, xs):  # (zip: see linear_bounds)
        if n == 0:
            break
        n -= 1
        if a > 0:
            if a * (x.hi - x.lo) > slack:
                x.set_max(x.lo + slack // a)
        elif -a * (x.hi - x.lo) > slack:
            x.set_min(x.hi - slack // (-a))
    return False


def bounds_eq(coefs: list[int], xs: list[IntView], n: int, lo: int, hi: int) -> bool:
    """Bounds consistency of sum + c == 0 over the first n terms, to its fixpoint, given
    the sum's bounds (lo, hi) (linear_bounds): True if every term is fixed. The bounds
    follow each tightening, so they are computed once per call."""
    while True:
        if lo > 0 or hi < 0:
            raise Inconsistency
        if lo == hi:
            return True
        changed = False
        left = n
        for a, x in zip(coefs, xs):  # (zip: see linear_bounds)
            if left == 0:
                break
            left -= 1
            xl = x.lo
            xh = x.hi
            if xl == xh:
                continue
            # a*x = -(the rest), and the rest lies in [lo - a*xl, hi - a*xh] (a > 0)
            if a == 1:
                new_hi = xl - lo
                new_lo = xh - hi
            elif a == -1:
                new_hi = xl + hi
                new_lo = xh + lo
            elif a > 0:
                new_hi = xl + (-lo) // a
                new_lo = xh - hi // a
            else:
                new_hi = xl + hi // (-a)
                new_lo = xh - (-lo) // (-a)
            if new_hi < xh or new_lo > xl:
                x.set_bounds(new_lo, new_hi)
                up = x.lo - xl  # >= 0: how far each bound moved in
                down = xh - x.hi
                changed = True
                if a == 1:
                    lo += up
                    hi -= down
                elif a == -1:
                    lo += down
                    hi -= up
                elif a > 0:
                    lo += a * up
                    hi -= a * down
                else:
                    lo += (-a) * down
                    hi -= (-a) * up
                if lo > 0 or hi < 0:
                    raise Inconsistency
        if not changed:
            return False


def propagate_eq(coefs: list[int], xs: list[IntView], c: int, modular: bool = True,
                 n: int = -1, journal: Journal | None = None) -> bool:
    """Filter sum(a_i x_i) + c == 0: bounds consistency plus divisibility reasoning.
    Returns True when entailed (all fixed). With a journal (a learning search), each
    change is marked with the reasoning it comes from: payload 0 bounds, 1 divisibility."""
    if n < 0:
        n = len(xs)
    lo, hi = linear_bounds(coefs, xs, c, n)
    return propagate_eq_from(coefs, xs, c, modular, n, journal, lo, hi)


def propagate_eq_from(coefs: list[int], xs: list[IntView], c: int, modular: bool, n: int,
                      journal: Journal | None, lo: int, hi: int,
                      done: RevInt | None = None) -> bool:
    """propagate_eq over the first n terms, the sum's bounds (lo, hi) given (`done`: see
    modular_eq)."""
    while True:
        if journal is not None:
            journal.current_code = 0
        if bounds_eq(coefs, xs, n, lo, hi):
            return True
        if journal is not None:
            journal.current_code = 1
        if not (modular and modular_eq(coefs, xs, c, n, done)):
            return False
        lo, hi = linear_bounds(coefs, xs, c, n)


def one_unfixed(coefs: list[int], xs: list[IntView], c: int,
                n: int = -1) -> tuple[int, int, IntView | None] | None:
    """(c + the fixed terms, a, x) with (a, x) the only unfixed term, or x None when every
    term is fixed; None when two or more terms are unfixed."""
    free: IntView | None = None
    free_a = 0
    total = c
    for k in range(len(xs) if n < 0 else n):
        x = xs[k]
        if x.lo == x.hi:
            total += times(coefs[k], x.lo)
        elif free is None:
            free = x
            free_a = coefs[k]
        else:
            return None
    return total, free_a, free


def propagate_ne(coefs: list[int], xs: list[IntView], c: int, n: int = -1) -> bool:
    """Filter sum(a_i x_i) + c != 0: act when at most one term is unfixed."""
    state = one_unfixed(coefs, xs, c, n)
    if state is None:
        return False
    total, a, x = state
    if x is None:
        if total == 0:
            raise Inconsistency
        return True
    if total % a:
        return True
    value = -total // a
    x.remove(value)
    # A bounds-only domain may keep an interior value: stay awake until it is gone.
    return not x.contains(value)


class _Terms(Propagator):
    """A linear propagator's terms, kept incrementally: coefs[:nfree] and xs[:nfree] are the
    terms not yet seen fixed; `const` (trailed) is c plus the fixed terms behind them."""

    def __init__(self, solver: Solver, coefs: list[int], xs: list[IntView], c: int) -> None:
        super().__init__(solver)
        self.coefs = list(coefs)
        self.xs = list(xs)
        self.c = c
        self.nfree = RevInt(solver.trail, len(self.xs))
        self.const = RevInt(solver.trail, c)

    def settle(self) -> tuple[int, int, int, int]:
        """Move the newly fixed terms behind the free ones and sum the bounds (those of
        linear_bounds) in the same pass: (nfree, const, lo, hi)."""
        coefs, xs = self.coefs, self.xs
        nfree: int = self.nfree.value
        c: int = self.const.value
        start = nfree
        lo = hi = 0
        k = 0
        while k < nfree:
            x = xs[k]
            xl = x.lo
            xh = x.hi
            a = coefs[k]
            if xl == xh:
                c += xl if a == 1 else -xl if a == -1 else times(a, xl)
                nfree -= 1
                xs[k] = xs[nfree]
                xs[nfree] = x
                coefs[k] = coefs[nfree]
                coefs[nfree] = a
                continue
            k += 1
            if a == 1:
                lo += xl
                hi += xh
            elif a == -1:
                lo -= xh
                hi -= xl
            elif a > 0:  # (the signs out of the products inline, as in linear_bounds)
                lo += a * xl if xl >= 0 else -(a * -xl)
                hi += a * xh if xh >= 0 else -(a * -xh)
            else:
                b = -a
                lo -= b * xh if xh >= 0 else -(b * -xh)
                hi -= b * xl if xl >= 0 else -(b * -xl)
        if nfree != start:
            self.nfree.set(nfree)
            self.const.set(c)
        return nfree, c, lo + c, hi + c


class LinearLe(_Terms):
    """sum(a_i x_i) + c <= 0."""

    priority = 1
    idempotent = True  # one pass is a fixpoint: bounds only shrink towards the slack
    makes_holes = False
    explains = True

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return explain_bounds(journal, self.coefs, self.xs, self.c, e, False, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_failure(journal, self.coefs, self.xs, self.c, False, out)

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        n, c, lo, hi = self.settle()  # (no `_`: compiled, it boxes its item)
        if filter_le(self.coefs, self.xs, n, lo, hi):
            self.deactivate()


class Precedence(LinearLe):
    """x - y + c <= 0, i.e. x + c <= y: LinearLe's case of two unit terms of opposite
    signs (precedences of a schedule, orders of a sequence, MiniZinc's `int_le(x, y)`),
    bounds consistent in two comparisons, without the general row's sums and bookkeeping
    of fixed terms (prop_stress's 5,251 rows, 27M propagations at the root). It makes the
    inferences LinearLe makes, so it is explained (and relaxed) as one. x and y are views
    of two different variables."""

    def __init__(self, solver: Solver, x: IntView, y: IntView, c: int) -> None:
        super().__init__(solver, [1, -1], [x, y], c)
        self.x, self.y = x, y

    def propagate(self) -> None:
        x, y, c = self.x, self.y, self.c
        if x.hi + c > y.lo:
            y.set_min(x.lo + c)
            x.set_max(y.hi - c)
            if x.hi + c > y.lo:
                return
        self.deactivate()


class LinearEq(_Terms):
    """sum(a_i x_i) + c == 0, bounds consistent, with divisibility reasoning.

    Under a learning search it marks what it infers in the journal's payload: 0 for
    bounds reasoning (explained by the other terms' bounds), 1 for divisibility (left to
    the generic explanation)."""

    priority = 1
    idempotent = True
    explains = True

    def __init__(self, solver: Solver, coefs: list[int], xs: list[IntView], c: int) -> None:
        super().__init__(solver, coefs, xs, c)
        self.modular = can_use_divisibility(coefs)
        self.makes_holes = self.modular  # only divisibility reasoning removes inner values
        # (see modular_eq; only a row with divisibility reasoning needs it)
        self.modular_done = RevInt(solver.trail, -1) if self.modular else None

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        n, c, lo, hi = self.settle()
        if propagate_eq_from(self.coefs, self.xs, c, self.modular, n, self.solver.journal,
                             lo, hi, self.modular_done):
            self.deactivate()

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        if journal.code[e] != 0:
            return False
        return explain_bounds(journal, self.coefs, self.xs, self.c, e, True, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        if journal.current_code != 0:
            return False
        return explain_failure(journal, self.coefs, self.xs, self.c, True, out)


class LinearNe(_Terms):
    """sum(a_i x_i) + c != 0."""

    priority = 0
    idempotent = True
    explains = True

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return explain_removal(journal, self.xs, e, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        for x in self.xs:
            if x.lo != x.hi:
                return False
        explain_all_fixed(journal, self.xs, out)
        return True

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, FIX)
        self.propagate()

    def propagate(self) -> None:
        n, c, lo, hi = self.settle()  # (lo, hi unused: see LinearLe)
        if propagate_ne(self.coefs, self.xs, c, n):
            self.deactivate()
