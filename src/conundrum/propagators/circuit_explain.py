"""Explanations of circuit and subcircuit (circuit.py), for the learning search.

The no-subtour rule removes `start` from the successors of `end` when the fixed
successors make a chain start -> ... -> end that leaves out a node the cycle must visit:
that removal is explained by the chain's fixed successors, `[x_c == next(c)]` for each c
before `end` (for subcircuit, also `[x_m != m]` for one node m off the chain that must be in
the cycle: for circuit every node must). A closed cycle of fixed successors that leaves out
such a node is a failure, explained the same way; for subcircuit it takes every node off it
out of the cycle (`x_k = k`), explained by the cycle's fixed successors alone.

Each explanation is a proof found again in the journal (the chain from the removed value to
the changed node, or a closed cycle), so it stands whatever the propagator's phase: its
payload code only says which proof to look for. The reachability rule keeps the generic
explanation (its reason is a cut of the successor graph, every domain across it).
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import EQ, GE, LE, NE, Pred, contains_in
from conundrum.engine.reasons import domain_preds, removed_values

# what a Circuit entry comes from (Journal.code)
CHAIN: Final = 0  # a successor removed: it would close a chain too short
CYCLE: Final = 1  # a closed cycle: every node off it is left out (subcircuit)
REACHABILITY: Final = 2  # the strong-connectivity check: explained generically


def successor(journal: Journal, x: IntView, pos: int) -> int | None:
    """The value of view x just before journal position pos if fixed, else None."""
    i = x.root.index
    lo, hi, _ = journal.domain_at(i, journal.entry_before(i, pos))
    return lo + x.offset if lo == hi else None


def fixed_pred(journal: Journal, x: IntView, v: int, out: list[Pred]) -> None:
    """`x == v` (a view value) as predicates on x's root, the root facts left out: one
    equality on a bit-set domain, two bounds on a bounds-only one."""
    r = x.root
    i = r.index
    w = v - x.offset
    root_lo = journal.root_lo[i]
    root_hi = journal.root_hi[i]
    if root_lo == root_hi:
        return
    if journal.root_bits[i] >= 0:
        out.append(Pred(r, EQ, w))
        return
    if w > root_lo:
        out.append(Pred(r, GE, w))
    if w < root_hi:
        out.append(Pred(r, LE, w))


def off_self_pred(journal: Journal, x: IntView, m: int, pos: int, out: list[Pred]) -> None:
    """`x != m` (node m's successor is not itself), which held just before pos, as a
    predicate on x's root: a hole of a bit set, else the bound that excludes m; nothing if
    the root domain excludes m already."""
    r = x.root
    i = r.index
    w = m - x.offset
    if not contains_in(w, journal.root_lo[i], journal.root_hi[i], journal.root_bits[i]):
        return
    lo, hi, bits = journal.domain_at(i, journal.entry_before(i, pos))
    if bits >= 0 and lo <= w <= hi:
        out.append(Pred(r, NE, w))
    elif lo > w:
        out.append(Pred(r, GE, lo))
    else:
        out.append(Pred(r, LE, hi))


def left_out(journal: Journal, xs: list[IntView], pos: int, on: list[bool]) -> int:
    """A node m with on[m] False that must be in the subcircuit (m not a successor of its
    own just before pos), or -1."""
    for m in range(len(xs)):
        if not on[m]:
            x = xs[m]
            i = x.root.index
            lo, hi, bits = journal.domain_at(i, journal.entry_before(i, pos))
            if not contains_in(m - x.offset, lo, hi, bits):
                return m
    return -1


def chain_removal(journal: Journal, xs: list[IntView], sub: bool, e: int,
                  out: list[Pred]) -> bool:
    """Explain entry e, a single value `start` removed from the successors of node k, by
    the chain of fixed successors from start to k (and, for subcircuit, a node off it that
    must be in the cycle). False if no such chain is found."""
    i = journal.var[e]
    n = len(xs)
    k = -1
    for j in range(n):
        if xs[j].root.index == i:
            if k >= 0:
                return False
            k = j
    if k < 0:
        return False
    v = _removed_value(journal, e)
    if v is None:
        return False
    start = v + xs[k].offset
    if start < 0 or start >= n or start == k:
        return False
    on = [False] * n
    chain: list[int] = []
    c = start
    while c != k:
        if on[c]:
            return False
        on[c] = True
        chain.append(c)
        w = successor(journal, xs[c], e)
        if w is None or w == c or w < 0 or w >= n:
            return False
        c = w
    on[k] = True
    m = -1
    if sub:
        m = left_out(journal, xs, e, on)
        if m < 0:
            return False
    elif len(chain) + 1 >= n:
        return False  # closing it is the whole circuit
    start = len(out)
    for c in chain:
        w = successor(journal, xs[c], e)
        assert w is not None
        fixed_pred(journal, xs[c], w, out)
    if m >= 0:
        off_self_pred(journal, xs[m], m, e, out)
    lo, hi, _ = journal.domain_at(i, e)
    plo, phi, _ = journal.domain_at(i, journal.prev[e])
    if lo != plo or hi != phi:  # a bound moved: where to depends on the domain before
        if not domain_preds(journal, xs[k].root, journal.prev[e], out):
            del out[start:]  # too many holes to say: the generic explanation
            return False
    return True


def _removed_value(journal: Journal, e: int) -> int | None:
    """The one value entry e removed from its variable (root values), or None when it
    removed several (found without walking the domain: see reasons.removed_values)."""
    gone = removed_values(journal, e, 1)
    return gone[0] if gone else None


def closed_cycle(journal: Journal, xs: list[IntView], pos: int, avoid: int) -> list[int]:
    """The nodes of a closed cycle of fixed successors (none pointing to itself) just
    before pos that does not contain node `avoid` (-1: any), or [] if there is none."""
    n = len(xs)
    done = [False] * n  # on a walk already followed
    for s in range(n):
        if done[s]:
            continue
        walk: list[int] = []
        on = [False] * n
        c = s
        closed = False
        while not done[c]:
            if on[c]:
                closed = True  # the walk came back to c
                break
            on[c] = True
            walk.append(c)
            w = successor(journal, xs[c], pos)
            if w is None or w == c or w < 0 or w >= n:
                break
            c = w
        for d in walk:
            done[d] = True
        if closed:
            cycle = walk[walk.index(c):]
            if avoid not in cycle:
                return cycle
    return []


def cycle_exclusion(journal: Journal, xs: list[IntView], sub: bool, e: int,
                    out: list[Pred]) -> bool:
    """Explain entry e of subcircuit, x_k = k: a closed cycle of fixed successors leaves k
    out. False if none is found."""
    i = journal.var[e]
    k = -1
    for j in range(len(xs)):
        if xs[j].root.index == i:
            k = j
    if not sub or k < 0:
        return False
    lo, hi, _ = journal.domain_at(i, e)
    if lo != hi or lo + xs[k].offset != k:
        return False
    cycle = closed_cycle(journal, xs, e, k)
    if not cycle:
        return False
    for c in cycle:
        w = successor(journal, xs[c], e)
        assert w is not None
        fixed_pred(journal, xs[c], w, out)
    return True


def cycle_failure(journal: Journal, xs: list[IntView], sub: bool,
                  out: list[Pred]) -> bool:
    """Explain a failure now: a closed cycle of fixed successors that leaves out a node the
    cycle must visit (any node, for circuit). False if there is none."""
    n = len(xs)
    now = len(journal)
    cycle = closed_cycle(journal, xs, now, -1)
    if not cycle:
        return False
    on = [False] * n
    for c in cycle:
        on[c] = True
    m = -1
    if sub:
        m = left_out(journal, xs, now, on)
        if m < 0:
            return False
    elif len(cycle) == n:
        return False
    for c in cycle:
        w = successor(journal, xs[c], now)
        assert w is not None
        fixed_pred(journal, xs[c], w, out)
    if m >= 0:
        off_self_pred(journal, xs[m], m, now, out)
    return True
