"""Model.set_var: a set variable as its membership and cardinality variables."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import make_sum
from conundrum.lang.setvar import SetVar

if TYPE_CHECKING:
    from conundrum.model.model import Model


def _elements(items: Iterable[int], what: str) -> tuple[int, ...]:
    try:
        values = list(items)
    except TypeError:
        raise ModelError(f"set_var: the {what} is a collection of integers, not {items!r}")\
            from None
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ModelError(f"set_var: the {what} holds integers, not {v!r}")
    return tuple(sorted(set(values)))


def make_set_var(m: Model, lb: Iterable[int], ub: Iterable[int], name: str | None) -> SetVar:
    """A set variable between lb and ub: one 0/1 variable per element of ub (fixed to 1 on
    lb's elements) and its cardinality, posted equal to their sum."""
    if name is not None and not isinstance(name, str):
        raise ModelError(f"a variable name must be a string, not {name!r}")
    low, universe = _elements(lb, "lower bound"), _elements(ub, "upper bound")
    missing = set(low) - set(universe)
    if missing:
        raise ModelError(f"set_var {name or ''!r}: the lower bound's elements "
                         f"{sorted(missing)} are not in the upper bound")
    name = name or ""
    if name:
        m._check_new_names([name])
    required = set(low)
    members = tuple(m._new_var(1 if e in required else 0, 1, None, None) for e in universe)
    card = m._new_var(len(low), len(universe), None, None)
    s = SetVar(name, universe, members, card)
    m.add(card == make_sum((1, b) for b in members))
    m.set_variables.append(s)
    if name:
        m._set_names[name] = s
    return s
