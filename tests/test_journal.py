"""The journal of domain changes and the generic explanations (issue 29, slice 4).

A small depth-first search written here labels every engine variable of a compiled model
(x = lo, then x != lo) with a journal attached, and checks at every node:

- the journal's latest entry of each variable is its domain (recording and undo exact);
- `entry_before` gives back the domains the variables had at each ancestor node;
- `became_true` agrees with those ancestors (a predicate holds at an ancestor exactly when
  it became true before it);
- every explanation is sound: its predicates held before the entry, and no solution of the
  model (every full assignment of the engine's variables, enumerated beforehand) satisfies
  them without satisfying what the entry established; no solution satisfies a conflict's
  explanation.

The models are mostly one constraint each, so that "the model's solutions" is close to
"the constraint's solutions" and a wrong explanation has room to show.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import conundrum as cn
from conundrum.compiler import tabulate
from conundrum.compiler.compiled import CompiledModel, compile_model
from conundrum.engine import Inconsistency
from conundrum.engine.journal import NOT_TRUE, ROOT, Journal
from conundrum.engine.literals import GE, KIND_NAMES, LE, Pred, holds_in
from conundrum.engine.reasons import (
    change_preds,
    decision_explanation,
    domain_preds,
    explain_conflict,
    explain_entry,
)
from conundrum.propagators import (
    arith,
    arith_explain,
    disjunctive_explain,
    scheduling,
)


def one(build: Callable[[cn.Model, list[cn.Var]], object], n: int = 4, lo: int = 0,
        hi: int = 3) -> Callable[[], cn.Model]:
    """A model of n variables lo..hi and the constraint(s) `build` adds."""
    def make() -> cn.Model:
        m = cn.Model()
        xs = [m.int_var(lo, hi, f"x{i}") for i in range(n)]
        m += build(m, xs)
        return m
    return make


def member() -> cn.Model:
    """A domain of listed values too wide for a bit set: bounds, plus a Member propagator."""
    m = cn.Model()
    x = m.int_var([0, 5, 9, 100000], name="x")
    y = m.int_var(0, 3, "y")
    m += (x > 6) == (y >= 2)
    m += x != 9
    return m


def alldiff_sparse(strength: str) -> Callable[[], cn.Model]:
    """all_different over views with offsets and domains with holes: five variables and six
    values, so that Hall sets (and, for the bounds stage, Hall intervals) are common."""
    def make() -> cn.Model:
        m = cn.Model()
        a = m.int_var([0, 2, 3, 5], name="a")
        b = m.int_var(1, 4, "b")
        c = m.int_var([1, 3, 4], name="c")
        d = m.int_var(0, 3, "d")
        e = m.int_var([2, 4, 5, 6], name="e")
        m += cn.all_different([a, b + 1, c - 1, d + 2, e - 1], strength=strength)
        return m
    return make


def table_sparse() -> cn.Model:
    """A table over views and domains with holes, with enough tuples that values lose their
    last support to different columns."""
    m = cn.Model()
    x = m.int_var([0, 1, 3, 4], name="x")
    y = m.int_var(0, 3, "y")
    z = m.int_var([1, 2, 4], name="z")
    w = m.int_var(0, 2, "w")
    rows = [(0, 1, 1, 0), (0, 2, 2, 1), (1, 1, 4, 2), (1, 3, 1, 1), (3, 4, 2, 0), (3, 2, 4, 2),
            (4, 3, 2, 2), (4, 1, 1, 1), (1, 4, 4, 0), (0, 3, 4, 2), (2, 2, 2, 2), (3, 1, 9, 1)]
    m += cn.table([x, y + 1, z, w], rows)
    m += 2 * x + y + z <= 8  # moves several bounds at once: the table fails below the root
    return m


def element_sparse(tight: bool) -> Callable[[], cn.Model]:
    """element over a view and an index with holes; `tight` adds a sum that moves the
    bounds of index and result at once, so that the element fails below the root."""
    def make() -> cn.Model:
        m = cn.Model()
        i = m.int_var([0, 1, 3, 4, 5], name="i")
        r = m.int_var(-1, 4, "r")
        y = m.int_var(0, 6 if tight else 3, "y")
        m += cn.element([5, 1, 3, 1, 0, 4, 2], i) == r + 2
        m += r != y
        m += (i + r == y + 3) if tight else (2 * i + r <= 9 + y)
        return m
    return make


def _reified_eq_ne() -> cn.Model:
    m = cn.Model()
    x = m.int_var([0, 1, 3, 4], name="x")
    y = m.int_var(0, 3, "y")
    z = m.int_var(-1, 2, "z")
    b = m.bool_var("b")
    m += b == (2 * x - y + 3 * z == 4)
    m += (x + y != z + 3) | (y == 2)
    m += (x + z == 3) != b
    return m


def _reified_values() -> cn.Model:
    """Value literals b <=> x == v and c <=> x != v (ReifiedValue): decided by a hole the
    search makes at v, and enforcing the value or the hole once decided."""
    m = cn.Model()
    x = m.int_var([0, 1, 2, 4, 5], name="x")
    y = m.int_var(0, 5, "y")
    bs = [m.bool_var(f"b{v}") for v in range(6)]
    c = m.bool_var("c")
    m += [bs[v] == (x == v) for v in range(6)]
    m += c == (y != 2)
    m += x != y  # holes made by the search
    m += cn.sum(bs) + c >= 2
    m += bs[4] <= c
    return m


def _reified_missing() -> cn.Model:
    """b decided when the one unfixed term's needed value is a hole or no integer."""
    m = cn.Model()
    x = m.int_var([0, 1, 2, 3, 4], name="x")
    y = m.int_var(0, 3, "y")
    z = m.int_var(-1, 2, "z")
    w = m.int_var(0, 2, "w")
    b = m.bool_var("b")
    c = m.bool_var("c")
    m += b == (2 * x + y == 5)
    m += c == (x - z != 2)
    m += x != w + 1  # holes made by the search, not root facts
    m += z != w - 1
    return m


def bin_packing_loads() -> cn.Model:
    """Five items, three bins, every load a variable (one with holes, one a view)."""
    m = cn.Model()
    items = m.int_vars(5, 0, 2, "i")
    a = m.int_var([0, 1, 2, 4, 5], name="a")
    b = m.int_var(0, 6, "b")
    c = m.int_var(1, 5, "c")
    m += cn.bin_packing([a, b, c - 1], items, [3, 2, 2, 1, 1])
    m += a <= b + 1
    return m


def element_var_sparse() -> cn.Model:
    """element over variables (one a view, one with holes) with a variable result and a
    relation of index and result, so that index, result and array all lose values and
    the element fails below the root."""
    m = cn.Model()
    i = m.int_var(0, 3, "i")
    a = m.int_var([0, 2, 3], name="a")
    b = m.int_var(1, 3, "b")
    c = m.int_var([0, 1, 4], name="c")
    d = m.int_var(2, 4, "d")
    r = m.int_var(0, 4, "r")
    m += cn.element([a, b - 1, c, d], i) == r
    m += r <= i + 1
    m += a + c <= 4
    return m


def sparse() -> cn.Model:
    m = cn.Model()
    x = m.int_var([0, 2, 3, 7], name="x")
    y = m.int_var([1, 2, 5], name="y")
    z = m.int_var(-2, 4, "z")
    m += x + y != z + 3
    m += abs(z) <= x
    return m


def ranges(build: Callable[[list[cn.Var]], object],
           *bounds: tuple[int, int]) -> Callable[[], cn.Model]:
    """A model of one variable per (lo, hi) and the constraint(s) `build` adds."""
    def make() -> cn.Model:
        m = cn.Model()
        xs = [m.int_var(lo, hi, f"x{i}") for i, (lo, hi) in enumerate(bounds)]
        m += build(xs)
        return m
    return make


def _knapsack(sense: int) -> Callable[[], tuple[cn.Model, cn.Expr, int]]:
    """A small knapsack with an objective (an item with an offset, one of negative value,
    a multi-valued item): compiled with it, the model gets the knapsack bound, a redundant
    propagator that removes no solution."""
    def make() -> tuple[cn.Model, cn.Expr, int]:
        m = cn.Model()
        t = m.int_vars(4, 0, 1, "t")
        u = m.int_var(0, 2, "u")
        m += 3 * t[0] + 2 * t[1] + 4 * t[2] + (u + 1) + t[3] <= 8
        gain = 5 * t[0] + 3 * t[1] + 4 * t[2] + 2 * u - t[3]
        return m, (gain if sense > 0 else -gain), sense
    return make


def _optional_tasks(unary: bool) -> Callable[[], cn.Model]:
    """Optional intervals beside a mandatory one whose compulsory part blocks them: the
    rule that makes an undecided task that fits nowhere last 0 (absent), with a size that
    has a hole (1 or 3) and a demand that is a variable. An absent interval's start and
    end stay free: its end is tied to the start so that the solutions stay few."""
    def make() -> cn.Model:
        m = cn.Model()
        a = m.interval(start=(1, 2), size=3, name="a")
        size = m.int_var(1, 3, "size")
        m += size != 2
        b = m.interval(start=(0, 2), size=2, optional=True, name="b")
        c = m.interval(start=(0, 2), size=size, optional=True, name="c")
        ivs = [a, b, c]
        if unary:
            m += cn.no_overlap(ivs)
        else:
            r = m.int_var(1, 2, "r")
            m += cn.cumulative(ivs, [2, 1, r], 2)
        m += b.end == b.start + 2
        return m
    return make


MODELS: dict[str, Callable[[], cn.Model | tuple[cn.Model, cn.Expr, int]]] = {
    "knapsack_max": _knapsack(1),
    "knapsack_min": _knapsack(-1),
    "linear_eq": one(lambda m, x: 2 * x[0] + x[1] - x[2] + 3 * x[3] == 7),
    "linear_le": one(lambda m, x: 3 * x[0] - 2 * x[1] + x[2] + x[3] <= 2),
    "linear_ne": one(lambda m, x: x[0] + x[1] != x[2] + x[3]),
    "reified": one(lambda m, x: (x[0] + x[1] > 3) == (x[2] < x[3])),
    # reified == and != with coefficients (divisibility, the missing value of the last
    # term), over a view and a domain with holes
    "reified_eq_ne": lambda: _reified_eq_ne(),
    "reified_missing": lambda: _reified_missing(),
    "reified_values": lambda: _reified_values(),
    "clause": one(lambda m, x: (x[0] == 1) | (x[1] != x[2]) | (x[3] >= 2)),
    "alldiff_value": one(lambda m, x: cn.all_different(x, strength="value")),
    "alldiff_bounds": one(lambda m, x: cn.all_different(x, strength="bounds")),
    "alldiff_domain": one(lambda m, x: cn.all_different(x, strength="domain")),
    "alldiff_except_0": one(lambda m, x: cn.all_different_except_0(x)),
    "alldiff_value_sparse": alldiff_sparse("value"),
    "alldiff_bounds_sparse": alldiff_sparse("bounds"),
    "alldiff_domain_sparse": alldiff_sparse("domain"),
    "alldiff_bounds_views": one(lambda m, x: cn.all_different(
        [x[0], x[1] + 1, x[2] - 1, x[3] + 2, x[4]], strength="bounds"), n=5, hi=4),
    "alldiff_domain_views": one(lambda m, x: cn.all_different(
        [x[0], x[1] + 1, x[2] - 1, x[3] + 2, x[4]], strength="domain"), n=5, hi=4),
    # a sum that leaves too few values to three of them: Hall failures below the root
    "alldiff_bounds_pigeon": one(lambda m, x: [cn.all_different(x, strength="bounds"),
                                               x[0] + x[1] + x[2] <= 4], n=5, hi=5),
    "alldiff_domain_pigeon": one(lambda m, x: [cn.all_different(x, strength="domain"),
                                               x[0] + x[1] + x[2] == 6, x[3] <= x[4] + 1],
                                 n=5, hi=5),
    "alldiff_except_0_views": one(lambda m, x: cn.all_different_except_0(
        [x[0], x[1] - 1, x[2] + 1, x[3]]), hi=3),
    "element": one(lambda m, x: cn.element([3, 1, 0, 2], x[0]) == x[1] + x[2]),
    "table_sparse": table_sparse,
    "element_sparse": element_sparse(False),
    "element_fails": element_sparse(True),
    "element_var_sparse": element_var_sparse,
    "element_var": one(lambda m, x: cn.element([x[1], x[2], x[3]], x[0]) == 2, hi=2),
    "table": one(lambda m, x: cn.table(x[:3], [(0, 1, 2), (1, 1, 0), (2, 3, 3), (3, 0, 1)])),
    "times": one(lambda m, x: x[0] * x[1] == x[2] + x[3]),
    "division": one(lambda m, x: x[0] // (x[1] + 1) + x[2] % (x[3] + 1) == 2),
    "min_max": one(lambda m, x: cn.max(x[0], x[1]) - cn.min(x[2], x[3]) == 1),
    "abs": one(lambda m, x: abs(x[0] - x[1]) == x[2], lo=-2, hi=2, n=3),
    "count": one(lambda m, x: cn.count(x, 2) == 2),
    "gcc": one(lambda m, x: cn.global_cardinality(x[:3], [0, 1], [x[3], 1])),
    "nvalue": one(lambda m, x: cn.nvalue(2, x)),
    "increasing": one(lambda m, x: cn.increasing(x)),
    "lex": one(lambda m, x: cn.lex_less(x[:2], x[2:])),
    "circuit": one(lambda m, x: cn.circuit(x)),
    "circuit5": one(lambda m, x: [cn.circuit(x), x[0] != 1, x[2] + x[3] <= 4], n=5, hi=4),
    "subcircuit": one(lambda m, x: [cn.subcircuit(x), x[0] != 0, x[1] + x[2] >= 3], n=5,
                      hi=4),
    "inverse": one(lambda m, x: cn.inverse(x[:2], x[2:]), hi=1),
    "no_overlap": one(lambda m, x: cn.no_overlap(x[:3], [2, 1, 2]), lo=0, hi=4, n=3),
    "cumulative": one(lambda m, x: cn.cumulative(x[:3], [2, 2, 1], [1, 2, 2], 3),
                      lo=0, hi=3, n=3),
    "bin_packing": one(lambda m, x: cn.bin_packing([x[3], 3, 2], x[:3], [2, 1, 2]), hi=2),
    "bin_packing_loads": bin_packing_loads,
    "regular": one(lambda m, x: cn.regular(x, {(0, 0): 0, (0, 1): 1, (1, 0): 0,
                                             (1, 2): 1}, 0, [1]), hi=2),
    "linear_eq_domain": one(lambda m, x: cn.linear_eq([2, -1, 3, 1], x, 5, strength="domain")),
    "difference": one(lambda m, x: [x[0] - x[1] <= -1, x[1] < x[2], x[3] >= x[0] + 2]),
    "equal_offset": one(lambda m, x: [x[0] == x[1] + 1, x[1] + x[2] + x[3] == 4]),
    "affine": one(lambda m, x: abs(3 * x[0] - 4) == x[1] + x[2], n=3),
    "power": one(lambda m, x: x[0] ** 2 - x[1] == x[2], lo=-2, hi=2, n=3),
    "arg_max": one(lambda m, x: cn.arg_max(x[:3]) == x[3], hi=2),
    # the arithmetic relations over negative ranges, divisors whose range holds 0, and
    # in combination with a sum, so that they fail below the root too
    "times_neg": ranges(lambda x: x[0] * x[1] == x[2], (-3, 3), (-2, 3), (-4, 5)),
    "times_nonzero": ranges(lambda x: [x[0] * x[1] == x[2], x[2] != 0, x[0] + x[1] <= 1],
                            (-3, 2), (-3, 3), (-6, 6)),
    "exact_div_neg": ranges(lambda x: cn.exact_div(x[0], x[1]) == x[2], (-6, 6), (-2, 3),
                            (-3, 3)),
    "floor_div_neg": ranges(lambda x: x[0] // x[1] == x[2], (-5, 6), (-3, 2), (-4, 4)),
    "mod_neg": ranges(lambda x: x[0] % x[1] == x[2], (-5, 6), (-3, 3), (-3, 3)),
    "mod_const": ranges(lambda x: [x[0] % 3 == x[1], x[0] % -4 == x[2]], (-7, 9), (0, 2),
                        (-3, 0)),
    "power_odd": ranges(lambda x: x[0] ** 3 == x[1] + x[2], (-3, 3), (-20, 20), (-8, 8)),
    "power_even": ranges(lambda x: [x[0] ** 2 == x[1], x[1] + x[2] <= 6], (-3, 3), (0, 9),
                         (-2, 4)),
    "abs_sum": ranges(lambda x: [abs(x[0]) == x[1], x[1] + x[2] == 3, x[0] != x[2]],
                      (-4, 4), (0, 5), (-1, 4)),
    "affine_neg": ranges(lambda x: [-3 * x[0] + 2 == x[1], x[1] + x[2] <= 4], (-3, 3),
                         (-8, 12), (-3, 3)),
    # results with holes (a root one and one decided by x3): the relations fail on them
    "times_holes": ranges(lambda x: [x[0] * x[1] == x[2], x[2] != 2, x[2] != x[3]],
                          (-2, 3), (-2, 3), (-6, 9), (0, 4)),
    "floor_div_holes": ranges(lambda x: [x[0] // x[1] == x[2], x[2] != 1, x[2] != x[3]],
                              (-4, 6), (-2, 3), (-3, 4), (-1, 2)),
    "mod_holes": ranges(lambda x: [x[0] % x[1] == x[2], x[2] != 1, x[2] != x[3]],
                        (-4, 6), (-2, 3), (-2, 3), (-1, 2)),
    "abs_holes": ranges(lambda x: [abs(x[0]) == x[1], x[1] != 1, x[1] != x[2]],
                        (-3, 4), (0, 4), (0, 3)),
    "power_holes": ranges(lambda x: [x[0] ** 3 == x[1], x[1] != 1, x[1] != x[2] * 8],
                          (-2, 3), (-8, 27), (-1, 2)),
    "min_max_neg": ranges(lambda x: [cn.max(x[0], x[1], x[2]) == x[3],
                                     cn.min(x[0], x[1]) == x[4], x[3] - x[4] >= 2],
                          (-2, 2), (-3, 1), (0, 3), (-1, 2), (-3, 2)),
    "arg_max_wide": ranges(lambda x: [cn.arg_max(x[:3]) == x[3], x[0] + x[1] + x[2] <= 4],
                           (-1, 3), (0, 2), (-2, 3), (0, 2)),
    "no_overlap_2d": one(lambda m, x: cn.no_overlap_2d(x[:2], x[2:], [2, 1], [1, 2]), hi=2),
    "member": member,
    "sparse": sparse,
    "queens4": lambda: _queens(4),
    "queens5_bounds": lambda: _queens(5, "bounds"),
    "queens6": lambda: _queens(6),  # the domain stage fails below the root
    # a few constraints together, so that propagation fails below the root more often
    "sum_alldiff": one(lambda m, x: [cn.all_different(x, strength="bounds"),
                                     2 * x[0] + x[1] + 3 * x[2] - x[3] == 7], hi=4),
    "times_sum": one(lambda m, x: [x[0] * x[1] == x[2] + x[3], x[0] + x[1] + x[2] <= 5,
                                   x[3] != x[0]]),
    "sched": one(lambda m, x: [cn.no_overlap(x, [2, 1, 2, 1]), x[0] + 2 <= x[2],
                               x[1] != 2], hi=5),
    "golomb4": lambda: _golomb(4),
    # the scheduling propagators' own explanations (scheduling_explain.py and the modules
    # beside it): timetable pushes, peaks and energetic overloads, variable durations,
    # demands and capacities, edge-finding both ways, views as starts, variables in two
    # roles (the generic explanation), and failures below the root
    "cumulative_4": one(lambda m, x: cn.cumulative(x, [2, 1, 3, 2], [1, 2, 1, 2], 2), hi=4),
    "cumulative_5": one(lambda m, x: cn.cumulative(x, [2, 2, 1, 3, 1], [2, 1, 2, 1, 3], 3),
                        n=5, hi=3),
    "cumulative_vars": one(lambda m, x: cn.cumulative(x[:3], [x[3], 2, 1], [1, x[4], 2], 3),
                           n=5),
    "cumulative_capacity": one(lambda m, x: [cn.cumulative(x[:3], [2, 2, 1], [1, 2, 2], x[3]),
                                             x[3] <= 2]),
    "cumulative_roles": one(lambda m, x: cn.cumulative(x[:2], [x[2], 2], [x[3] + 1, 1], x[4]),
                            n=5),
    "cumulative_energy": one(lambda m, x: cn.cumulative(x[:3], [2, 2, 2], [1, 1, x[3]], 1),
                             hi=4),
    "disjunctive_ef": one(lambda m, x: cn.no_overlap(x, [3, 2, 2, 1, 1]), n=5, hi=7),
    "disjunctive_vars": one(lambda m, x: cn.no_overlap(x[:3], [x[3], 2, 1]), hi=4),
    "disjunctive_strict": one(lambda m, x: cn.no_overlap(x[:3], [2, 0, x[3]], strict=True)),
    "disjunctive_views": one(lambda m, x: cn.no_overlap([x[0], x[1] + 1, x[2] - 1, x[3]],
                                                        [2, 2, 1, 3]), hi=6),
    "sched_shared": one(lambda m, x: [cn.no_overlap([x[0], x[0] + 3, x[1]], [2, 1, x[1]]),
                                      cn.cumulative([x[0], x[2], x[3]], [x[2], 1, 2],
                                                    [1, x[0], 1], 2)]),
    "cumulative_optional": _optional_tasks(False),
    "no_overlap_optional": _optional_tasks(True),
    "no_overlap_2d_3": one(lambda m, x: cn.no_overlap_2d(x[:3], x[3:], [2, 1, 1], [1, 2, 2]),
                           n=6, hi=2),
    "sets": lambda: _sets(shared=False),
    "sets_shared": lambda: _sets(shared=True),
}


def _sets(shared: bool) -> cn.Model:
    """Every element-wise set relation (propagators/sets.py), with a constant operand and,
    when `shared`, one set in two places of a relation."""
    m = cn.Model()
    a, b, c, d, e = (m.set_var([], range(4), name) for name in "abcde")
    m += cn.set_union(a, b, c)
    m += cn.set_intersect(a, c if not shared else a, d)
    m += cn.set_diff(c, {1, 3}, e)
    m += cn.set_symdiff(d, e, b) if not shared else cn.subset(a, a)
    m += cn.subset(d, b) if not shared else cn.set_eq(e, e)
    m += cn.disjoint(e, {0})
    m += cn.card(c) >= 2
    return m


def _queens(n: int, strength: str = "domain") -> cn.Model:
    m = cn.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += cn.all_different(q, strength=strength)
    m += cn.all_different([q[i] + i for i in range(n)], strength=strength)
    m += cn.all_different([q[i] - i for i in range(n)], strength=strength)
    return m


def _golomb(n: int) -> cn.Model:
    m = cn.Model()
    x = m.int_vars(n, 0, 7, "m")
    m += x[0] == 0
    m += cn.increasing(x, strict=True)
    m += cn.all_different([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
    return m


def compiled(name: str, enumerate_small: bool = True) -> CompiledModel:
    """The model compiled without tables for its small non-linear parts, so that the
    arithmetic propagators (products, powers, abs, ...) are the ones explained; without
    `enumerate_small` they never enumerate the pairs of small domains either, and reason
    on intervals only."""
    made = MODELS[name]()
    m, objective, sense = made if isinstance(made, tuple) else (made, None, 0)
    limits = tabulate.TABLE_LIMIT, arith.ENUMERATION_LIMIT
    tabulate.TABLE_LIMIT = arith.ENUMERATION_LIMIT = 0
    try:
        c = compile_model(m.variables, m.constraints, objective, sense)
    finally:
        tabulate.TABLE_LIMIT, arith.ENUMERATION_LIMIT = limits
    assert c is not None, f"{name}: fails at the root"
    if not enumerate_small:
        for x in c.solver.vars:
            for w in x.wake_fix:
                p = w.prop
                if isinstance(p, (arith.Power, arith.BinaryFunction)):
                    p.limit = 0  # (abs has no limit: masks, whatever the width)
    return c


def domain(x: object) -> tuple[int, int, int]:
    return x.lo, x.hi, x.bits  # type: ignore[attr-defined]


def holds_on(p: Pred, values: list[int]) -> bool:
    v = values[p.var.index]
    return holds_in(p.kind, p.value, v, v, 1)


class Walk:
    """The depth-first search of the module docstring, over every engine variable."""

    def __init__(self, c: CompiledModel, journal: Journal | None, seed: int,
                 solutions: list[list[int]] | None = None) -> None:
        self.c = c
        self.solver = c.solver
        self.xs = c.solver.vars
        self.journal = journal
        self.rng = random.Random(seed)
        self.solutions = solutions  # every full assignment, to check explanations against
        self.found: list[list[int]] = []
        self.path: list[tuple[int, list[tuple[int, int, int]]]] = []  # ancestors' domains
        self.checked = 0

    def run(self) -> list[list[int]]:
        trail = self.solver.trail
        base = trail.depth
        trail.push_level()
        stack: list[list[int]] = []  # [variable index, value, alternatives tried]
        self.stack = stack
        self.root = base + 1
        consistent = True
        try:
            while True:
                if consistent:
                    self.at_node()
                    free = [x.index for x in self.xs if x.lo != x.hi]
                    if not free:
                        self.found.append([x.lo for x in self.xs])
                    else:
                        i = self.rng.choice(free)
                        trail.push_level()
                        self.path.append((len(self.journal) if self.journal else 0,
                                          [domain(x) for x in self.xs]))
                        stack.append([i, self.xs[i].lo, 0])
                consistent = False
                while stack and not consistent:
                    frame = stack[-1]
                    if frame[2] == 2:
                        stack.pop()
                        self.path.pop()
                        trail.pop_level()
                        self.check_exact()
                        continue
                    trail.restart_level()
                    self.check_exact()
                    x = self.xs[frame[0]]
                    tried = frame[2]
                    frame[2] += 1
                    if self.journal is not None:
                        self.journal.current = None  # a decision
                    try:
                        if tried == 0:
                            x.assign(frame[1])
                        else:
                            x.remove(frame[1])
                        self.solver.fix_point()
                        consistent = True
                    except Inconsistency:
                        self.at_conflict()
                if not consistent:
                    return self.found
        finally:
            while trail.depth > base:
                trail.pop_level()

    # ----------------------------------------------------------------- the checks
    def check_exact(self) -> None:
        j = self.journal
        if j is None:
            return
        for x in self.xs:
            assert j.domain_at(x.index, j.latest(x.index)) == domain(x), x

    def at_node(self) -> None:
        j = self.journal
        if j is None:
            return
        self.check_exact()
        n = len(j)
        assert len(j.lo) == len(j.prev) == len(j.reason) == len(j.level) == n
        # each variable's chain, as a list and as links, the same entries
        for x in self.xs:
            walk, e = [], j.latest(x.index)
            while e != ROOT:
                walk.append(e)
                e = j.prev[e]
            assert j.chain[x.index] == walk[::-1]
        # the ancestors' domains, read back
        for pos, snapshot in self.path:
            for x in self.xs:
                e = j.entry_before(x.index, pos)
                assert e < pos
                assert j.domain_at(x.index, e) == snapshot[x.index]
        # became_true, on random predicates, against the ancestors
        for _ in range(6):
            x = self.rng.choice(self.xs)
            kind = self.rng.randrange(4)
            value = self.rng.randint(x.lo - 1, x.hi + 1)
            e = j.became_true(x.index, kind, value)
            now = holds_in(kind, value, *domain(x))
            assert (e != NOT_TRUE) == now
            if now:
                for pos, snapshot in self.path:
                    assert holds_in(kind, value, *snapshot[x.index]) == (e < pos), (
                        f"[{x.name}{KIND_NAMES[kind]}{value}] became true at {e}")
        # every entry of this node's level, explained
        if self.solutions is not None:
            self.check_failure_proofs()
            start = self.path[-1][0] if self.path else 0
            for e in range(start, n):
                self.check_explanation(e)

    def check_explanation(self, e: int) -> None:
        j = self.journal
        assert j is not None
        expl: list[Pred] = []
        explain_entry(j, e, expl)
        if j.reason[e] is None:
            assert not expl  # a decision is explained by nothing
            return
        for p in expl:
            b = j.became_true(p.var.index, p.kind, p.value)
            assert b != NOT_TRUE and b < e, f"{p} does not hold before entry {e}"
        made: list[Pred] = []
        change_preds(j, e, made)
        assert made, f"entry {e} changed nothing"
        for s in self.solutions or []:
            if all(holds_on(p, s) for p in expl):
                assert all(holds_on(p, s) for p in made), (
                    f"{type(j.reason[e]).__name__}: {expl} does not imply {made}: "
                    f"solution {s}")
        self.checked += 1

    def check_failure_proofs(self) -> None:
        """A propagator's own failure explanation, asked at a node where it did not fail,
        must still be sound if it claims one (its predicates exclude every solution)."""
        j = self.journal
        assert j is not None
        for p in j.propagators:
            if not p.explains or not p.active:
                continue
            expl: list[Pred] = []
            if p.explain_conflict(j, expl):
                for s in self.solutions or []:
                    assert not all(holds_on(q, s) for q in expl), (
                        f"{type(p).__name__} claims failure, but solution {s} satisfies "
                        f"{expl}")

    def at_conflict(self) -> None:
        j = self.journal
        if j is None or self.solutions is None or j.conflict is None:
            return
        # the changes the failed propagation made before failing, which conflict analysis
        # explains too (no node of the search sees them)
        for e in range(self.path[-1][0] if self.path else 0, len(j)):
            self.check_explanation(e)
        expl: list[Pred] = []
        explain_conflict(j, j.conflict, expl)
        for s in self.solutions:
            assert not all(holds_on(p, s) for p in expl), (
                f"{type(j.conflict).__name__} failed, but solution {s} satisfies {expl}")
        j.conflict = None
        self.checked += 1


def solutions_of(name: str) -> list[list[int]]:
    c = compiled(name)
    return Walk(c, None, 0).run()


def walks_checked(make: Callable[[], CompiledModel], sols: list[list[int]],
                  seeds: int) -> None:
    """The walk with a journal over a fresh compilation (`make`) per seed: the same
    solutions as without one, explanations checked, every level undone, detached after."""
    for seed in range(seeds):
        c = make()
        j = Journal(c.solver)
        j.attach()
        walk = Walk(c, j, seed, sols)
        found = walk.run()
        j.detach()
        assert sorted(found) == sorted(sols)  # recording changes nothing
        assert walk.checked > 0
        assert len(j) == 0  # every level undone
        assert all(x.journal is None for x in c.solver.vars) and c.solver.journal is None


@pytest.mark.parametrize("name", sorted(MODELS))
def test_journal_and_explanations(name: str) -> None:
    walks_checked(lambda: compiled(name), solutions_of(name), 3)


# the models of the arithmetic relations, run again with their interval reasoning only
ARITH = ["abs", "abs_holes", "abs_sum", "affine", "affine_neg", "arg_max", "arg_max_wide",
         "division", "exact_div_neg", "min_max", "min_max_neg",
         "floor_div_holes", "floor_div_neg", "mod_const", "mod_holes", "mod_neg", "power",
         "power_even", "power_holes", "power_odd", "sparse", "times", "times_holes",
         "times_neg", "times_nonzero", "times_sum"]


@pytest.mark.parametrize("explain_limit", [arith_explain.EXPLAIN_LIMIT, 0])
@pytest.mark.parametrize("name", ARITH)
def test_arithmetic_by_intervals(name: str, explain_limit: int,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The arithmetic propagators' interval reasoning, explained; with explain_limit 0
    the explanations are proved by arith_explain's hulls alone (no enumeration)."""
    monkeypatch.setattr(arith_explain, "EXPLAIN_LIMIT", explain_limit)
    walks_checked(lambda: compiled(name, enumerate_small=False), solutions_of(name), 2)


@pytest.mark.parametrize("name", ["alldiff_domain", "alldiff_domain_sparse"])
def test_hall_set_explanations_on_ranked_values(name: str) -> None:
    """The domain stage with `direct_span` 0: its graph and its Hall sets' explanations
    take values by rank (the route of values spread wider than bit positions)."""
    from conundrum.propagators.alldiff_domain import AllDifferentDomain

    def ranked() -> CompiledModel:
        c = compiled(name)
        stages = [p for p in c.solver.propagators if isinstance(p, AllDifferentDomain)]
        assert stages
        for p in stages:
            p.direct_span = 0
        return c

    walks_checked(ranked, solutions_of(name), 3)


def test_scopes_are_the_subscribed_variables() -> None:
    c = compiled("linear_eq")
    j = Journal(c.solver)
    for p, scope in zip(j.propagators, j.scopes, strict=True):
        assert len({x.index for x in scope}) == len(scope)
        for x in scope:
            assert any(w.prop is p for w in x.wake_fix)
    assert sorted(p.id for p in j.propagators) == list(range(len(j.propagators)))


def test_domain_preds_of_a_snapshot_and_the_hole_cap() -> None:
    m = cn.Model()
    x = m.int_var(0, 200, "x")
    m += x != -1  # keeps a bit set
    c = compile_model(m.variables, m.constraints, keep_holes=True)
    assert c is not None
    ex = c.solver.vars[0]
    j = Journal(c.solver)
    j.attach()
    c.solver.trail.push_level()
    out: list[Pred] = []
    assert domain_preds(j, ex, ROOT, out) and out == []
    ex.set_min(3)
    ex.remove(10)
    out = []
    assert domain_preds(j, ex, j.latest(ex.index), out)
    assert [repr(p) for p in out] == ["[x>=3]", "[x!=10]"]
    for v in range(20, 200, 2):  # 90 holes: too many to list
        ex.remove(v)
    out = []
    assert not domain_preds(j, ex, j.latest(ex.index), out) and out == []
    c.solver.trail.pop_level()
    j.detach()


def test_decision_explanation_lists_the_decisions_up_to_a_level() -> None:
    c = compiled("linear_ne")
    j = Journal(c.solver)
    j.attach()
    trail = c.solver.trail
    base = trail.depth
    x0, x1 = c.solver.vars[0], c.solver.vars[1]
    trail.push_level()
    j.current = None
    x0.assign(1)
    c.solver.fix_point()
    trail.push_level()
    j.current = None
    x1.assign(3)
    c.solver.fix_point()
    out: list[Pred] = []
    decision_explanation(j, base + 1, out)
    assert [repr(p) for p in out] == ["[x0>=1]", "[x0<=1]"]
    out = []
    decision_explanation(j, base + 2, out)
    assert [repr(p) for p in out] == ["[x0>=1]", "[x0<=1]", "[x1>=3]"]  # x1 <= 3 at the root
    trail.pop_level()
    trail.pop_level()
    j.detach()


@pytest.mark.parametrize("forward", [True, False])
def test_edge_finding_push_that_empties_a_domain(forward: bool) -> None:
    """A failure of an edge-finding push (the precedences usually fail first, so the walk
    above seldom meets one): task a fills [5, 10) and task i (duration 3) cannot run
    beside it in its window [4, 12) (forwards; [3, 11) backwards, the mirror image
    about 7.5), so edge-finding would move it to 10 (to end by 5), past its domain."""
    m = cn.Model()
    a = m.int_var(0, 12, "a")
    i = m.int_var(0, 12, "i")
    m += cn.no_overlap([a, i], [5, 3])
    c = compile_model(m.variables, m.constraints)
    assert c is not None
    solutions = Walk(c, None, 0).run()
    j = Journal(c.solver)
    j.attach()
    ea, ei = c.solver.vars[0], c.solver.vars[1]
    (p,) = [q for q in j.propagators if isinstance(q, scheduling.Disjunctive)]
    k = next(t for t, x in enumerate(p.starts) if x.root is ei)
    c.solver.trail.push_level()
    j.current = None
    ea.assign(5)
    if forward:
        ei.set_bounds(4, 9)
    else:
        ei.set_bounds(3, 8)
    rule = disjunctive_explain.EDGE_FORWARD if forward else disjunctive_explain.EDGE_BACKWARD
    j.current_code = rule + disjunctive_explain.RULES * (k + 1)
    out: list[Pred] = []
    assert disjunctive_explain.explain_disjunctive_failure(j, p.starts, p.durations,
                                                          p.strict, out)
    assert out and all(holds_in(q.kind, q.value, *domain(q.var)) for q in out)
    # the push's own explanation (i's far bound in it), not an overload
    assert any(q.var is ei and q.kind == (LE if forward else GE) for q in out), out
    for sol in solutions:
        assert not all(holds_on(q, sol) for q in out), (out, sol)
    c.solver.trail.pop_level()
    j.detach()


def test_every_propagator_family_is_checked() -> None:
    """The models above exercise the generic explanation of every propagator class (the
    nogood store's own two are tested with the store)."""
    import importlib
    import inspect
    import pkgutil

    import conundrum.engine
    import conundrum.propagators
    from conundrum.engine.propagator import Propagator

    classes: dict[str, type] = {}
    for pkg in (conundrum.engine, conundrum.propagators):
        for info in pkgutil.iter_modules(pkg.__path__):
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for name, obj in vars(mod).items():
                if (inspect.isclass(obj) and issubclass(obj, Propagator)
                        and obj is not Propagator and obj.__module__ == mod.__name__):
                    classes[name] = obj
    explains: dict[str, bool] = {}  # read off instances: a compiled class holds a descriptor
    for name in MODELS:
        for p in Journal(compiled(name).solver).propagators:
            explains[type(p).__name__] = p.explains
    # shared bases (linear, all_different, the arithmetic relations)
    abstract = {"_Terms", "ValueElimination", "Relation"}
    assert set(classes) - set(explains) - abstract - {"NogoodStore", "VarWatch"} == set()
    # which classes explain themselves, and which rely on the generic explanations
    assert {name for name, yes in explains.items() if not yes} == FALLBACK


# The propagator classes whose inferences the learning search explains generically (by
# the domains of their variables, engine/reasons.py): correct, and weaker than their own
# explanations would be. The list shrinks as classes learn to explain themselves.
FALLBACK: set[str] = set()


def test_decision_explanation_keeps_decisions_past_the_holes_cap() -> None:
    """A decision is explained by the change it made, not by the domain it left: that
    domain may hold more holes than domain_preds lists (it then says nothing)."""
    m = cn.Model()
    x = m.int_var(0, 200, "x")
    m += x != -1  # keeps a bit set
    c = compile_model(m.variables, m.constraints, keep_holes=True)
    assert c is not None
    ex = c.solver.vars[0]
    j = Journal(c.solver)
    j.attach()
    trail = c.solver.trail
    trail.push_level()
    j.current = None
    for v in range(20, 200, 2):  # 90 holes, each a decision of this level
        ex.remove(v)
    out: list[Pred] = []
    decision_explanation(j, trail.depth, out)
    assert len(out) == 90 and repr(out[-1]) == "[x!=198]"
    trail.pop_level()
    j.detach()


class NoRoomWalk(Walk):
    """A walk that also asks the scheduling propagators themselves to explain every
    duration they lowered to 0 (the no-room rule of an undecided task), counting the
    answers: no monkeypatching, so it checks the compiled build too."""

    def __init__(self, c: CompiledModel, journal: Journal, seed: int,
                 solutions: list[list[int]]) -> None:
        super().__init__(c, journal, seed, solutions)
        self.asked = 0
        self.explained = 0

    def check_explanation(self, e: int) -> None:
        super().check_explanation(e)
        j = self.journal
        assert j is not None
        p = j.reason[e]
        if not isinstance(p, scheduling.Cumulative | scheduling.Disjunctive):
            return
        i = j.var[e]
        offsets = [d.offset for d in p.durations if d.root.index == i]
        if not offsets:
            return
        _, hi, _ = j.domain_at(i, e)
        _, before, _ = j.domain_at(i, j.prev[e])
        if hi + offsets[0] == 0 < before + offsets[0]:
            out: list[Pred] = []
            self.asked += 1
            self.explained += p.explain(j, e, out)


@pytest.mark.parametrize("name", ["cumulative_optional", "no_overlap_optional"])
def test_no_room_for_an_optional_task_is_explained(name: str) -> None:
    """The walk over optional intervals meets the rule that makes an undecided task that
    fits nowhere last 0, and the propagator explains it itself (no fallback)."""
    sols = solutions_of(name)
    asked = explained = 0
    for seed in range(3):
        c = compiled(name)
        j = Journal(c.solver)
        j.attach()
        walk = NoRoomWalk(c, j, seed, sols)
        assert sorted(walk.run()) == sorted(sols)
        j.detach()
        asked += walk.asked
        explained += walk.explained
    assert asked > 0 and explained == asked, (asked, explained)
