"""Atomic predicates over integer domains: `[x >= v]`, `[x <= v]`, `[x == v]`, `[x != v]`
(issue 29, plan 2.1). They are the literals of the nogood store (clauses.py) and, later,
of conflict analysis.

A predicate is always stated on a **root** variable (an `IntVar`): `[x+c >= v]` is
`[x >= v-c]` (`on_view`), so two views of one variable name the same predicates. Its truth
is read from the domain and making it true is one domain update, so predicates are "lazy
and linked to the domains" by construction: nothing exists until a nogood names one, and no
channelling runs on domain changes.

Bounds-only domains (`bits < 0`) cannot hold an interior hole: making `[x != v]` true for
`lo < v < hi` is then a no-op, exactly as `IntVar.remove` is. The predicate simply stays
not true (it is true once a bound passes v, or false once x is fixed to v), and the nogood
store relies on that: a nogood whose last predicate is such an `[x == v]` is not enforced
until x is fixed, and then `[x == v]` holds and the nogood fails. Sound, like every
propagator on a bounds-only domain (engine/var.py), only weaker; and it stays that weak if
a bound later reaches v (which would make `[x != v]` possible to hold): the store is woken
by predicates becoming true, not by negations becoming possible. Learned nogoods avoid it
(plan 2.1): they use `[x >= v] & [x <= v]` for an equality on such a domain.

The representation is a small `__slots__` class (fast attribute reads under mypyc, and a
readable repr in tests); `key` packs one into an int for the hash tables of analysis.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine.var import IntVar, IntView

# predicate kinds; negate pairs GE with LE (shifted by one) and EQ with NE
GE: Final = 0
LE: Final = 1
EQ: Final = 2
NE: Final = 3
KIND_NAMES: Final = (">=", "<=", "==", "!=")

# the search's decision kinds (search/selectors.py: EQ, NE, LE, GT). The engine may not
# import the search layer (tests/test_layers.py), so they are repeated here and
# tests/test_literals.py checks that the two agree.
DECISION_EQ: Final = 0
DECISION_NE: Final = 1
DECISION_LE: Final = 2
DECISION_GT: Final = 3


class Pred:
    """The predicate `[var <kind> value]` on a root variable. Treat it as immutable."""

    __slots__ = ("var", "kind", "value")

    def __init__(self, var: IntVar, kind: int, value: int) -> None:
        self.var = var
        self.kind = kind
        self.value = value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pred):
            return NotImplemented
        return self.var is other.var and self.kind == other.kind and self.value == other.value

    def __hash__(self) -> int:
        return hash((self.var.index, self.kind, self.value))

    def __repr__(self) -> str:
        return f"[{self.var.name or '_'}{KIND_NAMES[self.kind]}{self.value}]"


def key(p: Pred, nvars: int) -> int:
    """One int naming the predicate among those of `nvars` variables (exact for any value:
    Python ints are unbounded). Distinct predicates have distinct keys."""
    return p.value * (4 * nvars) + p.var.index * 4 + p.kind


def contains_in(v: int, lo: int, hi: int, bits: int) -> bool:
    """Whether the domain (lo, hi, bits) holds v (bits < 0: bounds only; else bit i stands
    for lo + i, as in var.py). For domains remembered by the journal."""
    if v < lo or v > hi:
        return False
    return bits < 0 or (bits >> (v - lo)) & 1 == 1


def holds_in(kind: int, value: int, lo: int, hi: int, bits: int) -> bool:
    """Whether the domain (lo, hi, bits) entails the predicate `[x kind value]`."""
    if kind == GE:
        return lo >= value
    if kind == LE:
        return hi <= value
    if kind == EQ:
        return lo == value and hi == value
    return not contains_in(value, lo, hi, bits)


def holds(p: Pred) -> bool:
    """Whether the current domain entails the predicate (every value satisfies it)."""
    x = p.var
    kind = p.kind
    v = p.value
    if kind == GE:
        return x.lo >= v
    if kind == LE:
        return x.hi <= v
    if kind == EQ:
        return x.lo == v and x.hi == v
    return not x.contains(v)  # NE


def falsified(p: Pred) -> bool:
    """Whether the current domain contradicts the predicate (no value satisfies it):
    the same as `holds(negate(p))`, without building the negation."""
    x = p.var
    kind = p.kind
    v = p.value
    if kind == GE:
        return x.hi < v
    if kind == LE:
        return x.lo > v
    if kind == EQ:
        return not x.contains(v)
    return x.lo == v and x.hi == v  # NE


def make_true(p: Pred) -> None:
    """Restrict the domain to the values satisfying the predicate: one domain update,
    which wakes the variable's propagators and raises Inconsistency if nothing is left.
    `[x != v]` for an interior v of a bounds-only domain changes nothing (see above)."""
    x = p.var
    kind = p.kind
    if kind == GE:
        x.set_min(p.value)
    elif kind == LE:
        x.set_max(p.value)
    elif kind == EQ:
        x.assign(p.value)
    else:
        x.remove(p.value)


def negate(p: Pred) -> Pred:
    """The predicate true exactly where p is false: not[x>=v] = [x<=v-1], not[x==v] = [x!=v]."""
    kind = p.kind
    if kind == GE:
        return Pred(p.var, LE, p.value - 1)
    if kind == LE:
        return Pred(p.var, GE, p.value + 1)
    if kind == EQ:
        return Pred(p.var, NE, p.value)
    return Pred(p.var, EQ, p.value)


def on_view(view: IntView, kind: int, value: int) -> Pred:
    """The predicate `[view <kind> value]`, stated on the view's root variable (a view is
    root + offset, so the value shifts by the offset; an IntVar is its own root)."""
    return Pred(view.root, kind, value - view.offset)


def equal_preds(x: IntVar, v: int) -> list[Pred]:
    """`[x == v]` on a root variable as predicates whose negations the domain can hold:
    one equality on a bit-set domain, its two bounds on a bounds-only one (where a hole
    cannot be made)."""
    if x.bits >= 0:
        return [Pred(x, EQ, v)]
    return [Pred(x, GE, v), Pred(x, LE, v)]


def from_decision(var: IntView, kind: int, value: int) -> Pred:
    """The search decision `(kind, value)` on var (search/selectors.py's kinds: EQ, NE,
    LE, GT) as a predicate: making it true is what `apply_decision` does."""
    if kind == DECISION_EQ:
        return on_view(var, EQ, value)
    if kind == DECISION_NE:
        return on_view(var, NE, value)
    if kind == DECISION_LE:
        return on_view(var, LE, value)
    if kind == DECISION_GT:
        return on_view(var, GE, value + 1)
    raise ValueError(f"unknown decision kind {kind}")
