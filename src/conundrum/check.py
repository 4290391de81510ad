"""The independent solution checker: exact evaluation of a model's expressions.

It shares no code with propagation or compilation: it walks the model's expression trees
with Python's exact integers and fractions.Fraction, following SPEC section 2. Division or
modulo by zero, an inexact exact_div and an out-of-range element index make the whole
assignment invalid.
"""

from __future__ import annotations

from fractions import Fraction

from conundrum.model.expr import (
    Abs,
    BinOp,
    BoolConst,
    BoolOp,
    Count,
    Element,
    Expr,
    Global,
    MinMax,
    Pow,
    Rel,
    Sum,
    Var,
    postorder,
)


class Undefined(Exception):
    """The assignment makes an operation undefined (division by zero, ...)."""


def _num(x: int | Fraction) -> int | Fraction:
    if isinstance(x, Fraction) and x.denominator == 1:
        return x.numerator
    return x


_RELATIONS = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def evaluate(root: object, assignment: dict[int, int]) -> int | Fraction:
    """The exact value of an expression under {variable index: value}.

    Raises Undefined where SPEC 2 says the assignment fails, KeyError for an unassigned
    variable."""
    if not isinstance(root, Expr):
        return _num(root)  # type: ignore[arg-type]
    val: dict[int, int | Fraction] = {}

    def v(a: object) -> int | Fraction:
        return val[id(a)] if isinstance(a, Expr) else a  # type: ignore[return-value]

    for node in postorder(root):
        if isinstance(node, Var):
            r: int | Fraction = assignment[node.index]
        elif isinstance(node, Sum):
            r = node.const
            for c, t in zip(node.coefs, node.args):
                r += c * v(t)
        elif isinstance(node, BinOp):
            a, b = v(node.args[0]), v(node.args[1])
            if node.op != "*" and b == 0:
                raise Undefined("division by zero")
            if node.op == "*":
                r = a * b
            elif node.op == "/":
                r = Fraction(a) / b
            elif node.op == "//":
                r = a // b
            elif node.op == "%":
                r = a % b
            else:  # exact_div
                q = Fraction(a) / b
                if q.denominator != 1:
                    raise Undefined("inexact division")
                r = q.numerator
        elif isinstance(node, Pow):
            r = v(node.args[0]) ** node.k
        elif isinstance(node, Abs):
            r = abs(v(node.args[0]))
        elif isinstance(node, MinMax):
            items = [v(a) for a in node.args]
            r = max(items) if node.is_max else min(items)
        elif isinstance(node, Rel):
            r = int(_RELATIONS[node.op](v(node.args[0]), v(node.args[1])))
        elif isinstance(node, BoolOp):
            items = [v(a) != 0 for a in node.args]
            if node.op == "and":
                r = int(all(items))
            elif node.op == "or":
                r = int(any(items))
            elif node.op == "not":
                r = int(not items[0])
            elif node.op == "implies":
                r = int((not items[0]) or items[1])
            else:  # xor
                r = int(items[0] != items[1])
        elif isinstance(node, BoolConst):
            r = int(node.value)
        elif isinstance(node, Element):
            index = v(node.args[0])
            if not (isinstance(index, int) and 0 <= index < len(node.args) - 1):
                raise Undefined("element index out of range")
            r = v(node.args[1 + index])
        elif isinstance(node, Count):
            target = v(node.args[0])
            r = sum(1 for a in node.args[1:] if v(a) == target)
        elif isinstance(node, Global):
            r = int(node.holds([v(a) for a in node.args]))
        else:
            raise TypeError(f"unknown node {type(node).__name__}")
        val[id(node)] = _num(r)
    return val[id(root)]


def check_solution(variables: list[Var], constraints: list, assignment: dict[int, int]) -> None:
    """Raise AssertionError naming the first violated constraint (a bug, never an answer)."""
    for x in variables:
        if not x.in_domain(assignment[x.index]):
            raise AssertionError(f"internal error: {x.name}={assignment[x.index]} is outside "
                                 "its domain; please report this bug")
    for c in constraints:
        try:
            ok = evaluate(c, assignment) == 1
        except Undefined as e:
            ok = False
            reason = str(e)
        else:
            reason = "false"
        if not ok:
            raise AssertionError(f"internal error: a reported solution violates {c!r} "
                                 f"({reason}); please report this bug")
