"""Variable and value selection heuristics (names as in ECLiPSe's search/6).

A variable selector maps the unfixed variables to the one to branch on; ties go to the
earliest variable, so a run is deterministic. A value selector gives the branching
alternatives for one variable, as (kind, value) decisions applied in order:
("eq", v) then ("ne", v) for value choices, ("le", v) / ("gt", v) for domain splits.
"""

from __future__ import annotations

from collections.abc import Callable

VAR_SELECTS = ("input_order", "first_fail", "anti_first_fail", "smallest", "largest",
               "occurrence", "most_constrained", "max_regret", "dom_wdeg")
VALUE_SELECTS = ("min", "max", "middle", "median", "split", "reverse_split", "random")


def _regret(x) -> int:
    nxt = x.next_value(x.lo)
    return 0 if nxt is None else nxt - x.lo


def _wdeg(x) -> int:
    total = 0
    for lst in (x.on_fix, x.on_bounds, x.on_domain):
        for p in lst:
            if p.active:
                total += p.weight
    return total


def _score(name: str) -> Callable:
    """A key to minimise; the first variable with the smallest key is chosen."""
    if name == "first_fail":
        return lambda x: x.size()
    if name == "anti_first_fail":
        return lambda x: -x.size()
    if name == "smallest":
        return lambda x: x.lo
    if name == "largest":
        return lambda x: -x.hi
    if name == "occurrence":
        return lambda x: -x.degree()
    if name == "most_constrained":
        return lambda x: (x.size(), -x.degree())
    if name == "max_regret":
        return lambda x: -_regret(x)
    if name == "dom_wdeg":
        return lambda x: x.size() / (_wdeg(x) or 1)
    raise ValueError(name)


def make_var_select(name: str) -> Callable:
    """The selector function for a var_select name."""
    if name == "input_order":
        def first(free: list):
            return free[0]
        return first
    key = _score(name)

    def select(free: list):
        best = free[0]
        best_key = key(best)
        for x in free[1:]:
            k = key(x)
            if k < best_key:
                best, best_key = x, k
        return best
    return select


def _middle_order(x) -> list[int]:
    """Values from the middle outwards (ECLiPSe indomain_middle)."""
    values = x.values_list()
    mid = (x.lo + x.hi) / 2
    return sorted(values, key=lambda v: (abs(v - mid), v))


def make_value_select(name: str, seed: int = 0) -> Callable:
    """The alternatives function for a value_select name: x -> list of decisions."""
    if name == "min":
        return lambda x: (("eq", x.lo), ("ne", x.lo))
    if name == "max":
        return lambda x: (("eq", x.hi), ("ne", x.hi))
    if name == "middle":
        def middle(x):
            if x.bits is None:
                v = (x.lo + x.hi) // 2
            else:
                v = _middle_order(x)[0]
            return (("eq", v), ("ne", v))
        return middle
    if name == "median":
        def median(x):
            if x.bits is None:
                v = (x.lo + x.hi) // 2
            else:
                values = x.values_list()
                v = values[(len(values) - 1) // 2]
            return (("eq", v), ("ne", v))
        return median
    if name == "split":
        return lambda x: (("le", (x.lo + x.hi) // 2), ("gt", (x.lo + x.hi) // 2))
    if name == "reverse_split":
        return lambda x: (("gt", (x.lo + x.hi) // 2), ("le", (x.lo + x.hi) // 2))
    if name == "random":
        import random  # only this heuristic needs it; keeps `import conundrum` light

        rng = random.Random(seed)

        def pick(x):
            if x.bits is None:
                v = rng.randint(x.lo, x.hi)
                if not x.contains(v):
                    v = x.lo
            else:
                values = x.values_list()
                v = values[rng.randrange(len(values))]
            return (("eq", v), ("ne", v))
        return pick
    raise ValueError(name)
