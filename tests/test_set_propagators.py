"""The set constraints' own propagator (propagators/sets.py, posted by compiler/setpost.py):
its table of kept domains against brute force, its bounds (glb/lub) reasoning at the root,
one propagator per constraint, and chains of set relations (sharing sets, a set in two
places, constant operands) counted against brute force under both searches."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Literal

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.propagators.sets import keep_table

CODES = {0: frozenset({0}), 1: frozenset({0, 1}), 3: frozenset({1})}
CODE_OF = {v: k for k, v in CODES.items()}


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(0, 255))
def test_keep_table_keeps_exactly_the_supported_values(rows: int) -> None:
    table = keep_table(rows)
    for (ca, da), (cb, db), (cc, dc) in itertools.product(CODES.items(), repeat=3):
        allowed = [(a, b, c) for a, b, c in itertools.product(da, db, dc)
                   if rows >> (4 * a + 2 * b + c) & 1]
        got = table[16 * ca + 4 * cb + cc]
        if not allowed:
            assert got == -1
            continue
        want = [CODE_OF[frozenset(t[j] for t in allowed)] for j in range(3)]
        assert got == 16 * want[0] + 4 * want[1] + want[2]


def test_one_propagator_per_relation_and_no_rows_per_element() -> None:
    m = cn.Model()
    a, b, c = (m.set_var([], range(30), n) for n in "abc")
    m += cn.set_union(a, b, c)
    m += cn.set_intersect(a, b, c)
    m += cn.subset(a, {1, 2, 3, 4})
    compiled = compile_model(m.variables, m.constraints)
    assert compiled is not None
    kinds = Counter(type(p).__name__ for p in compiled.solver.propagators)
    assert kinds["Elementwise"] == 3
    # the cardinality rows (three cards' sums, five card relations) and nothing per element
    assert kinds["LinearLe"] + kinds["LinearEq"] <= 8


def test_bounds_reasoning_at_the_root() -> None:
    """glb(a) goes into c = a | b; what left lub(c) leaves a and b; an element of
    glb(c) outside lub(b) must be in a; d = a & e with e constant keeps d inside e."""
    m = cn.Model()
    a = m.set_var([1], range(5), "a")
    b = m.set_var([], [0, 1, 2], "b")
    c = m.set_var([], [0, 1, 2, 3], "c")
    d = m.set_var([], range(5), "d")
    m += cn.set_union(a, b, c)
    m += cn.member(3, c)
    m += cn.set_intersect(a, {0, 3}, d)
    c_ = compile_model(m.variables, m.constraints)
    assert c_ is not None

    def dom(s: cn.SetVar, e: int) -> tuple[int, int]:
        x = c_.solver.vars[s.has(e).index]  # type: ignore[union-attr]
        return x.lo, x.hi

    assert dom(c, 1) == (1, 1)  # 1 in glb(a): in c
    assert dom(a, 4) == (0, 0)  # 4 not in lub(c): not in a
    assert dom(a, 3) == (1, 1)  # 3 in c, not in lub(b): in a
    assert dom(d, 3) == (1, 1)  # 3 in a and in {0, 3}
    assert dom(d, 1) == (0, 0)  # 1 not in {0, 3}
    assert dom(d, 0) == (0, 1)  # undecided


Search = Literal["classic", "learning"]
RELATIONS = {
    "union": (cn.set_union, lambda p, q: p | q),
    "intersect": (cn.set_intersect, lambda p, q: p & q),
    "diff": (cn.set_diff, lambda p, q: p - q),
    "symdiff": (cn.set_symdiff, lambda p, q: p ^ q),
}
UNIVERSE = (0, 1, 2)
SUBSETS = [frozenset(c) for r in range(4) for c in itertools.combinations(UNIVERSE, r)]


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(sorted(RELATIONS)), st.integers(0, 3),
                                st.integers(0, 3), st.integers(0, 3)), min_size=1, max_size=3),
       binary=st.sampled_from(["subset", "disjoint", "set_eq", "none"]),
       const=st.sampled_from([frozenset(), frozenset({1}), frozenset({0, 2})]),
       search=st.sampled_from(["classic", "learning"]))
def test_chains_of_relations_against_brute_force(
        steps: list[tuple[str, int, int, int]], binary: str, const: frozenset[int],
        search: Search) -> None:
    """Three set variables over {0, 1, 2} and a constant set (operand 3), tied by up to
    three relations in any places (so a set may stand in two places of one relation)."""
    m = cn.Model()
    sets = [m.set_var([], UNIVERSE, f"s{k}") for k in range(3)]
    operands: list[cn.SetVar | frozenset[int]] = [*sets, const]
    for name, i, j, k in steps:
        build, _ = RELATIONS[name]
        m += build(operands[i], operands[j], operands[k])
    if binary == "subset":
        m += cn.subset(sets[0], sets[1])
    elif binary == "disjoint":
        m += cn.disjoint(sets[1], sets[2])
    elif binary == "set_eq":
        m += cn.set_eq(sets[2], operands[3])
    got = sorted(tuple(tuple(sorted(s[v])) for v in sets) for s in m.solutions(search=search))
    want = []
    for combo in itertools.product(SUBSETS, repeat=3):
        values = [*combo, const]
        ok = all(values[k] == RELATIONS[name][1](values[i], values[j])
                 for name, i, j, k in steps)
        ok = ok and {"subset": values[0] <= values[1], "disjoint": not values[1] & values[2],
                     "set_eq": values[2] == const, "none": True}[binary]
        if ok:
            want.append(tuple(tuple(sorted(s)) for s in combo))
    assert got == sorted(want)
