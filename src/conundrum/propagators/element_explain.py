"""Explanations of ElementVar, result == array[index] over variables (issue 29 slice 6),
for the learning search. (ElementConst is a table: support_explain.py.)

- the index loses i: array[i] and the result share no value just before the change,
  stated as `disjoint_preds` (a bound of each on either side of a cut, or the bounds of
  their overlap and, for each value in it, which of the two lacks it);
- the result loses w: every position either left the index or lacks w in its variable
  (with the index fixed to i: `[index == i]` and array[i] lacking w);
- array[i] loses w (the index fixed to i): `[index == i]` and the result lacking w;
- a failure: every position left the index or is disjoint from the result (with the
  index fixed to i: `[index == i]` and the two disjoint).

"Lacks" is stated as weakly as it can be (packing_explain.lacks). Bounds that moved past
holes name them (reasons.bounds_context). An index or result that is also an array
variable (or the same variable as the other) keeps the generic explanation.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, Pred, contains_in
from conundrum.engine.reasons import bounds_context, removed_values
from conundrum.propagators.alldiff_hall import fixed_at, view_domain
from conundrum.propagators.packing_explain import bound_pred, lacks

REMOVED_LIMIT: Final = 256  # values one entry may remove and be explained value by value


def disjoint_preds(journal: Journal, a: IntView, r: IntView, pos: int,
                   out: list[Pred]) -> bool:
    """Append predicates that held just before pos and say a and r share no value; False
    (out unchanged) if they share one."""
    alo, ahi, abits = view_domain(journal, a, pos)
    rlo, rhi, rbits = view_domain(journal, r, pos)
    if ahi < rlo:  # a below r: cut at ahi
        bound_pred(journal, a, LE, ahi, out)
        bound_pred(journal, r, GE, ahi + 1, out)
        return True
    if rhi < alo:
        bound_pred(journal, r, LE, rhi, out)
        bound_pred(journal, a, GE, rhi + 1, out)
        return True
    if abits < 0 and rbits < 0:
        return False  # two intervals that overlap
    lo = alo if alo > rlo else rlo
    hi = ahi if ahi < rhi else rhi
    start = len(out)
    bound_pred(journal, a if alo >= rlo else r, GE, lo, out)
    bound_pred(journal, a if ahi <= rhi else r, LE, hi, out)
    for w in range(lo, hi + 1):
        if not contains_in(w, alo, ahi, abits):
            lacks(journal, a, w, pos, out)
        elif not contains_in(w, rlo, rhi, rbits):
            lacks(journal, r, w, pos, out)
        else:
            del out[start:]
            return False
    return True


def _removed(journal: Journal, x: IntView, e: int) -> list[int] | None:
    """The view values entry e removed from x (None past REMOVED_LIMIT). Read from the
    removed parts only: a bound moved by one on a domain of 10^18 values is one value, not
    a walk over the domain."""
    gone = removed_values(journal, e, REMOVED_LIMIT)
    if gone is None:
        return None
    off = x.offset
    return [v + off for v in gone]


def _distinct(index: IntView, result: IntView, array: list[IntView]) -> bool:
    """Whether index and result are distinct variables, and neither is in the array."""
    ri = index.root.index
    rr = result.root.index
    if ri == rr:
        return False
    for a in array:
        if a.root.index == ri or a.root.index == rr:
            return False
    return True


def explain_entry(journal: Journal, index: IntView, result: IntView, array: list[IntView],
                  e: int, out: list[Pred]) -> bool:
    """Explain entry e of ElementVar (module docstring); False for the generic one."""
    if not _distinct(index, result, array):
        return False
    start = len(out)
    if _explain(journal, index, result, array, e, out):
        bounds_context(journal, e, None, None, out)
        return True
    del out[start:]
    return False


def _explain(journal: Journal, index: IntView, result: IntView, array: list[IntView],
             e: int, out: list[Pred]) -> bool:
    """The reasons of entry e's removed values (bounds_context adds the rest)."""
    v = journal.var[e]
    n = len(array)
    ilo, ihi, ibits = view_domain(journal, index, e)
    if v == index.root.index:
        gone = _removed(journal, index, e)
        if gone is None:
            return False
        for i in gone:
            if 0 <= i < n and not disjoint_preds(journal, array[i], result, e, out):
                return False
        return True
    if v == result.root.index:
        gone = _removed(journal, result, e)
        if gone is None:
            return False
        if ilo == ihi:
            if not 0 <= ilo < n:
                return False
            fixed_at(journal, index, e, out)
            for w in gone:
                if not lacks(journal, array[ilo], w, e, out):
                    return False
            return True
        stated: set[int] = set()  # positions whose absence from the index is stated
        for w in gone:
            for i in range(n):
                if not contains_in(i, ilo, ihi, ibits):
                    if i not in stated:
                        stated.add(i)
                        lacks(journal, index, i, e, out)
                elif not lacks(journal, array[i], w, e, out):
                    return False
        return True
    # an array variable: only changed once the index is fixed
    if ilo != ihi or not 0 <= ilo < n or array[ilo].root.index != v:
        return False
    gone = _removed(journal, array[ilo], e)
    if gone is None:
        return False
    fixed_at(journal, index, e, out)
    for w in gone:
        if not lacks(journal, result, w, e, out):
            return False
    return True


def explain_failure(journal: Journal, index: IntView, result: IntView,
                    array: list[IntView], out: list[Pred]) -> bool:
    """Explain a failure of ElementVar now (module docstring); False if no reason found."""
    if not _distinct(index, result, array):
        return False
    now = len(journal)
    n = len(array)
    ilo, ihi, ibits = view_domain(journal, index, now)
    start = len(out)
    if ilo == ihi:
        if 0 <= ilo < n and disjoint_preds(journal, array[ilo], result, now, out):
            fixed_at(journal, index, now, out)
            return True
        return False
    for i in range(n):
        if not contains_in(i, ilo, ihi, ibits):
            lacks(journal, index, i, now, out)
        elif not disjoint_preds(journal, array[i], result, now, out):
            del out[start:]
            return False
    return True
