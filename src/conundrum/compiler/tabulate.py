"""Small non-linear subexpressions, compiled as one table over their variables.

`13*B/C` or `G*H/I` over digits take few values: tabulating the whole subexpression over
its variables ((G, H, I) -> G*H/I, 729 rows) gives one domain-consistent propagator
(compact-table), where compiling it piece by piece gives a chain of auxiliary variables and
tables that each see only part of it (G*H, then that over I) and propagate less. The
compiler asks `tabulable` about each maximal arithmetic subtree whose root is non-linear
(a product, quotient, modulo, power, abs, min or max), and tabulates it when it has at most
MAX_VARIABLES variables and the product of their domain sizes is at most TABLE_LIMIT.

The values are computed here, exactly (integers and Fractions), column by column over every
assignment of the variables; an assignment that makes the subexpression undefined (division
or modulo by zero, an inexact `exact_div`) has no row, so it fails, as docs/arithmetic.md says.
This is the compiler's own evaluator: the solution checker (check.py) shares no code with it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

from conundrum.compiler.powers import check_power
from conundrum.lang.expr import Abs, BinOp, Expr, MinMax, Pow, Sum, Var, postorder, render

TABLE_LIMIT = 4096
MAX_VARIABLES = 4

Value = int | Fraction | None  # None: undefined for that assignment
ARITHMETIC = (Var, Sum, BinOp, Pow, Abs, MinMax)


def is_nonlinear_root(node: Expr) -> bool:
    """A node that linear propagation cannot state directly."""
    if isinstance(node, BinOp):
        a, b = node.args
        if node.op == "*":
            return isinstance(a, Expr) and isinstance(b, Expr)
        if node.op == "/":  # by a constant it is a rational scaling: linear
            return isinstance(b, Expr)
        return True  # //, %, exact_div
    return isinstance(node, Pow | Abs | MinMax)


def tabulable(node: Expr, size: Callable[[Var], int]) -> list[Var] | None:
    """The variables of node, in order of appearance, if node is a non-linear arithmetic
    subtree small enough to tabulate; None otherwise."""
    if not is_nonlinear_root(node):
        return None
    variables: dict[int, Var] = {}
    for sub in postorder(node):
        if not isinstance(sub, ARITHMETIC):
            return None
        if isinstance(sub, Var) and sub.index not in variables:
            variables[sub.index] = sub
            if len(variables) > MAX_VARIABLES:
                return None
    combos = 1
    for v in variables.values():
        combos *= size(v)
        if combos > TABLE_LIMIT:
            return None
    return list(variables.values())


def _num(x: int | Fraction) -> int | Fraction:
    return x.numerator if isinstance(x, Fraction) and x.denominator == 1 else x


def _binary(op: str, a: Value, b: Value) -> Value:
    if a is None or b is None:
        return None
    if op == "*":
        return _num(a * b)
    if b == 0:
        return None
    if op == "/":
        return _num(Fraction(a) / b)
    if op == "//":
        return _num(a // b)
    if op == "%":
        return _num(a % b)
    q = Fraction(a) / b  # exact_div
    return q.numerator if q.denominator == 1 else None


def table_rows(node: Expr, variables: list[Var],
               domains: list[list[int]]) -> list[tuple[tuple[int, ...], int | Fraction]]:
    """(assignment, value of node) for every assignment of the variables (in the order of
    `domains`) where node is defined."""
    assignments = list(product(*domains))
    position = {v.index: i for i, v in enumerate(variables)}
    columns: dict[int, list[Value]] = {}

    def column(a: object) -> list[Value]:
        if isinstance(a, Expr):
            return columns[id(a)]
        return [a] * len(assignments)  # type: ignore[list-item]

    for sub in postorder(node):
        if isinstance(sub, Var):
            i = position[sub.index]
            col: list[Value] = [t[i] for t in assignments]
        elif isinstance(sub, Sum):
            col = [_num(sub.const)] * len(assignments)
            for c, term in zip(sub.coefs, sub.args):
                tc = column(term)
                col = [None if x is None or y is None else _num(x + c * y)
                       for x, y in zip(col, tc)]
        elif isinstance(sub, BinOp):
            op = sub.op
            col = [_binary(op, x, y) for x, y in zip(column(sub.args[0]), column(sub.args[1]))]
        elif isinstance(sub, Pow):
            k = sub.k
            base = column(sub.args[0])
            present = [x for x in base if x is not None]
            if present:  # before any power is computed: it might be astronomically large
                check_power(min(present), max(present), k, render(sub.args[0]))
            col = [None if x is None else _num(x ** k) for x in base]
        elif isinstance(sub, Abs):
            col = [None if x is None else abs(x)  # type: ignore[misc]
                   for x in column(sub.args[0])]
        else:
            assert isinstance(sub, MinMax)
            cols = [column(a) for a in sub.args]
            pick = max if sub.is_max else min
            col = [None if any(x is None for x in xs) else pick(xs)
                   for xs in zip(*cols)]
        columns[id(sub)] = col
    return [(t, v) for t, v in zip(assignments, columns[id(node)]) if v is not None]
