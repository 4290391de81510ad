"""The normalising pass, before anything is posted: the model variables that top-level
equalities x == y + c relate (also written x - y == c, 2*x == 2*y + 2c, or all_equal)
are compiled as one engine variable plus offsets.

A non-linear constraint then sees a repeated variable: x*y with x == y becomes x**2, whose
roots settle it at once, where two propagators exchanging rounded bounds would move them
about one unit per round; x + y == 10**4 with x - y == 2 becomes 2*y + 2 == 10**4, settled
before search. This pass reads the language only: it returns the merges, and the compiler
makes the engine variables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from conundrum.lang.expr import BoolOp, Expr, Rel, Sum, Var
from conundrum.lang.globals import AllEqual
from conundrum.lang.tree import rule_for


def _conjuncts(c: BoolOp) -> Sequence[object]:
    return c.args if c.op == "and" else ()


def _all_equal(c: AllEqual) -> Sequence[object]:
    return (c.decompose(),)


# the top-level constraints whose parts may hold equalities, and those parts
PARTS: dict[type, Callable[[Any], Sequence[object]]] = {
    BoolOp: _conjuncts,
    AllEqual: _all_equal,
}


def merged_variables(constraints: Sequence[Expr]) -> list[tuple[int, int, int]]:
    """(i, r, c) for each model variable x_i compiled as x_r + c (r unmerged), in the
    order of i. The equalities themselves stay in the model and compile to 0 == 0."""
    parent: dict[int, tuple[int, int]] = {}  # i -> (j, c): x_i == x_j + c
    stack: list[object] = list(constraints)
    while stack:
        c = stack.pop()
        parts = rule_for(PARTS, c)
        if parts is not None:
            stack.extend(parts(c))
            continue
        if not (isinstance(c, Rel) and c.op == "=="):
            continue
        pair = _offset_pair(c.args[0], c.args[1])
        if pair is None:
            continue
        i, j, k = pair
        (ri, oi), (rj, oj) = _find(parent, i), _find(parent, j)
        if ri == rj:
            continue  # already merged: posting the constraint checks its offsets
        # x_i == x_j + k with x_i = x_ri + oi and x_j = x_rj + oj
        if ri < rj:
            parent[rj] = (ri, oi - oj - k)
        else:
            parent[ri] = (rj, oj + k - oi)
    return [(i, *_find(parent, i)) for i in sorted(parent)]


def _find(parent: dict[int, tuple[int, int]], i: int) -> tuple[int, int]:
    """(r, c) with x_i == x_r + c and r unmerged, following `parent` (i -> (j, c) for
    x_i == x_j + c) and pointing the path straight at r: long chains stay cheap."""
    path = []
    root, offset = i, 0
    while root in parent:
        path.append(root)
        root, c = parent[root]
        offset += c
    rest = offset
    for j in path:
        step = parent[j][1]
        parent[j] = (root, rest)
        rest -= step
    return root, offset


def _var_terms(side: Var) -> tuple[dict[int, int], int] | None:
    return {side.index: 1}, 0


def _sum_terms(side: Sum) -> tuple[dict[int, int], int] | None:
    if not isinstance(side.const, int):
        return None
    terms: dict[int, int] = {}
    for coef, t in zip(side.coefs, side.args, strict=True):
        if not (isinstance(t, Var) and isinstance(coef, int)):
            return None
        terms[t.index] = terms.get(t.index, 0) + coef
    return terms, side.const


# the sides of an equality that are integer linear forms over model variables:
# (variable index -> coefficient, constant)
TERMS: dict[type, Callable[[Any], tuple[dict[int, int], int] | None]] = {
    Var: _var_terms,
    Sum: _sum_terms,
}


def _offset_pair(a: object, b: object) -> tuple[int, int, int] | None:
    """(i, j, k) when a == b says x_i == x_j + k for two model variables: both sides are
    integer linear forms over variables and their difference is p*x_i - p*x_j + m, with p
    dividing m (x + 3 == y, x - y == 2, 2*x == 2*y + 4, ...)."""
    terms: dict[int, int] = {}
    const = 0
    for side, sign in ((a, 1), (b, -1)):
        if isinstance(side, int) and not isinstance(side, bool):
            const += sign * side
            continue
        rule = rule_for(TERMS, side)
        found = None if rule is None else rule(side)
        if found is None:
            return None
        for v, coef in found[0].items():
            terms[v] = terms.get(v, 0) + sign * coef
        const += sign * found[1]
    nonzero = [(v, c) for v, c in terms.items() if c]
    if len(nonzero) != 2 or nonzero[0][1] != -nonzero[1][1]:
        return None
    (i, p), (j, _) = nonzero
    if const % p:
        return None  # no solution: posting the constraint finds out
    return i, j, -const // p


def kept_apart(c: object) -> list[Expr]:
    """The terms a top-level constraint keeps pairwise apart (compiler/distinct.py and
    cliques.py): an all_different's (`Expr.kept_apart`); a disequality's two variables
    when it says x_i != x_j in any linear form (`x - y != 0` as MiniZinc writes it,
    `x + 3 != y + 3`, `2*x != 2*y`: `_offset_pair` with no offset), else its two sides
    when both are expressions (the same abs(x - y) object named in several)."""
    if not isinstance(c, Rel):
        return c.kept_apart() if isinstance(c, Expr) else []
    if c.op != "!=":
        return []
    a, b = c.args
    pair = _offset_pair(a, b)
    if pair is not None:
        i, j, offset = pair
        if offset:
            return []
        found = {v.index: v for v in _variables(a) + _variables(b)}
        return [found[i], found[j]]
    return [a, b] if isinstance(a, Expr) and isinstance(b, Expr) else []


def _variables(side: object) -> list[Var]:
    """The variables of a side `_offset_pair` read: a variable, a sum of them, or none."""
    if isinstance(side, Var):
        return [side]
    return [t for t in side.args if isinstance(t, Var)] if isinstance(side, Expr) else []
