"""How Model.conflict shrinks (issue 43, model/shrinking.py): QuickXplain's preferred
conflict and deletion's minimal one against brute force on small random models, the first
core of the search under assumptions, and the bench's four models (bench/why_models.py)
checked by a search that shares nothing with the one that found the conflict."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.check import holds
from conundrum.model.diagnosis import _only, groups_of
from conundrum.model.shrinking import (
    Oracle,
    deletion,
    preferred_deletion,
    quickxplain,
    smallest,
)
from test_diagnosis import models, solutions

BENCH = Path(__file__).resolve().parent.parent / "bench"


def clashes(m: cn.Model, xs: list[cn.Var], hard: set[int], chosen: list[list[int]]) -> bool:
    """Whether the hard constraints and the groups `chosen` have no solution (brute force)."""
    return not solutions(m, xs, hard | {k for g in chosen for k in g})


def chosen_groups(m: cn.Model, groups: list[list[int]], conflict) -> list[list[int]]:
    """The conflict's groups, in its order, as the same lists as in `groups`."""
    return [next(g for g in groups if g == positions) for positions in conflict.groups]


def assert_minimal(m, xs, hard, chosen) -> None:
    assert clashes(m, xs, hard, chosen)
    for g in chosen:
        assert not clashes(m, xs, hard, [h for h in chosen if h is not g])


@settings(max_examples=60, deadline=None)
@given(models(), st.randoms(use_true_random=False))
def test_quickxplain_gives_the_preferred_conflict(case, rnd) -> None:
    """With `soft` a list, the conflict is the anti-lexicographic least one: its last
    group (in the list's order) as early as any conflict's last can be, then its second
    to last, and so on; and it is minimal."""
    m, xs, groups, hard = case
    order = list(groups)
    rnd.shuffle(order)
    soft = [m.constraints[k] for g in order for k in g]
    conflict = m.conflict(soft=soft)
    if not clashes(m, xs, hard, groups):
        assert conflict is None
        return
    assert conflict is not None and conflict.minimal
    chosen = chosen_groups(m, groups, conflict)
    if not clashes(m, xs, hard, []):
        assert_minimal(m, xs, hard, chosen)
    else:
        assert chosen == []
    rank = {id(g): k for k, g in enumerate(order)}

    def key(gs) -> tuple[int, ...]:
        return tuple(sorted((rank[id(g)] for g in gs), reverse=True))

    best = min((subset for size in range(len(order) + 1)
                for subset in itertools.combinations(order, size)
                if clashes(m, xs, hard, list(subset))), key=key)
    assert key(chosen) == key(best)
    # the labels come in the order of preference
    assert [rank[id(g)] for g in chosen] == sorted(rank[id(g)] for g in chosen)


@settings(max_examples=80, deadline=None)
@given(models(), st.sampled_from(["deletion", "quickxplain", "auto"]))
def test_both_methods_give_a_minimal_conflict(case, method) -> None:
    m, xs, groups, hard = case
    soft = None if not hard else {id(c): c for k, c in enumerate(m.constraints)
                                  if k not in hard}.values()
    conflict = m.conflict(soft=soft, method=method)
    if not clashes(m, xs, hard, groups):
        assert conflict is None
        return
    assert conflict is not None and conflict.minimal
    assert_minimal(m, xs, hard, chosen_groups(m, groups, conflict))


@settings(max_examples=80, deadline=None)
@given(models())
def test_the_smallest_conflict_has_the_fewest_groups(case) -> None:
    """method="smallest": a conflict, minimal, with as few groups as the smallest conflict
    brute force finds, and said to be proved smallest."""
    m, xs, groups, hard = case
    conflict = m.conflict(method="smallest", soft=None if not hard else
                          [c for k, c in enumerate(m.constraints) if k not in hard])
    if not clashes(m, xs, hard, groups):
        assert conflict is None
        return
    assert conflict is not None and conflict.minimal and conflict.smallest
    chosen = chosen_groups(m, groups, conflict)
    fewest = next(size for size in range(len(groups) + 1)
                  if any(clashes(m, xs, hard, list(subset))
                         for subset in itertools.combinations(groups, size)))
    assert len(chosen) == fewest
    if fewest:
        assert_minimal(m, xs, hard, chosen)
    assert str(conflict).startswith("a smallest conflict")


@settings(max_examples=80, deadline=None)
@given(models())
def test_the_first_core_clashes_and_holds_a_minimal_conflict(case) -> None:
    """The core of the search under assumptions (every soft group assumed) has no solution,
    and deletion within it finds a minimal conflict; each question's core is a subset of
    the groups asked about."""
    m, xs, groups, hard = case
    soft_groups, hard_positions = groups_of(m, None if not hard else
                                            [c for k, c in enumerate(m.constraints)
                                             if k not in hard])
    positions = [g.positions for g in soft_groups]
    oracle = Oracle(m, positions, sorted(hard_positions), None)
    try:
        answer, core = oracle.ask(list(range(len(positions))))
        assert answer is (not clashes(m, xs, hard, positions))
        if answer:
            return
        assert set(core) <= set(range(len(positions)))
        assert clashes(m, xs, hard, [positions[j] for j in core])
        seen: list[tuple[list[int], list[int]]] = []

        def ask(subset: list[int]) -> tuple[bool | None, list[int]]:
            result, smaller = oracle.ask(subset)
            seen.append((subset, smaller))
            return result, smaller

        kept, minimal = deletion(ask, core)
        assert minimal and set(kept) <= set(core)
        if clashes(m, xs, hard, []):
            assert kept == []
        else:
            assert_minimal(m, xs, hard, [positions[j] for j in kept])
        for subset, smaller in seen:
            assert set(smaller) <= set(subset)
    finally:
        oracle.close()


def test_quickxplain_alone_on_an_oracle() -> None:
    """The algorithm on a made-up oracle: the conflicts are {1, 4} and {2, 3}; in the
    order 0..5 the preferred one is {2, 3} (its last, 3, comes before 4)."""
    conflicts = [{1, 4}, {2, 3}]
    asked = []

    def ask(groups: list[int]) -> tuple[bool | None, list[int]]:
        asked.append(groups)
        bad = [c for c in conflicts if c <= set(groups)]
        return (False, sorted(bad[0])) if bad else (True, [])

    assert quickxplain(ask, list(range(6))) == ([2, 3], True)
    assert deletion(ask, list(range(6)))[0] in ([1, 4], [2, 3])
    assert preferred_deletion(ask, list(range(6))) == ([2, 3], True)
    # backwards, {2, 3} ends at rank 2 (group 3), {1, 4} at rank 4 (group 1)
    assert quickxplain(ask, [5, 4, 3, 2, 1, 0])[0] == [3, 2]
    assert preferred_deletion(ask, [5, 4, 3, 2, 1, 0])[0] == [3, 2]


def test_smallest_alone_on_an_oracle() -> None:
    """The hitting set loop on a made-up oracle whose conflicts are {0, 1, 2} and {3, 4}:
    started from the larger one, it finds the smaller, and proves it smallest."""
    conflicts = [{0, 1, 2}, {3, 4}]
    last: list[set[int]] = [set()]

    def ask(groups: list[int]) -> tuple[bool | None, list[int]]:
        bad = [c for c in conflicts if c <= set(groups)]
        if bad:
            return False, sorted(bad[0])
        grown = set(groups)  # a solution keeps what it can beside what was asked
        for g in range(6):
            if not any(c <= grown | {g} for c in conflicts):
                grown.add(g)
        last[0] = grown
        return True, []

    def broken() -> list[int]:
        return [g for g in range(6) if g not in last[0]]

    assert smallest(ask, broken, 6, [0, 1, 2], lambda: None, cn.Model) == ([3, 4], True)
    assert smallest(ask, broken, 6, [3, 4], lambda: None, cn.Model) == ([3, 4], True)


def test_smallest_is_not_the_first_minimal_conflict() -> None:
    """A model with a conflict of three constraints and one of two: deletion may stop at
    either; "smallest" gives the pair."""
    m = cn.Model()
    x, y, z = m.int_var(0, 9, "x"), m.int_var(0, 9, "y"), m.int_var(0, 9, "z")
    m.add(x + y >= 10, label="sum")
    m.add(x <= 3, label="x small")
    m.add(y <= 3, label="y small")
    m.add(z >= 5, label="z big")
    m.add(z <= 2, label="z small")
    conflict = m.conflict(method="smallest")
    assert conflict is not None and conflict.smallest and conflict.minimal
    assert conflict.labels == ["z big", "z small"]
    # with "z small" hard, "z big" alone clashes with it
    assert m.conflict(soft=["sum", "x small", "y small", "z big"],
                      method="smallest").labels == ["z big"]


def test_a_wrong_method_is_refused() -> None:
    m = cn.Model()
    x = m.int_var(0, 1, "x")
    m += x == 2
    with pytest.raises(cn.ModelError, match="method must be one of"):
        m.conflict(method="fastest")


def _bench_case(name: str):
    sys.path.insert(0, str(BENCH))
    try:
        from why_models import CASES
    finally:
        sys.path.remove(str(BENCH))
    return CASES[name]()


@pytest.mark.parametrize("name", ["sudoku", "killer", "jobshop", "roster"])
def test_the_bench_models_conflicts_are_checked_by_another_search(name) -> None:
    """Each of bench/why.py's models: the conflict (QuickXplain in the soft list's order)
    is checked by the classic search on the model rebuilt from those constraints alone
    (compiled afresh, the globals at full strength, no assumptions): no solution with
    them all; with any one dropped, a solution that the independent checker
    (conundrum.check) finds satisfies the rest."""
    case = _bench_case(name)
    m = case.model
    # (the killer's preferred conflict takes a minute on the pure engine: deletion here)
    conflict = m.conflict(soft=set(case.soft) if name == "killer" else case.soft)
    assert conflict is not None and conflict.minimal
    groups, hard = groups_of(m, case.soft)
    chosen = [g for g in groups if g.label in set(conflict.labels)]
    assert len(chosen) == len(conflict.labels)
    keep = hard | {k for g in chosen for k in g.positions}

    def solve_only(positions: set[int]):
        constraints = [m.constraints[k] for k in sorted(positions)]
        with _only(m, constraints):
            return m.solve(search="classic"), constraints

    found, _ = solve_only(keep)
    assert found is None and m.stats.status == "unsatisfiable"
    for g in chosen:
        found, constraints = solve_only(keep - set(g.positions))
        assert found is not None
        values = {v.index: found[v] for v in m.variables}
        assert all(holds(c, values) for c in constraints)
