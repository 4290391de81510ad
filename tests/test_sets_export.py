"""Set constraints through `Model.to_minizinc()` and Gecode: every set constraint, posted
and reified, has as many solutions through the export as through conundrum, and a set
model's optimum is the same."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.check import evaluate
from test_minizinc_export import minizinc
from test_properties_harness import scaled
from test_properties_sets import CASES

BOUNDS = [(frozenset(), frozenset({0, 1, 2})), (frozenset({1}), frozenset({1, 2, 3})),
          (frozenset(), frozenset({0, 2, 3}))]


@pytest.mark.parametrize("form", ["posted", "reified"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_every_set_constraint_counts_the_same_through_gecode(name: str, form: str) -> None:
    counts_the_same(name, form, BOUNDS)


def counts_the_same(name: str, form: str, bounds: list) -> None:
    """The constraint `name` over sets of the given bounds, posted or reified: as many
    solutions through the export and Gecode as through conundrum."""
    k, build, _ = CASES[name]
    m = cn.Model()
    sets = [m.set_var(lb, ub, f"S{j}") for j, (lb, ub) in enumerate(bounds[:k])]
    x, i = m.int_var(-1, 4, "x"), m.int_var(-1, 2, "i")
    # named copies of the members, so that MiniZinc prints (and Gecode enumerates) them
    for j, s in enumerate(sets):
        m += [m.bool_var(f"m{j}_{e}") == b for e, b in zip(s.universe, s.members)]
    c = build(sets, x, i)
    if form == "posted":
        m += c
    else:
        m += m.bool_var("b") == c
    ours = sum(1 for _ in m.solutions())
    assert len(minizinc(m.to_minizinc(), "-a")) == ours, m.to_minizinc()


def test_set_optimum_is_gecodes() -> None:
    m = cn.Model()
    a = m.set_var([], range(1, 5), "A")
    b = m.set_var([2], range(1, 6), "B")
    c = m.set_var([], range(0, 7), "C")
    x = m.int_var(0, 5, "x")
    m += cn.subset(a, b)
    m += cn.set_union(a, b, c) | cn.set_eq(a, {1})
    m += cn.member(x, a)
    m += cn.all_disjoint([a, {5}])
    m += cn.set_element(x - 1, [a, b, {1, 2}], c) | (c.card == 2)
    best = m.maximize(x + c.card)
    assert best is not None and m.stats.complete
    found = minizinc(m.to_minizinc(x + c.card, "max"))
    assert found[-1]["objective"] == best.value(x + c.card)


def test_the_team_selection_of_the_docs_has_gecodes_optimum() -> None:
    """docs/globals/sets.md's worked example: the same optimum (41) through the export and
    Gecode as through conundrum, with the search complete."""
    m = cn.Model()
    skill = [9, 4, 7, 7, 5, 8, 3, 6]
    red = m.set_var([], range(8), "red")
    blue = m.set_var([3], range(8), "blue")
    m += (red.card == 3) & (blue.card == 3)
    m += cn.all_disjoint([red, blue])
    keepers = {0, 1}
    for team, name in ((red, "red_keeper"), (blue, "blue_keeper")):
        k = m.set_var([], keepers, name)
        m += cn.set_intersect(team, keepers, k)
        m += k.card == 1
    m += ~cn.subset({0, 2}, red)
    total = cn.sum(skill[p] * t.has(p) for t in (red, blue) for p in range(8))
    best = m.maximize(total)
    assert best is not None and m.stats.complete and best.value(total) == 41
    assert minizinc(m.to_minizinc(total, "max"))[-1]["objective"] == 41


@st.composite
def bounds(draw: st.DrawFn) -> tuple[frozenset[int], frozenset[int]]:
    """Random bounds: universes of 0 to 4 elements of -1..3, with forced members, so that
    one-element universes and constant memberships occur (the cases where MiniZinc 2.6.4's
    var set comprehensions went wrong: the export writes memberships instead)."""
    ub = frozenset(draw(st.sets(st.integers(-1, 3), max_size=4)))
    lb = frozenset(draw(st.sets(st.sampled_from(sorted(ub)), max_size=2))) if ub \
        else frozenset()
    return lb, ub


@settings(max_examples=scaled(0.5), deadline=None)
@given(name=st.sampled_from(sorted(CASES)), data=st.data(),
       form=st.sampled_from(["posted", "reified"]))
def test_random_bounds_count_the_same_through_gecode(name: str, data: st.DataObject,
                                                     form: str) -> None:
    drawn = [data.draw(bounds(), label=f"bounds{j}") for j in range(CASES[name][0])]
    counts_the_same(name, form, drawn)


# MiniZinc defines set_le/set_lt as the sorted lists of elements compared
# lexicographically, and so evaluates them on constant sets and decomposes them
# (nosets.mzn); Gecode 6.2.0's native set_le is another order (a <= b over 0..3 and 1..3:
# 72 solutions with r free, where the definition gives 184), so the count goes through
# MiniZinc's own decomposition, which Gecode then solves over Booleans.
SET_ORDER = """
include "nosets.mzn";
var set of 0..3: a;
var set of 1..3: b;
var bool: r;
constraint {};
solve satisfy;
output ["a\\(i) = \\(bool2int(i in fix(a)))\\n" | i in 0..3]
    ++ ["b\\(i) = \\(bool2int(i in fix(b)))\\n" | i in 1..3] ++ ["r = \\(bool2int(r))\\n"];
"""  # every variable printed: MiniZinc's -a enumerates the printed ones


# MiniZinc's text -> (strict, reified, the second operand: b or a constant)
ORDER_FORMS: dict[str, tuple[bool, bool, frozenset[int] | None]] = {
    "a <= b": (False, False, None), "a < b": (True, False, None),
    "set_le(a, b)": (False, False, None), "set_lt(a, b)": (True, False, None),
    "r <-> set_le(a, b)": (False, True, None), "r <-> (a < b)": (True, True, None),
    "a < {1, 3}": (True, False, frozenset({1, 3})),
    "r <-> ({0, 2} <= a)": (False, True, frozenset({0, 2})),
}


@pytest.mark.parametrize("form", list(ORDER_FORMS))
def test_gecode_orders_sets_as_set_le_and_set_lt(form: str) -> None:
    """MiniZinc's own order of sets (its var set model, not the export): as many
    solutions as set_le/set_lt over the same bounds in conundrum, and as the sorted lists
    of elements compared lexicographically by brute force."""
    strict, reified, constant = ORDER_FORMS[form]
    gecode = len(minizinc(SET_ORDER.format(form), "-a"))
    m = cn.Model()
    a, b = m.set_var([], range(4), "a"), m.set_var([], range(1, 4), "b")
    r = m.bool_var("r")
    order = cn.set_lt if strict else cn.set_le
    if constant is None:
        c = order(a, b)
    else:
        c = order(a, constant) if not reified else order(constant, a)
    m += (r == c) if reified else c

    def holds(x: frozenset[int], y: frozenset[int]) -> bool:
        if constant is not None:
            x, y = (x, constant) if not reified else (constant, x)
        return sorted(x) < sorted(y) if strict else sorted(x) <= sorted(y)

    brute = sum(holds(x, y) == bool(rv) if reified else holds(x, y)
                for x in _all_subsets(range(4)) for y in _all_subsets(range(1, 4))
                for rv in (0, 1))
    assert m.count() == gecode == brute
    assert 0 < gecode < 16 * 8 * 2


def _all_subsets(universe: range) -> list[frozenset[int]]:
    items = list(universe)
    return [frozenset(e for j, e in enumerate(items) if mask >> j & 1)
            for mask in range(1 << len(items))]


def test_minizinc_evaluates_the_order_of_constant_sets_as_set_le() -> None:
    """MiniZinc's comparison of constant sets, every pair of subsets of {0, 1, 2}, is
    set_le and set_lt's meaning in the checker."""
    subsets = _all_subsets(range(3))
    pairs = [(x, y) for x in subsets for y in subsets]

    def text(s: frozenset[int]) -> str:
        return "{" + ", ".join(map(str, sorted(s))) + "}"

    lines = [f'"le{k} = \\(bool2int({text(x)} <= {text(y)}))\\n", '
             f'"lt{k} = \\(bool2int({text(x)} < {text(y)}))\\n"'
             for k, (x, y) in enumerate(pairs)]
    (found,) = minizinc("output [" + ", ".join(lines) + "];\n")
    for k, (x, y) in enumerate(pairs):
        assert found[f"le{k}"] == evaluate(cn.set_le(x, y), {}), (x, y)
        assert found[f"lt{k}"] == evaluate(cn.set_lt(x, y), {}), (x, y)
    assert sum(found[f"lt{k}"] for k in range(len(pairs))) == 28  # 8 * 7 / 2
