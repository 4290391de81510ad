"""Introduced variables inlined into the one constraint that uses them (issue 41, item 6:
the FlatZinc path as strong as the API on the same model).

MiniZinc flattens `abs(x[i+1] - x[i])` into a difference d (`int_lin_eq(...) ::
defines_var(d)`) and its absolute value a (`int_abs(d, a) :: defines_var(a)`), and
`d*d*d*d*d` into a chain of four products. Through the API the compiler sees each such
expression whole: a small subtree over one or two variables becomes one table, domain
consistent and cheap, where the FlatZinc's links are propagated one by one through their
intermediate domains (all-interval 16: the API's model solved in seconds, the FlatZinc
none in 30 s). So a variable MiniZinc introduced and defined by a product, a sum, a
difference, an absolute value or a linear equation (its coefficient 1 or -1) becomes that
expression in the one constraint that uses it, when

- it is used nowhere else: not in the output, the objective, an annotation, or an array
  used anywhere but in that one constraint;
- that constraint takes expressions (INTO: arithmetic, comparisons, linear sums,
  all_different) and asks for no propagation strength;
- its declared domain holds every value the expression can take (by interval arithmetic
  on the operands' declared domains), so that dropping it drops no constraint.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import conundrum as cn
from conundrum.io.flatzinc.items import (
    Access,
    Call,
    Constraint,
    FlatZinc,
    IntSet,
    Name,
    ParDecl,
    Range,
    VarDecl,
)

# the defining constraints and the position of the variable they define (-1: in the
# linear equation's variables)
DEFINERS = {"int_times": 2, "int_plus": 2, "int_minus": 2, "int_abs": 1, "int_lin_eq": -1}

# the constraints an expression may be an argument of (their builtins build expressions
# from their arguments, never reading a variable's own fields)
INTO = frozenset({
    "int_times", "int_plus", "int_minus", "int_abs",
    "int_lin_eq", "int_lin_le", "int_lin_ne",
    "int_lin_eq_reif", "int_lin_le_reif", "int_lin_ne_reif",
    "int_eq", "int_ne", "int_le", "int_lt",
    "int_eq_reif", "int_ne_reif", "int_le_reif", "int_lt_reif",
    "fzn_all_different_int",
})

Interval = tuple[int, int] | None  # None: unbounded


class Inlining:
    """Which introduced variables become expressions: `defining` maps each to its
    defining constraint, `order` lists them operands first (the order to build them)."""

    __slots__ = ("defining", "order", "_definers")

    def __init__(self, defining: dict[str, Constraint], order: list[str]) -> None:
        self.defining = defining
        self.order = order
        self._definers = {id(con) for con in defining.values()}

    def defines(self, con: Constraint) -> bool:
        """Whether `con` defines an inlined variable (and so is not posted)."""
        return id(con) in self._definers


def expression(con: Constraint, name: str, resolve: Callable[[object], Any]) -> Any:
    """The expression `con` defines `name` as, its operands resolved by `resolve` (an
    inlined operand is an expression already: a chain nests)."""
    if con.name == "int_lin_eq":
        coefs, terms, constant = con.args
        assert isinstance(coefs, list) and isinstance(terms, list)  # (plan checked them)
        at = terms.index(Name(name))
        k = resolve(constant)
        rest = cn.sum(c * resolve(x) for i, (c, x) in enumerate(zip(coefs, terms))
                      if i != at)
        return k - rest if coefs[at] == 1 else rest - k
    args = [resolve(a) for a in con.args[:-1]]
    if con.name == "int_abs":
        return abs(args[0])
    if con.name == "int_times":
        return args[0] * args[1]
    if con.name == "int_plus":
        return args[0] + args[1]
    return args[0] - args[1]  # int_minus


def defined_name(con: Constraint) -> str | None:
    """The variable a constraint's `defines_var` annotation names, if any."""
    for ann in con.annotations:
        if isinstance(ann, Call) and ann.name == "defines_var" and len(ann.args) == 1:
            target = ann.args[0]
            if isinstance(target, Name):
                return target.name
    return None


def operands(con: Constraint, name: str) -> list[object]:
    """The arguments of the defining constraint `con` other than the defined `name`."""
    if con.name == "int_lin_eq":
        coefs, xs, k = con.args
        assert isinstance(coefs, list) and isinstance(xs, list)
        return [x for x in xs if x != Name(name)] + [k]
    return list(con.args[:DEFINERS[con.name]])


def plan(fzn: FlatZinc, harmless: frozenset[str]) -> Inlining:
    """The variables of `fzn` to inline (see the module); `harmless`: the constraint
    annotations that ask nothing of a solver (a consumer with any other keeps its
    variables)."""
    decls: dict[str, VarDecl | ParDecl] = {}
    twice: set[str] = set()  # left to the builder, whose error names them
    for d in fzn.declarations:
        if d.name in decls:
            twice.add(d.name)
        decls[d.name] = d
    uses: dict[str, list[int]] = {}  # name -> the constraints using it (-1: elsewhere)
    for k, con in enumerate(fzn.constraints):
        for used in _names(list(con.args)):
            uses.setdefault(used, []).append(k)
        for ann in con.annotations:
            if not (isinstance(ann, Call) and ann.name == "defines_var"):
                for used in _names([ann]):
                    uses.setdefault(used, []).append(-1)
    if fzn.solve is not None:
        for used in _names([fzn.solve.objective, *fzn.solve.annotations]):
            uses.setdefault(used, []).append(-1)
    for d in fzn.declarations:
        for used in _names(d.annotations if isinstance(d, VarDecl) else []):
            uses.setdefault(used, []).append(-1)
        if not _is_array(d):  # a single variable's value, a parameter's
            for used in _names([d.value]):
                uses.setdefault(used, []).append(-1)
        else:  # arrays named in an array's value (an alias) are used elsewhere
            for used in _names([d.value]):
                if _is_array(decls.get(used)):
                    uses.setdefault(used, []).append(-1)
    # an element of an array of variables used by one constraint, which takes expressions,
    # is used by that constraint (all_different over differences)
    for d in fzn.declarations:
        if _is_array(d):
            where = uses.get(d.name, [])
            site = where[0] if len(where) == 1 and where[0] >= 0 and \
                fzn.constraints[where[0]].name in INTO and isinstance(d, VarDecl) and \
                "output_array" not in {_annotation_name(a) for a in d.annotations} else -1
            for used in _names([d.value]):
                if not _is_array(decls.get(used)):
                    uses.setdefault(used, []).append(site)
    defining: dict[str, Constraint] = {}
    for k, con in enumerate(fzn.constraints):
        name = defined_name(con)
        if name is None or con.name not in DEFINERS or name in twice or \
                not _introduced(decls.get(name)):
            continue
        where = uses.get(name, [])
        if len(where) != 2 or k not in where or -1 in where:
            continue
        consumer = fzn.constraints[where[0] if where[1] == k else where[1]]
        if consumer is con or consumer.name not in INTO or any(
                _annotation_name(a) not in harmless for a in consumer.annotations):
            continue
        if _defines_well(con, name) and _implied(decls, con, name):
            defining[name] = con
    return Inlining(defining, _operands_first(defining))


def _introduced(d: VarDecl | ParDecl | None) -> bool:
    """A single integer variable MiniZinc introduced and defined, not output."""
    if not isinstance(d, VarDecl) or d.is_bool or d.length is not None or \
            d.value is not None:
        return False
    names = {_annotation_name(a) for a in d.annotations}
    return {"var_is_introduced", "is_defined_var"} <= names and "output_var" not in names


def _is_array(d: object) -> bool:
    return isinstance(d, VarDecl | ParDecl) and d.length is not None


def _annotation_name(ann: object) -> str:
    return ann.name if isinstance(ann, Name | Call) else ""


def _defines_well(con: Constraint, name: str) -> bool:
    """The defined variable appears once, as the result (or, in a linear equation, once
    among the variables with coefficient 1 or -1)."""
    if con.name == "int_lin_eq":
        if len(con.args) != 3:
            return False
        coefs, xs, _ = con.args
        if not isinstance(coefs, list) or not isinstance(xs, list) or len(coefs) != len(xs):
            return False
        at = [i for i, x in enumerate(xs) if x == Name(name)]
        return len(at) == 1 and coefs[at[0]] in (1, -1)
    position = DEFINERS[con.name]
    return len(con.args) == position + 1 and con.args[position] == Name(name) and \
        Name(name) not in con.args[:position]


def _implied(decls: dict, con: Constraint, name: str) -> bool:
    """The defined variable's declared domain holds every value of the expression."""
    declared = decls[name].domain
    if declared is None:
        return True
    span = _interval(decls, con, name)
    if span is None:
        return False
    lo, hi = span
    if isinstance(declared, Range):
        return declared.lo <= lo and hi <= declared.hi
    if isinstance(declared, IntSet):
        return any(a <= lo and hi <= b for a, b in declared.ranges())
    return False


def _interval(decls: dict, con: Constraint, name: str) -> Interval:
    """The values the defining expression can take, from its operands' declared
    domains."""
    if con.name == "int_lin_eq":
        coefs, xs, k = con.args
        at = xs.index(Name(name))
        sign = coefs[at]  # name = sign * (k - sum of the other terms)
        k_span = _value_interval(decls, k)
        if k_span is None:
            return None
        lo = hi = 0
        for i, (c, x) in enumerate(zip(coefs, xs)):
            if i == at:
                continue
            span = _value_interval(decls, x)
            if span is None or not isinstance(c, int):
                return None
            lo += min(c * span[0], c * span[1])
            hi += max(c * span[0], c * span[1])
        rest = (k_span[0] - hi, k_span[1] - lo)
        return rest if sign == 1 else (-rest[1], -rest[0])
    spans = [_value_interval(decls, x) for x in con.args[:DEFINERS[con.name]]]
    if any(s is None for s in spans):
        return None
    a = spans[0]
    assert a is not None
    if con.name == "int_abs":
        if a[0] >= 0:
            return a
        if a[1] <= 0:
            return (-a[1], -a[0])
        return (0, max(-a[0], a[1]))
    b = spans[1]
    assert b is not None
    if con.name == "int_plus":
        return (a[0] + b[0], a[1] + b[1])
    if con.name == "int_minus":
        return (a[0] - b[1], a[1] - b[0])
    corners = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return (min(corners), max(corners))


def _value_interval(decls: dict, x: object) -> Interval:
    """The declared range of a value of the file: a literal, a parameter, a variable
    or an element of an array of them."""
    if isinstance(x, bool):
        return (int(x), int(x))
    if isinstance(x, int):
        return (x, x)
    if isinstance(x, Access):
        array = decls.get(x.name)
        value = array.value if array is not None else None
        if not isinstance(value, list) or not 1 <= x.index <= len(value):
            return None
        x = value[x.index - 1]
        if isinstance(x, bool | int):
            return (int(x), int(x))
    if not isinstance(x, Name):
        return None
    d = decls.get(x.name)
    if isinstance(d, ParDecl):
        v = d.value
        return (int(v), int(v)) if isinstance(v, bool | int) else None
    if not isinstance(d, VarDecl) or d.length is not None:
        return None
    if d.is_bool:
        return (0, 1)
    dom = d.domain
    if isinstance(dom, Range):
        return (dom.lo, dom.hi) if dom.lo <= dom.hi else None
    if isinstance(dom, IntSet) and dom.ranges():
        return (dom.ranges()[0][0], dom.ranges()[-1][1])
    return None


def _names(values: list) -> Iterator[str]:
    """The names the values refer to (arrays, accesses and annotation arguments
    included), one per occurrence, without recursion on the nesting's depth."""
    stack = list(values)
    while stack:
        v = stack.pop()
        if isinstance(v, Name | Access):
            yield v.name
        elif isinstance(v, Call):
            stack.extend(v.args)
        elif isinstance(v, list | tuple):
            stack.extend(v)


def _operands_first(defining: dict[str, Constraint]) -> list[str]:
    """The inlined names, each after the inlined names its expression uses (Kahn's
    order; a cycle, which no valid FlatZinc has, is dropped from the result)."""
    needs = {name: {u for u in _names(operands(con, name)) if u in defining}
             for name, con in defining.items()}
    order = [name for name, n in needs.items() if not n]
    done = set(order)
    position = 0
    users: dict[str, list[str]] = {}
    for name, n in needs.items():
        for u in n:
            users.setdefault(u, []).append(name)
    while position < len(order):
        for user in users.get(order[position], []):
            if user not in done and needs[user] <= done:
                done.add(user)
                order.append(user)
        position += 1
    for name in list(defining):
        if name not in done:
            del defining[name]
    return order
