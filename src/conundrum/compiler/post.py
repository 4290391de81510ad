"""The posting pass: constraints at the top level of a model to propagators.

A top-level constraint is found in CONSTRAINT by its node's class: conjunctions are split,
a relation (or a negated one) becomes one linear relation, a global constraint gets its
dedicated propagator, found in GLOBALS by the global's class, when its arguments are
integer (otherwise, and for a global GLOBALS does not name, its decomposition is posted),
and any other Boolean expression is compiled to a 0/1 value posted equal to 1.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from conundrum.compiler.linear import ONE, Lin, is_integer
from conundrum.compiler.reify import parity, rel_form
from conundrum.compiler.setpost import post_set_relation
from conundrum.compiler.tabulate import tabulable
from conundrum.engine import Inconsistency, IntVar, IntView
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import BoolConst, BoolOp, Expr, Global, Rel, Var, postorder, render
from conundrum.lang.globals import (
    AllDifferent,
    AllDifferentExcept0,
    AtMostOne,
    BinPacking,
    Circuit,
    Cumulative,
    ExactlyOne,
    LinearEquation,
    Member,
    NoOverlap,
    NoOverlap2D,
    Regular,
    Table,
)
from conundrum.lang.globals.sets import (
    Difference,
    Disjoint,
    Intersection,
    SetEq,
    Subset,
    SymDiff,
    Union,
)
from conundrum.lang.tree import rule_for
from conundrum.propagators import (
    alldiff,
    circuit,
    element,
    linear_domain,
    packing,
    scheduling,
)

if TYPE_CHECKING:
    from conundrum.compiler.compile import Compiler

NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def post(cx: Compiler, constraint: object) -> None:
    """Post a constraint at the top level (conjunctions are split without recursion)."""
    stack = [constraint]
    while stack:
        c = stack.pop()
        rule = rule_for(CONSTRAINT, c)
        if rule is not None:
            stack.extend(reversed(rule(cx, c)))
        elif isinstance(c, Expr) and c.boolean:  # a 0/1 variable
            _true(cx, c)
        else:
            raise ModelError(f"{render(c)} is not a constraint")


# ------------------------------------- top-level constraints, by class; each returns
# the constraints it splits into (posted next, in order)
def _const(cx: Compiler, c: BoolConst) -> Sequence[object]:
    if not c.value:
        raise Inconsistency
    return ()


def _relation(cx: Compiler, c: Rel) -> Sequence[object]:
    post_rel(cx, c.op, c)
    return ()


def _connective(cx: Compiler, c: BoolOp) -> Sequence[object]:
    """A conjunction splits; the negation of a relation is the opposite relation; a
    disjunction is one clause, sum >= 1, and a xor one parity equation over the 0/1 values
    of its operands (no truth variable of their own); any other connective is a Boolean
    value posted true."""
    if c.op == "and":
        return c.args
    if c.op == "not" and isinstance(c.args[0], Rel):
        post_rel(cx, NEGATED[c.args[0].op], c.args[0])
        return ()
    if c.op in ("or", "xor"):
        if tabulable(c, lambda v: cx.by_index[v.index].size()):
            # over one variable: its table, made true, keeps exactly the values that
            # satisfy it (a clause over reified relations would keep them all)
            return _true(cx, c)
        parts = [cx.value(a)[0] for a in _operands(c)]
        if c.op == "or":  # 1 - sum <= 0
            cx.post_linear(_total(parts).scaled(-1).plus(ONE), "le")
        elif len(parts) == 2:  # a + b - 1 == 0
            cx.post_linear(_total(parts).plus(ONE, -1), "eq")
        else:  # sum - 2k - 1 == 0
            cx.post_linear(parity(cx, parts).plus(ONE, -1), "eq")
        return ()
    return _true(cx, c)


def _operands(c: BoolOp) -> list[object]:
    """The operands of c and of the connectives of its kind nested in it, in order: `a | b
    | c` is ((a or b) or c), one clause of three, with no truth value for (a or b)."""
    out: list[object] = []
    stack: list[object] = [c]
    while stack:
        node = stack.pop()
        if isinstance(node, BoolOp) and node.op == c.op:
            stack.extend(reversed(node.args))
        else:
            out.append(node)
    return out


def _total(parts: list[Lin]) -> Lin:
    total = Lin()
    for p in parts:
        total = total.plus(p)
    return total


def _global(cx: Compiler, c: Global) -> Sequence[object]:
    forms = [cx.value(a) for a in c.args]
    poster = rule_for(GLOBALS, c)
    if poster is not None and all(is_integer(r) for r in forms):
        poster(cx, c, [n for n, _ in forms])
        return ()
    dec = c.decompose()
    cx.keep.append(dec)
    return (dec,)


def _true(cx: Compiler, c: Expr) -> Sequence[object]:
    """A Boolean expression (a 0/1 variable, a connective) posted equal to 1."""
    lin = cx.value(c)[0]
    cx.post_linear(lin.plus(ONE, -1), "eq")
    return ()


CONSTRAINT: dict[type, Callable[[Compiler, Any], Sequence[object]]] = {
    BoolConst: _const,
    BoolOp: _connective,
    Rel: _relation,
    Global: _global,
}


def post_rel(cx: Compiler, op: str, c: Rel) -> None:
    """Post (a OP b) for the two sides of relation c."""
    if op == "==":
        _name_truth(cx, c.args[0], c.args[1])
        _name_truth(cx, c.args[1], c.args[0])
    a, b = cx.value(c.args[0]), cx.value(c.args[1])
    cx.truth_targets.clear()  # what was not taken (a negation, a global, ...)
    lin, r = rel_form(cx, op, a, b)
    cx.post_linear(lin, r)


def _name_truth(cx: Compiler, side: object, other: object) -> None:
    """`b == c` with b a 0/1 variable and c a connective or relation not compiled yet
    (MiniZinc's `bool_eq_reif`, `array_bool_or(xs, r)`, `int_le_reif(x, y, r)`): b itself
    is to be c's truth (Aux.truth), rather than a new 0/1 variable kept equal to b."""
    if not (isinstance(side, Var) and isinstance(other, Expr)) or isinstance(other, Var):
        return
    if not other.boolean or id(other) in cx.values:
        return
    if any(isinstance(n, Var) and n.index == side.index for n in postorder(other)):
        return  # b == (b | y): b would be both the truth and an operand
    n, d = cx.value(side)
    coefs, xs, const = n.parts()
    if d.is_const() and d.const == 1 and const == 0 and coefs == [1] and \
            isinstance(xs[0], IntVar) and 0 <= xs[0].lo and xs[0].hi <= 1:
        cx.truth_targets[id(other)] = xs[0]


# ------------------------------------------------ globals, by class
def _vars(cx: Compiler, forms: list[Lin]) -> list[IntView]:
    return [cx.as_var(n) for n in forms]


def _all_different(cx: Compiler, c: AllDifferent, forms: list[Lin]) -> None:
    alldiff.post_all_different(cx.solver, _vars(cx, forms), c.strength)


def _all_different_except_0(cx: Compiler, c: AllDifferentExcept0, forms: list[Lin]) -> None:
    xs = _vars(cx, forms)
    cx.post_prop(alldiff.AllDifferentExcept0(cx.solver, xs))


def _table(cx: Compiler, c: Table, forms: list[Lin]) -> None:
    cx.post_table(_vars(cx, forms), list(c.tuples))


def _linear_equation(cx: Compiler, c: LinearEquation, forms: list[Lin]) -> None:
    """linear_eq: one linear form (a variable used twice merges into one term); with
    strength "domain", the dynamic-programming propagator while the sum spans at most
    SPAN_LIMIT values, and bounds consistency with a warning above."""
    total = Lin(None, -c.rhs)
    for a, form in zip(c.coefs, forms):
        total = total.plus(form, a)
    coefs, xs, const = total.parts()
    if c.strength != "domain" or len(xs) < 2:
        cx.post_linear(total, "eq")
        return
    span = linear_domain.linear_span(coefs, [(x.lo, x.hi) for x in xs])
    if span > linear_domain.SPAN_LIMIT:
        warnings.warn(f"linear_eq: the sum spans {span + 1} values, more than "
                      f"{linear_domain.SPAN_LIMIT + 1}: bounds consistency instead of domain "
                      "consistency", RuntimeWarning, stacklevel=2)
        cx.post_linear(total, "eq")
        return
    cx.post_prop(linear_domain.LinearEqDomain(cx.solver, coefs, xs, const))


def _regular(cx: Compiler, c: Regular, forms: list[Lin]) -> None:
    """A chain of tables (q_i, x_i, q_i+1) over state variables whose domains are the
    states reachable from the start (the automaton is deterministic, so the states
    follow from the values and add no solutions)."""
    xs = _vars(cx, forms)
    states = {c.start}
    q = cx.solver.int_var(c.start, c.start)
    for x in xs:
        rows = [(a, v, r) for (a, v), r in c.transitions.items()
                if a in states and x.lo <= v <= x.hi]
        states = {r for _, _, r in rows}
        if not states:
            raise Inconsistency
        nxt = cx.solver.int_var_values(sorted(states))
        cx.post_table([q, x, nxt], rows)
        q = nxt
    cx.post_table([q], [(a,) for a in sorted(states & c.accepting)])


def _circuit(cx: Compiler, c: Circuit, forms: list[Lin]) -> None:
    """circuit and subcircuit: their propagator beside a domain-consistent all_different."""
    xs = _vars(cx, forms)
    cx.post_prop(circuit.Circuit(cx.solver, xs, c.sub))
    alldiff.post_all_different(cx.solver, xs, "domain")


def _no_overlap(cx: Compiler, c: NoOverlap, forms: list[Lin]) -> None:
    xs = _vars(cx, forms)
    n = len(xs) // 2
    cx.post_prop(scheduling.Disjunctive(cx.solver, xs[:n], xs[n:], c.strict))


def _cumulative(cx: Compiler, c: Cumulative, forms: list[Lin]) -> None:
    xs = _vars(cx, forms)
    n = (len(xs) - 1) // 3
    cx.post_prop(scheduling.Cumulative(cx.solver, xs[:n], xs[n:2 * n], xs[2 * n:3 * n],
                                       xs[-1]))


def _no_overlap_2d(cx: Compiler, c: NoOverlap2D, forms: list[Lin]) -> None:
    xs = _vars(cx, forms)
    n = len(xs) // 4
    cx.post_prop(scheduling.NoOverlap2D(cx.solver, xs[:n], xs[n:2 * n], xs[2 * n:3 * n],
                                        xs[3 * n:]))


def _at_most_one(cx: Compiler, c: AtMostOne, forms: list[Lin]) -> None:
    cx.post_linear(_total(forms).plus(ONE, -1), "le")  # sum - 1 <= 0


def _exactly_one(cx: Compiler, c: ExactlyOne, forms: list[Lin]) -> None:
    cx.post_linear(_total(forms).plus(ONE, -1), "eq")  # sum - 1 == 0


def _bin_packing(cx: Compiler, c: BinPacking, forms: list[Lin]) -> None:
    xs = _vars(cx, forms)
    k = len(xs) - len(c.sizes)
    cx.post_prop(packing.BinPacking(cx.solver, xs[:k], xs[k:], list(c.sizes)))


def _set_member(cx: Compiler, c: Member, forms: list[Lin]) -> None:
    """x in s at the top level: x's position in s's universe (a table, which keeps x in
    the universe) indexes s's members, an element equal to 1 (domain consistent, as
    FlatZinc's array_var_bool_element: x loses each value whose member is 0, and the member
    of the last value left is fixed to 1)."""
    universe = c.universes[0]
    n = len(universe)
    x = cx.as_var(forms[-1])
    if n == 0:
        raise Inconsistency
    position = cx.aux(0, n - 1)
    cx.post_table([x, position], [(e, k) for k, e in enumerate(universe)])
    members = _vars(cx, forms[:n])
    cx.post_prop(element.ElementVar(cx.solver, members, position, cx.aux(1, 1)))


# The globals with a propagator of their own, each with the function that posts it over
# the integer forms of the global's arguments; the others are posted decomposed.
GLOBALS: dict[type, Callable[[Compiler, Any, list[Lin]], None]] = {
    AllDifferent: _all_different,
    AllDifferentExcept0: _all_different_except_0,
    Table: _table,
    LinearEquation: _linear_equation,
    Regular: _regular,
    Circuit: _circuit,
    NoOverlap: _no_overlap,
    Cumulative: _cumulative,
    NoOverlap2D: _no_overlap_2d,
    BinPacking: _bin_packing,
    AtMostOne: _at_most_one,
    ExactlyOne: _exactly_one,
    Member: _set_member,
    **{kind: post_set_relation for kind in (Subset, SetEq, Disjoint, Union, Intersection,
                                            Difference, SymDiff)},
}
