"""The MiniZinc text of each expression node, one function per node class (NODES).

Each function takes the exporter, the node and the terms of its operands (terms.py), and
returns the node's term. The meaning is conundrum's (docs/arithmetic.md), never MiniZinc's
where they differ:

- `/` is rational: a "rat" term, numerator over a positive denominator;
- `//` and `%` are floor division and modulo (MiniZinc's `div` and `mod` truncate toward
  zero): the helper functions `floor_div` and `floor_mod` that the model defines;
- a division or modulo by zero, an inexact `exact_div` and an element index out of range
  make the whole assignment fail, wherever they sit (conundrum evaluates every node of a
  constraint, with no short circuit): each such node adds its condition (`b != 0`, ...) as
  a constraint of its own at the top level (`Exporter.require`), so that MiniZinc's
  relational semantics, where an undefined value only falsifies the nearest Boolean
  context, never comes into play.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from conundrum.io.minizinc.terms import (
    ONE,
    Den,
    Substitute,
    Term,
    as_bool,
    as_int,
    bare,
    boolean,
    call,
    common,
    constant,
    integer,
    linear,
    listing,
    numerator,
    rational,
    scale,
    times,
)
from conundrum.lang.array import Element2D
from conundrum.lang.expr import (
    Abs,
    BinOp,
    BoolConst,
    BoolOp,
    Count,
    Element,
    MinMax,
    Pow,
    Rel,
    Sum,
    Var,
)
from conundrum.lang.globals.arithmetic import ArgExtreme

if TYPE_CHECKING:
    from conundrum.io.minizinc.export import Exporter

Rule = Callable[["Exporter", Any, list[Term]], "Term | Substitute"]


def _rat(t: Term) -> bool:
    return t.kind == "rat"


def _var(x: Exporter, node: Var, args: list[Term]) -> Term:
    return integer(x.names[node.index], 1 if node.lo > 0 else -1 if node.hi < 0 else 0)


def _sum(x: Exporter, node: Sum, args: list[Term]) -> Term:
    coefs, const = node.coefs, node.const
    if not any(map(_rat, args)) and all(type(c) is int for c in (*coefs, const)):
        if not args:
            return constant(const)
        return integer(linear([(int(c), as_int(t)) for c, t in zip(coefs, args)], int(const)))
    # exact: each c * t over its denominator (a coefficient p/q multiplies the numerator
    # by p and the denominator by q), then one common denominator
    terms = []
    for c, t in zip(coefs, args):
        c = Fraction(c)
        terms.append(Term("rat", scale(numerator(t), c.numerator),
                          t.den.times(Den(c.denominator))))
    if const:
        terms.append(constant(const))
    nums, den = common(terms)
    return rational(linear([(1, n) for n in nums], 0), den)


def _mul(x: Exporter, a: Term, b: Term) -> Term:
    if _rat(a) or _rat(b):
        return rational(times(numerator(a), numerator(b)), a.den.times(b.den), a.sign * b.sign)
    return integer(times(as_int(a), as_int(b)), a.sign * b.sign)


def _quotient(x: Exporter, a: Term, b: Term) -> tuple[str, str]:
    """(N, D), integers with a / b == N / D (D non-zero where b is), b required non-zero."""
    nb = numerator(b)
    x.require_nonzero(b)
    return times(numerator(a), b.den.text()), times(a.den.text(), nb)


def _div(x: Exporter, a: Term, b: Term) -> Term:
    """Rational division: (na/da) / (nb/db) = (na * db * sign(nb)) / (da * |nb|)."""
    nb = numerator(b)
    x.require_nonzero(b)
    if b.value is not None:  # a constant divisor: multiply by its inverse
        if b.value == 0:
            return constant(0)  # (never defined: required false above)
        inverse = 1 / Fraction(b.value)
        return rational(scale(numerator(a), inverse.numerator), a.den.times(Den(
            inverse.denominator)), a.sign * b.sign)
    num = times(numerator(a), b.den.text())
    if b.sign > 0:
        factor = nb
    elif b.sign < 0:
        num, factor = f"(-{num})", f"(-{nb})"
    else:
        x.helpers.add("sign")
        num, factor = times(num, call("sign", nb)), call("abs", nb)
    return Term("rat", num, a.den.times(Den(1, (factor,))), a.sign * b.sign)


def _floordiv(x: Exporter, a: Term, b: Term) -> Term:
    x.helpers.add("floor_div")
    if _rat(a) or _rat(b):
        n, d = _quotient(x, a, b)
        return integer(call("floor_div", n, d))
    x.require_nonzero(b)
    return integer(call("floor_div", as_int(a), as_int(b)))


def _mod(x: Exporter, a: Term, b: Term) -> Term:
    if _rat(a) or _rat(b):
        # a - b * floor(a / b), over the denominator da * db
        x.helpers.add("floor_div")
        n, d = _quotient(x, a, b)
        q = call("floor_div", n, d)
        num = (f"({times(numerator(a), b.den.text())} - "
               f"{times(times(numerator(b), a.den.text()), q)})")
        return rational(num, a.den.times(b.den))
    x.helpers.add("floor_mod")
    x.require_nonzero(b)
    return integer(call("floor_mod", as_int(a), as_int(b)))


def _exact_div(x: Exporter, a: Term, b: Term) -> Term:
    n, d = _quotient(x, a, b) if _rat(a) or _rat(b) else (as_int(a), as_int(b))
    x.require_nonzero(b)
    x.require(f"({n} mod {d} = 0)")
    return integer(f"({n} div {d})")


_BINOPS: dict[str, Callable[[Exporter, Term, Term], Term]] = {
    "*": _mul, "/": _div, "//": _floordiv, "%": _mod, "exact_div": _exact_div}


def _binop(x: Exporter, node: BinOp, args: list[Term]) -> Term:
    return _BINOPS[node.op](x, *args)


def _pow(x: Exporter, node: Pow, args: list[Term]) -> Term:
    (a,), k = args, node.k
    if k == 0:
        return constant(1)
    if k == 1:
        return a
    sign = a.sign if k % 2 else abs(a.sign)
    if _rat(a):
        den = a.den
        for _ in range(k - 1):
            den = den.times(a.den)
        return Term("rat", call("pow", a.text, str(k)), den, sign)
    return integer(call("pow", as_int(a), str(k)), sign)


def _abs(x: Exporter, node: Abs, args: list[Term]) -> Term:
    (a,) = args
    if _rat(a):
        return Term("rat", call("abs", a.text), a.den, abs(a.sign))
    return integer(call("abs", as_int(a)), abs(a.sign))


def _numbers(args: list[Term]) -> tuple[list[str], Den]:
    """The operands as integers over one denominator (1 when none is rational)."""
    if any(map(_rat, args)):
        return common(args)
    return [as_int(t) for t in args], ONE


def _min_max(x: Exporter, node: MinMax, args: list[Term]) -> Term:
    if len(args) == 1:
        return args[0]
    nums, den = _numbers(args)
    return rational(f"{'max' if node.is_max else 'min'}({listing(nums)})", den)


def _arg_extreme(x: Exporter, node: ArgExtreme, args: list[Term]) -> Term:
    if len(args) == 1:
        return constant(0)
    nums, _ = _numbers(args)  # a common positive denominator keeps the order
    return integer(f"{x.uses(node.name)}({x.array(nums)})")


def _rel(x: Exporter, node: Rel, args: list[Term]) -> Term:
    a, b = args
    nums, _ = _numbers(args)  # rationals: cross products over one positive denominator
    if a.kind == b.kind == "bool" and node.op in ("==", "!="):
        nums = [a.text, b.text]  # truth values compared as such: (p) = (q)
    return boolean(f"({nums[0]} {node.op} {nums[1]})")


_CONNECTIVES = {"and": " /\\ ", "or": " \\/ ", "implies": " -> ", "xor": " xor "}


def _bool_op(x: Exporter, node: BoolOp, args: list[Term]) -> Term:
    texts = [as_bool(t) for t in args]
    if node.op == "not":
        return boolean(f"(not {texts[0]})")
    if len(texts) == 1:
        return boolean(texts[0])
    return boolean("(" + _CONNECTIVES[node.op].join(texts) + ")")


def _index(x: Exporter, expr: object, index: Term, size: int) -> str:
    """An element index as MiniZinc text, its definedness (a whole number in 0..size-1)
    required."""
    if _rat(index):  # a whole rational is an index; another one is undefined
        x.require(f"({index.text} mod {index.den.text()} = 0)")
        i = f"({index.text} div {index.den.text()})"
    else:
        i = as_int(index)
    if not x.within(expr, 0, size - 1):
        x.require(f"({i} in 0..{size - 1})")
    return i


def _element(x: Exporter, node: Element, args: list[Term]) -> Term:
    items = args[1:]
    i = _index(x, node.args[0], args[0], len(items))
    nums, den = _numbers(items)
    return rational(f"{x.array(nums)}[{bare(i)}]", den)


def _element_2d(x: Exporter, node: Element2D, args: list[Term]) -> Term:
    rows, cols = node.shape
    r = _index(x, node.args[0], args[0], rows)
    c = _index(x, node.args[1], args[1], cols)
    nums, den = _numbers(args[2:])
    return rational(f"{x.array(nums)}[{bare(r)} * {cols} + {bare(c)}]", den)


def _count(x: Exporter, node: Count, args: list[Term]) -> Term:
    if len(args) == 1:
        return constant(0)
    nums, _ = _numbers(args)
    return integer(f"{x.uses('count')}({listing(nums[1:])}, {bare(nums[0])})", 0)


NODES: dict[type, Rule] = {
    Var: _var,
    Sum: _sum,
    BinOp: _binop,
    Pow: _pow,
    Abs: _abs,
    MinMax: _min_max,
    ArgExtreme: _arg_extreme,
    Rel: _rel,
    BoolOp: _bool_op,
    Element: _element,
    Element2D: _element_2d,
    Count: _count,
    BoolConst: lambda x, node, args: boolean("true" if node.value else "false"),
}
