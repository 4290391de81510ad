"""Reified linear constraints: b <=> (sum(a_i x_i) + c  REL  0), b a 0/1 variable.

Every reified or Boolean construct of the model (x == 3 used as a value, &, |, ~,
implication, decompositions of globals) compiles to these, so they must be exact: once b
is decided they filter like the plain linear propagators; before that they decide b as
soon as the bounds entail or refute the relation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine import BOUNDS, DOMAIN, IntView, Propagator, Solver
from conundrum.engine.literals import GE, LE, NE, Pred, contains_in, on_view
from conundrum.propagators.linear import (
    linear_bounds,
    one_unfixed,
    propagate_eq,
    propagate_le,
    propagate_ne,
)
from conundrum.propagators.linear_explain import (
    MAX,
    MIN,
    explain_all_fixed,
    explain_bounds,
    explain_failure,
    explain_removal,
    extreme,
    fixed_preds,
    term_bounds,
)

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal

NEGATION: Final = {"le": "gt", "eq": "ne", "ne": "eq"}


class ReifiedLinear(Propagator):
    """b <=> (sum(a_i x_i) + c REL 0) with REL in le, eq, ne.

    Under a learning search it explains itself with the linear explanations
    (linear_explain.py): a term's change by `[b == value]` and the sum's reasons for the
    relation b enforces (divisibility left generic, as in LinearEq: the journal's payload
    says which reasoning made it); b decided by the bounds of the terms that entail or
    refute the relation, or by the fixed terms and the missing value of the last one."""

    priority = 0
    explains = True

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
            return propagate_eq(self.coefs, self.xs, self.c, journal=self.solver.journal)
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

    # ------------------------------------------------------------ explaining
    def _b_inside(self) -> bool:
        """Whether b is also a term (then the explanations below do not apply)."""
        r = self.b.root
        for x in self.xs:
            if x.root is r:
                return True
        return False

    def _b_value(self, journal: Journal, pos: int, out: list[Pred]) -> int:
        """b's value just before position pos, its predicate appended; -1 if unfixed."""
        r = self.b.root
        i = r.index
        lo, hi, bits = journal.domain_at(i, journal.entry_before(i, pos))
        if lo != hi:
            return -1
        fixed_preds(journal, r, lo, bits, out)
        return lo + self.b.offset

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        if self._b_inside():
            return False
        if journal.var[e] == self.b.root.index:
            return self._explain_decided(journal, e, out)
        start = len(out)
        value = self._b_value(journal, e, out)
        if value < 0 or not self._explain_enforced(journal, value, e, out):
            del out[start:]
            return False
        return True

    def _explain_enforced(self, journal: Journal, value: int, e: int,
                          out: list[Pred]) -> bool:
        """A term's change made by the relation that b == value enforces."""
        rel = self.rel if value == 1 else NEGATION[self.rel]
        if rel == "le":
            return explain_bounds(journal, self.coefs, self.xs, self.c, e, False, out)
        if rel == "gt":
            return explain_bounds(journal, self.neg_coefs, self.xs, 1 - self.c, e, False,
                                  out)
        if rel == "eq":
            if journal.code[e] != 0:
                return False  # divisibility reasoning: generic
            return explain_bounds(journal, self.coefs, self.xs, self.c, e, True, out)
        return explain_removal(journal, self.xs, e, out)

    def _explain_decided(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        """b fixed by entry e: the terms' bounds just before e entail the relation (b = 1)
        or refute it (b = 0), or (== and !=) the value the last unfixed term needs is
        missing. False if none of these holds there."""
        coefs, xs, c = self.coefs, self.xs, self.c
        value = journal.domain_at(self.b.root.index, e)[0] + self.b.offset
        low = extreme(journal, coefs, xs, c, e, MIN)
        high = extreme(journal, coefs, xs, c, e, MAX)
        if self.rel == "le":
            if value == 1 and high <= 0:
                term_bounds(journal, coefs, xs, -1, e, MAX, out)
                return True
            if value == 0 and low > 0:
                term_bounds(journal, coefs, xs, -1, e, MIN, out)
                return True
            return False
        holds = 1 if self.rel == "eq" else 0  # b's value when the sum is 0
        if value != holds and low > 0:
            term_bounds(journal, coefs, xs, -1, e, MIN, out)
            return True
        if value != holds and high < 0:
            term_bounds(journal, coefs, xs, -1, e, MAX, out)
            return True
        if value == holds and low == 0 and high == 0:
            term_bounds(journal, coefs, xs, -1, e, MIN, out)
            term_bounds(journal, coefs, xs, -1, e, MAX, out)
            return True
        return value != holds and self._explain_missing(journal, e, out)

    def _explain_missing(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        """The sum cannot be 0 just before e: every term fixed but one, whose needed value
        is no integer or is missing from its domain (`_value_excluded`)."""
        coefs, xs = self.coefs, self.xs
        free = -1
        total = self.c
        for k in range(len(xs)):
            x = xs[k]
            i = x.root.index
            lo, hi, _ = journal.domain_at(i, journal.entry_before(i, e))
            if lo == hi:
                total += coefs[k] * (lo + x.offset)
            elif free >= 0:
                return False
            else:
                free = k
        start = len(out)
        for k in range(len(xs)):
            if k != free:
                r = xs[k].root
                lo, _, bits = journal.domain_at(r.index, journal.entry_before(r.index, e))
                fixed_preds(journal, r, lo, bits, out)
        if free < 0 or total % coefs[free] != 0:
            return True  # no term left, or no integer value makes the sum 0
        x = xs[free]
        w = -total // coefs[free]  # the value x needs (a view value)
        i = x.root.index
        lo, hi, bits = journal.domain_at(i, journal.entry_before(i, e))
        lo += x.offset
        hi += x.offset
        if w < lo:
            if w + 1 - x.offset > journal.root_lo[i]:
                out.append(on_view(x, GE, w + 1))
        elif w > hi:
            if w - 1 - x.offset < journal.root_hi[i]:
                out.append(on_view(x, LE, w - 1))
        elif bits < 0 or (bits >> (w - lo)) & 1:
            del out[start:]
            return False  # w is still possible
        elif contains_in(w - x.offset, journal.root_lo[i], journal.root_hi[i],
                         journal.root_bits[i]):
            out.append(on_view(x, NE, w))  # (else a root fact)
        return True

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        if self._b_inside():
            return False
        start = len(out)
        value = self._b_value(journal, len(journal), out)
        if value >= 0:
            rel = self.rel if value == 1 else NEGATION[self.rel]
            if rel == "le" and explain_failure(journal, self.coefs, self.xs, self.c, False,
                                               out):
                return True
            if rel == "gt" and explain_failure(journal, self.neg_coefs, self.xs, 1 - self.c,
                                               False, out):
                return True
            if rel == "eq" and journal.current_code == 0 and explain_failure(
                    journal, self.coefs, self.xs, self.c, True, out):
                return True
            if rel == "ne" and all(x.lo == x.hi for x in self.xs):
                explain_all_fixed(journal, self.xs, out)
                return True
        del out[start:]
        return False


class ReifiedValue(ReifiedLinear):
    """b <=> (x == v) or b <=> (x != v): ReifiedLinear's case of one term with a unit
    coefficient (MiniZinc's `int_eq_reif(x, 3, b)`, a value's literal), which models of
    reified decompositions hold by the thousand. It is woken by every change of x (a hole
    at v decides b at once, where the sum's bounds would not notice it) and decides in
    constant time; it makes the inferences ReifiedLinear makes, so it is explained as one.
    Posted by `reified_linear` below, never with b among the terms."""

    def __init__(self, solver: Solver, b: IntView, rel: str, coefs: list[int],
                 xs: list[IntView], c: int) -> None:
        super().__init__(solver, b, rel, coefs, xs, c)
        self.x = xs[0]
        self.value = -c * coefs[0]  # a x + c == 0 with a = +-1: x == -c / a == -c a
        self.equal = rel == "eq"
        self.idempotent = True

    def post(self) -> None:
        self.x.subscribe(self, DOMAIN)
        self.b.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        b, x, v = self.b, self.x, self.value
        if b.lo == b.hi:
            if (b.lo == 1) == self.equal:
                journal = self.solver.journal
                if journal is not None:
                    journal.current_code = 0  # no divisibility reasoning (see explain)
                x.assign(v)
            else:
                x.remove(v)
                if x.contains(v):
                    return  # an interior value of a bounds-only domain: wait for a bound
        elif not x.contains(v):
            b.assign(0 if self.equal else 1)
        elif x.lo == x.hi:
            b.assign(1 if self.equal else 0)
        else:
            return
        self.deactivate()


class ReifiedBound(ReifiedLinear):
    """b <=> (a x + c <= 0), i.e. b <=> x <= t (a > 0) or b <=> x >= t (a < 0):
    ReifiedLinear's case of one term under `le` (MiniZinc's `int_le_reif(1, x, b)`, a
    bound's literal; a routing model holds 3,904 of them, and the sum's bounds over one
    term were a third of its search). Constant time; it makes the inferences ReifiedLinear
    makes (the same bound of x for each value of b), so it is explained as one. Posted by
    `reified_linear` below, never with b as the term."""

    def __init__(self, solver: Solver, b: IntView, rel: str, coefs: list[int],
                 xs: list[IntView], c: int) -> None:
        super().__init__(solver, b, rel, coefs, xs, c)
        self.x = xs[0]
        a = coefs[0]
        self.upper = a > 0
        # a x + c <= 0 holds for x <= -c / a (a > 0) or for x >= -c / a (a < 0)
        self.bound = (-c) // a if a > 0 else -((-c) // -a)
        self.idempotent = True

    def propagate(self) -> None:
        b, x, t = self.b, self.x, self.bound
        if b.lo == b.hi:
            if (b.lo == 1) == self.upper:
                x.set_max(t if self.upper else t - 1)  # x <= t, or x < t when b refutes
            else:
                x.set_min(t + 1 if self.upper else t)
        elif self.upper:
            if x.hi <= t:
                b.assign(1)
            elif x.lo > t:
                b.assign(0)
            else:
                return
        elif x.lo >= t:
            b.assign(1)
        elif x.hi < t:
            b.assign(0)
        else:
            return
        self.deactivate()


def reified_linear(solver: Solver, b: IntView, rel: str, coefs: list[int],
                   xs: list[IntView], c: int) -> ReifiedLinear:
    """The propagator of b <=> (sum(a_i x_i) + c REL 0): ReifiedValue or ReifiedBound
    where they apply."""
    if len(xs) == 1 and xs[0].root is not b.root:
        if rel == "le":
            return ReifiedBound(solver, b, rel, coefs, xs, c)
        if coefs[0] == 1 or coefs[0] == -1:
            return ReifiedValue(solver, b, rel, coefs, xs, c)
    return ReifiedLinear(solver, b, rel, coefs, xs, c)
