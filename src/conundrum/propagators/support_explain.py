"""Explanations of the constraints that keep the values with a support among a list of
tuples (issue 29 slice 6), for the learning search: Table, and ElementConst as the table
of its pairs (i, array[i]).

A value v removed from x_k had no tuple left: every tuple with v at position k has, at
some other position m, a value t[m] that x_m had already lost. The explanation names one
such loss per tuple (its "killer"), and only those: not the whole domains, as the generic
explanation does. A killer is stated as weakly as it can be: `[x_m >= t[m] + 1]` for a
value below x_m's lower bound (one predicate then kills every tuple below it, and the
bound chosen is the lowest that kills those it must), `[x_m <= t[m] - 1]` above the upper
bound, `[x_m != t[m]]` for a hole. A tuple that a predicate already chosen kills needs no
other; otherwise a killer that only extends a chosen bound is preferred, then a bound,
then a hole. Values that no tuple has are excluded by the constraint alone and need
nothing, and the bounds of x_k that moved past values already gone are stated as in
alldiff_explain.py (the old bound, moved outwards past values that no tuple has; the
holes skipped that some tuple has). A failure is explained by a killer for every tuple.

Positions are views: values are view values, predicates go on the roots.
"""

from __future__ import annotations

from conundrum.engine import IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, NE, Pred, contains_in, on_view
from conundrum.propagators.alldiff_explain import position_of
from conundrum.propagators.alldiff_hall import NONE, view_domain


def columns_of(tuples: list[tuple[int, ...]], arity: int) -> list[dict[int, list[int]]]:
    """For each position, value -> the indices of the tuples with that value there."""
    columns: list[dict[int, list[int]]] = [{} for _ in range(arity)]
    for j in range(len(tuples)):
        t = tuples[j]
        for m in range(arity):
            js = columns[m].get(t[m])
            if js is None:
                columns[m][t[m]] = [j]
            else:
                js.append(j)
    return columns


class _Killers:
    """The predicates chosen so far, per position: a lower bound (`low`, when `has_low`),
    an upper bound, and the values lost inside (a set made at the first: most positions
    have none, and each set is one more object for the collector, per explanation)."""

    __slots__ = ("has_low", "low", "has_high", "high", "holes")

    def __init__(self, arity: int) -> None:
        self.has_low = [False] * arity
        self.low = [0] * arity
        self.has_high = [False] * arity
        self.high = [0] * arity
        self.holes: list[set[int] | None] = [None] * arity

    def kills(self, t: tuple[int, ...], skip: int) -> bool:
        """Whether a chosen predicate already rules tuple t out."""
        for m in range(len(t)):
            if m == skip:
                continue
            v = t[m]
            if (self.has_low[m] and v < self.low[m]) or (self.has_high[m] and v > self.high[m]):
                return True
            holes = self.holes[m]
            if holes is not None and v in holes:
                return True
        return False

    def choose(self, t: tuple[int, ...], skip: int,
               doms: list[tuple[int, int, int]]) -> bool:
        """Choose a killer of tuple t among its positions other than `skip`, by the domains
        `doms`; False if t is alive there."""
        bound = NONE  # the first position whose bound kills t
        hole = NONE
        for m in range(len(t)):
            if m == skip:
                continue
            v = t[m]
            lo, hi, bits = doms[m]
            if v < lo:
                if self.has_low[m]:
                    self.low[m] = max(self.low[m], v + 1)
                    return True
                if bound == NONE:
                    bound = m
            elif v > hi:
                if self.has_high[m]:
                    self.high[m] = min(self.high[m], v - 1)
                    return True
                if bound == NONE:
                    bound = m
            elif hole == NONE and not contains_in(v, lo, hi, bits):
                hole = m
        if bound != NONE:
            v = t[bound]
            if v < doms[bound][0]:
                self.has_low[bound] = True
                self.low[bound] = v + 1
            else:
                self.has_high[bound] = True
                self.high[bound] = v - 1
            return True
        if hole != NONE:
            holes = self.holes[hole]
            if holes is None:
                holes = set()
                self.holes[hole] = holes
            holes.add(t[hole])
            return True
        return False

    def preds(self, journal: Journal, xs: list[IntView], out: list[Pred]) -> None:
        """The chosen predicates, on the roots, root facts left out."""
        for m in range(len(xs)):
            x = xs[m]
            i = x.root.index
            off = x.offset
            if self.has_low[m] and self.low[m] - off > journal.root_lo[i]:
                out.append(on_view(x, GE, self.low[m]))
            if self.has_high[m] and self.high[m] - off < journal.root_hi[i]:
                out.append(on_view(x, LE, self.high[m]))
            holes = self.holes[m]
            if holes is None:
                continue
            for v in sorted(holes):
                if contains_in(v - off, journal.root_lo[i], journal.root_hi[i],
                               journal.root_bits[i]):
                    out.append(on_view(x, NE, v))


def _kill_all(journal: Journal, xs: list[IntView], tuples: list[tuple[int, ...]],
              dead: list[int], skip: int, pos: int, out: list[Pred]) -> bool:
    """Append killers for the tuples `dead` (indices) at the positions other than `skip`,
    by the domains just before journal position pos; False if one of them is alive."""
    doms = [view_domain(journal, x, pos) for x in xs]
    killers = _Killers(len(xs))
    for j in dead:
        t = tuples[j]
        if not killers.kills(t, skip) and not killers.choose(t, skip, doms):
            return False
    killers.preds(journal, xs, out)
    return True


def _outward(journal: Journal, x: IntView, column: dict[int, list[int]], v: int,
             step: int) -> int:
    """The old bound v of x moved outwards (step -1: down) past the values that no tuple
    has or that were never in the domain: the weakest bound the explanation needs. That
    is just short of the nearest value beyond v that some tuple has and the root domain
    held (the root bound if there is none), found among the column's values: a walk
    value by value would cross a bounds-only domain of 10^18 values."""
    i = x.root.index
    off = x.offset
    root_lo = journal.root_lo[i]
    root_hi = journal.root_hi[i]
    root_bits = journal.root_bits[i]
    stop = root_lo + off - 1 if step < 0 else root_hi + off + 1  # beyond the root bound
    for w in column:
        if (w - v) * step > 0 and (w - stop) * step < 0 and \
                contains_in(w - off, root_lo, root_hi, root_bits):
            stop = w
    return stop - step


def explain_removals(journal: Journal, xs: list[IntView], tuples: list[tuple[int, ...]],
                     columns: list[dict[int, list[int]]], e: int, out: list[Pred]) -> bool:
    """Explain entry e: values of one position that no tuple supported any longer (module
    docstring). False (the generic explanation) if the variable is at two positions or a
    removed value still had a tuple."""
    i = journal.var[e]
    k = position_of(xs, i)
    if k == NONE:
        return False
    x = xs[k]
    off = x.offset
    lo, hi, bits = journal.domain_at(i, e)
    plo, phi, pbits = journal.domain_at(i, journal.prev[e])
    lo += off
    hi += off
    plo += off
    phi += off
    column = columns[k]
    dead: list[int] = []
    holes: list[int] = []  # values the moved bounds passed that were already gone
    for v, js in column.items():
        if contains_in(v, lo, hi, bits):
            continue
        if contains_in(v, plo, phi, pbits):
            dead.extend(js)
        elif plo < v < lo or hi < v < phi:
            holes.append(v)
    start = len(out)
    if not _kill_all(journal, xs, tuples, dead, k, e, out):
        del out[start:]
        return False
    r = x.root
    for v in holes:
        if contains_in(v - off, journal.root_lo[i], journal.root_hi[i], journal.root_bits[i]):
            out.append(Pred(r, NE, v - off))
    if lo > plo:
        low = _outward(journal, x, column, plo, -1)
        if low - off > journal.root_lo[i]:
            out.append(Pred(r, GE, low - off))
    if hi < phi:
        high = _outward(journal, x, column, phi, 1)
        if high - off < journal.root_hi[i]:
            out.append(Pred(r, LE, high - off))
    return True


def explain_wipeout(journal: Journal, xs: list[IntView], tuples: list[tuple[int, ...]],
                    out: list[Pred]) -> bool:
    """Explain a failure now: a killer for every tuple (False if one is alive)."""
    start = len(out)
    if _kill_all(journal, xs, tuples, list(range(len(tuples))), NONE, len(journal), out):
        return True
    del out[start:]
    return False


__all__ = ["columns_of", "explain_removals", "explain_wipeout"]
