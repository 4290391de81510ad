"""Sequencing globals: orders along a sequence (increasing, decreasing, lex_less,
lex_lesseq, value_precede).
"""

from __future__ import annotations

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    BoolConst,
    Expr,
    ExprLike,
    Global,
    Operands,
    make_sum,
)
from conundrum.lang.globals.arithmetic import implies
from conundrum.lang.globals.base import (
    _flatten,
    _is,
    _pairwise_all,
)


class Ordered(Global):
    """Increasing or decreasing, strictly or not."""

    __slots__ = ("strict", "descending")

    def __init__(self, args: tuple[ExprLike, ...], strict: bool, descending: bool) -> None:
        super().__init__(args)
        self.strict = strict
        self.descending = descending

    @property
    def name(self) -> str:  # type: ignore[override]
        return ("strictly_" if self.strict else "") + (
            "decreasing" if self.descending else "increasing")

    def _ok(self, a: int, b: int) -> bool:
        if self.descending:
            a, b = b, a
        return a < b if self.strict else a <= b

    def holds(self, values: list[int]) -> bool:
        return all(self._ok(values[i], values[i + 1]) for i in range(len(values) - 1))

    def decompose(self) -> Expr:
        a = self.args
        rels = []
        for i in range(len(a) - 1):
            x, y = (a[i + 1], a[i]) if self.descending else (a[i], a[i + 1])
            rels.append(x < y if self.strict else x <= y)
        return _pairwise_all(rels)


class Lex(Global):
    """xs before ys lexicographically (strictly with lex_less). args = xs + ys."""

    __slots__ = ("n", "strict")

    def __init__(self, args: tuple[ExprLike, ...], n: int, strict: bool) -> None:
        super().__init__(args)
        self.n = n
        self.strict = strict

    @property
    def name(self) -> str:  # type: ignore[override]
        return "lex_less" if self.strict else "lex_lesseq"

    def holds(self, values: list[int]) -> bool:
        xs, ys = values[: self.n], values[self.n:]
        return xs < ys if self.strict else xs <= ys

    def decompose(self) -> Expr:
        xs, ys = self.args[: self.n], self.args[self.n:]
        # built from the back: rest_i = x_i < y_i | (x_i == y_i & rest_{i+1})
        rest: Expr = BoolConst(not self.strict)
        for x, y in zip(reversed(xs), reversed(ys)):
            rest = (x < y) | ((x == y) & rest)
        return rest


def increasing(variables: Operands, strict: bool = False) -> Expr:
    """Each value <= the next (< with strict=True)."""
    return Ordered(_flatten(variables, "increasing"), strict, False)


def decreasing(variables: Operands, strict: bool = False) -> Expr:
    """Each value >= the next (> with strict=True)."""
    return Ordered(_flatten(variables, "decreasing"), strict, True)


def _lex(xs: object, ys: object, strict: bool) -> Expr:
    a, b = _flatten(xs, "lex"), _flatten(ys, "lex")
    if len(a) != len(b):
        raise ModelError(f"lex: sequences of different lengths ({len(a)} and {len(b)})")
    return Lex(a + b, len(a), strict)


def lex_less(xs: Operands, ys: Operands) -> Expr:
    """xs < ys lexicographically."""
    return _lex(xs, ys, True)


def lex_lesseq(xs: Operands, ys: Operands) -> Expr:
    """xs <= ys lexicographically."""
    return _lex(xs, ys, False)


class ValuePrecede(Global):
    """If some argument takes t, an earlier one takes s (each occurrence of t implies an
    earlier s)."""

    __slots__ = ("s", "t")
    name = "value_precede"

    def __init__(self, args: tuple[ExprLike, ...], s: int, t: int) -> None:
        super().__init__(args)
        self.s, self.t = s, t

    def holds(self, values: list[int]) -> bool:
        if self.s == self.t or self.t not in values:
            return True
        return self.s in values[:values.index(self.t)]

    def decompose(self) -> Expr:
        xs, s, t = self.args, self.s, self.t
        if s == t:
            return BoolConst(True)
        parts: list[Expr | bool] = []
        for i, x in enumerate(xs):
            before = make_sum((1, _is(y, s)) for y in xs[:i])
            parts.append(implies(_is(x, t) == 1, before >= 1))
        return _pairwise_all(parts)


def value_precede(s: int, t: int, variables: Operands) -> Expr:
    """If some variable takes t, an earlier one takes s (symmetry breaking of
    interchangeable values)."""
    for v in (s, t):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ModelError(f"value_precede: s and t are integers, not {v!r}")
    return ValuePrecede(_flatten(variables, "value_precede"), s, t)
