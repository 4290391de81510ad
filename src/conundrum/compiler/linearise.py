"""The linearising pass: every expression node to its exact rational pair (N, D) of linear
forms (linear.py), children before parents, each node once.

Linear pieces (sums, scaling, rational division by a constant) stay linear, so that each
relation becomes one linear propagator; non-linear ones get auxiliary variables
(auxiliary.py), and a small non-linear subtree over few variables becomes one table
(tabulate.py).
Relations and connectives used as values are reified (reify.py). The rule for each node is
found in VALUE by the node's class.

Division or modulo by zero anywhere in the model makes that assignment fail
(docs/arithmetic.md): the conditions are posted globally, whatever the context of the
division.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from conundrum.compiler.auxiliary import MAX_SCALE
from conundrum.compiler.linear import ONE, Lin, Rat, const_rat, integer, is_integer, normal
from conundrum.compiler.powers import check_power
from conundrum.compiler.reify import reify, reify_rel
from conundrum.compiler.tabulate import few_values, table_rows, tabulable
from conundrum.engine import Inconsistency, IntVar, IntView
from conundrum.lang.array import Element2D
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    Abs,
    BinOp,
    Count,
    Element,
    Expr,
    MinMax,
    Pow,
    Sum,
    Var,
    postorder,
    render,
)
from conundrum.lang.globals.arithmetic import ArgExtreme
from conundrum.lang.tree import rule_for
from conundrum.propagators import arith, element

if TYPE_CHECKING:
    from conundrum.compiler.compile import Compiler


def value(cx: Compiler, root: object) -> Rat:
    """The exact pair of an expression, compiling every node below it once."""
    if not isinstance(root, Expr):
        return const_rat(root)  # type: ignore[arg-type]
    memo = cx.values
    if type(root) is Sum and all(type(t) is Var for t in root.args):
        # a sum of variables (each FlatZinc linear row): linear, so never tabulated, and
        # its terms' values are their variables' forms; no walk of the tree (a model of
        # 59,700 int_lin_ne rows spent a fifth of its compilation in that walk)
        got = memo.get(id(root))
        if got is None:
            forms: list[Rat] = [(cx.var_lin(t.index), ONE) for t in root.args
                                if isinstance(t, Var)]  # all of them (the test above)
            got = memo[id(root)] = _sum_of(cx, root, forms)
        return got
    for node in postorder(root, leaf=lambda n: _tabulated(cx, n)):
        if id(node) not in memo:
            memo[id(node)] = _node_value(cx, node)
    return memo[id(root)]


def _node_value(cx: Compiler, node: Expr) -> Rat:
    if id(node) in cx.plans:
        return _tabulate(cx, node)
    rule = rule_for(VALUE, node)
    if rule is not None:
        return rule(cx, node)
    if node.boolean:
        return reify(cx, node), ONE
    raise ModelError(f"cannot compile {render(node)}")


# ------------------------------------------------------------- tabulation
def _tabulated(cx: Compiler, node: Expr) -> bool:
    """Whether node is compiled as one table over its variables (tabulate.py); the
    rows are computed here and kept in cx.plans for _tabulate."""
    if id(node) in cx.plans:
        return True
    if id(node) in cx.values:
        return False
    variables = tabulable(node, lambda v: cx.by_index[v.index].size())
    if variables is None:
        return False
    evs = [cx.by_index[v.index] for v in variables]
    if any(ev.bits < 0 for ev in evs):
        return False
    rows = table_rows(node, variables, [ev.values_list() for ev in evs])
    apart = cx.distinct.pairs(variables)
    if apart:  # rows no solution reaches (distinct.py)
        rows = [r for r in rows if all(r[0][i] != r[0][j] for i, j in apart)]
    if not few_values(v for _, v in rows):
        return False
    scale = 1
    for _, v in rows:
        if isinstance(v, Fraction):
            scale = math.lcm(scale, v.denominator)
    if scale > MAX_SCALE:
        return False
    cx.plans[id(node)] = (evs, rows, scale)
    return True


def _affine(rows: list[tuple[tuple[int, ...], int | Fraction]],
            values: list[int]) -> tuple[int, int] | None:
    """(a, c) when the value of each row (x,) is a*x + c, else None. A table of such a
    node would be a copy of x: pair_divides_the_sum's 21 `abs(d)` over d in 1..99 were a
    fifth of its search."""
    (x0,), v0 = rows[0][0], values[0]
    if len(rows) == 1:
        return 0, v0
    (x1,), v1 = rows[1][0], values[1]
    if (v1 - v0) % (x1 - x0):
        return None
    a = (v1 - v0) // (x1 - x0)
    c = v0 - a * x0
    for ((x,), _), v in zip(rows, values):
        if v != a * x + c:
            return None
    return a, c


def _tabulate(cx: Compiler, node: Expr) -> Rat:
    """A tabulated node: (vars..., value) rows, or, for fractional values,
    (vars..., floor, scaled fraction) rows and the pair (scale*floor + fraction, scale)
    (as Aux.quotient does)."""
    evs, rows, scale = cx.plans.pop(id(node))
    if not rows:
        raise Inconsistency
    if scale == 1:
        values = [int(v) for _, v in rows]  # whole numbers when the scale is 1
        # a*x + c defined for every x (abs(x) for x >= 0): linear, no table to wake
        line = (_affine(rows, values) if len(evs) == 1 and len(rows) == evs[0].size()
                and not node.boolean else None)
        if line is not None:
            return Lin.of(evs[0]).scaled(line[0]).plus(Lin(None, line[1])), ONE
        lo, hi = min(values), max(values)
        # a truth value (a tabulated connective) may have its variable named already
        z = cx.truth(node) if node.boolean and 0 <= lo and hi <= 1 else cx.aux(lo, hi)
        cx.post_table([*evs, z], [(*t, v) for (t, _), v in zip(rows, values)], (z,))
        return Lin.of(z), ONE
    parts = [(t, math.floor(v), int((v - math.floor(v)) * scale)) for t, v in rows]
    whole = cx.aux(min(p[1] for p in parts), max(p[1] for p in parts))
    frac = cx.fraction(scale)
    cx.post_table([*evs, whole, frac], [(*t, w, f) for t, w, f in parts], (whole, frac))
    return normal(Lin.of(whole).scaled(scale).plus(Lin.of(frac)), Lin(None, scale))


# ------------------------------------------------------ one rule per node class
def _var(cx: Compiler, node: Var) -> Rat:
    return cx.var_lin(node.index), ONE


def _over_common_denominator(parts: list[Rat]) -> Rat:
    """The sum of fractions with constant denominators, over their lcm, in one pass: the
    same form (coefficients and term order) as adding them one by one with Aux.add, which
    copies the growing sum at each step (quadratic: a FlatZinc array_bool_and of 350
    literals is a sum of 350 terms)."""
    common = math.lcm(*(d.const for _, d in parts))
    terms: dict[IntVar, int] = {}
    const = 0
    for n, d in parts:
        f = common // d.const
        const += n.const * f
        for v, c in n.terms.items():
            total = terms.get(v, 0) + c * f
            if total:
                terms[v] = total
            else:
                terms.pop(v, None)  # cancelled; a later term puts it back at the end
    return Lin(terms, const), Lin(None, common)


def _sum(cx: Compiler, node: Sum) -> Rat:
    return _sum_of(cx, node, [cx.rat(term) for term in node.args])


def _sum_of(cx: Compiler, node: Sum, values: list[Rat]) -> Rat:
    """The pair of a Sum whose terms have the pairs `values`."""
    const_parts: list[Rat] = [const_rat(node.const)]
    var_parts: list[Rat] = []
    for coef, (n, d) in zip(node.coefs, values):
        if isinstance(coef, int):
            n = n.scaled(coef)
        else:
            c = Fraction(coef)
            n = n.scaled(c.numerator)
            d = d.scaled(c.denominator)
        if d.is_const():
            const_parts.append((n, d))
        else:
            var_parts.append((n, d))
    const_part = _over_common_denominator(const_parts)
    if all(d.is_const() for _, d in var_parts):
        # Aux.add one by one would copy the growing sum at each term (quadratic); in one
        # pass the same form (normal() divides out what the lcms multiplied in)
        return normal(*_over_common_denominator(var_parts + [const_part]))
    result = const_part
    if var_parts:
        acc = var_parts[0]
        for part in var_parts[1:]:
            acc = cx.add(acc, part)
        result = cx.add(acc, const_part) if not (
            const_part[0].is_const() and const_part[0].const == 0) else acc
    return normal(*result)


def _binop(cx: Compiler, node: BinOp) -> Rat:
    a, b = (cx.rat(x) for x in node.args)
    (na, da), (nb, db) = a, b
    op = node.op
    if op == "*":
        return normal(cx.mul(na, nb), cx.mul(da, db))
    if op == "/":
        cx.post_linear(nb, "ne")  # the divisor is never 0
        return cx.quotient(cx.mul(na, db), cx.mul(da, nb))
    # integer operations on the (possibly rational) operands: p / q with integers p, q
    p, q = cx.mul(na, db), cx.mul(da, nb)
    if op == "exact_div":
        return cx.binary("exact_div", p, q), ONE
    if op == "//":
        return cx.binary("//", p, q), ONE
    if op == "%":
        if da.is_const() and da.const == 1 and db.is_const() and db.const == 1:
            return cx.binary("%", na, nb), ONE
        floor = cx.binary("//", p, q)
        return normal(*cx.add(a, (cx.mul(nb, floor), db), -1))
    raise ModelError(f"unknown operator {op}")


def _pow(cx: Compiler, node: Pow) -> Rat:
    n, d = cx.rat(node.args[0])
    if node.k == 0:
        return ONE, ONE
    if node.k == 1:
        return n, d
    what = render(node.args[0])
    for part in (n, d):
        lo, hi = (part.const, part.const) if part.is_const() else part.bounds()
        check_power(lo, hi, node.k, what)
    pn = Lin.of(cx.power(cx.as_var(n), node.k)) if not n.is_const() \
        else Lin(None, n.const ** node.k)
    pd = Lin(None, d.const ** node.k) if d.is_const() \
        else Lin.of(cx.power(cx.as_var(d), node.k))
    return normal(pn, pd)


def _abs(cx: Compiler, node: Abs) -> Rat:
    n, d = cx.rat(node.args[0])
    return normal(cx.abs_of(n), Lin(None, abs(d.const)) if d.is_const() else cx.abs_of(d))


def _minmax(cx: Compiler, node: MinMax) -> Rat:
    rats = [cx.rat(a) for a in node.args]
    if all(is_integer(r) for r in rats):
        xs = [cx.as_var(n) for n, _ in rats]
        if len(xs) == 1:
            return Lin.of(xs[0]), ONE
        lo = (max if node.is_max else min)(x.lo for x in xs)
        hi = (max if node.is_max else min)(x.hi for x in xs)
        z = cx.aux(lo, hi)
        cx.post_prop(arith.MinMax(cx.solver, xs, z, node.is_max))
        return Lin.of(z), ONE
    # rational arguments: fold with reified comparisons, r = b ? r : a
    r = rats[0]
    for a in rats[1:]:
        keep = reify_rel(cx, ">=" if node.is_max else "<=", r, a)
        x = cx.mul(r[0], a[1])
        y = cx.mul(a[0], r[1])
        num = cx.mul(keep, x).plus(cx.mul(keep, y), -1).plus(y)
        r = normal(num, cx.mul(r[1], a[1]))
    return r


def _element(cx: Compiler, node: Element) -> Rat:
    index = cx.as_var(integer(cx.rat(node.args[0]), "element index"))
    index.set_min(0)
    index.set_max(len(node.args) - 2)
    cx.solver.fix_point()
    return _post_element(cx, index, node.args[1:])


def _element_2d(cx: Compiler, node: Element2D) -> Rat:
    """One element over the cells row by row, at an index tied to (row, col) by a table of
    (i, j, i * cols + j) over the rows and columns left in their domains: domain
    consistent, where a linear equation would only move the bounds of row and col."""
    rows, cols = node.shape
    r = cx.as_var(integer(cx.rat(node.args[0]), "element index"))
    c = cx.as_var(integer(cx.rat(node.args[1]), "element index"))
    r.set_bounds(0, rows - 1)
    c.set_bounds(0, cols - 1)
    cx.solver.fix_point()
    index = cx.aux(0, rows * cols - 1)
    cx.post_table([r, c, index], [(i, j, i * cols + j) for i in r.values_list()
                                  for j in c.values_list()], (index,))
    return _post_element(cx, index, node.args[2:])


def _post_element(cx: Compiler, index: IntView, args: tuple[object, ...]) -> Rat:
    """z == items[index] for an index already inside 0..len(items)-1."""
    items = [integer(cx.rat(a), "element") for a in args]
    if all(i.is_const() for i in items):
        consts = [i.const for i in items]
        z = cx.aux(min(consts), max(consts))
        cx.post_prop(element.ElementConst(cx.solver, consts, index, z))
    else:
        xs = [cx.as_var(i) for i in items]
        z = cx.aux(min(x.lo for x in xs), max(x.hi for x in xs))
        cx.post_prop(element.ElementVar(cx.solver, xs, index, z))
    return Lin.of(z), ONE


def _arg_extreme(cx: Compiler, node: ArgExtreme) -> Rat:
    """A position variable with the ArgMax propagator (arg_min: the arg_max of the
    negated items); rational items go through the decomposition."""
    rats = [cx.rat(a) for a in node.args]
    if not all(is_integer(r) for r in rats):
        dec = node.decompose()
        cx.keep.append(dec)
        return cx.value(dec)
    s = 1 if node.is_max else -1
    xs = [cx.as_var(n.scaled(s)) for n, _ in rats]
    i = cx.aux(0, len(xs) - 1)
    cx.post_prop(arith.ArgMax(cx.solver, xs, i))
    return Lin.of(i), ONE


def _count(cx: Compiler, node: Count) -> Rat:
    target = cx.rat(node.args[0])
    total = Lin()
    for item in node.args[1:]:
        total = total.plus(reify_rel(cx, "==", cx.rat(item), target))
    return total, ONE


VALUE: dict[type, Callable[[Compiler, Any], Rat]] = {
    Var: _var,
    Sum: _sum,
    BinOp: _binop,
    Pow: _pow,
    Abs: _abs,
    MinMax: _minmax,
    Element: _element,
    Element2D: _element_2d,
    ArgExtreme: _arg_extreme,
    Count: _count,
}
