"""The graph algorithms of Régin's all_different on bit sets (alldiff_domain.py): a maximum
matching of variables to values along shortest augmenting paths, the values some maximum
matching leaves free, and the strongly connected components of the residual graph (by
closures on bit sets, and by Tarjan as the reference they are tested against).

A variable's domain is a bit set of value positions; `match[k]` is the position matched to
variable k; `owner[b]` the variable matched to position b. No recursion: augmenting paths
use an explicit queue, Tarjan an explicit call stack.
"""

from __future__ import annotations

from conundrum.engine import Inconsistency


def maximum_matching(doms: list[int], match: list[int]) -> tuple[list[int], int]:
    """Repair `match` (a value bit per variable, or -1; a hint that may be stale) into a
    maximum matching that covers every variable, along shortest augmenting paths. Returns
    (owner: value bit -> its variable or -1, the mask of matched values); Inconsistency
    when some variable cannot be matched."""
    union = 0
    for dm in doms:
        union |= dm
    owner = [-1] * union.bit_length()
    matched = 0
    for k in range(len(doms)):
        b = match[k]
        if b >= 0 and (doms[k] >> b) & 1 and not (matched >> b) & 1:
            owner[b] = k
            matched |= 1 << b
        else:
            match[k] = -1
    for k in range(len(doms)):
        if match[k] < 0:
            matched = _augment(k, doms, match, owner, matched)
    return owner, matched


def _augment(root: int, doms: list[int], match: list[int], owner: list[int],
             matched: int) -> int:
    """Match `root` along a shortest augmenting path (BFS); return the matched mask."""
    prev = [-1] * len(doms)
    queue = [root]
    seen = 0
    qi = 0
    while qi < len(queue):
        y = queue[qi]
        qi += 1
        cand = doms[y] & ~seen
        free = cand & ~matched
        if free:
            b = (free & -free).bit_length() - 1
            matched |= 1 << b
            cur = y
            while cur >= 0:
                old = match[cur]
                match[cur] = b
                owner[b] = cur
                b = old
                cur = prev[cur]
            return matched
        seen |= cand
        while cand:
            low = cand & -cand
            cand ^= low
            z = owner[low.bit_length() - 1]
            prev[z] = y
            queue.append(z)
    raise Inconsistency


def freeable_values(doms: list[int], match: list[int], matched: int) -> tuple[int, list[int]]:
    """The values that some maximum matching leaves free: the free values, and the matched
    value of each variable that can move to such a value (alternating paths from free
    values). Returns (that mask, the variables that cannot reach a free value)."""
    union = 0
    for dm in doms:
        union |= dm
    fvals = union & ~matched
    if not fvals:
        return 0, [k for k in range(len(doms))]
    pending: list[int] = []
    # The first pass sees every variable and builds only the list of those left waiting
    # (starting from a list of them all costs 1.3% of a Golomb ruler's instructions).
    for k in range(len(doms)):
        if doms[k] & fvals:
            fvals |= 1 << match[k]
        else:
            pending.append(k)
    grew = len(pending) < len(doms)
    while grew and pending:  # later passes, the variables still waiting
        grew = False
        rest = []
        for k in pending:
            if doms[k] & fvals:
                fvals |= 1 << match[k]
                grew = True
            else:
                rest.append(k)
        pending = rest
    return fvals, pending


def scc_sets(nodes: list[int], doms: list[int], match: list[int], owner: list[int],
             fvals: int, allowed: list[int]) -> None:
    """Components by forward/backward closure on bit sets; the default (see scc_tarjan).

    A node is a variable, named by the bit of its matched value, so that a successor set
    is simply dom(y) minus the freeable values. The component of the lowest remaining
    node u is the part of its forward closure that reaches u back. On the dense graphs
    of all_different this does a few bit-set operations per node, where Tarjan does a
    few Python statements per edge (about 3x faster at 25 variables).
    """
    succ = [0] * len(owner)  # value bit -> the values its owner can move to
    remaining = 0
    for k in nodes:
        b = match[k]
        succ[b] = doms[k] & ~fvals
        remaining |= 1 << b
    while remaining:
        u = remaining & -remaining
        reach = frontier = u
        while frontier:  # forward closure of u inside the remaining nodes
            new = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new |= succ[low.bit_length() - 1]
            frontier = new & remaining & ~reach
            reach |= frontier
        comp = u
        cand = reach ^ u
        grew = True
        while grew and cand:  # the nodes of that closure that reach u
            grew = False
            rest = cand
            while rest:
                low = rest & -rest
                rest ^= low
                if succ[low.bit_length() - 1] & comp:
                    comp |= low
                    cand ^= low
                    grew = True
        remaining ^= comp
        vals = comp | fvals
        while comp:
            low = comp & -comp
            comp ^= low
            allowed[owner[low.bit_length() - 1]] = vals


def scc_tarjan(nodes: list[int], doms: list[int], match: list[int], owner: list[int],
               fvals: int, allowed: list[int]) -> None:
    """Tarjan with an explicit stack; allowed[y] = matched values of y's component
    plus the freeable ones. The reference implementation scc_sets is tested against."""
    m = len(doms)
    index = [-1] * m
    low = [0] * m
    on_stack = [False] * m
    rem = [0] * m
    for y in nodes:
        rem[y] = doms[y] & ~fvals & ~(1 << match[y])
    stack: list[int] = []
    counter = 0
    for s in nodes:
        if index[s] >= 0:
            continue
        index[s] = low[s] = counter
        counter += 1
        stack.append(s)
        on_stack[s] = True
        call = [s]
        while call:
            y = call[-1]
            r = rem[y]
            if r:
                bit = r & -r
                rem[y] = r ^ bit
                z = owner[bit.bit_length() - 1]
                if index[z] < 0:
                    index[z] = low[z] = counter
                    counter += 1
                    stack.append(z)
                    on_stack[z] = True
                    call.append(z)
                elif on_stack[z] and index[z] < low[y]:
                    low[y] = index[z]
                continue
            call.pop()
            if call:
                p = call[-1]
                if low[y] < low[p]:
                    low[p] = low[y]
            if low[y] == index[y]:
                comp = []
                vals = 0
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    vals |= 1 << match[w]
                    if w == y:
                        break
                vals |= fvals
                for w in comp:
                    allowed[w] = vals
