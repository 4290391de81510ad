"""The nogood store (engine/clauses.py) under random decisions and backtracks, checked by
brute force over the cartesian product of the original domains:

(a) sound: after each fixpoint, every assignment that satisfies all nogoods (and the sum,
    when there is one) and the decisions taken is still in the domains; a failure means
    there is none;
(b) on fully fixed assignments the store fails exactly when some nogood holds entirely;
(c) after a pop the domains are what they were before the push;
and unit propagation is complete after each fixpoint: no nogood has every predicate but
one true and that one not false (unless it is an equality on a bounds-only domain, whose
negation the domain may not have been able to hold when the nogood became unit:
literals.py).

Nogoods are added at the root, also between decision sequences (as restarts will do), and
the store runs beside a linear sum to check that the two propagate together."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.engine import Inconsistency, IntVar, Solver
from conundrum.engine.clauses import NogoodStore
from conundrum.engine.literals import (
    EQ,
    GE,
    LE,
    NE,
    Pred,
    falsified,
    from_decision,
    holds,
    make_true,
)
from conundrum.propagators.linear import LinearLe

NVARS = st.integers(2, 4)


def sat(kind: int, v: int, a: int) -> bool:
    """Whether the value a satisfies [_ <kind> v] (literals' kinds: GE, LE, EQ, NE)."""
    return (a >= v, a <= v, a == v, a != v)[kind]


def dsat(kind: int, v: int, a: int) -> bool:
    """Whether a satisfies the search decision (kind, v): EQ, NE, LE, GT."""
    return (a == v, a != v, a <= v, a > v)[kind]


@st.composite
def problems(draw):
    n = draw(NVARS)
    doms = []
    for _ in range(n):
        lo = draw(st.integers(-2, 2))
        vals = sorted(draw(st.sets(st.integers(lo, lo + 4), min_size=1)))
        bitset = draw(st.booleans())
        if not bitset:
            vals = list(range(vals[0], vals[-1] + 1))
        doms.append((vals, bitset))

    def pred():
        i = draw(st.integers(0, n - 1))
        vals = doms[i][0]
        return (i, draw(st.integers(0, 3)), draw(st.integers(vals[0] - 1, vals[-1] + 1)))

    def nogood():
        return [pred() for _ in range(draw(st.integers(1, 3)))]

    nogoods = [nogood() for _ in range(draw(st.integers(1, 6)))]
    ops = []
    for _ in range(draw(st.integers(1, 25))):
        what = draw(st.sampled_from(["push", "push", "push", "pop", "add"]))
        if what == "push":
            i = draw(st.integers(0, n - 1))
            vals = doms[i][0]
            ops.append(("push", (i, draw(st.integers(0, 3)),
                                 draw(st.integers(vals[0] - 1, vals[-1] + 1)))))
        elif what == "pop":
            ops.append(("pop", None))
        else:
            ops.append(("add", nogood()))
    total = None
    if draw(st.booleans()):
        coefs = [draw(st.integers(-3, 3)) for _ in range(n)]
        total = (coefs, draw(st.integers(-8, 8)))
    return doms, nogoods, ops, total


class Harness:
    """A solver with the problem's variables, a store and maybe a sum, plus the brute
    force oracle."""

    def __init__(self, doms, total) -> None:
        self.s = Solver()
        self.xs: list[IntVar] = [
            self.s.int_var_values(vals, f"x{i}") if bitset
            else self.s.int_var(vals[0], vals[-1], f"x{i}", bitset=False)
            for i, (vals, bitset) in enumerate(doms)]
        self.space = list(itertools.product(*(vals for vals, _ in doms)))
        self.total = total
        self.nogoods: list[list[tuple[int, int, int]]] = []
        self.decisions: list[tuple[int, int, int]] = []
        self.store = NogoodStore(self.s)
        self.s.post(self.store)
        if total is not None:
            coefs, c = total
            # sum(coefs * x) + c <= 0
            self.s.post(LinearLe(self.s, coefs, list(self.xs), c))

    def preds(self, ng) -> list[Pred]:
        return [Pred(self.xs[i], k, v) for i, k, v in ng]

    def allowed(self, a) -> bool:
        """Whether the assignment satisfies every nogood and the sum."""
        for ng in self.nogoods:
            if all(sat(k, v, a[i]) for i, k, v in ng):
                return False
        if self.total is not None:
            coefs, c = self.total
            if sum(k * x for k, x in zip(coefs, a, strict=True)) + c > 0:
                return False
        return True

    def solutions(self) -> list[tuple[int, ...]]:
        return [a for a in self.space if self.allowed(a)
                and all(dsat(k, v, a[i]) for i, k, v in self.decisions)]

    def domains(self) -> list[list[int]]:
        return [x.values_list() for x in self.xs]

    def check_watches(self) -> None:
        """The store's watch lists hold exactly one entry per watch slot, on the variable
        of the predicate that slot watches (a lost entry would silence a nogood)."""
        store = self.store
        expected = []
        for c in range(len(store)):
            start = store.starts[c]
            slots = (0,) if store.sizes[c] == 1 else (0, 1)
            for slot in slots:
                w = store.watch1[c] if slot else store.watch0[c]
                assert 0 <= w < store.sizes[c]
                expected.append((store.preds[start + w].var.index, 2 * c + slot))
            if store.sizes[c] > 1:
                assert store.watch0[c] != store.watch1[c]
        found = []
        for i, lists in store.watches.items():
            for kind, ws in enumerate(lists):
                for k in range(0, len(ws), 2):
                    found.append((i, ws[k]))
                    # listed under the watched predicate's kind, beside its value
                    c, slot = ws[k] >> 1, ws[k] & 1
                    w = store.watch1[c] if slot else store.watch0[c]
                    p = store.preds[store.starts[c] + w]
                    assert (p.kind, p.value) == (kind, ws[k + 1])
                values = ws[1::2]  # sorted: a scan reads runs of the list
                assert values == sorted(values), (kind, values)
        assert sorted(found) == sorted(expected)

    def check_fixpoint(self) -> None:
        """(a) soundness and complete unit propagation, after a successful fixpoint."""
        self.check_watches()
        for a in self.solutions():
            assert all(x.contains(v) for x, v in zip(self.xs, a, strict=True)), a
        for ng in self.nogoods:
            ps = self.preds(ng)
            open_ = [p for p in ps if not holds(p)]
            assert open_, f"{ng} holds entirely after a fixpoint"
            if len(open_) == 1:
                p = open_[0]
                # an equality on a bounds-only domain is exempt: when the nogood became
                # unit its negation may have been an interior hole (a no-op), and a bound
                # reaching v later wakes nothing (the nogood is enforced once x is fixed)
                bounds_eq = p.kind == EQ and p.var.bits < 0
                assert falsified(p) or bounds_eq, f"{ng}: unit, not propagated"
        if all(x.lo == x.hi for x in self.xs):
            assert self.allowed(tuple(x.lo for x in self.xs))  # (b), on the way

    def add(self, ng) -> bool:
        """Add a nogood at the root; False if the root failed (then no solution)."""
        self.nogoods.append(ng)
        try:
            self.store.add(self.preds(ng))
        except Inconsistency:
            assert not self.solutions()
            return False
        self.check_fixpoint()
        return True


def at_root(problem) -> Harness | None:
    """The problem's harness with its nogoods added at the root; None when the root fails
    (the sum alone, or a nogood, which `Harness.add` checks leaves no solution)."""
    doms, nogoods, _, total = problem
    try:
        h = Harness(doms, total)
    except Inconsistency:  # the sum alone fails at the root
        assert total is not None
        return None
    for ng in nogoods:
        if not h.add(ng):
            return None
    return h


@settings(max_examples=400, deadline=None)
@given(problems())
def test_store_under_decisions_and_backtracks(problem):
    ops = problem[2]
    h = at_root(problem)
    if h is None:
        return
    stack: list[list[list[int]]] = []
    for what, arg in ops:
        if what == "add":
            while stack:  # back to the root, as a restart does
                h.s.trail.pop_level()
                h.decisions.pop()
                assert h.domains() == stack.pop()  # (c)
            if not h.add(arg):
                return
        elif what == "pop":
            if stack:
                h.s.trail.pop_level()
                h.decisions.pop()
                assert h.domains() == stack.pop()  # (c)
        else:
            i, kind, v = arg
            before = h.domains()
            h.s.trail.push_level()
            h.decisions.append(arg)
            try:
                # the decision (kind, v) on x, as the search will state it, made
                # through the view x + 1 (so on_view's shift is exercised too)
                make_true(from_decision(h.xs[i].view(1), kind, v + 1))
                h.s.fix_point()
            except Inconsistency:
                h.s.clear_queue()
                h.check_watches()
                assert not h.solutions(), "failed with a solution left"
                h.s.trail.pop_level()
                h.decisions.pop()
                assert h.domains() == before  # (c)
                continue
            stack.append(before)
            h.check_fixpoint()


@settings(max_examples=300, deadline=None)
@given(problems(), st.data())
def test_fixed_assignments_fail_exactly_on_violated_nogoods(problem, data):
    h = at_root(problem)
    if h is None:
        return
    root = h.domains()
    a = data.draw(st.sampled_from(h.space))
    h.s.trail.push_level()
    try:
        for x, v in zip(h.xs, a, strict=True):
            x.assign(v)
            h.s.fix_point()
        failed = False
    except Inconsistency:
        h.s.clear_queue()
        failed = True
    # a value not in the root domains is a failure too: it breaks a unit nogood
    assert failed == (not h.allowed(a)), a
    h.s.trail.pop_level()
    assert h.domains() == root


def test_units_and_a_known_propagation():
    s = Solver()
    x = s.int_var(0, 5, "x")
    y = s.int_var(0, 5, "y", bitset=False)
    store = NogoodStore(s)
    s.post(store)
    store.add([Pred(x, EQ, 3)])  # a unit: x != 3 at the root
    assert not x.contains(3)
    store.add([Pred(y, 0, 2), Pred(x, 1, 1)])  # not (y >= 2 and x <= 1)
    s.trail.push_level()
    y.set_min(4)
    s.fix_point()
    assert x.lo == 2 and len(store) == 2 and store.nogood(1)[0] == Pred(y, 0, 2)
    s.trail.pop_level()
    assert x.lo == 0 and y.lo == 0
    # an equality on a bounds-only domain: its negation is an interior hole, a no-op
    store.add([Pred(x, 0, 2), Pred(y, EQ, 3)])
    s.trail.push_level()
    x.set_min(2)
    s.fix_point()
    assert y.values_list() == [0, 1, 2, 3, 4, 5]
    try:
        y.assign(3)
        s.fix_point()
        raise AssertionError("the nogood holds entirely: the store must fail")
    except Inconsistency:
        s.clear_queue()
    s.trail.pop_level()


@pytest.mark.parametrize(("kind", "low", "high", "down"),
                         [(GE, 0, 9, False), (LE, 0, 9, True), (NE, 0, 9, False),
                          (NE, 1, 9, False), (NE, 0, 8, True)])
def test_a_bound_moved_one_value_at_a_time_wakes_each_nogood(kind, low, high, down):
    """A scan visits only the watches whose predicate became true since the last scan on
    the branch: a predicate one value past the last seen bound must still be visited, at
    each step, after backtracks and after a jump of several values. (`!=`: x in 0..9
    loses values inside its bounds, 1..9 its lower bound each time, 0..8 its upper.)"""
    s = Solver()
    x = s.int_var(low, high, "x")
    y = s.int_var(0, 9, "y")
    store = NogoodStore(s)
    s.post(store)
    for v in (5, 2, 8, 1, 7, 3, 6, 4):  # scrambled: sorted insertion is exercised
        store.add([Pred(x, kind, v), Pred(y, EQ, v)])  # not (x <kind> v and y == v)

    def move(v: int) -> None:
        """Make [x <kind> v] true (and those it implies), one trail level."""
        s.trail.push_level()
        if kind == GE:
            x.set_min(v)
        elif kind == LE:
            x.set_max(v)
        else:
            x.remove(v)
        s.fix_point()

    def implied(v: int) -> list[int]:
        """The thresholds whose predicate holds once v is reached (the move to v)."""
        if kind == GE:
            return [w for w in range(1, 9) if w <= v]
        if kind == LE:
            return [w for w in range(1, 9) if w >= v]
        return [v]

    order = list(range(8, 0, -1)) if down else list(range(1, 9))
    gone: set[int] = set()
    for step, v in enumerate(order):
        move(v)
        gone.update(implied(v))
        assert not any(y.contains(w) for w in gone), (step, v, y.values_list())
    for _ in range(4):
        s.trail.pop_level()
    kept = order[:4]
    gone = set()
    for v in kept:
        gone.update(implied(v))
    assert [w for w in range(1, 9) if not y.contains(w)] == sorted(gone)
    move(order[6])  # a jump over two thresholds
    gone.update(implied(order[6]))
    if kind == NE:
        gone = set(kept) | {order[6]}
    assert [w for w in range(1, 9) if not y.contains(w)] == sorted(gone)


@pytest.mark.parametrize("holes", [(), (3,), (2, 4, 6)])
def test_holes_made_while_a_bound_moves_wake_their_nogoods(holes):
    """One step removes a value inside x's bounds and moves its lower bound: the values
    gone are read from the seen bit set shifted to the new bound (x's domain with
    `holes` already made at an earlier scan)."""
    s = Solver()
    x = s.int_var(0, 9, "x")
    y = s.int_var(0, 9, "y")
    store = NogoodStore(s)
    s.post(store)
    for v in range(1, 9):
        store.add([Pred(x, NE, v), Pred(y, EQ, v)])  # not (x != v and y == v)
    s.trail.push_level()
    for v in holes:
        x.remove(v)
    x.remove(8)  # a scan sees these holes (and x's upper part) now
    s.fix_point()
    s.trail.push_level()
    x.remove(0)
    x.remove(1)  # the lower bound moves past 0 and 1 ...
    x.remove(5)  # ... and a hole is made inside
    s.fix_point()
    gone = {1, 5, 8, *holes}
    assert [w for w in range(1, 9) if not y.contains(w)] == sorted(gone)


@settings(max_examples=200, deadline=None)
@given(problems(), st.data())
def test_forgetting_keeps_the_rest_exact(problem, data):
    """`reduce` at the root forgets the less active half of the forgettable nogoods (LBD
    above the kept tier; LBD 0 is never forgotten) and leaves the others watched and
    propagating: on every full assignment in the root domains the store fails exactly
    when a nogood it kept holds entirely."""
    doms, nogoods, _, total = problem
    try:
        h = Harness(doms, total)
    except Inconsistency:
        return
    lbds = []
    for ng in nogoods:
        lbd = data.draw(st.integers(0, 4))
        h.nogoods.append(ng)
        try:
            h.store.add(h.preds(ng), lbd)
        except Inconsistency:
            return
        lbds.append(lbd)
        for _ in range(data.draw(st.integers(0, 2))):  # uses in analyses, for activity
            h.store._bump(len(lbds) - 1)
    keep_lbd = data.draw(st.integers(0, 3))
    max_learned = data.draw(st.integers(0, 3))
    activity = list(h.store.activity)
    spare = [c for c in range(len(lbds)) if lbds[c] > keep_lbd]
    order = sorted(spare, key=lambda c: activity[c])  # stable: the older first on ties
    forgotten = h.store.reduce(max_learned, keep_lbd)
    assert forgotten == (len(spare) // 2 if len(spare) > max_learned else 0)
    dropped = set(order[:len(spare) // 2]) if len(spare) > max_learned else set()
    kept = [c for c in range(len(lbds)) if c not in dropped]
    assert len(h.store) == len(kept)
    assert [h.store.nogood(k) for k in range(len(kept))] == [h.preds(nogoods[c]) for c in kept]
    assert all(c in kept for c in range(len(lbds)) if lbds[c] <= keep_lbd)  # LBD 0 too
    h.nogoods = [nogoods[c] for c in kept]
    h.check_watches()
    root = h.domains()
    for a in h.space:
        h.s.trail.push_level()
        try:
            for x, v in zip(h.xs, a, strict=True):
                x.assign(v)
                h.s.fix_point()
            failed = False
        except Inconsistency:
            h.s.clear_queue()
            failed = True
        inside = all(v in d for v, d in zip(a, root, strict=True))
        assert failed == (not (inside and h.allowed(a))), a
        h.s.trail.pop_level()
        assert h.domains() == root


@settings(max_examples=200, deadline=None)
@given(problems())
def test_a_propagation_names_the_predicate_it_made_false(problem):
    """The journal's payload of a nogood's propagation names the nogood and the position
    of the predicate it made false, so the explanation is the others without asking when
    each became true: the same as the explanation that asks (the payload of a nogood too
    long for the position field)."""
    from conundrum.engine.clauses import POSITION_BITS, POSITION_MASK
    from conundrum.engine.journal import Journal

    ops = problem[2]
    h = at_root(problem)
    if h is None:
        return
    j = Journal(h.s)
    j.attach()
    compared = 0
    for what, arg in ops:
        if what != "push":
            continue
        i, kind, v = arg
        h.s.trail.push_level()
        j.current = None
        try:
            make_true(from_decision(h.xs[i], kind, v))
            h.s.fix_point()
        except Inconsistency:
            h.s.clear_queue()
            break
        for e in range(len(j)):
            reason = j.reason[e]
            if reason is None or j.code[e] >> POSITION_BITS >= len(h.store):
                continue
            if reason is not h.store and type(reason).__name__ != "VarWatch":
                continue
            named: list[Pred] = []
            assert reason.explain(j, e, named)
            kept = j.code[e]
            j.code[e] = (kept >> POSITION_BITS << POSITION_BITS) | POSITION_MASK
            asked: list[Pred] = []
            assert reason.explain(j, e, asked)
            j.code[e] = kept
            assert named == asked, (e, named, asked)
            compared += 1
    while h.s.trail.depth:
        h.s.trail.pop_level()
    j.detach()


def test_explanation_of_a_bound_moved_past_holes():
    """The store removes x == 2, the lowest value, and x's lower bound jumps past the holes
    3 and 4 to 5: the explanation must say those holes and the old bound too, else conflict
    analysis would learn that x >= 5 follows from y >= 1 alone."""
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import GE, NE

    s = Solver()
    x = s.int_var(0, 9, "x")
    y = s.int_var(0, 3, "y")
    store = NogoodStore(s)
    s.post(store)
    store.add([Pred(y, GE, 1), Pred(x, EQ, 2)])  # not (y >= 1 and x == 2)
    j = Journal(s)
    j.attach()
    s.trail.push_level()
    j.current = None
    x.set_min(2)
    x.remove(3)
    x.remove(4)
    y.set_min(1)
    s.fix_point()
    assert x.lo == 5
    e = j.latest(x.index)
    out: list[Pred] = []
    assert j.reason[e] is not None and j.reason[e].explain(j, e, out)
    assert set(out) == {Pred(y, GE, 1), Pred(x, GE, 2), Pred(x, NE, 3), Pred(x, NE, 4)}
    s.trail.pop_level()
    j.detach()


def test_a_propagation_past_holes_is_explained_with_the_domain_before():
    """not (y >= 2 and x <= 1) with x in {0, 1, 4, 5}: x's lower bound jumps to 4, which
    the nogood implies only with x's holes at 2 and 3 (its domain before the entry)."""
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import GE, NE

    s = Solver()
    x = s.int_var(0, 5, "x")
    y = s.int_var(0, 5, "y")
    store = NogoodStore(s)
    s.post(store)
    store.add([Pred(y, GE, 2), Pred(x, 1, 1)])
    j = Journal(s)
    j.attach()
    s.trail.push_level()
    j.current = None
    x.remove(2)
    x.remove(3)
    y.set_min(2)
    s.fix_point()
    assert x.lo == 4
    e = j.latest(x.index)
    out: list[Pred] = []
    assert store.explain(j, e, out)
    assert Pred(y, GE, 2) in out and Pred(x, NE, 2) in out and Pred(x, NE, 3) in out
    s.trail.pop_level()
    j.detach()
