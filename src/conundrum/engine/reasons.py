"""Why a journal entry happened, as predicates (issue 29, plan 2.3): the reasons conflict
analysis resolves on.

An *explanation* of entry e (variable x took the domain D at position e) is a list of
predicates that held strictly before e and that, with the constraint of e's reason,
imply x in D. Three sources, tried in order:

1. the propagator's own `explain` (`Propagator.explains` says which classes have one;
   tests/test_journal.py lists those that do not). It must imply what e changed; an
   `[x == v]` that e completed by moving one bound is split into its bounds by conflict
   analysis, and a bound moved past holes needs them (`skipped_values`);
2. **the scope's domains** (fallback a): the domains, at e, of the variables the propagator
   watches, written as predicates (a raised lower bound, a lowered upper bound, each hole),
   relative to the snapshot taken when the journal was attached. Sound for any propagator
   that reads only its scope: domains only shrink, so whatever it inferred from those
   domains follows from them again. Past MAX_HOLES holes on one variable it gives up;
3. **the decisions** (fallback b): the search decisions made up to e's level. Sound for
   anything: all the rest follows from them by propagation.

A decision (reason None) is explained by nothing: it is where analysis stops.
Conflicts (a propagator failed) are explained the same way, "now" instead of "before e".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine.bits import lost
from conundrum.engine.journal import ROOT, Journal
from conundrum.engine.literals import EQ, GE, LE, NE, Pred

if TYPE_CHECKING:
    from conundrum.engine.propagator import Propagator
    from conundrum.engine.var import IntVar

MAX_HOLES: Final = 64  # holes of one variable in a scope explanation before giving up on it


def domain_preds(journal: Journal, x: IntVar, e: int, out: list[Pred],
                 max_holes: int = MAX_HOLES) -> bool:
    """Append the predicates that say x's domain as entry e left it (ROOT: nothing to say),
    against the snapshot; False (and nothing appended) past max_holes holes (-1: no cap).
    A caller that needs the domain must not ignore False: nothing was said."""
    i = x.index
    lo, hi, bits = journal.domain_at(i, e)
    root_lo = journal.root_lo[i]
    root_hi = journal.root_hi[i]
    root_bits = journal.root_bits[i]
    holes: list[int] = []
    for v in lost(lo, hi, (root_lo, root_hi, root_bits), (lo, hi, bits)):
        holes.append(v)
        if 0 <= max_holes < len(holes):
            return False
    if lo > root_lo:
        out.append(Pred(x, GE, lo))
    if hi < root_hi:
        out.append(Pred(x, LE, hi))
    for v in holes:
        out.append(Pred(x, NE, v))
    return True


def skipped_values(journal: Journal, e: int, q: Pred, out: list[Pred]) -> None:
    """Entry e was the single update that made q true (on e's variable). Append what the
    variable's previous domain adds to q to give e's new bounds: the values a moved bound
    passed that were already gone (holes), and the old bound when q does not bound that
    side itself (`[x != lo]` moves lo past holes, but says nothing of the values below)."""
    if q.kind == EQ:
        return  # x == v: nothing else to say
    bounds_context(journal, e, q.value if q.kind == GE else None,
                   q.value if q.kind == LE else None, out)


def bounds_context(journal: Journal, e: int, floor: int | None, ceiling: int | None,
                   out: list[Pred]) -> None:
    """For entry e, whose reason excludes some of the values it removed: what the previous
    domain adds to give e's new bounds. For a raised lower bound, the holes the bound
    passed from `floor` on (a lower bound the reason gives itself), or, without one, the
    old lower bound and the holes above it; the same for a lowered upper bound and
    `ceiling`. Root facts left out.

    A `floor` below the old lower bound says less than the old bound does: the values from
    it up to the old bound were gone before e, and listing them one by one would cost as
    much as their span (10^18 on a bounds-only domain) for a weaker explanation. The old
    bound stands in for it then (and the same for a `ceiling` above the old upper bound).
    A `floor` at the old bound is the old bound: it is kept, with nothing to list below."""
    i = journal.var[e]
    x = journal.vars[i]
    lo, hi, _ = journal.domain_at(i, e)
    plo, phi, pbits = journal.domain_at(i, journal.prev[e])
    root_lo = journal.root_lo[i]
    root_hi = journal.root_hi[i]
    root_bits = journal.root_bits[i]
    if lo > plo:
        start = plo + 1
        if floor is not None and floor >= plo:
            start = floor
        elif plo > root_lo:
            out.append(Pred(x, GE, plo))
        for v in lost(start, lo - 1, (root_lo, root_hi, root_bits), (plo, phi, pbits)):
            out.append(Pred(x, NE, v))
    if hi < phi:
        stop = phi - 1
        if ceiling is not None and ceiling <= phi:
            stop = ceiling
        elif phi < root_hi:
            out.append(Pred(x, LE, phi))
        for v in lost(hi + 1, stop, (root_lo, root_hi, root_bits), (plo, phi, pbits)):
            out.append(Pred(x, NE, v))


def scope_explanation(journal: Journal, p: Propagator, pos: int, out: list[Pred]) -> bool:
    """Fallback (a): the domains of p's scope just before position pos (len(journal):
    now). False, with `out` unchanged, if a domain has too many holes to list."""
    if p.id < 0:
        return False  # made after the journal was attached: its scope is unknown
    start = len(out)
    for x in journal.scopes[p.id]:
        if not domain_preds(journal, x, journal.entry_before(x.index, pos), out):
            del out[start:]
            return False
    return True


def change_preds(journal: Journal, e: int, out: list[Pred]) -> None:
    """Append what entry e made true against its variable's previous domain: a raised
    lower bound, a lowered upper bound, each value it removed inside the new bounds."""
    i = journal.var[e]
    x = journal.vars[i]
    lo, hi, bits = journal.domain_at(i, e)
    plo, phi, pbits = journal.domain_at(i, journal.prev[e])
    if lo > plo:
        out.append(Pred(x, GE, lo))
    if hi < phi:
        out.append(Pred(x, LE, hi))
    for v in lost(lo + 1, hi - 1, (plo, phi, pbits), (lo, hi, bits)):
        out.append(Pred(x, NE, v))


def removed_values(journal: Journal, e: int, limit: int) -> list[int] | None:
    """The values entry e removed from its variable's domain (root values, increasing),
    or None past `limit` of them. `lost` gives them one at a time, so a bound moved far on
    a bounds-only domain costs `limit` steps to refuse, not the distance it moved."""
    i = journal.var[e]
    before = journal.domain_at(i, journal.prev[e])
    gone: list[int] = []
    for v in lost(before[0], before[1], before, journal.domain_at(i, e)):
        if len(gone) == limit:
            return None
        gone.append(v)
    return gone


def decision_explanation(journal: Journal, level: int, out: list[Pred]) -> None:
    """Fallback (b): the search decisions of the trail levels up to `level`, each as the
    change it made (a bound, or one value removed). Not as the domain it left: that
    domain also holds what propagation removed before, and may have too many holes to
    list (domain_preds then says nothing, and the explanation would lose the decision)."""
    reason = journal.reason
    levels = journal.level
    var = journal.var
    for e in range(len(var)):
        if levels[e] > level:
            break
        if reason[e] is None:
            change_preds(journal, e, out)


def explain_entry(journal: Journal, e: int, out: list[Pred]) -> None:
    """Append an explanation of entry e (nothing for a decision)."""
    p = journal.reason[e]
    if p is None:
        return
    if p.explains and p.explain(journal, e, out):
        return
    if not scope_explanation(journal, p, e, out):
        decision_explanation(journal, journal.level[e], out)


def explain_conflict(journal: Journal, p: Propagator, out: list[Pred]) -> None:
    """Append an explanation of p's failure now: predicates that, with p's constraint,
    cannot all hold."""
    if p.explains and p.explain_conflict(journal, out):
        return
    if not scope_explanation(journal, p, len(journal), out):
        decision_explanation(journal, journal.trail.depth, out)


__all__ = ["MAX_HOLES", "ROOT", "bounds_context", "change_preds", "decision_explanation",
           "domain_preds", "explain_conflict", "explain_entry", "removed_values",
           "scope_explanation", "skipped_values"]
