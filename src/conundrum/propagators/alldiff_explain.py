"""Explanations of the all_different stages (issue 29 slice 6), for the learning search.

Every inference of all_different(x_1..x_n) removes values from one variable x_j, and a
removed value w is always excluded for one of three reasons, each a few predicates on the
*other* variables as they were just before the change:

- another variable is fixed to w (value elimination): `[x_k == w]`;
- w lies in a Hall interval [a, b] (bounds stage): b - a + 1 other variables have their
  bounds inside it, `[x_k >= a]`, `[x_k <= b]` for each, so they use every value of it;
- w lies in a Hall set (domain stage): k other variables whose domains lie inside a set U
  of k values holding w; each says "my domain is inside U" with its bounds and the holes
  of U between them (`inside_preds`). Such a set is found by a matching of the other
  variables and the alternating paths from w (`hall_set`): when they reach no free value,
  the variables and values they reach are one (Régin's removals always have one).

An entry that moved a bound also needs the values between the old and the new bound that
were already gone (the holes it skipped) and the old bound itself; both are left out where
a Hall set or interval of the explanation excludes those values anyway, which makes the
explanation shorter and more general. Failures are explained by two variables fixed to
one value, or by more variables than values: bounds inside an interval too small for
them, or a set of domains found by the matching (domain stage; bounds stage when holes
made the failure). Root facts are left out, as in linear_explain.py. A variable that
occurs twice (two views of one variable) keeps the generic explanation, and so does a
value with no reason of the stage's kinds (none is known to occur).

The positions work in view values (root value + offset); predicates go on the roots.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntView
from conundrum.engine.bits import offsets
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, NE, Pred, contains_in
from conundrum.propagators.alldiff_hall import (
    DIRECT_SPAN,
    NONE,
    deficient_set,
    fixed_at,
    hall_set,
    in_root,
    inside_preds,
    view_domain,
)


def position_of(xs: list[IntView], i: int) -> int:
    """The position of root variable i among xs; NONE if it is absent or occurs twice."""
    j = NONE
    for k in range(len(xs)):
        if xs[k].root.index == i:
            if j != NONE:
                return NONE
            j = k
    return j


def fixed_owner(journal: Journal, xs: list[IntView], j: int, v: int, pos: int,
                skip_zero: bool) -> int:
    """The position of a variable other than xs[j] (and of another root) fixed to the view
    value v just before pos; NONE if there is none (or v is 0 with `skip_zero`). Domains
    only shrink, so such a variable is fixed to v now too: the current domains sift the
    candidates and the journal confirms one."""
    if skip_zero and v == 0:
        return NONE
    skip = xs[j].root.index
    for k in range(len(xs)):
        x = xs[k]
        if x.lo != v or x.hi != v or x.root.index == skip:
            continue
        lo, hi, _ = view_domain(journal, x, pos)
        if lo == v and hi == v:
            return k
    return NONE


def hall_interval(journal: Journal, xs: list[IntView], j: int, pos: int, v: int,
                  upward: bool) -> tuple[int, int, list[int]] | None:
    """A Hall interval [a, b] holding v among the variables other than xs[j] (bounds just
    before pos): b - a + 1 of them (the list returned) have their bounds inside it. The one
    reaching furthest up (`upward`: largest b, then largest a) or down (smallest a, then
    smallest b); None if there is none. O(n^2) after a sort."""
    los: list[int] = []
    his: list[int] = []
    for k in range(len(xs)):
        lo, hi, _ = view_domain(journal, xs[k], pos)
        los.append(lo)
        his.append(hi)
    order = sorted((k for k in range(len(xs)) if k != j), key=his.__getitem__)
    best: tuple[int, int, list[int]] | None = None
    for a in sorted({los[k] for k in order if los[k] <= v}):
        inside: list[int] = []
        for k in order:
            if los[k] < a:
                continue
            inside.append(k)
            b = his[k]
            if b < v or len(inside) < b - a + 1:
                continue
            if best is None or (upward and (b > best[1] or (b == best[1] and a > best[0]))) \
                    or (not upward and (a < best[0] or (a == best[0] and b < best[1]))):
                best = (a, b, inside[:b - a + 1])
            if not upward:
                break  # for this a, the smallest b is the best one
    return best


def overfull_interval(journal: Journal, xs: list[IntView], pos: int) -> list[int] | None:
    """b - a + 2 variables with their bounds inside some [a, b] just before pos (they
    cannot all differ), or None."""
    los: list[int] = []
    his: list[int] = []
    for k in range(len(xs)):
        lo, hi, _ = view_domain(journal, xs[k], pos)
        los.append(lo)
        his.append(hi)
    order = sorted(range(len(xs)), key=his.__getitem__)
    for a in sorted(set(los)):
        inside: list[int] = []
        for k in order:
            if los[k] >= a:
                inside.append(k)
                if len(inside) > his[k] - a + 1:
                    return inside
    return None


def _interval_preds(journal: Journal, xs: list[IntView], members: list[int], a: int,
                    b: int, pos: int, out: list[Pred]) -> None:
    """The members' bounds inside [a, b] (their values when fixed)."""
    allowed = set(range(a, b + 1))
    for k in members:
        inside_preds(journal, xs[k], pos, allowed, out)


# ---------------------------------------------------------------------- Hall sets
# ---------------------------------------------------------------------- entries
BOUNDS_ONLY_LIMIT: Final = 4096  # values a bounds-only domain may lose in one explained entry

VALUE: Final = 0  # value elimination only
INTERVALS: Final = 1  # ... and Hall intervals
SETS: Final = 2  # ... and Hall sets


class _Walk:
    """What explaining one entry collects besides predicates: the values left for one Hall
    set (SETS), the holes passed over (stated last, unless a Hall set or interval covers
    them), and the values the Hall intervals and sets exclude (`covered`)."""

    __slots__ = ("pending", "holes", "covered")

    def __init__(self) -> None:
        self.pending: list[int] = []
        self.holes: list[int] = []
        self.covered: set[int] = set()


def _exclude(journal: Journal, xs: list[IntView], j: int, skip_zero: bool, v: int, e: int,
             reasons: int, walk: _Walk, out: list[Pred]) -> bool:
    """Explain that the variable of entry e cannot take the view value v (it could before
    e): a variable fixed to v, else (SETS) v waits for the Hall set; False if neither."""
    k = fixed_owner(journal, xs, j, v, e, skip_zero)
    if k != NONE:
        fixed_at(journal, xs[k], e, out)
        return True
    if reasons == SETS:
        walk.pending.append(v)
        return True
    return False


def _walk_bound(journal: Journal, xs: list[IntView], j: int, e: int, skip_zero: bool,
                reasons: int, prev: tuple[int, int, int], stop: int, step: int, walk: _Walk,
                out: list[Pred]) -> bool:
    """Explain the values from the old bound of xs[j] (view domain `prev` before entry e)
    up (step 1) or down (step -1) to `stop`, excluded: each one a hole already, a value of a
    fixed variable, in a Hall interval (INTERVALS: the walk jumps past it) or left for the
    Hall set (SETS). False if some value has no such reason."""
    plo, phi, pbits = prev
    v = plo if step > 0 else phi
    while v != stop:
        if not contains_in(v, plo, phi, pbits):
            walk.holes.append(v)
            v += step
        elif reasons == INTERVALS and fixed_owner(journal, xs, j, v, e, skip_zero) == NONE:
            h = hall_interval(journal, xs, j, e, v, step > 0)
            if h is None:
                return False
            a, b, members = h
            _interval_preds(journal, xs, members, a, b, e, out)
            walk.covered.update(range(a, b + 1))
            v = b + 1 if step > 0 else a - 1
            if (v - stop) * step > 0:
                v = stop
        else:
            if not _exclude(journal, xs, j, skip_zero, v, e, reasons, walk, out):
                return False
            v += step
    return True


def _bound(journal: Journal, x: IntView, v: int, step: int, covered: set[int]) -> int:
    """The old bound v moved outwards (step -1: down) past the values that the Hall sets
    and intervals exclude anyway or that were never in the domain: the weakest bound the
    explanation needs."""
    i = x.root.index
    lowest = journal.root_lo[i] + x.offset
    highest = journal.root_hi[i] + x.offset
    while lowest <= v + step <= highest and (v + step in covered
                                             or not in_root(journal, x, v + step)):
        v += step
    return v


def explain_entry(journal: Journal, xs: list[IntView], e: int, skip_zero: bool, reasons: int,
                  out: list[Pred], hint: list[int] | None = None,
                  direct_span: int = DIRECT_SPAN) -> bool:
    """Explain entry e of an all_different stage (`reasons`: VALUE, INTERVALS or SETS, the
    kinds of reason it may use). The values between the old and the new bounds are walked
    (`_walk_bound`); the values removed inside the bounds are values of fixed variables or
    (SETS) in the Hall set. Then the holes passed over and the old bounds are stated, as
    weak as the Hall sets and intervals let them be. False (the generic explanation) when
    some value has no reason of these kinds. `hint` and `direct_span` go to `hall_set`."""
    i = journal.var[e]
    j = position_of(xs, i)
    if j == NONE:
        return False
    x = xs[j]
    r = x.root
    off = x.offset
    lo, hi, bits = journal.domain_at(i, e)
    plo, phi, pbits = journal.domain_at(i, journal.prev[e])
    lo += off
    hi += off
    plo += off
    phi += off
    if pbits < 0 and (lo - plo) + (phi - hi) > BOUNDS_ONLY_LIMIT:
        return False
    start = len(out)
    walk = _Walk()
    prev = (plo, phi, pbits)
    ok = True
    if lo > plo:
        ok = _walk_bound(journal, xs, j, e, skip_zero, reasons, prev, lo, 1, walk, out)
    if ok and hi < phi:
        ok = _walk_bound(journal, xs, j, e, skip_zero, reasons, prev, hi, -1, walk, out)
    if ok and bits >= 0 and pbits >= 0 and lo < hi:  # values removed inside
        inner = (pbits >> (lo - plo)) & ~bits & ((1 << (hi - lo + 1)) - 1)
        for o in offsets(inner):
            if not _exclude(journal, xs, j, skip_zero, lo + o, e, reasons, walk, out):
                ok = False
                break
    if ok and walk.pending:
        allowed = hall_set(journal, xs, j, e, walk.pending, out, hint, direct_span)
        if allowed is None:
            ok = False
        else:
            walk.covered.update(allowed)
    if not ok:
        del out[start:]
        return False
    for v in walk.holes:
        if v not in walk.covered and in_root(journal, x, v):
            out.append(Pred(r, NE, v - off))
    if lo > plo:
        low = _bound(journal, x, plo, -1, walk.covered)
        if low - off > journal.root_lo[i]:
            out.append(Pred(r, GE, low - off))
    if hi < phi:
        high = _bound(journal, x, phi, 1, walk.covered)
        if high - off < journal.root_hi[i]:
            out.append(Pred(r, LE, high - off))
    return True


# ---------------------------------------------------------------------- failures
def fixed_pair(journal: Journal, xs: list[IntView], skip_zero: bool,
               out: list[Pred]) -> bool:
    """Explain a failure by two variables fixed to one value now (not 0 with skip_zero)."""
    now = len(journal)
    seen: dict[int, int] = {}
    for k in range(len(xs)):
        x = xs[k]
        if x.lo != x.hi or (skip_zero and x.lo == 0):
            continue
        other = seen.get(x.lo, NONE)
        if other != NONE:
            fixed_at(journal, xs[other], now, out)
            if xs[other].root is not x.root:
                fixed_at(journal, x, now, out)
            return True
        seen[x.lo] = k
    return False


def explain_failure(journal: Journal, xs: list[IntView], skip_zero: bool, reasons: int,
                    out: list[Pred]) -> bool:
    """Explain a failure of an all_different stage now: two fixed variables with one value,
    else (INTERVALS and up) more variables than values in an interval, else (SETS, and
    INTERVALS when holes made the failure) a deficient set of domains. False if none."""
    if fixed_pair(journal, xs, skip_zero, out):
        return True
    if reasons == VALUE:
        return False
    now = len(journal)
    members = overfull_interval(journal, xs, now)
    if members is not None:
        a = min(view_domain(journal, xs[k], now)[0] for k in members)
        b = max(view_domain(journal, xs[k], now)[1] for k in members)
        _interval_preds(journal, xs, members, a, b, now, out)
        return True
    return deficient_set(journal, xs, now, out)
