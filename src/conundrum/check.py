"""The independent solution checker: exact evaluation of a model's expressions.

It shares no code with propagation or compilation: it walks the model's expression trees
with Python's exact integers and fractions.Fraction, following the semantics of
docs/arithmetic.md. Division or modulo by zero, an inexact exact_div and an out-of-range
element index make the whole assignment invalid.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from conundrum.lang.expr import (
    Abs,
    ArgExtreme,
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
from conundrum.lang.globals import AllDifferent


class Undefined(Exception):
    """The assignment makes an operation undefined (division by zero, ...)."""


def holds(constraint: object, assignment: dict[int, int]) -> bool:
    """Whether a constraint holds under {variable index: value}; an undefined operation
    (division by zero, ...) makes it false."""
    try:
        return bool(evaluate(constraint, assignment))
    except Undefined:
        return False


def _num(x: int | Fraction) -> int | Fraction:
    if isinstance(x, Fraction) and x.denominator == 1:
        return x.numerator
    return x


_RELATIONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
              ">": operator.gt, ">=": operator.ge}


def evaluate(root: object, assignment: dict[int, int]) -> int | Fraction:
    """The exact value of an expression under {variable index: value}.

    Raises Undefined where the semantics say the assignment fails, KeyError for an unassigned
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
            r = abs(v(node.args[0]))  # type: ignore[assignment]  # int or Fraction
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
        elif isinstance(node, ArgExtreme):
            r = node.position([v(a) for a in node.args])  # type: ignore[misc]
        elif isinstance(node, Count):
            target = v(node.args[0])
            r = sum(1 for a in node.args[1:] if v(a) == target)
        elif isinstance(node, Global):
            r = int(node.holds([v(a) for a in node.args]))  # type: ignore[misc]
        else:
            raise TypeError(f"unknown node {type(node).__name__}")
        val[id(node)] = _num(r)
    return val[id(root)]


# ------------------------------------------------------------- compiled checker
# Search reports solutions by the thousand, so the checker walks each constraint's tree once
# per search and writes it out as straight-line Python: one statement per node, every node
# evaluated (no short circuit, so that a division by zero anywhere still voids the
# assignment, as `evaluate` does). The generated code holds only variable positions, small
# integer literals and references to a table of constants; it shares no code with the
# propagators or the compiler.

_CHUNK = 200  # constraints per generated function (keeps each function small to compile)


def _div(a: int | Fraction, b: int | Fraction) -> int | Fraction:
    if b == 0:
        raise Undefined("division by zero")
    return _num(Fraction(a) / b)


def _floordiv(a: int | Fraction, b: int | Fraction) -> int | Fraction:
    if b == 0:
        raise Undefined("division by zero")
    return _num(a // b)


def _mod(a: int | Fraction, b: int | Fraction) -> int | Fraction:
    if b == 0:
        raise Undefined("division by zero")
    return _num(a % b)


def _exact_div(a: int | Fraction, b: int | Fraction) -> int:
    if b == 0:
        raise Undefined("division by zero")
    q = Fraction(a) / b
    if q.denominator != 1:
        raise Undefined("inexact division")
    return q.numerator


def _element(index: int | Fraction, items: tuple[int | Fraction, ...]) -> int | Fraction:
    index = _num(index)
    if not (isinstance(index, int) and 0 <= index < len(items)):
        raise Undefined("element index out of range")
    return items[index]


_RELATION_CODE = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_BINOP_HELPER = {"/": "_div", "//": "_floordiv", "%": "_mod", "exact_div": "_exact_div"}


def _tuple(items: list[str]) -> str:
    return f"({', '.join(items)},)" if items else "()"


class _Writer:
    """Writes the statements of one generated function."""

    def __init__(self, position: dict[int, int], consts: list[object]) -> None:
        self.position = position  # variable index -> position in the values list
        self.consts = consts
        self.lines: list[str] = []
        self.temps = 0

    def const(self, value: object) -> str:
        if isinstance(value, bool):
            return str(int(value))
        if isinstance(value, int) and -10**6 <= value <= 10**6:
            return str(value)
        self.consts.append(_num(value))  # type: ignore[arg-type]
        return f"K[{len(self.consts) - 1}]"

    def node(self, root: Expr) -> str:
        """Statements computing root; returns the expression that names its value."""
        names: dict[int, str] = {}

        def arg(a: object) -> str:
            return names[id(a)] if isinstance(a, Expr) else self.const(a)

        for node in postorder(root):
            if id(node) in names:
                continue
            if isinstance(node, Var):
                names[id(node)] = f"v[{self.position[node.index]}]"
                continue
            if isinstance(node, BoolConst):
                names[id(node)] = str(int(node.value))
                continue
            args = [arg(a) for a in node.args]
            # n-ary nodes are written as tuples, never as chains of binary operators: the
            # Python compiler recurses on the depth of `a + b + c + ...`
            if isinstance(node, Sum):
                terms = [f"{self.const(c)} * {a}" for c, a in zip(node.coefs, args)]
                code = f"{self.const(node.const)} + sum({_tuple(terms)})"
            elif isinstance(node, BinOp):
                code = (f"{args[0]} * {args[1]}" if node.op == "*"
                        else f"{_BINOP_HELPER[node.op]}({args[0]}, {args[1]})")
            elif isinstance(node, Pow):
                code = f"{args[0]} ** {node.k}"
            elif isinstance(node, Abs):
                code = f"abs({args[0]})"
            elif isinstance(node, MinMax):
                code = f"{'max' if node.is_max else 'min'}({_tuple(args)})"
            elif isinstance(node, Rel):
                code = f"int({args[0]} {_RELATION_CODE[node.op]} {args[1]})"
            elif isinstance(node, BoolOp):
                truth = [f"{a} != 0" for a in args]
                if node.op == "and":
                    code = f"int(all({_tuple(truth)}))"
                elif node.op == "or":
                    code = f"int(any({_tuple(truth)}))"
                elif node.op == "not":
                    code = f"int({args[0]} == 0)"
                elif node.op == "implies":
                    code = f"int(({args[0]} == 0) | ({args[1]} != 0))"
                else:  # xor
                    code = f"int(({truth[0]}) ^ ({truth[1]}))"
            elif isinstance(node, Element):
                code = f"_element({args[0]}, {_tuple(args[1:])})"
            elif isinstance(node, ArgExtreme):
                self.consts.append(node)
                code = f"K[{len(self.consts) - 1}].position([{', '.join(args)}])"
            elif isinstance(node, Count):
                code = f"sum({_tuple([f'{a} == {args[0]}' for a in args[1:]])})"
            elif isinstance(node, Global):
                self.consts.append(node)
                code = f"int(K[{len(self.consts) - 1}].holds([{', '.join(args)}]))"
            else:
                raise TypeError(f"unknown node {type(node).__name__}")
            name = f"t{self.temps}"
            self.temps += 1
            self.lines.append(f"    {name} = {code}")
            names[id(node)] = name
        return names[id(root)]


class Checker:
    """The independent check of every reported solution, prepared once per search:
    `checker(values)` takes the values of `variables` in order and raises AssertionError
    naming the first violated constraint or domain (a bug, never an answer).

    Domains and the commonest constraints (a relation between two variables or constants,
    all_different of variables) are checked from data; every other constraint is written out
    as straight-line Python and compiled (Python's compiler costs some 50 us a line, which a
    model of many simple constraints would pay for nothing)."""

    def __init__(self, variables: list[Var], constraints: list[Expr]) -> None:
        self.variables = variables
        self.constraints = constraints
        position = {x.index: i for i, x in enumerate(variables)}
        # domains: (position, lo, hi) for gap-free ones, (position, set) for value lists
        self.ranges = [(i, x.lo, x.hi) for i, x in enumerate(variables)
                       if x.domain_values is None]
        self.sets = [(i, frozenset(x.domain_values)) for i, x in enumerate(variables)
                     if x.domain_values is not None]
        # simple constraints as data: (k, op, position or -1, constant, position or -1, ...)
        self.relations: list[tuple[Any, ...]] = []
        self.distinct: list[tuple[int, tuple[int, ...]]] = []
        complex_ones = []
        for k, c in enumerate(constraints):
            if isinstance(c, Rel) and all(not isinstance(a, Expr) or isinstance(a, Var)
                                          for a in c.args):
                (ia, ca), (ib, cb) = (_operand(a, position) for a in c.args)
                self.relations.append((k, _RELATIONS[c.op], ia, ca, ib, cb))
            elif isinstance(c, AllDifferent) and all(isinstance(a, Var) for a in c.args):
                self.distinct.append((k, tuple(position[a.index]  # type: ignore[union-attr]
                                               for a in c.args)))
            else:
                complex_ones.append(k)
        # the others: chunk j is a function returning the position of the first false
        # constraint in it, or -1; `at[0]` says which one was being evaluated
        self.consts: list[object] = []
        namespace: dict[str, Any] = {
            "K": self.consts, "_div": _div, "_floordiv": _floordiv, "_mod": _mod,
            "_exact_div": _exact_div, "_element": _element}
        source: list[str] = []
        chunks = 0
        for start in range(0, len(complex_ones), _CHUNK):
            w = _Writer(position, self.consts)
            w.lines.append(f"def chunk{chunks}(v, at):")
            for k in complex_ones[start:start + _CHUNK]:
                w.lines.append(f"    at[0] = {k}")
                value = w.node(constraints[k])
                w.lines.append(f"    if {value} != 1: return {k}")
            w.lines.append("    return -1")
            source += w.lines
            chunks += 1
        if source:
            exec(compile("\n".join(source), "<conundrum checker>", "exec"), namespace)
        self._chunks: list[Callable[[list[int], list[int]], int]] = [
            namespace[f"chunk{j}"] for j in range(chunks)]

    def __call__(self, values: list[int]) -> None:
        for i, lo, hi in self.ranges:
            if not lo <= values[i] <= hi:
                self._outside(i, values)
        for i, allowed in self.sets:
            if values[i] not in allowed:
                self._outside(i, values)
        for k, op, ia, ca, ib, cb in self.relations:
            if not op(values[ia] if ia >= 0 else ca, values[ib] if ib >= 0 else cb):
                self._violated(k, "false")
        for k, positions in self.distinct:
            if len({values[i] for i in positions}) != len(positions):
                self._violated(k, "false")
        at = [0]
        for chunk in self._chunks:
            try:
                bad = chunk(values, at)
            except Undefined as e:
                self._violated(at[0], str(e))
            if bad >= 0:
                self._violated(bad, "false")

    def _outside(self, i: int, values: list[int]) -> None:
        raise AssertionError(f"internal error: {self.variables[i].name}={values[i]} is outside "
                             "its domain; please report this bug")

    def _violated(self, k: int, reason: str) -> None:
        raise AssertionError(f"internal error: a reported solution violates "
                             f"{self.constraints[k]!r} ({reason}); please report this bug")


def _operand(a: object, position: dict[int, int]) -> tuple[int, object]:
    """(position of a variable, None) or (-1, the constant)."""
    if isinstance(a, Var):
        return position[a.index], None
    return -1, a


def check_solution(variables: list[Var], constraints: list[Expr],
                   assignment: dict[int, int]) -> None:
    """Raise AssertionError naming the first violated constraint (a bug, never an answer).
    The tree-walking form, for one assignment; a search uses `Checker`."""
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
