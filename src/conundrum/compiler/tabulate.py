"""Small non-linear subexpressions, compiled as one table over their variables.

`13*B/C` or `G*H/I` over digits take few values: tabulating the whole subexpression over
its variables ((G, H, I) -> G*H/I, 729 rows) gives one domain-consistent propagator
(compact-table), where compiling it piece by piece gives a chain of auxiliary variables and
tables that each see only part of it (G*H, then that over I) and propagate less. The
compiler asks `tabulable` about each maximal arithmetic subtree whose root is non-linear
(a product, quotient, modulo, power, abs, min or max), and tabulates it when it has at most
MAX_VARIABLES variables, the product of their domain sizes is at most TABLE_LIMIT and it
takes at most VALUE_LIMIT values (`few_values`).

The values are computed here, exactly (integers and Fractions), column by column over every
assignment of the variables; an assignment that makes the subexpression undefined (division
or modulo by zero, an inexact `exact_div`) has no row, so it fails, as docs/arithmetic.md says.
The integer operations are the propagators' own (arith.BINARY_OPS), so a table and the
propagator it stands for agree by construction; the solution checker (check.py) shares
no code with either.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from fractions import Fraction
from itertools import product
from typing import Any

from conundrum.compiler.powers import check_power
from conundrum.lang.expr import (
    Abs,
    BinOp,
    BoolOp,
    Expr,
    MinMax,
    Pow,
    Rel,
    Sum,
    Var,
    postorder,
    render,
)
from conundrum.lang.tree import canonical, rule_for
from conundrum.propagators import arith

TABLE_LIMIT = 4096
MAX_VARIABLES = 4
# nor when the subexpression takes more values than this: a table whose value column is
# wide and nearly injective (MiniZinc's template_design: q * r over 0..9 x 204..451, 1,743
# values in 0..4059) costs a wide bit set at every call, and under the learning search its
# explanations name that column's holes one by one (learned nogoods of ~400 predicates);
# the operation's own propagator reasons on bounds at a fraction of the cost. There, with
# the same 1,729 failures, the classic search proved the optimum in 0.13 s against 1.38 s
VALUE_LIMIT = 512
# the min or max of plain variables has its own propagator, domain consistent over small
# bit sets: a table serves it better only while its rows fit a machine word. MiniZinc's
# scene_allocation (5 x 5 rows): 5.1 s with tables, 6.3 s with MinMax; maximum-dag
# (51 x 51 = 2,601 rows, three quarters of its search in 33 such tables): 2.9 s, 1.3 s
PLAIN_MINMAX_ROWS = 64


def few_values(values: Iterable[object]) -> bool:
    """Whether a subexpression or operation taking these values (repeats allowed) is
    narrow enough for a table (VALUE_LIMIT)."""
    return len(set(values)) <= VALUE_LIMIT

Value = int | Fraction | None  # None: undefined for that assignment


def _product_nonlinear(node: BinOp) -> bool:
    a, b = node.args
    if node.op == "*":
        return isinstance(a, Expr) and isinstance(b, Expr)
    if node.op == "/":  # by a constant it is a rational scaling: linear
        return isinstance(b, Expr)
    return True  # //, %, exact_div


def _always(node: Expr) -> bool:
    return True


def _not_negation(node: BoolOp) -> bool:
    return node.op != "not"  # not c is 1 - c: linear already


# the node classes that may root a non-linear subtree, and whether a node does. A
# connective over relations of one variable is tabulated too: `(x == 1) | (x == 3)` used
# as a value is then one domain-consistent table (x, truth), where its decomposition
# (a clause over reified equalities) cannot remove x = 2 when the truth is 1: that is
# MiniZinc's `set_in_reif` over a constant set (car sequencing's channelling)
NONLINEAR: dict[type, Callable[[Any], bool]] = {
    BinOp: _product_nonlinear,
    Pow: _always,
    Abs: _always,
    MinMax: _always,
    BoolOp: _not_negation,
}
# the most variables a subtree rooted at a node of these classes may have to be tabulated
# (MAX_VARIABLES for the others): a connective over two variables or more keeps its
# clause over reified relations, whose linear structure a table would hide
ROOT_VARIABLES: dict[type, int] = {BoolOp: 1}


def is_nonlinear_root(node: Expr) -> bool:
    """A node that linear propagation cannot state directly."""
    rule = rule_for(NONLINEAR, node)
    return rule is not None and rule(node)


def tabulable(node: Expr, size: Callable[[Var], int]) -> list[Var] | None:
    """The variables of node, in order of appearance, if node is a non-linear arithmetic
    subtree small enough to tabulate; None otherwise."""
    if not is_nonlinear_root(node):
        return None
    most = rule_for(ROOT_VARIABLES, node) or MAX_VARIABLES
    variables: dict[int, Var] = {}
    for sub in postorder(node):
        if rule_for(COLUMN, sub) is None:
            return None  # not arithmetic: an element, a global, ...
        if isinstance(sub, Var) and sub.index not in variables:
            variables[sub.index] = sub
            if len(variables) > most:
                return None
    if not variables:
        return None
    limit = TABLE_LIMIT
    if isinstance(node, MinMax) and all(isinstance(a, Var) for a in node.args):
        limit = PLAIN_MINMAX_ROWS
    combos = 1
    for v in variables.values():
        combos *= size(v)
        if combos > limit:
            return None
    return list(variables.values())



# The integer operations of arith.BINARY_OPS are homogeneous: over a common denominator d > 0,
# a = A/d and b = B/d give a OP b = (A OP B) / d**k, with k the degree below (a // b is
# A // B, a % b is (A % B) / d, a * b is A*B / d**2), so rational operands are computed by
# the propagators' own integer functions (which the compiled build types as int -> int).
DEGREE = {"*": 2, "exact_div": 0, "//": 0, "%": 1}


def _binary(op: str, a: Value, b: Value) -> Value:
    if a is None or b is None:
        return None
    if op == "/":
        return None if b == 0 else canonical(Fraction(a) / b)
    f = arith.BINARY_OPS[op]
    if isinstance(a, int) and isinstance(b, int):
        return f(a, b)
    d = math.lcm(Fraction(a).denominator, Fraction(b).denominator)
    r = f(int(a * d), int(b * d))
    return None if r is None else canonical(Fraction(r, d ** DEGREE[op]))


class _Columns:
    """The columns computed so far: one value (or None) per assignment, per node."""

    def __init__(self, variables: list[Var], domains: list[list[int]]) -> None:
        self.assignments = list(product(*domains))
        self.position = {v.index: i for i, v in enumerate(variables)}
        self.done: dict[int, list[Value]] = {}

    def of(self, a: object) -> list[Value]:
        if isinstance(a, Expr):
            return self.done[id(a)]
        return [a] * len(self.assignments)  # type: ignore[list-item]


def _var_column(sub: Var, cols: _Columns) -> list[Value]:
    i = cols.position[sub.index]
    return [t[i] for t in cols.assignments]


def _sum_column(sub: Sum, cols: _Columns) -> list[Value]:
    col: list[Value] = [canonical(sub.const)] * len(cols.assignments)
    for c, term in zip(sub.coefs, sub.args):
        tc = cols.of(term)
        col = [None if x is None or y is None else canonical(x + c * y)
               for x, y in zip(col, tc)]
    return col


def _binop_column(sub: BinOp, cols: _Columns) -> list[Value]:
    op = sub.op
    return [_binary(op, x, y) for x, y in zip(cols.of(sub.args[0]), cols.of(sub.args[1]))]


def _pow_column(sub: Pow, cols: _Columns) -> list[Value]:
    k = sub.k
    base = cols.of(sub.args[0])
    present = [x for x in base if x is not None]
    if present:  # before any power is computed: it might be astronomically large
        check_power(min(present), max(present), k, render(sub.args[0]))
    return [None if x is None else canonical(x ** k) for x in base]


def _abs_column(sub: Abs, cols: _Columns) -> list[Value]:
    return [None if x is None else abs(x)  # type: ignore[misc]
            for x in cols.of(sub.args[0])]


def _computed_column(sub: Rel | BoolOp, cols: _Columns) -> list[Value]:
    """A relation's or connective's truth (0 or 1) by the node's own `compute`."""
    args = [cols.of(a) for a in sub.args]
    return [None if any(x is None for x in xs) else sub.compute(list(xs))
            for xs in zip(*args)]


def _minmax_column(sub: MinMax, cols: _Columns) -> list[Value]:
    args = [cols.of(a) for a in sub.args]
    pick = max if sub.is_max else min
    return [None if any(x is None for x in xs) else pick(xs)
            for xs in zip(*args)]


# the node classes a table may stand for, each with its column over every assignment
COLUMN: dict[type, Callable[[Any, _Columns], list[Value]]] = {
    Var: _var_column,
    Sum: _sum_column,
    BinOp: _binop_column,
    Pow: _pow_column,
    Abs: _abs_column,
    MinMax: _minmax_column,
    Rel: _computed_column,
    BoolOp: _computed_column,
}


def table_rows(node: Expr, variables: list[Var],
               domains: list[list[int]]) -> list[tuple[tuple[int, ...], int | Fraction]]:
    """(assignment, value of node) for every assignment of the variables (in the order of
    `domains`) where node is defined."""
    cols = _Columns(variables, domains)
    for sub in postorder(node):
        rule = rule_for(COLUMN, sub)
        assert rule is not None  # tabulable() checked that every node is arithmetic
        cols.done[id(sub)] = rule(sub, cols)
    return [(t, v) for t, v in zip(cols.assignments, cols.done[id(node)]) if v is not None]
