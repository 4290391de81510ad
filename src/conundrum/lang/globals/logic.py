"""Booleans as first-class: the connectives over many operands (any, all, xor) and the
cardinality globals of Booleans (at_most_one, exactly_one).

An operand is a Boolean: a 0/1 variable (`m.bool_var()`), a constraint (a relation, a
connective, a global), a Python bool, or the constant 0 or 1. `any` and `all` are the
n-ary `or` and `and` of `BoolOp`, `xor` its n-ary parity; `at_most_one` and `exactly_one`
are globals, posted as one linear relation over the 0/1 values.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import TypeAlias

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import BoolConst, BoolOp, Expr, Global, make_sum, render

# What the Boolean builders take: one Boolean or an iterable of them (rows of a Matrix
# included); typed loosely, since every item is checked at run time.
Booleans: TypeAlias = "Expr | bool | Iterable[Expr | bool] | Iterable[Iterable[Expr | bool]]"


def _boolean(item: object, what: str) -> Expr:
    if isinstance(item, bool) or (isinstance(item, int) and item in (0, 1)):
        return BoolConst(bool(item))  # a constant truth value, 0 or 1 as a number
    if isinstance(item, Expr):
        if item.boolean:
            return item
        raise ModelError(f"{what}: {render(item)} is not a Boolean: give 0/1 variables "
                         "(m.bool_var, m.bool_vars) or constraints such as x > 2")
    raise ModelError(f"{what}: {item!r} is not a Boolean (a 0/1 variable or a constraint)")


def _booleans(args: tuple[object, ...], what: str) -> tuple[Expr, ...]:
    """The operands of f(a, b, c) or f(iterable): a list, a generator or a Matrix of
    Booleans, one level of nesting flattened (the rows of a grid)."""
    items: object = args
    if len(args) == 1 and not isinstance(args[0], Expr | bool):
        items = args[0]
    if hasattr(items, "flat"):
        items = items.flat
    if isinstance(items, str) or not isinstance(items, Iterable):
        raise ModelError(f"{what} needs Booleans or a list of them, not {items!r}")
    out: list[Expr] = []
    for item in items:
        if isinstance(item, list | tuple):
            out.extend(_boolean(x, what) for x in item)
        else:
            out.append(_boolean(item, what))
    return tuple(out)


def _connective(op: str, items: tuple[Expr, ...], empty: bool) -> Expr:
    if not items:
        return BoolConst(empty)
    return items[0] if len(items) == 1 else BoolOp(op, *items)


def any(*items: Booleans) -> Expr:  # noqa: A001 - mirrors the builtin, as users expect
    """At least one of the Booleans is true: cn.any(bs) or cn.any(a, b, c) (false when
    there are none). A constraint, and a 0/1 value inside expressions."""
    return _connective("or", _booleans(items, "any"), False)


def all(*items: Booleans) -> Expr:  # noqa: A001
    """Every one of the Booleans is true: cn.all(bs) or cn.all(a, b, c) (true when there
    are none). A constraint, and a 0/1 value inside expressions."""
    return _connective("and", _booleans(items, "all"), True)


def xor(*items: Booleans) -> Expr:
    """An odd number of the Booleans is true (their parity): cn.xor(a, b, c) or
    cn.xor(bs); with two operands, a != b. A constraint, and a 0/1 value."""
    return _connective("xor", _booleans(items, "xor"), False)


class AtMostOne(Global):
    """At most one of the Booleans (args) is true."""

    __slots__ = ()
    name = "at_most_one"

    def holds(self, values: list[int]) -> bool:
        return builtins.sum(1 for v in values if v) <= 1

    def decompose(self) -> Expr:
        return make_sum((1, b) for b in self.args) <= 1


class ExactlyOne(Global):
    """Exactly one of the Booleans (args) is true."""

    __slots__ = ()
    name = "exactly_one"

    def holds(self, values: list[int]) -> bool:
        return builtins.sum(1 for v in values if v) == 1

    def decompose(self) -> Expr:
        return make_sum((1, b) for b in self.args) == 1


def at_most_one(*items: Booleans) -> Expr:
    """At most one of the Booleans is true: cn.at_most_one(bs) or cn.at_most_one(a, b, c).
    Posted as one linear relation sum(bs) <= 1; a 0/1 value inside expressions."""
    return AtMostOne(_booleans(items, "at_most_one"))


def exactly_one(*items: Booleans) -> Expr:
    """Exactly one of the Booleans is true: cn.exactly_one(bs) or cn.exactly_one(a, b, c).
    Posted as one linear relation sum(bs) == 1; a 0/1 value inside expressions."""
    return ExactlyOne(_booleans(items, "exactly_one"))
