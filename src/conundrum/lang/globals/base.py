"""Helpers shared by the globals: flattening operands, and the pieces their decompositions
are built from.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    BoolConst,
    BoolOp,
    Expr,
    ExprLike,
    const_or_expr,
    make_sum,
)


def _flatten(items: object, what: str) -> tuple[ExprLike, ...]:
    """Accept a list, tuple, Matrix, generator or several arguments; flatten one level of
    nesting (a list of rows) so that all_different(grid) means every cell."""
    if isinstance(items, Expr) or isinstance(items, int | Fraction):
        return (const_or_expr(items, what),)
    if hasattr(items, "flat"):
        items = items.flat
    try:
        seq = list(items)  # type: ignore[call-overload]
    except TypeError:
        raise ModelError(
            f"{what} needs a list of variables or expressions, not {items!r}") from None
    out: list[ExprLike] = []
    for item in seq:
        if isinstance(item, list | tuple):
            out.extend(const_or_expr(x, what) for x in item)
        else:
            out.append(const_or_expr(item, what))
    return tuple(out)


def _pairwise_all(pairs: Iterable[Expr | bool]) -> Expr:
    # a relation between two constants (increasing([1, 2, x])) is already a Python bool
    items = [BoolConst(p) if isinstance(p, bool) else p for p in pairs]
    if not items:
        return BoolConst(True)
    return BoolOp("and", *items) if len(items) > 1 else items[0]


def _is(x: ExprLike, v: int) -> ExprLike:
    """x == v as a 0/1 term (a plain 0 or 1 when x is a constant)."""
    c = x == v
    return int(c) if isinstance(c, bool) else c


def _member(x: ExprLike, values: tuple[int, ...]) -> Expr:
    """x == v for one of the distinct values, as a 0/1 sum (no value counted twice)."""
    return make_sum((1, _is(x, v)) for v in values)


def _int_values(values: Iterable[int], what: str) -> tuple[int, ...]:
    out: list[int] = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ModelError(f"{what}: the values must be integers, not {v!r}")
        out.append(v)
    return tuple(sorted(set(out)))
