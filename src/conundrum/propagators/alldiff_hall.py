"""Hall sets for the explanations of all_different (alldiff_explain.py): the domains of
views as they were just before a journal position, "my domain lies inside these values" as
predicates, and the Hall sets of the domain stage, found by a matching of the other
variables and the alternating paths from the removed values (Régin's removals always have
one). Positions are in view values (root value + offset); predicates go on the roots.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import Inconsistency, IntView
from conundrum.engine.bits import count_bits, offsets
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, NE, Pred, contains_in
from conundrum.propagators.alldiff_matching import maximum_matching
from conundrum.propagators.linear_explain import fixed_preds

NONE: Final = -1  # no position (alldiff_explain.py)
# a Hall set's graph takes values as bit positions (value - the least) up to this span,
# and ranks them beyond it (the domain stage's own limit, alldiff_domain.py)
DIRECT_SPAN: Final = 1024


def view_domain(journal: Journal, x: IntView, pos: int) -> tuple[int, int, int]:
    """(lo, hi, bits) of the view x just before journal position pos, in view values (the
    bits are relative to lo, so the offset leaves them as they are)."""
    i = x.root.index
    lo, hi, bits = journal.domain_at(i, journal.entry_before(i, pos))
    return lo + x.offset, hi + x.offset, bits


def card(lo: int, hi: int, bits: int) -> int:
    """The number of values of a domain (lo, hi, bits)."""
    return hi - lo + 1 if bits < 0 else count_bits(bits)


def in_root(journal: Journal, x: IntView, v: int) -> bool:
    """Whether the view value v was in x's domain at the snapshot (else it is a root fact
    that x differs from v, and no predicate needs to say it)."""
    i = x.root.index
    return contains_in(v - x.offset, journal.root_lo[i], journal.root_hi[i],
                       journal.root_bits[i])


def fixed_at(journal: Journal, x: IntView, pos: int, out: list[Pred]) -> None:
    """`x == its value` (x fixed just before pos), on the root, root facts left out."""
    r = x.root
    lo, _, bits = journal.domain_at(r.index, journal.entry_before(r.index, pos))
    fixed_preds(journal, r, lo, bits, out)


def inside_preds(journal: Journal, x: IntView, pos: int, allowed: set[int],
                 out: list[Pred]) -> None:
    """Predicates that held just before pos and say x's domain lies inside `allowed` (view
    values; it does): its value if fixed; else a lower bound as low as allowed values and
    values never in the domain let it be, the same above, and the values missing from
    `allowed` between them."""
    lo, hi, bits = view_domain(journal, x, pos)
    if lo == hi:
        fixed_at(journal, x, pos, out)
        return
    r = x.root
    i = r.index
    off = x.offset
    root_lo = journal.root_lo[i] + off
    root_hi = journal.root_hi[i] + off
    g = lo - 1  # the largest value below lo that x could have had and allowed lacks
    while g >= root_lo and (g in allowed or not in_root(journal, x, g)):
        g -= 1
    if g >= root_lo:
        out.append(Pred(r, GE, g + 1 - off))
    g = hi + 1
    while g <= root_hi and (g in allowed or not in_root(journal, x, g)):
        g += 1
    if g <= root_hi:
        out.append(Pred(r, LE, g - 1 - off))
    if bits >= 0:
        missing = ~bits & ((1 << (hi - lo + 1)) - 1)  # the holes between lo and hi
        for o in offsets(missing):
            v = lo + o
            if v not in allowed and in_root(journal, x, v):
                out.append(Pred(r, NE, v - off))


# ---------------------------------------------------------------------- Hall intervals


def _graph(journal: Journal, xs: list[IntView], j: int,
           pos: int) -> tuple[list[int], list[int], dict[int, int], list[int]]:
    """The bipartite graph of the variables other than xs[j] that could be in a Hall set
    (at most n - 1 values; a wider one never is) just before pos: (their positions, their
    domains as bit sets of value ranks, value -> rank, rank -> value)."""
    n = len(xs)
    nodes: list[int] = []
    lists: list[list[int]] = []
    for k in range(n):
        if k == j:
            continue
        lo, hi, bits = view_domain(journal, xs[k], pos)
        if card(lo, hi, bits) >= n:
            continue
        nodes.append(k)
        if bits < 0:
            lists.append(list(range(lo, hi + 1)))
        else:
            lists.append([lo + o for o in offsets(bits)])
    rank, values, doms = _ranks(lists)
    return nodes, doms, rank, values


def _ranks(lists: list[list[int]]) -> tuple[dict[int, int], list[int], list[int]]:
    """Rank the values of the domains `lists` in order of appearance: (value -> rank,
    rank -> value, each domain as a bit set of ranks)."""
    rank: dict[int, int] = {}
    values: list[int] = []
    doms: list[int] = []
    for vals in lists:
        dm = 0
        for v in vals:
            b = rank.get(v, -1)
            if b < 0:
                b = len(values)
                rank[v] = b
                values.append(v)
            dm |= 1 << b
        doms.append(dm)
    return rank, values, doms


def _augment(root: int, doms: list[int], match: list[int], owner: dict[int, int]) -> int:
    """Match node `root` along an augmenting path (BFS). Returns -1 when matched, else the
    bit set of the values its alternating paths reach (all matched: a deficient set)."""
    prev: dict[int, int] = {root: -1}
    queue = [root]
    seen = 0
    qi = 0
    while qi < len(queue):
        y = queue[qi]
        qi += 1
        cand = doms[y] & ~seen
        for b in offsets(cand):
            z = owner.get(b, -1)
            if z < 0:  # a free value: flip the path
                cur = y
                while cur >= 0:
                    old = match[cur]
                    match[cur] = b
                    owner[b] = cur
                    b = old
                    cur = prev[cur]
                return -1
        seen |= cand
        for b in offsets(cand):
            z = owner[b]
            if z not in prev:
                prev[z] = y
                queue.append(z)
    return seen


def _closure(doms: list[int], owner: dict[int, int], start: int) -> tuple[int, list[int]] | None:
    """The values and nodes reachable from the values `start` along value -> its node ->
    the node's domain; None if a free value is reached (no Hall set holds them all)."""
    vals = start
    todo = start
    nodes: list[int] = []
    while todo:
        low = todo & -todo
        todo ^= low
        z = owner.get(low.bit_length() - 1, -1)
        if z < 0:
            return None
        nodes.append(z)
        new = doms[z] & ~vals
        vals |= new
        todo |= new
    return vals, nodes


def _set_preds(journal: Journal, xs: list[IntView], nodes: list[int], members: list[int],
               vals: int, values: list[int], pos: int, out: list[Pred]) -> set[int]:
    """The member nodes' domains inside the values `vals` (bit set of ranks); returns
    those values."""
    allowed = {values[b] for b in offsets(vals)}
    for z in members:
        inside_preds(journal, xs[nodes[z]], pos, allowed, out)
    return allowed


def hall_set(journal: Journal, xs: list[IntView], j: int, pos: int, removed: list[int],
             out: list[Pred], hint: list[int] | None = None,
             direct_span: int = DIRECT_SPAN) -> set[int] | None:
    """Explain why xs[j] cannot take the view values `removed`: a Hall set of the other
    variables whose values hold them all (module docstring). Returns the Hall set's values;
    None (out unchanged) if the others have no such set, or no matching. `hint` (the
    propagator's last matching, a value per position of xs) seeds the matching: domains
    only shrink along the branch, so it mostly still holds, and each hint is checked.
    Values spanning less than `direct_span` are bit positions, wider ones get ranks."""
    n = len(xs)
    nodes: list[int] = []
    domains: list[tuple[int, int, int]] = []
    off = top = 0
    for k in range(n):
        if k == j:
            continue
        lo, hi, bits = view_domain(journal, xs[k], pos)
        if card(lo, hi, bits) >= n:
            continue
        if not nodes or lo < off:
            off = lo
        if not nodes or hi > top:
            top = hi
        nodes.append(k)
        domains.append((lo, hi, bits))
    if not nodes:
        return None
    if top - off >= direct_span:
        return _ranked_hall_set(journal, xs, nodes, pos, removed, out)
    # the values as bit positions value - off: no ranks to look up
    doms: list[int] = []
    match: list[int] = []
    for z in range(len(nodes)):
        lo, hi, bits = domains[z]
        doms.append((bits if bits >= 0 else (1 << (hi - lo + 1)) - 1) << (lo - off))
        b = hint[nodes[z]] - off if hint is not None else -1
        match.append(b if 0 <= b <= top - off else -1)
    try:
        owner, _ = maximum_matching(doms, match)
    except Inconsistency:
        return None
    start = 0
    for v in removed:
        b = v - off
        if b < 0 or b >= len(owner) or owner[b] < 0:
            return None  # a value no other variable can take: no Hall set holds it
        start |= 1 << b
    vals = start
    todo = start
    members: list[int] = []
    while todo:  # values -> their variables -> those variables' values, to a closure
        low = todo & -todo
        todo ^= low
        b = low.bit_length() - 1
        z = owner[b] if b < len(owner) else -1
        if z < 0:
            return None  # a free value is reached: no Hall set holds them all
        members.append(z)
        new = doms[z] & ~vals
        vals |= new
        todo |= new
    allowed = {off + b for b in offsets(vals)}
    for z in members:
        inside_preds(journal, xs[nodes[z]], pos, allowed, out)
    return allowed


def _ranked_hall_set(journal: Journal, xs: list[IntView], nodes: list[int], pos: int,
                     removed: list[int], out: list[Pred]) -> set[int] | None:
    """hall_set over values spread too wide for bit positions: each value gets a rank."""
    lists: list[list[int]] = []
    for k in nodes:
        lo, hi, bits = view_domain(journal, xs[k], pos)
        lists.append(list(range(lo, hi + 1)) if bits < 0 else [lo + o for o in offsets(bits)])
    rank, values, doms = _ranks(lists)
    match = [-1] * len(nodes)
    owner: dict[int, int] = {}
    for z in range(len(nodes)):
        if _augment(z, doms, match, owner) >= 0:
            return None
    start = 0
    for v in removed:
        b = rank.get(v, -1)
        if b < 0:
            return None
        start |= 1 << b
    found = _closure(doms, owner, start)
    if found is None:
        return None
    vals, members = found
    return _set_preds(journal, xs, nodes, members, vals, values, pos, out)


def deficient_set(journal: Journal, xs: list[IntView], pos: int, out: list[Pred]) -> bool:
    """Explain a failure: variables with fewer values between them than variables, found
    by the matching (the nodes an unmatched one reaches). False if every variable can be
    matched."""
    nodes, doms, _, values = _graph(journal, xs, NONE, pos)
    match = [-1] * len(nodes)
    owner: dict[int, int] = {}
    for z in range(len(nodes)):
        seen = _augment(z, doms, match, owner)
        if seen >= 0:
            members = [z]
            for b in offsets(seen):
                members.append(owner[b])
            _set_preds(journal, xs, nodes, members, seen, values, pos, out)
            return True
    return False
