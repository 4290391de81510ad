"""Posting the set constraints that hold element by element (subset, equality, disjointness
of two sets, union, intersection, difference, symmetric difference) as one `Elementwise`
propagator each (propagators/sets.py), with the cardinality rows the element-wise view
cannot see. The other set constraints (set_ne, all_disjoint of more than two sets, member,
set_element) and every reified one are posted decomposed (lang/globals/sets.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from conundrum.compiler.linear import Lin
from conundrum.engine import Inconsistency, IntView
from conundrum.lang.globals.sets import (
    Difference,
    Disjoint,
    Intersection,
    SetEq,
    SetGlobal,
    Subset,
    SymDiff,
    Union,
)
from conundrum.propagators.sets import Elementwise

if TYPE_CHECKING:
    from conundrum.compiler.compile import Compiler

# each relation's meaning at one element: the allowed rows (a, b) of a binary one, with
# c = 0, and the value c takes for (a, b) in a ternary one
BINARY: dict[type, Callable[[int, int], bool]] = {
    Subset: lambda a, b: a <= b,
    SetEq: lambda a, b: a == b,
    Disjoint: lambda a, b: not (a and b),
}
TERNARY: dict[type, Callable[[int, int], int]] = {
    Union: lambda a, b: a | b,
    Intersection: lambda a, b: a & b,
    Difference: lambda a, b: a & (1 - b),
    SymDiff: lambda a, b: a ^ b,
}


def rows_of(c: SetGlobal) -> int:
    """The truth table of c's relation at one element (bit 4a + 2b + c per allowed row)."""
    rows = 0
    binary = BINARY.get(type(c))
    for a in (0, 1):
        for b in (0, 1):
            if binary is not None:
                if binary(a, b):
                    rows |= 1 << (4 * a + 2 * b)
            else:
                rows |= 1 << (4 * a + 2 * b + TERNARY[type(c)](a, b))
    return rows


def post_set_relation(cx: Compiler, c: SetGlobal, forms: list[Lin]) -> None:
    """One Elementwise propagator over the operands' members (a member a set cannot have
    is the constant 0), then the cardinality rows."""
    n = len(c.universes)
    members: list[dict[int, Lin]] = []
    cards: list[Lin] = []
    at = 0
    for universe in c.universes:
        members.append(dict(zip(universe, forms[at: at + len(universe)], strict=True)))
        cards.append(forms[at + len(universe)])
        at += len(universe) + 1
    if n > 3 or (isinstance(c, Disjoint) and n != 2):
        _post_all_disjoint(cx, c, members, cards)
        return
    rows = rows_of(c)
    zero = Lin()
    vectors: list[list[IntView]] = [[], [], []]
    for e in c.every():
        triple = [members[k].get(e, zero) if k < n else zero for k in range(3)]
        if all(t.is_const() for t in triple):
            a, b, z = (t.const for t in triple)
            if not rows >> (4 * a + 2 * b + z) & 1:
                raise Inconsistency
            continue
        for k in range(3):
            vectors[k].append(cx.as_var(triple[k]))
    if vectors[0]:
        xs, ys, zs = vectors
        cx.post_prop(Elementwise(cx.solver, xs, ys, zs, rows))
    for lin, r in _card_rows(c, cards):
        cx.post_linear(lin, r)


def _post_all_disjoint(cx: Compiler, c: SetGlobal, members: list[dict[int, Lin]],
                       cards: list[Lin]) -> None:
    """Pairwise disjoint sets: each element in at most one of them (a row per element),
    and their sizes add up to at most the size of the union of the universes."""
    for e in c.every():
        total = Lin(const=-1)
        for m in members:
            if e in m:
                total = total.plus(m[e])
        cx.post_linear(total, "le")
    total = Lin(const=-len(c.every()))
    for card in cards:
        total = total.plus(card)
    cx.post_linear(total, "le")


def _difference(x: Lin, y: Lin, z: Lin | None = None) -> Lin:
    """x - y (- z)."""
    out = x.plus(y, -1)
    return out if z is None else out.plus(z, -1)


# the cardinality consequences of each relation (each `form r 0`) over its operands'
# cards and the size of the union of their universes, which the members' rows cannot see
# one element at a time
CARD_ROWS: dict[type, Callable[[list[Lin], int], list[tuple[Lin, str]]]] = {
    Subset: lambda c, width: [(_difference(c[0], c[1]), "le")],
    SetEq: lambda c, width: [(_difference(c[0], c[1]), "eq")],
    # |a| + |b| <= the size of the union of the universes
    Disjoint: lambda c, width: [(c[0].plus(c[1]).plus(Lin(const=-width)), "le")],
    # max(|a|, |b|) <= |c| <= |a| + |b|
    Union: lambda c, width: [(_difference(c[2], c[0], c[1]), "le"),
                             (_difference(c[0], c[2]), "le"),
                             (_difference(c[1], c[2]), "le")],
    # |c| <= min(|a|, |b|)
    Intersection: lambda c, width: [(_difference(c[2], c[0]), "le"),
                                    (_difference(c[2], c[1]), "le")],
    # |a| - |b| <= |c| <= |a|
    Difference: lambda c, width: [(_difference(c[2], c[0]), "le"),
                                  (_difference(c[0], c[1], c[2]), "le")],
    # ||a| - |b|| <= |c| <= |a| + |b|
    SymDiff: lambda c, width: [(_difference(c[2], c[0], c[1]), "le"),
                               (_difference(c[0], c[1], c[2]), "le"),
                               (_difference(c[1], c[0], c[2]), "le")],
}


def _card_rows(c: SetGlobal, cards: list[Lin]) -> list[tuple[Lin, str]]:
    """c's cardinality rows (CARD_ROWS), each `form r 0`."""
    return CARD_ROWS[type(c)](cards, len(c.every()))
