"""Conflict analysis (issue 29 slice 5, search/conflict.py) on every model of
test_journal.py: at each failure of that module's depth-first search, the learned nogood
is checked against all the model's solutions (none satisfies all its predicates: it is
sound), and for the jump back (all its predicates but the last held at the level analysis
names, the last became true above it: it is asserting there)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conundrum.engine.journal import NOT_TRUE, ROOT, Journal
from conundrum.engine.literals import EQ, GE, LE, NE, Pred
from conundrum.engine.reasons import explain_conflict
from conundrum.search.conflict import analyse, implies, minimise
from test_journal import MODELS, Walk, compiled, holds_on, solutions_of


class Learner(Walk):
    """The walk, analysing each conflict."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]
        self.learned = 0

    def at_conflict(self) -> None:
        j = self.journal
        assert j is not None and self.solutions is not None
        if j.conflict is None:
            return
        conflict: list[Pred] = []
        explain_conflict(j, j.conflict, conflict)
        j.conflict = None
        decisions = [Pred(self.xs[i], EQ if tried == 1 else NE, v)
                     for i, v, tried in self.stack]
        result = analyse(j, conflict, self.root, decisions)
        nogood = result.nogood
        for s in self.solutions:
            assert not all(holds_on(p, s) for p in nogood), (
                f"learned {nogood}, violated by solution {s}")
        if not nogood:
            return  # the conflict holds at the root
        levels = []
        entries = []
        for p in nogood:
            e = j.became_true(p.var.index, p.kind, p.value)
            assert e != NOT_TRUE
            entries.append(e)
            levels.append(self.root if e == ROOT else j.level[e])
        assert all(level <= result.level for level in levels[:-1])
        assert levels[-1] > result.level >= self.root
        # the predicate the store watches beside the UIP: the first that became true last
        lower = entries[:-1]
        assert result.latest == (lower.index(max(lower)) if lower else -1)
        self.learned += 1


@pytest.mark.parametrize("name", sorted(MODELS))
def test_learned_nogoods_are_sound_and_asserting(name: str) -> None:
    sols = solutions_of(name)
    learned = 0
    for seed in range(3):
        c = compiled(name)
        j = Journal(c.solver)
        j.attach()
        walk = Learner(c, j, seed, sols)
        assert sorted(walk.run()) == sorted(sols)
        j.detach()
        learned += walk.learned
    if name in ("queens4", "golomb4", "queens5_bounds", "sum_alldiff"):
        assert learned > 0  # these fail below the root


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.sampled_from([GE, LE, EQ, NE]),
                          st.integers(-1, 5)), min_size=1, max_size=8),
       st.lists(st.booleans(), min_size=3, max_size=3))
def test_minimise_says_the_same_in_fewer_predicates(raw, bitset) -> None:
    """minimise keeps the meaning of a conjunction that can hold (analysis gives it
    predicates that all hold now) on every assignment of the variables' domains (0..4
    each, with or without a bit set), with no more predicates, at most one bound per side
    of a variable and no two predicates alike."""
    from conundrum.engine import Solver

    s = Solver()
    xs = [s.int_var(0, 4, f"x{i}", bitset=bitset[i]) for i in range(3)]
    preds = [Pred(xs[i], kind, v) for i, kind, v in raw]
    assume(any(all(holds_on(p, a) for p in preds)
               for a in itertools.product(range(5), repeat=3)))
    got = minimise(preds)
    assert len(got) <= len(set(preds))
    assert len(set(got)) == len(got)
    for i in range(3):
        for kind in (GE, LE):
            assert sum(1 for p in got if p.var is xs[i] and p.kind == kind) <= 1
    for a in itertools.product(range(5), repeat=3):
        assert all(holds_on(p, a) for p in preds) == all(holds_on(p, a) for p in got), a


def test_minimise() -> None:
    from conundrum.engine import Solver

    s = Solver()
    x, y = s.int_var(0, 9), s.int_var(0, 9, bitset=False)
    got = minimise([Pred(x, GE, 2), Pred(x, GE, 4), Pred(x, LE, 4), Pred(x, NE, 7),
                    Pred(y, GE, 3), Pred(y, LE, 3), Pred(y, LE, 5)])
    # x: [x>=4] & [x<=4] is [x==4] (and the hole is implied); y is bounds-only: two bounds
    assert [repr(p) for p in got] == ["[_==4]", "[_>=3]", "[_<=3]"]
    got = minimise([Pred(x, GE, 2), Pred(x, NE, 1), Pred(x, NE, 5), Pred(x, LE, 6)])
    assert [repr(p) for p in got] == ["[_>=2]", "[_<=6]", "[_!=5]"]


@pytest.mark.parametrize("d, q, want", [
    ((EQ, 3), (GE, 2), True), ((EQ, 3), (LE, 2), False), ((EQ, 3), (NE, 4), True),
    ((EQ, 3), (EQ, 3), True), ((GE, 3), (GE, 1), True), ((GE, 3), (NE, 2), True),
    ((GE, 3), (NE, 5), False), ((LE, 3), (LE, 4), True), ((LE, 3), (NE, 4), True),
    ((LE, 3), (GE, 0), False), ((NE, 3), (NE, 3), True), ((NE, 3), (LE, 9), False),
])
def test_implies(d: tuple[int, int], q: tuple[int, int], want: bool) -> None:
    from conundrum.engine import Solver

    x = Solver().int_var(0, 9)
    assert implies(Pred(x, *d), Pred(x, *q)) is want


def test_a_predicate_an_entry_only_completed_keeps_the_domain_before() -> None:
    """[x == 3] becomes true where x >= y lifts x's lower bound to 3, but its other half,
    x <= 3, came before (a decision). The explanation of that entry ([y >= 3]) implies the
    lower bound only: analysis must keep [x <= 3], else it learns that y >= 3 never holds."""
    from conundrum.engine import Solver
    from conundrum.engine.literals import make_true
    from conundrum.propagators.linear import LinearLe

    s = Solver()
    x, y = s.int_var(0, 9), s.int_var(0, 9)
    x.name, y.name = "x", "y"
    LinearLe(s, [1, -1], [y, x], 0).post()  # y <= x
    j = Journal(s)
    j.attach()
    trail = s.trail
    trail.push_level()
    root = trail.depth
    decisions = [Pred(x, LE, 3), Pred(y, GE, 3)]
    for d in decisions:
        trail.push_level()
        j.current = None
        make_true(d)
        s.fix_point()
    assert x.lo == x.hi == 3
    result = analyse(j, [Pred(x, EQ, 3), Pred(y, GE, 3)], root, decisions)
    # x = 4, y = 3 satisfies y <= x and is not excluded by the conflict [x == 3, y >= 3]
    assert not all(holds_on(p, [4, 3]) for p in result.nogood), result.nogood
    assert sorted(map(repr, result.nogood)) == ["[x<=3]", "[y>=3]"]
    j.detach()
    while trail.depth > 0:
        trail.pop_level()
