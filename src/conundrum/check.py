"""The independent solution checker: exact evaluation of a model's expressions.

It shares no code with propagation or compilation: it walks the model's expression trees
and applies each node's own meaning (`compute`, in lang/) with Python's exact integers and
fractions.Fraction, following the semantics of docs/arithmetic.md. Division or modulo by
zero, an inexact exact_div and an out-of-range element index make the whole assignment
invalid. `evaluate` walks a tree for one assignment; `Checker` writes each constraint out once per
search as straight-line code (the same `compute` calls, the commonest nodes inlined).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conundrum.lang.errors import Undefined as Undefined  # (raised by the nodes; caught here)
from conundrum.lang.expr import (
    RELATIONS,
    Abs,
    BinOp,
    BoolConst,
    BoolOp,
    Count,
    Expr,
    MinMax,
    Pow,
    Rel,
    Sum,
    Var,
    postorder,
)
from conundrum.lang.globals import AllDifferent
from conundrum.lang.tree import Number, canonical


def holds(constraint: object, assignment: dict[int, int]) -> bool:
    """Whether a constraint holds under {variable index: value}; an undefined operation
    (division by zero, ...) makes it false."""
    try:
        return bool(evaluate(constraint, assignment))
    except Undefined:
        return False


def evaluate(root: object, assignment: dict[int, int]) -> Number:
    """The exact value of an expression under {variable index: value}: each node's
    `compute` on the values of its operands, bottom-up.

    Raises Undefined where the semantics say the assignment fails, KeyError for an unassigned
    variable."""
    if not isinstance(root, Expr):
        return canonical(root)  # type: ignore[arg-type]
    val: dict[int, Number] = {}
    for node in postorder(root):
        if isinstance(node, Var):
            val[id(node)] = assignment[node.index]
        else:
            val[id(node)] = node.compute([val[id(a)] if isinstance(a, Expr) else a
                                          for a in node.args])
    return val[id(root)]


# ------------------------------------------------------------- compiled checker
# Search reports solutions by the thousand, so the checker walks each constraint's tree once
# per search and writes it out as straight-line Python: one statement per node, every node
# evaluated (no short circuit, so that a division by zero anywhere still voids the
# assignment, as in `evaluate`). A node is written as a call of its own `compute` on its
# operands, except the commonest arithmetic and logic, which `_INLINE` writes as Python
# operators: a call costs three times as much, and the checker is a visible part of counting
# the solutions of a small model. `_INLINE` is the only place where the meaning of a node
# is written a second time; tests/test_check_interpreters.py checks it against `compute` on
# random expressions. The generated code holds only variable positions, small integer
# literals and references to a table `K` of constants and of the nodes' `compute` methods;
# it shares no code with the propagators or the compiler.

_CHUNK = 200  # constraints per generated function (keeps each function small to compile)


def _tuple(items: list[str]) -> str:
    return f"({', '.join(items)},)" if items else "()"


def _sum_code(node: Sum, args: list[str], w: _Writer) -> str | None:
    terms = [f"{w.const(c)} * {a}" for c, a in zip(node.coefs, args)]
    return f"{w.const(node.const)} + sum({_tuple(terms)})"


_CONNECTIVE_CODE = {"and": "int(all({truth}))", "or": "int(any({truth}))",
                    "not": "int({0} == 0)", "implies": "int(({0} == 0) | ({1} != 0))",
                    "xor": "sum({truth}) % 2"}

# Python expressions for the values of the commonest nodes, from their operands' (the n-ary
# ones as tuples, never as chains of binary operators: the Python compiler recurses on the
# depth of `a + b + c + ...`); None: call the node's compute
_INLINE: dict[type, Callable[[Any, list[str], _Writer], str | None]] = {
    Sum: _sum_code,
    BinOp: lambda node, args, w: f"{args[0]} * {args[1]}" if node.op == "*" else None,
    Pow: lambda node, args, w: f"{args[0]} ** {node.k}",
    Abs: lambda node, args, w: f"abs({args[0]})",
    MinMax: lambda node, args, w: f"{'max' if node.is_max else 'min'}({_tuple(args)})",
    Rel: lambda node, args, w: f"int({args[0]} {node.op} {args[1]})",
    BoolOp: lambda node, args, w: _CONNECTIVE_CODE[node.op].format(
        *args, truth=_tuple([f"{a} != 0" for a in args])),
    Count: lambda node, args, w: f"sum({_tuple([f'{a} == {args[0]}' for a in args[1:]])})",
    BoolConst: lambda node, args, w: str(int(node.value)),
}


# inlined nodes whose value is an int whatever their operands': truth values and counts
_ALWAYS_INT = frozenset({Rel, BoolOp, Count, BoolConst})


def _keeps_ints(node: Any, ints: set[int]) -> bool:
    """Whether an inlined node's value is an int when its operands' are: then `compute`
    needs no `canonical` of it. Comparisons, connectives and counts give 0 or 1; a sum,
    product, power, abs, min or max of ints with int constants is an int."""
    if type(node) in _ALWAYS_INT:
        return True
    constants = (*getattr(node, "coefs", ()), getattr(node, "const", 0))  # a Sum's
    return (all(type(c) is int for c in constants)
            and all(id(a) in ints if isinstance(a, Expr) else type(a) is int
                    for a in node.args))


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
        self.consts.append(canonical(value))  # type: ignore[arg-type]
        return f"K[{len(self.consts) - 1}]"

    def node(self, root: Expr) -> str:
        """Statements computing root; returns the expression that names its value."""
        names: dict[int, str] = {}
        ints: set[int] = set()  # nodes whose value is an int whatever the assignment
        for node in postorder(root):
            if isinstance(node, Var):
                names[id(node)] = f"v[{self.position[node.index]}]"
                ints.add(id(node))
                continue
            args = [names[id(a)] if isinstance(a, Expr) else self.const(a) for a in node.args]
            inline = _INLINE.get(type(node))
            code = inline(node, args, self) if inline is not None else None
            if code is not None and _keeps_ints(node, ints):
                ints.add(id(node))
            if code is None:
                # the inline forms may leave a whole Fraction where `evaluate` has an int
                # (an index must be an int): `compute` gets the values `evaluate` gives it
                values = [f"_c({t})" if isinstance(a, Expr) and id(a) not in ints else t
                          for a, t in zip(node.args, args)]
                self.consts.append(node.compute)
                code = f"K[{len(self.consts) - 1}]([{', '.join(values)}])"
            name = f"t{self.temps}"
            self.temps += 1
            self.lines.append(f"    {name} = {code}")
            names[id(node)] = name
        return names[id(root)]


def _relation_row(k: int, c: Any, position: dict[int, int]) -> tuple[Any, ...] | None:
    """A relation between two variables or constants, as data: (k, op, position or -1,
    constant, position or -1, constant); None for any other relation."""
    if not all(not isinstance(a, Expr) or isinstance(a, Var) for a in c.args):
        return None
    (ia, ca), (ib, cb) = (_operand(a, position) for a in c.args)
    return (k, RELATIONS[c.op], ia, ca, ib, cb)


def _linear_side(a: object, position: dict[int, int]) -> tuple[Any, ...] | None:
    """A side of a relation as (positions, integer coefficients, integer constant): a
    variable, an integer or a Sum of variables with integer coefficients; None otherwise."""
    if isinstance(a, Var):
        return (position[a.index],), (1,), 0
    if isinstance(a, int) and not isinstance(a, bool):
        return (), (), a
    if isinstance(a, Sum) and isinstance(a.const, int) and \
            all(isinstance(c, int) for c in a.coefs):
        terms = [t for t in a.args if isinstance(t, Var)]
        if len(terms) == len(a.args):
            return tuple(position[t.index] for t in terms), a.coefs, a.const
    return None


def _linear_row(k: int, c: Any, position: dict[int, int]) -> tuple[Any, ...] | None:
    """A relation between integer linear sums of variables, as data: (k, op, the positions,
    coefficients and constant of each side); None for any other relation. FlatZinc's
    int_lin_* rows are such, often tens of thousands of them, each a line of compiled
    code otherwise."""
    sides = [_linear_side(a, position) for a in c.args]
    if len(sides) != 2 or sides[0] is None or sides[1] is None:
        return None
    return (k, RELATIONS[c.op], *sides[0], *sides[1])


def _distinct_row(k: int, c: Any, position: dict[int, int]) -> tuple[Any, ...] | None:
    """An all_different of variables, as data: (k, their positions); None otherwise."""
    if not all(isinstance(a, Var) for a in c.args):
        return None
    return (k, tuple(position[a.index] for a in c.args))


# after this many solutions the linear rows are checked by compiled code instead of data:
# compiling costs about 80 us a row, and the code saves about 0.25 us a row a solution
# (MiniZinc's queens, n = 100: 14,850 rows, 1.3 s to compile, 3.4 ms against 7.5 ms a check)
LINEAR_AS_CODE = 300
# the other constraints are walked as trees (`evaluate`) for the first solutions and
# written out as code at this one: compiling costs some ten walks of a tree (Hakan's
# collatz, 10,126 constraints: 0.68 s to compile, 76 ms a walk of all, 6 ms a check by
# code), so a search of one solution never pays it and one of many pays it once
TREES_AS_CODE = 10


class Checker:
    """The independent check of every reported solution, prepared once per snapshot:
    `checker(values)` takes the values of `variables` in order and raises AssertionError
    naming the first violated constraint or domain (a bug, never an answer).

    Domains and the commonest constraints (a relation between two variables or constants,
    or between integer linear sums of variables; all_different of variables) are checked
    from data; every other constraint is walked as a tree (`evaluate`) for the first
    TREES_AS_CODE solutions, then written out as straight-line Python and compiled
    (Python's compiler costs some 50 us a line, which a search of one solution would pay
    for nothing), and the linear sums too once LINEAR_AS_CODE solutions have been
    checked."""

    def __init__(self, variables: list[Var], constraints: list[Expr]) -> None:
        self.variables = variables
        self.constraints = constraints
        position = self.position = {x.index: i for i, x in enumerate(variables)}
        # domains: (position, lo, hi) for gap-free ones, (position, set) for value lists
        self.ranges = [(i, x.lo, x.hi) for i, x in enumerate(variables)
                       if x.domain_values is None]
        self.sets = [(i, frozenset(x.domain_values)) for i, x in enumerate(variables)
                     if x.domain_values is not None]
        # simple constraints as data (_relation_row, _linear_row, _distinct_row)
        self.relations: list[tuple[Any, ...]] = []
        self.linear: list[tuple[Any, ...]] = []
        self.distinct: list[tuple[Any, ...]] = []
        forms = {Rel: ((_relation_row, self.relations), (_linear_row, self.linear)),
                 AllDifferent: ((_distinct_row, self.distinct),)}
        complex_ones = []
        for k, c in enumerate(constraints):
            for as_data, rows in forms.get(type(c), ()):
                row = as_data(k, c, position)
                if row is not None:
                    rows.append(row)
                    break
            else:
                complex_ones.append(k)
        # the others: walked as trees (self.trees) until written out as code: chunk j is a
        # function returning the position of the first false constraint in it, or -1;
        # `at[0]` says which one was being evaluated
        self.trees = complex_ones
        self.consts: list[object] = []
        self._chunks: list[Callable[[list[int], list[int]], int]] = []
        self.calls = 0  # solutions checked

    def _write(self, ks: list[int]) -> None:
        """Write the constraints numbered `ks` out as code, compiled into more chunks."""
        namespace: dict[str, Any] = {"K": self.consts, "_c": canonical}
        source: list[str] = []
        names: list[str] = []
        for start in range(0, len(ks), _CHUNK):
            w = _Writer(self.position, self.consts)
            name = f"chunk{len(self._chunks) + len(names)}"
            names.append(name)
            w.lines.append(f"def {name}(v, at):")
            for k in ks[start:start + _CHUNK]:
                w.lines.append(f"    at[0] = {k}")
                value = w.node(self.constraints[k])
                w.lines.append(f"    if {value} != 1: return {k}")
            w.lines.append("    return -1")
            source += w.lines
        if source:
            exec(compile("\n".join(source), "<conundrum checker>", "exec"), namespace)
        self._chunks += [namespace[name] for name in names]

    def __call__(self, values: list[int]) -> None:
        self.calls += 1
        if self.calls == LINEAR_AS_CODE and self.linear:
            # many solutions: the linear rows as code from now on, which checks each in
            # about half the time their data takes, once compiling them has paid off
            self._write([row[0] for row in self.linear])
            self.linear = []
        if self.calls == TREES_AS_CODE and self.trees:
            self._write(self.trees)
            self.trees = []
        for i, lo, hi in self.ranges:
            if not lo <= values[i] <= hi:
                self._outside(i, values)
        for i, allowed in self.sets:
            if values[i] not in allowed:
                self._outside(i, values)
        for k, op, ia, ca, ib, cb in self.relations:
            if not op(values[ia] if ia >= 0 else ca, values[ib] if ib >= 0 else cb):
                self._violated(k, "false")
        for k, op, pa, ca, ka, pb, cb, kb in self.linear:
            a = ka
            for p, c in zip(pa, ca):
                a += c * values[p]
            b = kb
            for p, c in zip(pb, cb):
                b += c * values[p]
            if not op(a, b):
                self._violated(k, "false")
        for k, positions in self.distinct:
            if len({values[i] for i in positions}) != len(positions):
                self._violated(k, "false")
        if self.trees:
            self._walk(values)
        at = [0]
        for chunk in self._chunks:
            try:
                bad = chunk(values, at)
            except Undefined as e:
                self._violated(at[0], str(e))
            if bad >= 0:
                self._violated(bad, "false")

    def _walk(self, values: list[int]) -> None:
        """Check the constraints not yet written out as code by walking their trees."""
        assignment = {x.index: v for x, v in zip(self.variables, values)}
        for k in self.trees:
            try:
                if evaluate(self.constraints[k], assignment) != 1:
                    self._violated(k, "false")
            except Undefined as e:
                self._violated(k, str(e))

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
