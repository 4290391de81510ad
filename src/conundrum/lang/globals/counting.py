"""Counting globals: how many of the arguments take which values (all_different and its
variants, global_cardinality, among, nvalue, all_equal, count, at_most, at_least).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, get_args

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    Count,
    Expr,
    ExprLike,
    Global,
    Operands,
    Rel,
    const_or_expr,
    make_sum,
)
from conundrum.lang.globals.base import (
    _flatten,
    _int_values,
    _is,
    _member,
    _pairwise_all,
)

# how hard all_different filters; the solutions are the same for each
AllDifferentStrength = Literal["value", "bounds", "domain"]


ALLDIFF_STRENGTHS: tuple[str, ...] = get_args(AllDifferentStrength)


class AllDifferent(Global):
    """All arguments take pairwise different values."""

    __slots__ = ("strength",)
    name = "all_different"

    def __init__(self, args: tuple[ExprLike, ...], strength: str) -> None:
        super().__init__(args)
        self.strength = strength

    def holds(self, values: list[int]) -> bool:
        return len(set(values)) == len(values)

    def kept_apart(self) -> list[Expr]:
        return [a for a in self.args if isinstance(a, Expr)]

    def decompose(self) -> Expr:
        a = self.args
        return _pairwise_all(a[i] != a[j] for i in range(len(a)) for j in range(i + 1, len(a)))


class AllDifferentExcept0(Global):
    """All non-zero arguments take pairwise different values."""

    __slots__ = ()
    name = "all_different_except_0"

    def holds(self, values: list[int]) -> bool:
        nonzero = [v for v in values if v != 0]
        return len(set(nonzero)) == len(nonzero)

    def decompose(self) -> Expr:
        a = self.args
        return _pairwise_all(
            (a[i] == 0) | (a[j] == 0) | (a[i] != a[j])
            for i in range(len(a)) for j in range(i + 1, len(a))
        )


class GlobalCardinality(Global):
    """For each i, exactly counts[i] of the variables equal values[i] (other values are
    allowed too, as in MiniZinc's global_cardinality). args = vars + counts."""

    __slots__ = ("values", "n")
    name = "global_cardinality"

    def __init__(self, args: tuple[ExprLike, ...], values: tuple[int, ...], n: int) -> None:
        super().__init__(args)
        self.values = values
        self.n = n

    def holds(self, values: list[int]) -> bool:
        xs, counts = values[: self.n], values[self.n:]
        return all(len([x for x in xs if x == v]) == c for v, c in zip(self.values, counts))

    def decompose(self) -> Expr:
        xs, counts = self.args[: self.n], self.args[self.n:]
        return _pairwise_all(
            make_sum((1, x == v) for x in xs) == c for v, c in zip(self.values, counts)
        )


def all_different(*items: Operands, strength: AllDifferentStrength = "domain") -> Expr:
    """All different values. strength: "domain" (matching, default), "bounds" (Hall
    intervals) or "value" (value elimination); the solution set is the same."""
    if strength not in ALLDIFF_STRENGTHS:
        raise ModelError(f"all_different strength must be one of {ALLDIFF_STRENGTHS}, "
                         f"not {strength!r}")
    return AllDifferent(_flatten(items[0] if len(items) == 1 else items, "all_different"),
                        strength)


def all_different_except_0(*items: Operands) -> Expr:
    """All non-zero values different (zeros may repeat)."""
    return AllDifferentExcept0(
        _flatten(items[0] if len(items) == 1 else items, "all_different_except_0"))


def count(variables: Operands, value: ExprLike) -> Expr:
    """How many of the variables equal value (an expression)."""
    return Count((const_or_expr(value, "count"), *_flatten(variables, "count")))


def global_cardinality(variables: Operands, values: Iterable[int], counts: Operands) -> Expr:
    """For each i, exactly counts[i] variables take values[i]."""
    xs = _flatten(variables, "global_cardinality")
    vals = tuple(values)
    cs = _flatten(counts, "global_cardinality")
    if len(vals) != len(cs):
        raise ModelError(f"global_cardinality: {len(vals)} values but {len(cs)} counts")
    if len(set(vals)) != len(vals):
        raise ModelError("global_cardinality: the values must be distinct")
    return GlobalCardinality(xs + cs, vals, len(xs))


NVALUE_LIMIT = 10_000  # values in the union of the domains that nvalue enumerates


class AllEqual(Global):
    """Every argument the same value (domain consistent: the equalities to the first one
    merge into one engine variable)."""

    __slots__ = ()
    name = "all_equal"

    def holds(self, values: list[int]) -> bool:
        return len(set(values)) <= 1

    def decompose(self) -> Expr:
        xs = self.args
        return _pairwise_all(x == xs[0] for x in xs[1:])


class Among(Global):
    """args[0] arguments of the rest take a value in `values` (a sum of 0/1 memberships:
    bounds of n, and values pruned from the others once n is reached either way)."""

    __slots__ = ("values",)
    name = "among"

    def __init__(self, args: tuple[ExprLike, ...], values: tuple[int, ...]) -> None:
        super().__init__(args)
        self.values = values

    def holds(self, values: list[int]) -> bool:
        allowed = set(self.values)
        return values[0] == len([v for v in values[1:] if v in allowed])

    def decompose(self) -> Expr:
        return Rel("==", self.args[0], make_sum((1, _member(x, self.values))
                                               for x in self.args[1:]))


class NValue(Global):
    """args[0] is the number of distinct values of the rest (for each value of their
    domains, whether some argument takes it: a sum of 0/1 disjunctions)."""

    __slots__ = ("domain",)
    name = "nvalue"

    def __init__(self, args: tuple[ExprLike, ...], domain: tuple[int, ...]) -> None:
        super().__init__(args)
        self.domain = domain  # every value the arguments can take

    def holds(self, values: list[int]) -> bool:
        return values[0] == len(set(values[1:]))

    def decompose(self) -> Expr:
        xs = self.args[1:]
        used = (make_sum((1, _is(x, v)) for x in xs) >= 1 for v in self.domain)
        return Rel("==", self.args[0], make_sum((1, u) for u in used))


def all_equal(*items: Operands) -> Expr:
    """Every value the same."""
    return AllEqual(_flatten(items[0] if len(items) == 1 else items, "all_equal"))


def among(n: ExprLike, variables: Operands, values: Iterable[int]) -> Expr:
    """Exactly n of the variables take a value in `values`."""
    vals = _int_values(values, "among")
    return Among((const_or_expr(n, "among"), *_flatten(variables, "among")), vals)


def at_most(k: ExprLike, variables: Operands, value: ExprLike) -> Expr:
    """At most k of the variables equal value (a count, as cn.count)."""
    return count(variables, value) <= const_or_expr(k, "at_most")


def at_least(k: ExprLike, variables: Operands, value: ExprLike) -> Expr:
    """At least k of the variables equal value (a count, as cn.count)."""
    return count(variables, value) >= const_or_expr(k, "at_least")


def nvalue(n: ExprLike, variables: Operands) -> Expr:
    """n is the number of distinct values the variables take."""
    from conundrum.lang.expr import Var

    xs = _flatten(variables, "nvalue")
    values: set[int] = set()
    for x in xs:
        if isinstance(x, int):
            values.add(x)
        elif isinstance(x, Var):
            dom = x.domain_values
            if dom is None and x.hi - x.lo >= NVALUE_LIMIT:
                raise ModelError(f"nvalue: the domain of {x.name or 'a variable'} is too "
                                 f"wide (more than {NVALUE_LIMIT:,} values)")
            values.update(dom if dom is not None else range(x.lo, x.hi + 1))
        else:
            raise ModelError("nvalue: the arguments must be variables or integers")
        if len(values) > NVALUE_LIMIT:
            raise ModelError(f"nvalue: more than {NVALUE_LIMIT:,} values in the domains")
    return NValue((const_or_expr(n, "nvalue"), *xs), tuple(sorted(values)))
