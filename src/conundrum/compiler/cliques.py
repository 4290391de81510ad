"""Cliques of disequalities, compiled as one all_different each.

A model may state that variables differ pair by pair (`x[i] != x[j]` for all i < j:
MiniZinc models written that way, or the disequalities between the absolute differences
of an all-interval series). Each pair alone removes a value only once the other is
fixed, where an all_different over the clique also sees its Hall sets (twelve variables
over twelve values form a permutation). So the compiler covers the graph whose edges are
the model's top-level `x != y` between two terms (variables, `x - y != 0` as MiniZinc
writes it, or the same expression object named in several) with cliques, greedily (largest
degrees first, each clique grown from an edge no clique covers yet), and compiles every
clique of three or more as one all_different (the default strength, as a user writing
one gets), in place of the disequalities it covers. The solutions are the same: the
all_different holds exactly when its pairs differ. Only top-level disequalities count (a
reified or guarded one is no edge), so diagnosis and explanations, which guard or select
constraints, see the same meaning.
"""

from __future__ import annotations

from collections.abc import Sequence

from conundrum.lang.expr import Expr, Rel, Var
from conundrum.lang.globals import AllDifferent

SMALLEST = 3  # a clique of two is the disequality itself
Key = tuple[int, int]  # a term's identity (_key)


def _key(term: Expr) -> Key:
    """A term's identity: a variable by its index, an expression by the node itself (the
    same abs(x - y) object named in several disequalities, as a model or MiniZinc's
    common subexpressions share it)."""
    return (0, term.index) if isinstance(term, Var) else (1, id(term))


def with_cliques(constraints: Sequence[Expr], kept: Sequence[list[Expr]]) -> list[Expr]:
    """The constraints, the disequalities covered by a clique of SMALLEST or more
    terms replaced by one all_different per clique (appended after the others). `kept`:
    the terms each constraint keeps apart (normalise.kept_apart)."""
    edges: dict[tuple[Key, Key], int] = {}  # (smaller key, larger) -> position
    terms: dict[Key, Expr] = {}
    for position, c in enumerate(constraints):
        if isinstance(c, Rel):
            pair = kept[position]
            if pair:
                a, b = _key(pair[0]), _key(pair[1])
                if a != b:
                    edges.setdefault((min(a, b), max(a, b)), position)
                    terms[a], terms[b] = pair
    if len(edges) < SMALLEST:
        return list(constraints)
    near: dict[Key, set[Key]] = {k: set() for k in terms}
    for a, b in edges:
        near[a].add(b)
        near[b].add(a)
    order = sorted(near, key=lambda k: (-len(near[k]), k))
    rank = {k: r for r, k in enumerate(order)}
    covered: set[tuple[Key, Key]] = set()
    dropped: set[int] = set()
    cliques: list[list[Key]] = []
    for u in order:
        for v in sorted(near[u], key=rank.__getitem__):
            if (min(u, v), max(u, v)) in covered:
                continue
            clique = [u, v]
            for w in sorted(near[u] & near[v], key=rank.__getitem__):
                if all(w in near[c] for c in clique):
                    clique.append(w)
            pairs = [(min(a, b), max(a, b)) for i, a in enumerate(clique) for b in clique[i + 1:]]
            covered.update(pairs)
            if len(clique) >= SMALLEST:
                cliques.append(clique)
                dropped.update(edges[p] for p in pairs)
    if not cliques:
        return list(constraints)
    posted: list[Expr] = [c for k, c in enumerate(constraints) if k not in dropped]
    return posted + [AllDifferent(tuple(terms[k] for k in clique), "domain")
                     for clique in cliques]
