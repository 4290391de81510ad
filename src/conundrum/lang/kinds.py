"""How a model summary groups constraints (the notebook's table, `print(model)`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conundrum.lang.expr import BoolConst, BoolOp, Expr, Global, Rel, Sum, Var, postorder
from conundrum.lang.tree import rule_for


def _linear(node: Any) -> bool:
    return all(isinstance(n, Var | Sum) for n in postorder(node))


def _relation_kind(c: Rel) -> str:
    a, b = c.args
    if c.op == "==" and isinstance(a, Var) and not isinstance(b, Expr):
        return "x == c"
    return f"{'linear' if _linear(c.args[0]) and _linear(c.args[1]) else 'nonlinear'} {c.op}"


# how a model summary groups a constraint, by the class of its root (the nearest class of
# its MRO listed here: every global by its own name)
_KINDS: dict[type, Callable[[Any], str]] = {
    Global: lambda c: c.name,
    Rel: _relation_kind,
    BoolOp: lambda c: f"logical {c.op}",
    BoolConst: lambda c: f"constant {str(c.value).lower()}",
}


def constraint_kind(c: Any) -> str:
    """How a model summary groups a constraint: a global's name, `x == c` for a fixed
    value, `linear ==` (<=, ...) for sums, `nonlinear ==` ..., `logical or` ..."""
    kind = rule_for(_KINDS, c)
    return type(c).__name__ if kind is None else kind(c)
