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


def _candidates(journal: Journal, xs: list[IntView], j: int,
                pos: int) -> tuple[list[int], list[tuple[int, int, int]]]:
    """The variables other than xs[j] that could be in a Hall set (at most n - 1 values; a
    wider one never is) just before pos: their positions and their view domains."""
    n = len(xs)
    nodes: list[int] = []
    domains: list[tuple[int, int, int]] = []
    for k in range(n):
        if k == j:
            continue
        lo, hi, bits = view_domain(journal, xs[k], pos)
        if card(lo, hi, bits) >= n:
            continue
        nodes.append(k)
        domains.append((lo, hi, bits))
    return nodes, domains


def _graph(journal: Journal, xs: list[IntView], j: int,
           pos: int) -> tuple[list[int], list[int], dict[int, int], list[int]]:
    """The bipartite graph of `_candidates`: (their positions, their domains as bit sets
    of value ranks, value -> rank, rank -> value)."""
    nodes, domains = _candidates(journal, xs, j, pos)
    rank, values, doms = _ranks(domains)
    return nodes, doms, rank, values


def _ranks(domains: list[tuple[int, int, int]]) -> tuple[dict[int, int], list[int],
                                                          list[int]]:
    """Rank the values of the domains (lo, hi, bits) in order of appearance: (value ->
    rank, rank -> value, each domain as a bit set of ranks)."""
    rank: dict[int, int] = {}
    values: list[int] = []
    doms: list[int] = []
    for lo, hi, bits in domains:
        dm = 0
        for v in (range(lo, hi + 1) if bits < 0 else [lo + o for o in offsets(bits)]):
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


def _closure(doms: list[int], owner: list[int], start: int) -> tuple[int, list[int]] | None:
    """The values and nodes reachable from the values `start` along value -> its node ->
    the node's domain (`owner[b]`: the node matched to value b, -1 or past the list:
    none); None if a free value is reached (no Hall set holds them all)."""
    vals = start
    todo = start
    nodes: list[int] = []
    while todo:
        low = todo & -todo
        todo ^= low
        b = low.bit_length() - 1
        z = owner[b] if b < len(owner) else -1
        if z < 0:
            return None
        nodes.append(z)
        new = doms[z] & ~vals
        vals |= new
        todo |= new
    return vals, nodes


def _set_preds(journal: Journal, xs: list[IntView], nodes: list[int], members: list[int],
               allowed: set[int], pos: int, out: list[Pred]) -> None:
    """The member nodes' domains inside the values `allowed`."""
    for z in members:
        inside_preds(journal, xs[nodes[z]], pos, allowed, out)


def hall_set(journal: Journal, xs: list[IntView], j: int, pos: int, removed: list[int],
             out: list[Pred], hint: list[int] | None = None,
             direct_span: int = DIRECT_SPAN) -> set[int] | None:
    """Explain why xs[j] cannot take the view values `removed`: a Hall set of the other
    variables whose values hold them all (module docstring). Returns the Hall set's values;
    None (out unchanged) if the others have no such set, or no matching. Values spanning
    less than `direct_span` are bit positions (value - the least), whose matching starts
    from `hint` (the propagator's last one, a value per position of xs: domains only
    shrink along the branch, so it mostly still holds, and each hint is checked); wider
    ones get ranks."""
    nodes, domains = _candidates(journal, xs, j, pos)
    if not nodes:
        return None
    off = top = domains[0][0]
    for lo, hi, _ in domains:
        if lo < off:
            off = lo
        if hi > top:
            top = hi
    rank: dict[int, int] | None = None
    values: list[int] = []
    if top - off < direct_span:
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
    else:
        rank, values, doms = _ranks(domains)
        match = [-1] * len(nodes)
        owned: dict[int, int] = {}
        for z in range(len(nodes)):
            if _augment(z, doms, match, owned) >= 0:
                return None
        owner = [-1] * len(values)
        for b, z in owned.items():
            owner[b] = z
    start = 0
    for v in removed:
        b = v - off if rank is None else rank.get(v, -1)
        if b < 0 or b >= len(owner) or owner[b] < 0:
            return None  # a value no other variable can take: no Hall set holds it
        start |= 1 << b
    found = _closure(doms, owner, start)
    if found is None:
        return None
    vals, members = found
    if rank is None:
        allowed = {off + b for b in offsets(vals)}
    else:
        allowed = {values[b] for b in offsets(vals)}
    _set_preds(journal, xs, nodes, members, allowed, pos, out)
    return allowed


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
            _set_preds(journal, xs, nodes, members, {values[b] for b in offsets(seen)},
                       pos, out)
            return True
    return False
