"""Expression builders of arithmetic and logic (min, max, arg_max, arg_min, element, sum,
exact_div, integral, implies) and the linear equation global linear_eq.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from fractions import Fraction
from typing import Literal, get_args

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    BinOp,
    BoolOp,
    Element,
    Expr,
    ExprLike,
    Global,
    MinMax,
    Operands,
    Rel,
    as_constraint,
    const_or_expr,
    make_sum,
    transform,
)
from conundrum.lang.globals.base import (
    _flatten,
)
from conundrum.lang.tree import Number

# how hard linear_eq filters (domain: dynamic programming over the partial sums)
LinearStrength = Literal["bounds", "domain"]


LINEAR_STRENGTHS: tuple[str, ...] = get_args(LinearStrength)


class ArgExtreme(Expr):
    """The 0-based position of the first largest (is_max) or smallest of args."""

    __slots__ = ("is_max",)

    def __init__(self, args: tuple[ExprLike, ...], is_max: bool) -> None:
        super().__init__(args)
        self.is_max = is_max

    @property
    def name(self) -> str:
        """arg_max or arg_min (for messages)."""
        return "arg_max" if self.is_max else "arg_min"

    def position(self, values: list[int]) -> int:
        """The meaning, on the values of args."""
        # (this module's max and min build expressions: the builtins compare values)
        best = builtins.max(values) if self.is_max else builtins.min(values)
        return values.index(best)

    def compute(self, values: list[Number]) -> Number:
        return self.position(values)  # type: ignore[arg-type]  # (exact, hence comparable)

    def decompose(self) -> Expr:
        """How many prefixes fall short of the extreme: the first extreme's position."""
        items = self.args
        best = MinMax(items, self.is_max)
        op = "<" if self.is_max else ">"
        return make_sum((1, Rel(op, MinMax(items[:j + 1], self.is_max), best))
                        for j in range(len(items) - 1))


class LinearEquation(Global):
    """sum(coefs[i] * args[i]) == rhs, filtered as `strength` says."""

    __slots__ = ("coefs", "rhs", "strength")
    name = "linear_eq"

    def __init__(self, args: tuple[ExprLike, ...], coefs: tuple[int, ...], rhs: int,
                 strength: str) -> None:
        super().__init__(args)
        self.coefs = coefs
        self.rhs = rhs
        self.strength = strength

    def holds(self, values: list[int]) -> bool:
        return builtins.sum(a * v for a, v in zip(self.coefs, values)) == self.rhs

    def decompose(self) -> Expr:
        total = make_sum(zip(self.coefs, self.args))
        return total == self.rhs


def linear_eq(coefs: Iterable[int], variables: Operands, rhs: int,
              strength: LinearStrength = "bounds") -> Expr:
    """sum(coefs[i] * variables[i]) == rhs. strength: "bounds" (default, the filtering of
    `cn.sum(...) == rhs`) or "domain" (every value kept is part of a solution of this
    equation; for sums spanning at most 65,536 values, bounds above that with a warning);
    the solution set is the same."""
    if strength not in LINEAR_STRENGTHS:
        raise ModelError(f"linear_eq strength must be one of {LINEAR_STRENGTHS}, "
                         f"not {strength!r}")
    xs = _flatten(variables, "linear_eq")
    cs = tuple(coefs)
    for a in (*cs, rhs):
        if isinstance(a, bool) or not isinstance(a, int):
            raise ModelError(f"linear_eq: {a!r} is not an integer (coefficients and the "
                             "right-hand side are integers)")
    if len(cs) != len(xs):
        raise ModelError(f"linear_eq: {len(cs)} coefficients for {len(xs)} variables")
    return LinearEquation(xs, cs, rhs, strength)


def element(array: Operands, index: ExprLike) -> Expr:
    """array[index] as an expression; index is 0-based, and an assignment that puts it
    outside the array fails. The array is flat (a list of integers or expressions); for a
    2-D array write `cn.array(rows)[r, c]`, one 2-D element."""
    if isinstance(array, Iterable) and not hasattr(array, "flat"):
        array = list(array)  # (a generator is read once, here)
    if hasattr(array, "flat") or (isinstance(array, list) and any(
            isinstance(a, Iterable) and not isinstance(a, str) for a in array)):
        raise ModelError("element: the array is nested (a list of rows or a Matrix); "
                         "cn.element takes a flat list: for a 2-D array index "
                         "cn.array(rows)[r, c] (one 2-D element)")
    items = _flatten(array, "element")
    if not items:
        raise ModelError("element: the array is empty")
    for k, item in enumerate(items):
        if isinstance(item, Fraction):  # a whole Fraction arrives as an int already
            raise ModelError(f"element: array[{k}] = {item} is not an integer (the array "
                             "holds integers or integer expressions)")
    return Element((const_or_expr(index, "element index"), *items))


def _min_max(args: tuple[Operands, ...], is_max: bool) -> Expr:
    items = _flatten(args[0] if len(args) == 1 else args, "max" if is_max else "min")
    if not items:
        raise ModelError(("max" if is_max else "min") + "() of nothing")
    return MinMax(items, is_max)


def min(*args: Operands) -> Expr:  # noqa: A001 - mirrors the builtin, as users expect
    """The smallest of the expressions (cn.min(a, b, c) or cn.min(list))."""
    return _min_max(args, False)


def max(*args: Operands) -> Expr:  # noqa: A001
    """The largest of the expressions."""
    return _min_max(args, True)


def exact_div(a: ExprLike, b: ExprLike) -> Expr:
    """The integer quotient a / b, where b must divide a exactly (ECLiPSe `/` under #=)."""
    return BinOp("exact_div", const_or_expr(a), const_or_expr(b))


def integral(constraint: Expr | bool) -> Expr:
    """The constraint with every / read as exact_div: ECLiPSe's #=."""
    c = as_constraint(constraint)

    def rewrite(node: Expr) -> Expr:
        if isinstance(node, BinOp) and node.op == "/":
            return BinOp("exact_div", *node.args)
        return node

    return transform(c, rewrite)  # type: ignore[return-value]


def implies(a: Expr | bool, b: Expr | bool) -> Expr:
    """a -> b."""
    return BoolOp("implies", as_constraint(a), as_constraint(b))


def sum(items: Iterable[ExprLike]) -> Expr:  # noqa: A001
    """A flat sum of many expressions (faster than the builtin on long lists)."""
    return make_sum((1, const_or_expr(x)) for x in items)


def _arg(items: object, is_max: bool) -> Expr:
    what = "arg_max" if is_max else "arg_min"
    xs = _flatten(items, what)
    if not xs:
        raise ModelError(f"{what}() of nothing")
    return ArgExtreme(xs, is_max)


def arg_max(items: Operands) -> Expr:
    """The 0-based position of the first largest of the items, as an expression
    (bounds-consistent propagator)."""
    return _arg(items, True)


def arg_min(items: Operands) -> Expr:
    """The 0-based position of the first smallest of the items, as an expression."""
    return _arg(items, False)
