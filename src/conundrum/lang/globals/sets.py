"""Set constraints over set variables (`conundrum.lang.setvar.SetVar`): membership,
subset, equality, disjointness, union, intersection, difference, symmetric difference and
element over sets.

Each is a global over the sets' membership variables: the args hold, set after set, the
members of each set operand (one 0/1 term per element of its universe) and its
cardinality, then the integer operands (the element of `member`, the index of
`set_element`). A set operand may be a constant (a Python set, frozenset or range): its
members are the constant 1. `holds` reads the sets back and states the meaning with
Python's set operations; the decompositions are element-wise 0/1 relations, the bounds
(glb/lub) reasoning of a set solver, with the cardinality sums beside them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    BoolConst,
    BoolOp,
    Expr,
    ExprLike,
    Global,
    const_or_expr,
    make_sum,
)
from conundrum.lang.globals.base import _pairwise_all
from conundrum.lang.setvar import SetVar

# what a set operand may be: a set variable, or a constant set of integers
SetLike = SetVar | frozenset[int] | set[int] | range | tuple[int, ...] | list[int]


def _operand(s: object, what: str) -> tuple[tuple[int, ...], tuple[ExprLike, ...]]:
    """(universe, members + card) of a set operand."""
    if isinstance(s, SetVar):
        return s.universe, (*s.members, s.card)
    if isinstance(s, Expr):
        raise ModelError(f"{what} takes set variables (Model.set_var) or constant sets, "
                         f"not the expression {s!r}")
    try:
        items = sorted(set(s))  # type: ignore[call-overload]
    except TypeError:
        raise ModelError(f"{what} takes set variables or sets of integers, not {s!r}") from None
    for v in items:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ModelError(f"{what}: a set holds integers, not {v!r}")
    return tuple(items), (*(1 for _ in items), len(items))


class SetGlobal(Global):
    """A constraint over set operands (and integer operands after them)."""

    __slots__ = ("universes",)
    name = "set_constraint"

    def __init__(self, sets: Sequence[object], extras: tuple[ExprLike, ...] = ()) -> None:
        universes: list[tuple[int, ...]] = []
        args: list[ExprLike] = []
        for s in sets:
            universe, parts = _operand(s, self.name)
            universes.append(universe)
            args.extend(parts)
        super().__init__((*args, *extras))
        self.universes = tuple(universes)

    def sets(self, values: Sequence[int]) -> tuple[list[frozenset[int]], list[int]]:
        """The set operands' values and the integer operands' values from the args'."""
        out: list[frozenset[int]] = []
        at = 0
        for universe in self.universes:
            n = len(universe)
            out.append(frozenset(compress(universe, values[at: at + n])))
            at += n + 1
        return out, list(values[at:])

    def parts(self, k: int) -> tuple[dict[int, ExprLike], ExprLike]:
        """The k-th set operand's {element: member} and its cardinality."""
        at = sum(len(u) + 1 for u in self.universes[:k])
        n = len(self.universes[k])
        return dict(zip(self.universes[k], self.args[at: at + n])), self.args[at + n]

    def extras(self) -> tuple[ExprLike, ...]:
        """The integer operands."""
        return self.args[sum(len(u) + 1 for u in self.universes):]

    def every(self) -> list[int]:
        """The union of the operands' universes, sorted."""
        return sorted(set().union(*self.universes))


def _bit(members: dict[int, ExprLike], e: int) -> ExprLike:
    return members.get(e, 0)


class Subset(SetGlobal):
    """a is a subset of b."""

    __slots__ = ()
    name = "subset"

    def holds(self, values: list[int]) -> bool:
        (a, b), _ = self.sets(values)
        return a <= b

    def decompose(self) -> Expr:
        (a, ca), (b, cb) = self.parts(0), self.parts(1)
        return _pairwise_all([*(m <= _bit(b, e) for e, m in a.items()), ca <= cb])


class SetEq(SetGlobal):
    """a and b are the same set."""

    __slots__ = ()
    name = "set_eq"

    def holds(self, values: list[int]) -> bool:
        (a, b), _ = self.sets(values)
        return a == b

    def decompose(self) -> Expr:
        (a, ca), (b, cb) = self.parts(0), self.parts(1)
        return _pairwise_all([*(_bit(a, e) == _bit(b, e) for e in self.every()), ca == cb])


class SetNe(SetGlobal):
    """a and b are different sets."""

    __slots__ = ()
    name = "set_ne"

    def holds(self, values: list[int]) -> bool:
        (a, b), _ = self.sets(values)
        return a != b

    def decompose(self) -> Expr:
        a, b = self.parts(0)[0], self.parts(1)[0]
        return _any([_bit(a, e) != _bit(b, e) for e in self.every()])


class Disjoint(SetGlobal):
    """The sets share no element, pairwise (two sets: disjoint; more: all_disjoint)."""

    __slots__ = ()
    name = "all_disjoint"

    def holds(self, values: list[int]) -> bool:
        sets, _ = self.sets(values)
        return sum(len(s) for s in sets) == len(frozenset().union(*sets))

    def decompose(self) -> Expr:
        parts = [self.parts(k) for k in range(len(self.universes))]
        every = self.every()
        # each element in at most one set, and (implied, which the element-wise sums do
        # not see) the sizes add up to at most the size of the union of the universes
        return _pairwise_all([
            *(make_sum((1, _bit(p, e)) for p, _ in parts) <= 1 for e in every),
            make_sum((1, c) for _, c in parts) <= len(every)])


class Union(SetGlobal):
    """c = a | b."""

    __slots__ = ()
    name = "set_union"

    def holds(self, values: list[int]) -> bool:
        (a, b, c), _ = self.sets(values)
        return c == a | b

    def decompose(self) -> Expr:
        (a, ca), (b, cb), (c, cc) = (self.parts(k) for k in range(3))
        out: list[Expr | bool] = []
        for e in self.every():
            x, y, z = _bit(a, e), _bit(b, e), _bit(c, e)
            out += [x <= z, y <= z, z <= make_sum([(1, x), (1, y)])]
        out += [cc <= make_sum([(1, ca), (1, cb)]), ca <= cc, cb <= cc]
        return _pairwise_all(out)


class Intersection(SetGlobal):
    """c = a & b."""

    __slots__ = ()
    name = "set_intersect"

    def holds(self, values: list[int]) -> bool:
        (a, b, c), _ = self.sets(values)
        return c == a & b

    def decompose(self) -> Expr:
        (a, ca), (b, cb), (c, cc) = (self.parts(k) for k in range(3))
        out: list[Expr | bool] = []
        for e in self.every():
            x, y, z = _bit(a, e), _bit(b, e), _bit(c, e)
            out += [z <= x, z <= y, make_sum([(1, x), (1, y), (-1, z)]) <= 1]
        out += [cc <= ca, cc <= cb]
        return _pairwise_all(out)


class Difference(SetGlobal):
    """c = a - b."""

    __slots__ = ()
    name = "set_diff"

    def holds(self, values: list[int]) -> bool:
        (a, b, c), _ = self.sets(values)
        return c == a - b

    def decompose(self) -> Expr:
        (a, ca), (b, _), (c, cc) = (self.parts(k) for k in range(3))
        out: list[Expr | bool] = []
        for e in self.every():
            x, y, z = _bit(a, e), _bit(b, e), _bit(c, e)
            out += [z <= x, make_sum([(1, z), (1, y)]) <= 1, x <= make_sum([(1, z), (1, y)])]
        out += [cc <= ca]
        return _pairwise_all(out)


class SymDiff(SetGlobal):
    """c = a ^ b."""

    __slots__ = ()
    name = "set_symdiff"

    def holds(self, values: list[int]) -> bool:
        (a, b, c), _ = self.sets(values)
        return c == a ^ b

    def decompose(self) -> Expr:
        a, b, c = (self.parts(k)[0] for k in range(3))
        return _pairwise_all([
            _bit(c, e) == make_sum([(1, _bit(a, e)), (1, _bit(b, e))]) - 2 * _both(a, b, e)
            for e in self.every()])


def _both(a: dict[int, ExprLike], b: dict[int, ExprLike], e: int) -> ExprLike:
    x, y = _bit(a, e), _bit(b, e)
    if isinstance(x, int) or isinstance(y, int):
        return x * y
    return BoolOp("and", x, y) if isinstance(x, Expr) and isinstance(y, Expr) else 0


class Member(SetGlobal):
    """The integer x is an element of the set s; args = s's members and card, then x."""

    __slots__ = ()
    name = "set_in"

    def holds(self, values: list[int]) -> bool:
        (s,), (x,) = self.sets(values)
        return x in s

    def decompose(self) -> Expr:
        (x,) = self.extras()
        members = self.parts(0)[0]
        return _any([(x == e) if isinstance(m, int) else (x == e) & m  # type: ignore[operator]
                     for e, m in members.items() if not (isinstance(m, int) and m == 0)])


class SetElement(SetGlobal):
    """s = sets[i] with a 0-based integer index i; args = the sets, then s, then i."""

    __slots__ = ()
    name = "set_element"

    def holds(self, values: list[int]) -> bool:
        sets, (i,) = self.sets(values)
        return 0 <= i < len(sets) - 1 and sets[-1] == sets[i]

    def decompose(self) -> Expr:
        (i,) = self.extras()
        n = len(self.universes) - 1
        out, _ = self.parts(n)
        cases: list[Expr | bool] = [i >= 0, i <= n - 1]
        for j in range(n):
            s, _ = self.parts(j)
            same = _pairwise_all(_bit(s, e) == _bit(out, e)
                                 for e in sorted(set(s) | set(out)))
            cases.append((i != j) | same)
        return _pairwise_all(cases)


def _any(items: list[Expr | bool]) -> Expr:
    kept = [BoolConst(p) if isinstance(p, bool) else p for p in items]
    if any(isinstance(p, BoolConst) and p.value for p in kept):
        return BoolConst(True)
    kept = [p for p in kept if not isinstance(p, BoolConst)]
    if not kept:
        return BoolConst(False)
    return BoolOp("or", *kept) if len(kept) > 1 else kept[0]


# ------------------------------------------------------------------- the public builders

def subset(a: SetLike, b: SetLike) -> Expr:
    """a is a subset of b (a <= b as Python sets)."""
    return Subset((a, b))


def superset(a: SetLike, b: SetLike) -> Expr:
    """a is a superset of b."""
    return Subset((b, a))


def set_eq(a: SetLike, b: SetLike) -> Expr:
    """a and b are the same set."""
    return SetEq((a, b))


def set_ne(a: SetLike, b: SetLike) -> Expr:
    """a and b are different sets."""
    return SetNe((a, b))


def disjoint(a: SetLike, b: SetLike) -> Expr:
    """a and b share no element."""
    return Disjoint((a, b))


def all_disjoint(sets: Iterable[SetLike]) -> Expr:
    """The sets share no element, pairwise."""
    return Disjoint(list(sets))


def set_union(a: SetLike, b: SetLike, c: SetLike) -> Expr:
    """c = a | b."""
    return Union((a, b, c))


def set_intersect(a: SetLike, b: SetLike, c: SetLike) -> Expr:
    """c = a & b."""
    return Intersection((a, b, c))


def set_diff(a: SetLike, b: SetLike, c: SetLike) -> Expr:
    """c = a - b."""
    return Difference((a, b, c))


def set_symdiff(a: SetLike, b: SetLike, c: SetLike) -> Expr:
    """c = a ^ b."""
    return SymDiff((a, b, c))


def member(x: ExprLike, s: SetLike) -> Expr:
    """The integer x (a constant or an expression) is an element of s."""
    if isinstance(x, int) and not isinstance(x, bool) and isinstance(s, SetVar):
        return s.has(x)  # its 0/1 member: nothing to post, and reified it is an alias
    return Member((s,), (const_or_expr(x, "member"),))


def set_element(index: ExprLike, sets: Sequence[SetLike], s: SetLike) -> Expr:
    """s = sets[index], index 0-based (an integer expression)."""
    if not sets:
        raise ModelError("set_element needs at least one set")
    return SetElement((*sets, s), (const_or_expr(index, "set_element"),))


def card(s: SetVar) -> Expr:
    """The number of elements of the set variable s (its `.card` variable)."""
    if not isinstance(s, SetVar):
        raise ModelError(f"card takes a set variable, not {s!r}")
    return s.card


# ---------------------------------------------------- order of sets (MiniZinc's set_le)

def _sorted_lex(a: frozenset[int], b: frozenset[int], strict: bool) -> bool:
    """a <= b (a < b when strict) as their sorted lists of elements compared
    lexicographically (a proper prefix comes first: {1} < {1, 2} < {2})."""
    return sorted(a) < sorted(b) if strict else sorted(a) <= sorted(b)


def _set_less(g: SetGlobal, strict: bool) -> Expr:
    """The order of sorted lists over the membership bits: the sets agree on every element
    before the first one where they differ, e; if e is in b only, a < b exactly when a
    has nothing after e (a is then a prefix of b); if e is in a only, a < b exactly when
    b has something after e (b's next element is the larger). Flat: one disjunct per e."""
    a, b = g.parts(0)[0], g.parts(1)[0]
    every = g.every()
    firsts: list[Expr | bool] = []
    for k, e in enumerate(every):
        x, y = _bit(a, e), _bit(b, e)
        later = every[k + 1:]
        a_ends = make_sum((1, _bit(a, f)) for f in later) == 0
        b_goes_on = make_sum((1, _bit(b, f)) for f in later) >= 1
        differs = _any([_pairwise_all([x == 0, y == 1, a_ends]),
                        _pairwise_all([x == 1, y == 0, b_goes_on])])
        firsts.append(_pairwise_all([*(_bit(a, f) == _bit(b, f) for f in every[:k]),
                                     differs]))
    if not strict:
        firsts.append(_pairwise_all([_bit(a, e) == _bit(b, e) for e in every]))
    return _any(firsts)


class SetLe(SetGlobal):
    """a <= b in MiniZinc's order of sets: their sorted lists of elements compared
    lexicographically (`strict`: a < b, SetLt)."""

    __slots__ = ()
    name = "set_le"
    strict = False

    def holds(self, values: list[int]) -> bool:
        (a, b), _ = self.sets(values)
        return _sorted_lex(a, b, self.strict)

    def decompose(self) -> Expr:
        return _set_less(self, self.strict)


class SetLt(SetLe):
    """a < b in MiniZinc's order of sets."""

    __slots__ = ()
    name = "set_lt"
    strict = True


def set_le(a: SetLike, b: SetLike) -> Expr:
    """a <= b as MiniZinc orders sets: the sorted lists of their elements compared
    lexicographically ({} <= {1} <= {1, 2} <= {2})."""
    return SetLe((a, b))


def set_lt(a: SetLike, b: SetLike) -> Expr:
    """a < b as MiniZinc orders sets (set_le, and a != b)."""
    return SetLt((a, b))
