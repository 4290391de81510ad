"""Explanations of the scheduling propagators (issue 29 slice 9), for the learning search:
the shared helpers and the separations of pairs; cumulative_explain.py and
disjunctive_explain.py build on them.

Each explanation is *recomputed* from the domains just before the entry (or at the failure):
the journal gives every variable's bounds at that moment, those bounds are at least as
tight as the ones the propagator read (domains only shrink, and the propagator's own earlier
changes of the same call are among them), and every rule is monotone in them, so the
reasoning that made the entry can be found again, usually with a shorter reason. When it
cannot (a variable in two roles, a rule not covered), the function returns False and the
generic explanation of reasons.py stands in.

Tasks are (s_j, d_j, r_j) with p_j = d_j.lo and h_j = r_j.lo, as in scheduling.py. The
predicates name only lower bounds of durations and demands (`[d_j >= p_j]`): a task that
lasts at least p_j occupies at least [s_j, s_j + p_j), and the rules hold for that *first
portion* of each task, so the upper bounds of durations are needed in one place only (the
pushed task of backward edge-finding, whose end is bounded). A predicate that holds at the
root (the bound the search started from) is left out, so constant durations, demands and
capacities add nothing.

Separations (scheduling._separate: a pair of a Disjunctive, a pair of rectangles of a
NoOverlap2D): the one way a + length <= b left is explained by the bounds that rule out
each other way (`[a' >= lo]`, `[length' >= p]`, `[b' <= lo + p - 1]`) and those that give
the new bound.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, Pred, contains_in
from conundrum.engine.reasons import domain_preds

NONE: Final = -(1 << 62)  # "no bound derived"
INFINITY: Final = 1 << 62  # "any bound": the explanation found is a failure in itself


# ---------------------------------------------------------------- bounds and predicates
def view_bounds(journal: Journal, x: IntView, pos: int) -> tuple[int, int]:
    """x's bounds just before journal position pos (len(journal): now)."""
    i = x.root.index
    lo, hi, _ = journal.domain_at(i, journal.entry_before(i, pos))
    return lo + x.offset, hi + x.offset


def all_bounds(journal: Journal, xs: list[IntView], pos: int) -> tuple[list[int], list[int]]:
    """The lower and upper bounds of xs just before pos."""
    los: list[int] = []
    his: list[int] = []
    for x in xs:
        lo, hi = view_bounds(journal, x, pos)
        los.append(lo)
        his.append(hi)
    return los, his


def add_ge(journal: Journal, x: IntView, v: int, out: list[Pred]) -> None:
    """Append `[x >= v]` on x's root variable, unless it holds at the root."""
    r = x.root
    w = v - x.offset
    if w > journal.root_lo[r.index]:
        out.append(Pred(r, GE, w))


def add_le(journal: Journal, x: IntView, v: int, out: list[Pred]) -> None:
    """Append `[x <= v]` on x's root variable, unless it holds at the root."""
    r = x.root
    w = v - x.offset
    if w < journal.root_hi[r.index]:
        out.append(Pred(r, LE, w))


def roles_of(index: int, groups: list[list[IntView]]) -> list[tuple[int, int]]:
    """The (group, position) of every view on root variable `index`."""
    found: list[tuple[int, int]] = []
    for g in range(len(groups)):
        xs = groups[g]
        for k in range(len(xs)):
            if xs[k].root.index == index:
                found.append((g, k))
    return found


def holds_no_value(journal: Journal, x: IntView, entry: int, lo: int, hi: int) -> bool:
    """Whether x's domain as `entry` left it has no value in lo..hi (values of the view)."""
    i = x.root.index
    dlo, dhi, bits = journal.domain_at(i, entry)
    off = x.offset
    for v in range(max(lo - off, dlo), min(hi - off, dhi) + 1):
        if contains_in(v, dlo, dhi, bits):
            return False
    return True


def reach_lo(journal: Journal, x: IntView, e: int, t: int, out: list[Pred]) -> bool:
    """Entry e raised x's lower bound and the predicates appended so far imply x >= t.
    True if that implies the new bound, with the previous domain appended when the bound
    skipped a gap of it (the values t..new lo - 1 were missing); False if neither."""
    i = x.root.index
    new_lo = journal.lo[e] + x.offset
    if t >= new_lo:
        return True
    if not holds_no_value(journal, x, journal.prev[e], t, new_lo - 1):
        return False
    domain_preds(journal, journal.vars[i], journal.prev[e], out)
    return True


def reach_hi(journal: Journal, x: IntView, e: int, t: int, out: list[Pred]) -> bool:
    """The mirror of reach_lo: the predicates imply x <= t; entry e lowered x's upper bound."""
    i = x.root.index
    new_hi = journal.hi[e] + x.offset
    if t <= new_hi:
        return True
    if not holds_no_value(journal, x, journal.prev[e], new_hi + 1, t):
        return False
    domain_preds(journal, journal.vars[i], journal.prev[e], out)
    return True


def empties_from_below(journal: Journal, x: IntView, t: int, out: list[Pred]) -> bool:
    """The predicates appended so far imply x >= t: True (with what makes that a failure
    appended) if x has no value >= t now."""
    i = x.root.index
    _, hi = view_bounds(journal, x, len(journal))
    if t > hi:
        add_le(journal, x, t - 1, out)
        return True
    if holds_no_value(journal, x, journal.latest(i), t, hi):
        domain_preds(journal, journal.vars[i], journal.latest(i), out)
        return True
    return False


def empties_from_above(journal: Journal, x: IntView, t: int, out: list[Pred]) -> bool:
    """The mirror of empties_from_below: the predicates imply x <= t."""
    i = x.root.index
    lo, _ = view_bounds(journal, x, len(journal))
    if t < lo:
        add_ge(journal, x, t + 1, out)
        return True
    if holds_no_value(journal, x, journal.latest(i), lo, t):
        domain_preds(journal, journal.vars[i], journal.latest(i), out)
        return True
    return False



# ------------------------------------------------------------------------ separations
def cannot_precede(journal: Journal, a: IntView, length: IntView, b: IntView, pos: int,
                   min_length: int, out: list[Pred]) -> bool:
    """Append why a + length <= b cannot hold just before pos (a.lo + length.lo > b.hi),
    with b's bound lifted to a.lo + length.lo - 1. False if it can hold, or if length may
    be below min_length (the pair is then not bound to be separated)."""
    alo, _ = view_bounds(journal, a, pos)
    plen, _ = view_bounds(journal, length, pos)
    _, bhi = view_bounds(journal, b, pos)
    if alo + plen <= bhi or plen < min_length:
        return False
    add_ge(journal, a, alo, out)
    add_ge(journal, length, plen, out)
    add_le(journal, b, alo + plen - 1, out)
    return True


def explain_separation(journal: Journal, ways: list[tuple[IntView, IntView, IntView]],
                       e: int, min_length: int, out: list[Pred]) -> bool:
    """Explain entry e, made by enforcing the only separation a + length <= b left of
    `ways` (scheduling._separate): the others are impossible, and a's lower bound and
    length's (for b's lower bound), b's upper bound and length's (for a's upper bound), or
    a's lower and b's upper bound (for length's upper bound) give the new bound. With
    min_length 1 (a non-strict Disjunctive) the lengths must be positive for the
    separations to be required at all. False if the variable plays two roles."""
    i = journal.var[e]
    lo, hi, _ = journal.domain_at(i, e)
    plo, phi, _ = journal.domain_at(i, journal.prev[e])
    raised = lo > plo
    if raised == (hi < phi):
        return False
    way = -1
    role = -1  # 0: a's upper bound, 1: length's upper bound, 2: b's lower bound
    for w in range(len(ways)):
        a, length, b = ways[w]
        for r, x in ((0, a), (1, length), (2, b)):
            if x.root.index == i and (r == 2) == raised:
                if way >= 0:
                    return False
                way = w
                role = r
    if way < 0:
        return False
    for w in range(len(ways)):
        if w != way:
            a, length, b = ways[w]
            if not cannot_precede(journal, a, length, b, e, min_length, out):
                return False
    a, length, b = ways[way]
    alo, _ = view_bounds(journal, a, e)
    plen, _ = view_bounds(journal, length, e)
    _, bhi = view_bounds(journal, b, e)
    if plen < min_length:
        return False
    if role == 2:
        target = lo + b.offset
        add_ge(journal, length, plen, out)
        add_ge(journal, a, min(alo, target - plen), out)
        return reach_lo(journal, b, e, min(alo + plen, target), out)
    target = hi + (a.offset if role == 0 else length.offset)
    if role == 0:
        add_ge(journal, length, plen, out)
        add_le(journal, b, max(bhi, target + plen), out)
        return reach_hi(journal, a, e, max(bhi - plen, target), out)
    add_ge(journal, length, min_length, out)
    add_ge(journal, a, alo, out)
    add_le(journal, b, max(bhi, alo + target), out)
    return reach_hi(journal, length, e, max(bhi - alo, target), out)


def explain_separation_failure(journal: Journal,
                               ways: list[tuple[IntView, IntView, IntView]],
                               min_length: int, out: list[Pred]) -> bool:
    """Explain a failure of scheduling._separate now: no separation is possible. False if
    one still is (the failure came from a variable shared between the ways)."""
    now = len(journal)
    start = len(out)
    for w in range(len(ways)):
        a, length, b = ways[w]
        if not cannot_precede(journal, a, length, b, now, min_length, out):
            del out[start:]
            return False
    return True


def pair_ways(xs: list[IntView], ls: list[IntView], i: int,
              j: int) -> list[tuple[IntView, IntView, IntView]]:
    """The two orders of tasks i and j: i before j, j before i."""
    return [(xs[i], ls[i], xs[j]), (xs[j], ls[j], xs[i])]


def rectangle_ways(xs: list[IntView], ys: list[IntView], ws: list[IntView],
                   hs: list[IntView], i: int,
                   j: int) -> list[tuple[IntView, IntView, IntView]]:
    """The four separations of rectangles i and j (as NoOverlap2D.propagate lists them)."""
    return pair_ways(xs, ws, i, j) + pair_ways(ys, hs, i, j)
