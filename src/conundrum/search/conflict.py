"""Conflict analysis: from a failure to a learned nogood and the level to jump back to
(issue 29, plan 2.4). First unique implication point, with *semantic* resolution: the
predicates are resolved through the journal (engine/journal.py) rather than through
clauses of literals.

Start from the conflict's explanation: predicates that cannot all hold. Each is placed by
the journal entry from which it has held (`became_true`) and that entry's trail level.
Predicates of the search's root level are facts and are dropped. Let L be the highest level
left. While more than one entry of level L is pending, the latest pending entry is replaced
by its explanation (engine/reasons.py), whose predicates all held strictly earlier; the
pending predicates of lower levels are kept aside. When one entry of level L is left and
its pending predicates are one predicate (or merge into one: `[x>=v]` and `[x<=v]` into
`[x==v]` on a bit-set domain), that predicate is the UIP. The level's decision always
qualifies: when its entry is reached, its pending predicates follow from the decision
predicate and the variable's domain just before (which belongs to lower levels), so the
decision predicate is the UIP.

The nogood is the UIP and the kept lower-level predicates (the strongest one per variable
and kind): they cannot all hold. After a jump back to the highest level among the kept ones
(the root if none), all but the UIP hold there, so the nogood makes the UIP false: the
search goes on with that new knowledge instead of retrying what failed.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING, Final

from conundrum.engine.journal import NOT_TRUE, ROOT, Journal
from conundrum.engine.literals import EQ, GE, LE, NE, Pred, key
from conundrum.engine.reasons import domain_preds, explain_entry

if TYPE_CHECKING:
    from conundrum.engine.var import IntVar

# analysis looks at the clock once every this many resolution steps (a power of two less
# one, as a mask): a step resolves one entry, far dearer than a propagation
CLOCK_MASK: Final = 255


class Analysis:
    """The result: `nogood` (its predicates, the UIP last) and `level`, where to jump back
    to (the trail depth at which all but the UIP hold); `lbd`, the number of levels among
    the nogood's predicates (its "literal block distance": few levels, a nogood likely to
    be useful again). `nogood` empty: the conflict holds at the root, so there is nothing
    left to search. `latest`: the position in `nogood` of the predicate other than the UIP
    that became true last (-1: none), which the store watches beside the UIP."""

    __slots__ = ("nogood", "level", "seen", "lbd", "latest")

    def __init__(self, nogood: list[Pred], level: int, seen: list[int], lbd: int,
                 latest: int = -1) -> None:
        self.nogood = nogood
        self.level = level
        self.seen = seen  # the variables (indices) that took part, for activity
        self.lbd = lbd
        self.latest = latest


def _kept_key(p: Pred, nvars: int) -> int:
    """The key of p among kept predicates: one per variable and side for a bound
    (4 index + kind), one per value for an (in)equality (`key`, whose remainder mod 4, its
    kind 2 or 3, keeps the two apart). Ints: a tuple per predicate was a quarter of
    `_strongest` compiled."""
    kind = p.kind
    if kind == GE or kind == LE:
        return p.var.index * 4 + kind
    return key(p, nvars)


def _strongest(kept: dict[int, Pred], p: Pred, k: int) -> bool:
    """Keep p under its key k (`_kept_key`) unless a stronger predicate of its variable and
    kind is kept (GE: the larger value, LE: the smaller); NE and EQ predicates are kept one
    per value. Whether p was kept."""
    kind = p.kind
    if kind == GE or kind == LE:
        q = kept.get(k)
        if q is not None and ((kind == GE and p.value <= q.value)
                              or (kind == LE and p.value >= q.value)):
            return False
    kept[k] = p
    return True


def minimise(preds: list[Pred]) -> list[Pred]:
    """The same conjunction, shorter: the strongest bound per variable and side, `[x>=v]`
    and `[x<=v]` as `[x==v]` on a bit-set domain, nothing an equality already implies."""
    kept: dict[int, Pred] = {}
    nvars = 1 + max((p.var.index for p in preds), default=0)
    for p in preds:
        _strongest(kept, p, _kept_key(p, nvars))
    by_var: dict[int, list[Pred]] = {}
    for p in kept.values():
        by_var.setdefault(p.var.index, []).append(p)
    out: list[Pred] = []
    for index in sorted(by_var):
        group = by_var[index]
        # at most one bound of each side is kept; the first equality stands for the group
        eq: Pred | None = None
        ge: Pred | None = None
        le: Pred | None = None
        for p in group:
            kind = p.kind
            if kind == EQ:
                if eq is None:
                    eq = p
            elif kind == GE:
                ge = p
            elif kind == LE:
                le = p
        if eq is not None:
            out.append(eq)
            continue
        x = group[0].var
        if ge is not None and le is not None and ge.value == le.value and x.bits >= 0:
            out.append(Pred(x, EQ, ge.value))
            continue
        if ge is not None:
            out.append(ge)
        if le is not None:
            out.append(le)
        for p in group:  # a hole outside the kept bounds says nothing more
            if p.kind == NE and (ge is None or p.value >= ge.value) \
                    and (le is None or p.value <= le.value):
                out.append(p)
    return out


def implies(d: Pred, q: Pred) -> bool:
    """Whether predicate d alone implies q (both on one variable, else False)."""
    if d.var is not q.var:
        return False
    v, w, kind = d.value, q.value, q.kind
    if d.kind == EQ:
        if kind == GE:
            return v >= w
        if kind == LE:
            return v <= w
        return v == w if kind == EQ else v != w
    if d.kind == GE:
        return (kind == GE and w <= v) or (kind == NE and w < v)
    if d.kind == LE:
        return (kind == LE and w >= v) or (kind == NE and w > v)
    return kind == NE and w == v


def _single(preds: list[Pred]) -> Pred | None:
    """The one predicate the list amounts to, or None if it needs more than one."""
    merged = minimise(preds)
    return merged[0] if len(merged) == 1 else None


def split_equalities(preds: list[Pred]) -> list[Pred]:
    """The predicates with each `[x == v]` as its two bounds `[x >= v]`, `[x <= v]`, so
    that each is placed by the entry from which it has held. An equality may become true by
    a change of one bound (the other held before), and an entry's explanation implies what
    the entry changed, not the domain it had before: resolving `[x == v]` as a whole on
    that entry would lose the other bound. minimise() merges the bounds back."""
    if all(p.kind != EQ for p in preds):
        return preds
    out: list[Pred] = []
    for p in preds:
        if p.kind == EQ:
            out.append(Pred(p.var, GE, p.value))
            out.append(Pred(p.var, LE, p.value))
        else:
            out.append(p)
    return out


def analyse(journal: Journal, conflict: list[Pred], root: int,
            decisions: list[Pred]) -> Analysis:
    """The nogood of a conflict (predicates that cannot all hold, all true now), learned
    by first-UIP resolution. `root` is the search's root trail level; `decisions[k]` is
    the decision predicate of level root + 1 + k."""
    level_of = journal.level
    pending: dict[int, list[Pred]] = {}  # entry -> its pending predicates, at level top
    heap: list[int] = []  # -entry, for the latest first
    kept: dict[int, Pred] = {}  # below level top
    kept_at: dict[int, int] = {}  # the entry from which each kept predicate has held
    nvars = len(journal.vars)
    top = root

    # the predicates placed so far, by key: about half of those the explanations give
    # are placed already (golomb-10), and placing one again finds the same entry, which
    # is pending (its group holds it once: `_push` need not look) or resolved (a
    # predicate of a later explanation holds before the entry explained, so never at a
    # resolved one), or the same kept bound
    filed: set[int] = set()
    # place the conflict's predicates
    placed: list[tuple[int, int, Pred]] = []
    for p in split_equalities(conflict):
        k = key(p, nvars)
        if k in filed:
            continue
        filed.add(k)
        e = journal.became_true(p.var.index, p.kind, p.value)
        if e == NOT_TRUE:
            raise AssertionError(f"conflict predicate {p!r} does not hold")
        level = root if e == ROOT else level_of[e]
        if level > root:
            placed.append((e, level, p))
            top = max(top, level)
    if top == root:
        return Analysis([], root, [], 0)
    for e, level, p in placed:
        if level == top:
            _push(pending, heap, e, p)
        else:
            k = _kept_key(p, nvars)
            if _strongest(kept, p, k):
                kept_at[k] = e

    uip: Pred | None = None
    seen: set[int] = {p.var.index for p in conflict}
    solver = journal.solver
    steps = 0
    while heap:
        # one level may hold a long chain of entries (a slow convergence of bounds): the
        # time limit and Ctrl-C are looked at on the way, at the first step and then once
        # every CLOCK_MASK + 1 steps, as the fixpoint does every so many propagations
        if not steps & CLOCK_MASK:
            solver.check_clock()
        steps += 1
        e = -heapq.heappop(heap)
        preds = pending.pop(e)
        seen.add(journal.var[e])
        if journal.reason[e] is None:  # the level's decision: the end
            uip = decisions[top - root - 1]
            if not all(implies(uip, q) for q in preds):
                # what the decision left of its variable's domain needs that domain too
                prior: list[Pred] = []
                x: IntVar = journal.vars[journal.var[e]]
                domain_preds(journal, x, journal.prev[e], prior, -1)  # all of it: needed
                for q in prior:
                    _place(journal, q, root, top, pending, heap, kept, kept_at, nvars)
            break
        if not heap:
            single = _single(preds)
            if single is not None:
                uip = single
                break
        explanation: list[Pred] = []
        explain_entry(journal, e, explanation)
        for q in split_equalities(explanation):
            k = key(q, nvars)
            if k not in filed:  # placing a predicate twice changes nothing (see above)
                filed.add(k)
                _place(journal, q, root, top, pending, heap, kept, kept_at, nvars)
    if uip is None:
        raise AssertionError("conflict analysis found no UIP")
    lower = minimise(list(kept.values()))
    back = root
    levels = {top}
    latest = -1
    latest_e = ROOT
    for k in range(len(lower)):
        p = lower[k]
        at = _kept_key(p, nvars)
        if kept.get(at) is p:  # as placed (minimise may merge two bounds into one)
            e = kept_at[at]
        else:
            e = journal.became_true(p.var.index, p.kind, p.value)
        levels.add(level_of[e])
        back = max(back, level_of[e])
        if latest < 0 or e > latest_e:
            latest = k
            latest_e = e
    return Analysis([*lower, uip], back, sorted(seen), len(levels), latest)


def _push(pending: dict[int, list[Pred]], heap: list[int], e: int, p: Pred) -> None:
    """Add p (never placed before: `filed`) to the pending predicates of entry e."""
    group = pending.get(e)
    if group is None:
        pending[e] = [p]
        heapq.heappush(heap, -e)
    else:
        group.append(p)


def _place(journal: Journal, p: Pred, root: int, top: int, pending: dict[int, list[Pred]],
           heap: list[int], kept: dict[int, Pred], kept_at: dict[int, int],
           nvars: int) -> None:
    """File a predicate of an explanation: dropped (a root fact), pending (level top) or
    kept (a lower level)."""
    e = journal.became_true(p.var.index, p.kind, p.value)
    if e == ROOT:
        return
    if e == NOT_TRUE:
        raise AssertionError(f"explanation predicate {p!r} does not hold")
    level = journal.level[e]
    if level <= root:
        return
    if level == top:
        _push(pending, heap, e, p)
    else:
        k = _kept_key(p, nvars)
        if _strongest(kept, p, k):
            kept_at[k] = e


def decisions_behind(journal: Journal, preds: list[Pred], root: int) -> set[int]:
    """The trail levels above `root` whose decisions the predicates (all true now) follow
    from, with the facts of the root: every predicate placed above the root is resolved
    through its entry's explanation, down to the decisions (MiniSat's final conflict
    analysis; issue 43 reads an unsatisfiable core over assumptions from it). A decision's
    entry also needs its variable's domain just before, as in `analyse`."""
    level_of = journal.level
    heap: list[int] = []
    queued: set[int] = set()
    levels: set[int] = set()

    def place(p: Pred) -> None:
        e = journal.became_true(p.var.index, p.kind, p.value)
        if e == ROOT:
            return
        if e == NOT_TRUE:
            raise AssertionError(f"predicate {p!r} does not hold")
        if level_of[e] > root and e not in queued:
            queued.add(e)
            heapq.heappush(heap, -e)

    for p in split_equalities(preds):
        place(p)
    steps = 0
    while heap:
        if not steps & CLOCK_MASK:
            journal.solver.check_clock()
        steps += 1
        e = -heapq.heappop(heap)
        out: list[Pred] = []
        if journal.reason[e] is None:
            levels.add(level_of[e])
            domain_preds(journal, journal.vars[journal.var[e]], journal.prev[e], out, -1)
        else:
            explain_entry(journal, e, out)
        for q in split_equalities(out):
            place(q)
    return levels
