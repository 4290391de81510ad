"""FlatZinc's `set_search(S, varsel, valsel, _)` as a search phase over the sets' members,
the way Gecode's FlatZinc reads it: a set chosen by `varsel`, then its smallest (or
largest) undecided element, included first (indomain_*) or excluded first (outdomain_*).

`input_order` picks the first set not yet fixed. `smallest` picks the set with the
smallest undecided element (Gecode's SET_VAR_MIN_MIN, ties to the first set), `largest`
the one with the largest (SET_VAR_MAX_MAX): with a value choice from the same end, that
is the undecided member first in a fixed order, every set's members by element and then
by set, so it is a phase in input order over that list. Any other choice is followed as
input_order, and said.
"""

from __future__ import annotations

import conundrum as cn

# set_search value choices -> (the order of the elements, the member's value tried first):
# indomain_min includes the smallest undecided element first, outdomain_min excludes it
SET_VALUE_CHOICE = {"indomain_min": ("up", "max"), "indomain_max": ("down", "max"),
                    "outdomain_min": ("up", "min"), "outdomain_max": ("down", "min"),
                    "indomain": ("up", "max")}


def set_phase(sets: list, var_choice: str, value_choice: str,
              warnings: list[str]) -> tuple[list[cn.Var], str, str] | None:
    """The phase (members, "input_order", the member's first value) of a set_search over
    `sets` with the choices named (see the module), or None when no set variable is in
    it; what is not followed as asked is said in `warnings`."""
    order, value = SET_VALUE_CHOICE.get(value_choice, (None, None))
    if order is None or value is None:
        warnings.append(f"set_search: value choice {value_choice} is not supported; using "
                        "indomain_min")
        order, value = SET_VALUE_CHOICE["indomain_min"]
    by_element = (var_choice, order) in (("smallest", "up"), ("largest", "down"))
    if var_choice != "input_order" and not by_element:
        warnings.append(f"set_search: variable choice {var_choice} is followed as "
                        f"input_order (with value choice {value_choice})")
    keyed: list[tuple[int, int, cn.Var]] = []  # (element, set position, member)
    for position, s in enumerate(sets):
        if isinstance(s, cn.SetVar):
            keyed.extend((e, position, m) for e, m in zip(s.universe, s.members, strict=True))
    down = order == "down"
    if by_element:  # by element (from the value choice's end), then by set
        keyed.sort(key=lambda t: (-t[0] if down else t[0], t[1]))
    else:  # set by set, each by element
        keyed.sort(key=lambda t: (t[1], -t[0] if down else t[0]))
    members = [m for _, _, m in keyed]
    return (members, "input_order", value) if members else None
