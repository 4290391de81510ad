"""The FlatZinc set builtins over set variables (`var set of U`), each a set constraint of
conundrum (`conundrum.lang.globals.sets`): set_card, set_union, set_intersect, set_diff,
set_symdiff, set_subset, set_superset, set_eq, set_ne, set_le, set_lt, array_set_element,
array_var_set_element (set_in is with the integer builtins). Their reified forms come from
`translate` like every builtin's. A set argument is a set variable or a constant set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import conundrum as cn
from conundrum.io.flatzinc.parser import IntSet, Range

# the argument kinds, as builtins.SIGNATURES: S a set (variable or constant), Q an array
# of sets, v an integer (constant or variable)
SET_SIGNATURES: dict[str, str] = {
    "set_card": "Sv", "set_union": "SSS", "set_intersect": "SSS", "set_diff": "SSS",
    "set_symdiff": "SSS", "set_subset": "SS", "set_superset": "SS", "set_eq": "SS",
    "set_ne": "SS", "set_le": "SS", "set_lt": "SS", "array_set_element": "vQS",
    "array_var_set_element": "vQS",
}


def is_set(x: object) -> bool:
    """Is x a set argument: a set variable or a constant set?"""
    return isinstance(x, cn.SetVar | Range | IntSet)


def set_operand(x: Any) -> Any:
    """A set argument as the set constraints take it (a constant set as a frozenset)."""
    if isinstance(x, cn.SetVar):
        return x
    if isinstance(x, Range):
        return range(x.lo, x.hi + 1)
    return frozenset(x)


def _card(s: Any, x: Any) -> Any:
    if isinstance(s, cn.SetVar):
        return s.card == x
    return x == len(set_operand(s))


def _element(i: Any, sets: list, s: Any) -> Any:
    # FlatZinc's arrays are 1-based
    return cn.set_element(i - 1, [set_operand(t) for t in sets], set_operand(s))


def _two(f: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    return lambda a, b: f(set_operand(a), set_operand(b))


def _three(f: Callable[[Any, Any, Any], Any]) -> Callable[[Any, Any, Any], Any]:
    return lambda a, b, c: f(set_operand(a), set_operand(b), set_operand(c))


SET_PLAIN: dict[str, Callable[..., Any]] = {
    "set_card": _card,
    "set_union": _three(cn.set_union),
    "set_intersect": _three(cn.set_intersect),
    "set_diff": _three(cn.set_diff),
    "set_symdiff": _three(cn.set_symdiff),
    "set_subset": _two(cn.subset),
    "set_superset": _two(cn.superset),
    "set_eq": _two(cn.set_eq),
    "set_ne": _two(cn.set_ne),
    "set_le": _two(cn.set_le),
    "set_lt": _two(cn.set_lt),
    "array_set_element": _element,
    "array_var_set_element": _element,
}
