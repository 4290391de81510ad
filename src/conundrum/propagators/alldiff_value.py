"""all_different by value elimination (forward checking): when a variable is fixed, its
value is removed from the others; and the base class every all_different stage shares.

Implementation notes shared by every stage:

- The variables may be views (`q[i] + i`): two of them may share a variable, which is
  why idempotence is decided on `x.root`.
- Value elimination keeps the variables that are not yet processed in a sparse set (the
  variable list itself, reordered by swaps, and a trailed size): `xs[:nfree]` are
  unprocessed, the others are fixed and their value was already removed from every
  unprocessed variable. Backtracking only restores the size: any order of the list is a
  valid one.
- Bounds-only domains (`var.bits < 0`, see engine/var.py) cannot lose interior values: a
  removal may be a no-op, so a bounds-only variable that becomes fixed is checked against
  the values already processed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.engine import FIX, Inconsistency, IntView, Propagator, Solver
from conundrum.propagators.alldiff_explain import VALUE, explain_entry, explain_failure
from conundrum.state import RevInt

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred
    from conundrum.propagators.alldiff_bounds import HallIntervals


def _has_alias(xs: list[IntView]) -> bool:
    return len({id(x.root) for x in xs}) != len(xs)


def _no_hall_set(xs: list[IntView]) -> bool:
    """True when no set of unfixed variables can be a Hall set: for every k, fewer than k
    unfixed domains have at most k values. Valid once the values of the fixed variables are
    eliminated (a Hall set may contain fixed variables, but then its unfixed part is a Hall
    set of what is left); a bounds-only domain keeps such values inside, so with one of
    them the answer is False. (Sizes are counted, not sorted: O(n).)"""
    n = len(xs)
    count = [0] * (n + 1)  # count[s]: unfixed domains of size s (s <= n)
    unfixed = 0
    for x in xs:
        if x.lo != x.hi:
            if x.bits < 0:
                return False
            unfixed += 1
            size = x.card
            if size <= n:
                count[size] = count[size] + 1  # (`+=` on an item: a generic call compiled)
    return not hall_count(count, unfixed)


def hall_count(count: list[int], most: int) -> bool:
    """Whether, for some k in 2..most, at least k domains have at most k values
    (count[s]: the domains of s values), as a Hall set of k variables needs."""
    at_most = 0
    for k in range(2, most + 1):
        at_most += count[k]
        if at_most >= k:
            return True
    return False


class ValueElimination(Propagator):
    """Shared machinery: remove the value of every newly fixed variable from the others.

    Under a learning search each stage explains its inferences (alldiff_explain.py) with
    the kinds of reason its filtering uses: `reasons` is VALUE here (a removed value is
    another variable's), INTERVALS for the bounds stage, SETS for the domain stage."""

    skip_zero = False
    explains = True
    reasons = VALUE

    def __init__(self, solver: Solver, xs: list[IntView]) -> None:
        super().__init__(solver)
        # kept as a sparse set: xs[:nfree] are not yet processed, the others are fixed and
        # their values removed from the unprocessed ones (swaps reorder xs itself)
        self.xs = list(xs)
        self.n = len(self.xs)
        self.nfree = RevInt(solver.trail, self.n)
        # the value each variable was matched to last, moved along with its variable
        # (AllDifferentDomain's; the other stages have none)
        self.hint: list[int] | None = None
        # With a variable appearing twice, our own removals can wake us usefully.
        self.idempotent = not _has_alias(self.xs)

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return explain_entry(journal, self.xs, e, self.skip_zero, self.reasons, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_failure(journal, self.xs, self.skip_zero, self.reasons, out)

    def _eliminate(self) -> int:
        """Process newly fixed variables until none is left; return the new nfree."""
        xs = self.xs
        hint = self.hint
        n = self.n
        nfree: int = self.nfree.value
        start = nfree
        skip_zero = self.skip_zero
        again = True
        while again:
            again = False
            i = 0
            while i < nfree:
                x = xs[i]
                if x.lo != x.hi:
                    i += 1
                    continue
                v = x.lo
                nfree -= 1
                xs[i] = xs[nfree]
                xs[nfree] = x
                if hint is not None:
                    h = hint[i]
                    hint[i] = hint[nfree]
                    hint[nfree] = h
                if skip_zero and v == 0:
                    continue
                if x.bits < 0:
                    # An earlier removal of v from x may have been a no-op (interior value).
                    for p in range(nfree + 1, n):
                        if xs[p].lo == v:
                            raise Inconsistency
                for p in range(nfree):
                    y = xs[p]
                    if y.lo <= v <= y.hi:
                        y.remove(v)
                        if y.lo == y.hi and p < i:
                            again = True  # fixed behind the scan: look again
        if nfree != start:
            self.nfree.set(nfree)
        return nfree

    def _taken(self, nfree: int) -> set[int]:
        """The values of the fixed variables (xs[nfree:])."""
        xs = self.xs
        return {xs[p].lo for p in range(nfree, self.n)}

    def _skip_taken_bounds(self, nfree: int, taken: set[int]) -> None:
        """Move the bounds of unfixed bounds-only domains past the values of fixed variables
        (their removal was a no-op while the value was interior)."""
        xs = self.xs
        for p in range(nfree):
            y = xs[p]
            if y.bits < 0:
                skip_values(y, taken)

    def _hall_fixpoint(self, hall: HallIntervals) -> None:
        """Value elimination and bounds consistency by Hall intervals, until neither
        prunes (the bounds stage; the domain stage's fallback on wide values)."""
        xs = self.xs
        n = self.n
        lo, hi = hall.lo, hall.hi
        while True:
            if self._eliminate() == 0:
                self.deactivate()
                return
            if _no_hall_set(xs):
                return
            for k in range(n):
                x = xs[k]
                lo[k] = x.lo
                hi[k] = x.hi
            if not hall.narrow():
                raise Inconsistency
            again = False
            for k in range(n):
                x = xs[k]
                l, h = lo[k], hi[k]
                if l != x.lo or h != x.hi:
                    was_fixed = x.lo == x.hi
                    x.set_min(l)
                    x.set_max(h)
                    # holes moved the bound further, or a fixed value needs eliminating
                    if x.lo != l or x.hi != h or (x.lo == x.hi and not was_fixed):
                        again = True
            if not again:
                return


def skip_values(x: IntView, excluded: set[int]) -> None:
    """Move x's bounds past the values in `excluded` (a bounds-only domain cannot lose
    them inside; each step removes one of them, so this is O(len(excluded)))."""
    while x.lo in excluded:
        x.set_min(x.lo + 1)
    while x.hi in excluded:
        x.set_max(x.hi - 1)


class AllDifferentValue(ValueElimination):
    """all_different(xs) by value elimination: a fixed value is removed from the others."""

    priority = 0

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, FIX)
        self.propagate()

    def propagate(self) -> None:
        nfree = self._eliminate()
        if nfree == 0 or (nfree == 1 and self.xs[0].bits >= 0):
            self.deactivate()


class AllDifferentExcept0(AllDifferentValue):
    """all_different_except_0(xs): non-zero values pairwise different (value elimination)."""

    skip_zero = True
