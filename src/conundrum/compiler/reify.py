"""Relations and their truth values.

A relation between two pairs (a OP b) becomes one linear relation L r 0 with r in le, eq,
ne: cross-multiplied, with the sign of the denominators taken into account for < and <=,
so rational `/` stays exact. Used as a value (x + (y > 2), b == (x < y), a connective), a
relation, connective or global is reified into a 0/1 form, by a table keyed by the node's
class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conundrum.compiler.auxiliary import Aux
from conundrum.compiler.linear import ONE, Lin, Rat, sign
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import BoolConst, BoolOp, Expr, Global, Rel, Var, render
from conundrum.lang.tree import rule_for
from conundrum.propagators import reified

if TYPE_CHECKING:
    from conundrum.compiler.compile import Compiler


def rel_form(aux: Aux, op: str, a: Rat, b: Rat) -> tuple[Lin, str]:
    """L and r in le/eq/ne such that (a OP b) <=> (L r 0)."""
    (na, da), (nb, db) = a, b
    # a - b = diff / (da * db)
    diff = aux.mul(na, db).plus(aux.mul(nb, da), -1)
    if op == "==":
        return diff, "eq"
    if op == "!=":
        return diff, "ne"
    s = sign(da) * sign(db)  # constant denominators are normalised positive
    if s == 0:  # unknown sign: compare diff * (da * db), which has the sign of a - b
        diff = aux.mul(diff, aux.mul(da, db))
        s = 1
    d = diff.scaled(s)
    if op == "<=":
        return d, "le"
    if op == "<":
        return d.plus(ONE), "le"
    if op == ">=":
        return d.scaled(-1), "le"
    if op == ">":
        return d.scaled(-1).plus(ONE), "le"
    raise ModelError(f"unknown relation {op}")


def reify_linear(aux: Aux, lin: Lin, r: str, node: object = None) -> Lin:
    """A 0/1 form equal to (L r 0); `node`, the expression it is the truth of (its truth
    variable may be named already, see Aux.truth)."""
    coefs, xs, c = lin.parts()
    if not xs:
        truth = (c <= 0) if r == "le" else (c == 0) if r == "eq" else (c != 0)
        return Lin(None, int(truth))
    b = aux.truth(node)
    aux.post_prop(reified.reified_linear(aux.solver, b, r, coefs, xs, c))
    return Lin.of(b)


def reify_rel(aux: Aux, op: str, a: Rat, b: Rat, node: object = None) -> Lin:
    """A 0/1 form equal to (a OP b) (`node`: as for reify_linear)."""
    lin, r = rel_form(aux, op, a, b)
    return reify_linear(aux, lin, r, node)


# ------------------------------------------------ the truth of a node, by class
def _const(cx: Compiler, node: BoolConst) -> Lin:
    return Lin(None, int(node.value))


def _var(cx: Compiler, node: Var) -> Lin:
    return cx.var_lin(node.index)


def _rel(cx: Compiler, node: Rel) -> Lin:
    return reify_rel(cx, node.op, cx.rat(node.args[0]), cx.rat(node.args[1]), node)


def _bool_op(cx: Compiler, node: BoolOp) -> Lin:
    parts = [cx.rat(a)[0] for a in node.args]
    if node.op == "not":
        return ONE.plus(parts[0], -1)
    if node.op == "and":  # n - sum <= 0
        total = Lin(None, len(parts))
        for p in parts:
            total = total.plus(p, -1)
        return reify_linear(cx, total, "le", node)
    if node.op == "or":  # 1 - sum <= 0
        total = ONE
        for p in parts:
            total = total.plus(p, -1)
        return reify_linear(cx, total, "le", node)
    if node.op == "implies":  # a - b <= 0
        return reify_linear(cx, parts[0].plus(parts[1], -1), "le", node)
    if node.op == "xor" and len(parts) == 2:  # a + b - 1 == 0
        return reify_linear(cx, parts[0].plus(parts[1]).plus(ONE, -1), "eq", node)
    if node.op == "xor":  # parity: r == sum - 2k
        r = cx.truth(node)
        cx.post_linear(parity(cx, parts).plus(Lin.of(r), -1), "eq")
        return Lin.of(r)
    raise ModelError(f"{render(node)} cannot be used as a constraint")


def parity(cx: Aux, parts: list[Lin]) -> Lin:
    """sum(parts) - 2k with a new k in 0..n // 2: its value is the parity of the 0/1
    parts when it is 0 or 1 (bounds reasoning on the equality fixes the last part, or
    the parity, once the others are fixed)."""
    total = Lin()
    for p in parts:
        total = total.plus(p)
    return total.plus(Lin.of(cx.aux(0, len(parts) // 2)), -2)


def _global(cx: Compiler, node: Global) -> Lin:
    """A reified global: the truth of its decomposition (kept alive for the id() memo)."""
    dec = node.decompose()
    cx.keep.append(dec)
    return cx.value(dec)[0]


TRUTH: dict[type, Callable[[Compiler, Any], Lin]] = {
    BoolConst: _const,
    Var: _var,
    Rel: _rel,
    BoolOp: _bool_op,
    Global: _global,
}


def reify(cx: Compiler, node: Expr) -> Lin:
    """A 0/1 form equal to the truth of a Boolean node (children already compiled)."""
    truth = rule_for(TRUTH, node)
    if truth is None:
        raise ModelError(f"{render(node)} cannot be used as a constraint")
    return truth(cx, node)
