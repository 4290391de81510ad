"""Engine-level tests of the scheduling, circuit and arg_max propagators: that each
documented rule prunes what it should (at post time, on a Solver), and that the
edge-finding rule is sound against brute force. The solution sets themselves are checked
against brute force through the public API in test_properties_scheduling_globals.py."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conundrum.engine import Inconsistency, Solver
from conundrum.propagators.arith import ArgMax
from conundrum.propagators.circuit import Circuit
from conundrum.propagators.packing import BinPacking
from conundrum.propagators.scheduling import (
    Cumulative,
    Disjunctive,
    NoOverlap2D,
    edge_finding,
)


def test_edge_finding_pushes_a_task_behind_a_full_window() -> None:
    """B and C (3 each) fill [1, 7]; A (4) could still go first pairwise (0 + 4 <= 4), but
    not before both: edge-finding starts A at 7."""
    s = Solver()
    a, b, c = s.int_var(0, 20), s.int_var(1, 4), s.int_var(1, 4)
    fixed = [s.int_var(k, k) for k in (4, 3, 3)]
    s.post(Disjunctive(s, [a, b, c], fixed, strict=False))
    assert (a.lo, a.hi) == (7, 20)


def test_edge_finding_mirror_pulls_a_task_before_a_full_window() -> None:
    s = Solver()
    a, b, c = s.int_var(0, 17), s.int_var(13, 16), s.int_var(13, 16)
    fixed = [s.int_var(k, k) for k in (4, 3, 3)]
    s.post(Disjunctive(s, [a, b, c], fixed, strict=False))
    assert (a.lo, a.hi) == (0, 9)


def test_overload_fails() -> None:
    s = Solver()
    starts = [s.int_var(0, 2) for _ in range(3)]
    with pytest.raises(Inconsistency):
        s.post(Disjunctive(s, starts, [s.int_var(2, 2)] * 3, strict=False))


def test_zero_duration_tasks_are_free_unless_strict() -> None:
    for strict, expected in ((False, (0, 9)), (True, (0, 9))):
        s = Solver()
        long_task, point = s.int_var(0, 0), s.int_var(0, 9)
        s.post(Disjunctive(s, [long_task, point], [s.int_var(5, 5), s.int_var(0, 0)], strict))
        assert (point.lo, point.hi) == expected  # bounds only: the hole 1..4 is not made
    s = Solver()
    long_task, point = s.int_var(0, 0), s.int_var(1, 9)
    s.post(Disjunctive(s, [long_task, point], [s.int_var(5, 5), s.int_var(0, 0)], True))
    assert point.lo == 5  # strict: not inside [0, 5)
    s = Solver()
    long_task, point = s.int_var(0, 0), s.int_var(1, 9)
    s.post(Disjunctive(s, [long_task, point], [s.int_var(5, 5), s.int_var(0, 0)], False))
    assert point.lo == 1


@given(data=st.data())
def test_edge_finding_is_sound(data: st.DataObject) -> None:
    """Every feasible schedule of random tasks respects the earliest starts edge_finding
    returns, and it fails only when no schedule exists."""
    n = data.draw(st.integers(1, 4), label="n")
    est = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n), label="est")
    p = data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n), label="p")
    slack = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n), label="slack")
    lct = [e + q + k for e, q, k in zip(est, p, slack)]
    feasible = [
        starts for starts in itertools.product(*(range(e, c - q + 1)
                                                 for e, c, q in zip(est, lct, p)))
        if all(starts[i] + p[i] <= starts[j] or starts[j] + p[j] <= starts[i]
               for i in range(n) for j in range(i + 1, n))
    ]
    try:
        pushed = edge_finding(est, lct, p)
    except Inconsistency:
        assert not feasible
        return
    assert all(new >= old for new, old in zip(pushed, est))
    for starts in feasible:
        assert all(starts[i] >= pushed[i] for i in range(n)), (starts, pushed)


def _completion(tasks: list[int], est: list[int], p: list[int]) -> int:
    """ECT of a set of tasks, by its definition: the largest est_a plus the durations of
    the set's tasks that start no earlier than est_a."""
    return max(est[a] + sum(p[j] for j in tasks if est[j] >= est[a]) for a in tasks)


@pytest.mark.parametrize("latest_est", [3, 20])  # 3: many tasks share an est (ties)
@given(data=st.data())
def test_edge_finding_pushes_what_its_rule_says(latest_est: int, data: st.DataObject) -> None:
    """edge_finding returns exactly the rule of its docstring, computed from the
    definitions: for each L, Ω = {j : lct_j <= L} overloaded fails; a task outside Ω with
    ECT(Ω ∪ {i}) > L starts at ECT(Ω) or later (the largest such push)."""
    n = data.draw(st.integers(1, 9), label="n")
    est = data.draw(st.lists(st.integers(0, latest_est), min_size=n, max_size=n), label="est")
    p = data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n), label="p")
    slack = data.draw(st.lists(st.integers(0, 15), min_size=n, max_size=n), label="slack")
    lct = [e + q + k for e, q, k in zip(est, p, slack)]
    expected = list(est)
    overloaded = False
    for bound in sorted(set(lct)):
        omega = [j for j in range(n) if lct[j] <= bound]
        ect = _completion(omega, est, p)
        if ect > bound:
            overloaded = True
            break
        for i in range(n):
            if lct[i] > bound and _completion([*omega, i], est, p) > bound:
                expected[i] = max(expected[i], ect)
    if overloaded:
        with pytest.raises(Inconsistency):
            edge_finding(est, lct, p)
    else:
        assert edge_finding(est, lct, p) == expected


def test_cumulative_timetabling_and_capacity() -> None:
    """A fixed task of demand 2 at [2, 5) on capacity 2: B (demand 1) cannot start in 1..4;
    the capacity variable rises to the compulsory peak."""
    s = Solver()
    a, b = s.int_var(2, 2), s.int_var(1, 6)
    cap = s.int_var(0, 2)
    s.post(Cumulative(s, [a, b], [s.int_var(3, 3), s.int_var(2, 2)],
                      [s.int_var(2, 2), s.int_var(1, 1)], cap))
    assert b.lo == 5 and cap.lo == 2
    s = Solver()
    a, b = s.int_var(2, 2), s.int_var(0, 4)
    s.post(Cumulative(s, [a, b], [s.int_var(3, 3), s.int_var(2, 2)],
                      [s.int_var(2, 2), s.int_var(1, 1)], s.int_var(2, 2)))
    assert b.hi == 0  # the latest start is pushed back before the fixed task


def test_cumulative_energy_overload() -> None:
    """Three tasks of 2 x 1 within [0, 3) on capacity 1 need 6 units in a window of 3; no
    compulsory part exists to show it."""
    s = Solver()
    starts = [s.int_var(0, 1) for _ in range(3)]
    with pytest.raises(Inconsistency):
        s.post(Cumulative(s, starts, [s.int_var(2, 2)] * 3, [s.int_var(1, 1)] * 3,
                          s.int_var(1, 1)))


def test_no_overlap_2d_enforces_the_last_separation() -> None:
    """Two 2x2 squares in a 2-high strip: they can only be apart on x."""
    s = Solver()
    x0, x1 = s.int_var(0, 0), s.int_var(0, 5)
    y0, y1 = s.int_var(0, 0), s.int_var(0, 0)
    two = s.int_var(2, 2)
    s.post(NoOverlap2D(s, [x0, x1], [y0, y1], [two, two], [two, two]))
    assert x1.lo == 2


def test_circuit_forbids_a_subtour() -> None:
    """0 -> 1 -> 2 fixed in a 4-node circuit: 2 may not go back to 0."""
    s = Solver()
    xs = [s.int_var(1, 1), s.int_var(2, 2), s.int_var(0, 3), s.int_var(0, 3)]
    s.post(Circuit(s, xs, sub=False))
    assert not xs[2].contains(0) and not xs[2].contains(2)


def test_circuit_unreachable_node_fails() -> None:
    """No node can go to 3."""
    s = Solver()
    xs = [s.int_var(1, 2), s.int_var(0, 2), s.int_var(0, 1), s.int_var(0, 2)]
    with pytest.raises(Inconsistency):
        s.post(Circuit(s, xs, sub=False))


def test_subcircuit_leaves_out_what_cannot_join() -> None:
    """Node 0 must be in (0 is not among its successors); no node leads to 3, so it is
    left out; a closed fixed cycle leaves out everyone else."""
    s = Solver()
    xs = [s.int_var(1, 2), s.int_var(0, 2), s.int_var(0, 2), s.int_var(2, 3)]
    s.post(Circuit(s, xs, sub=True))
    assert xs[3].lo == xs[3].hi == 3
    s = Solver()
    xs = [s.int_var(1, 1), s.int_var(0, 0), s.int_var(0, 3), s.int_var(0, 3)]
    s.post(Circuit(s, xs, sub=True))
    assert (xs[2].lo, xs[2].hi, xs[3].lo, xs[3].hi) == (2, 2, 3, 3)


def test_arg_max_prunes_positions_and_values() -> None:
    """x0 <= 2 never beats x1 >= 3, and x3 <= 5 never beats x2 = 5, which comes first:
    positions 1 and 2 remain. With the position fixed at 2, x1 stays below 5."""
    s = Solver()
    xs = [s.int_var(0, 2), s.int_var(3, 7), s.int_var(5, 5), s.int_var(0, 5)]
    i = s.int_var(0, 3)
    s.post(ArgMax(s, xs, i))
    assert list(i.values()) == [1, 2]
    s.post(ArgMax(s, xs, s.int_var(2, 2)))
    assert xs[1].hi == 4  # x2 is the first maximum: x1 < 5


def test_bin_packing_places_and_excludes_items() -> None:
    """Bin 0 holds at most 4 with item 0 (size 3) in it: item 1 (size 2) cannot join; bin 1
    needs at least 5, which only items 1 and 2 together can bring, so both go there."""
    s = Solver()
    loads = [s.int_var(0, 4), s.int_var(5, 9)]
    bins = [s.int_var(0, 0), s.int_var(0, 1), s.int_var(0, 1)]
    s.post(BinPacking(s, loads, bins, [3, 2, 3]))
    assert bins[1].lo == bins[1].hi == 1 and bins[2].lo == bins[2].hi == 1
    assert (loads[0].lo, loads[0].hi, loads[1].lo, loads[1].hi) == (3, 3, 5, 5)


def test_cumulative_demand_fits_capacity_alone() -> None:
    """Without any compulsory part (wide windows), a running task's demand still bounds
    the capacity from below, and a demand above the capacity forces duration 0."""
    s = Solver()
    starts = [s.int_var(0, 10**12) for _ in range(2)]
    cap = s.int_var(0, 5)
    durations = [s.int_var(10**6, 10**6), s.int_var(0, 4)]
    demands = [s.int_var(3, 9), s.int_var(6, 6)]
    s.post(Cumulative(s, starts, durations, demands, cap))
    assert cap.lo == 3 and demands[0].hi == 5 and durations[1].hi == 0


def test_cumulative_makes_a_task_that_cannot_fit_last_zero() -> None:
    """Task a (demand 2) runs in [3, 6) whatever its start; b may last 0 or 3 (an optional
    interval) with demand 2 on capacity 3, and every start 1..3 of b meets [3, 6): b lasts
    0. With a start window reaching 6, b could run after a and keeps its durations."""
    for b_hi, expected in ((3, (0, 0)), (6, (0, 3))):
        s = Solver()
        a, b = s.int_var(2, 3), s.int_var(1, b_hi)
        da, db = s.int_var(4, 4), s.int_var_values([0, 3])
        s.post(Cumulative(s, [a, b], [da, db], [s.int_var(2, 2)] * 2, s.int_var(3, 3)))
        assert (db.lo, db.hi) == expected
        assert (b.lo, b.hi) == (1, b_hi)  # b itself is not pushed: it may be absent


def test_cumulative_no_fit_reads_the_smallest_positive_duration() -> None:
    """The gap [0, 2) before a's compulsory part holds b at its smallest positive
    duration 2 (not 3): b keeps its durations; with durations {0, 3} it lasts 0."""
    for values, expected in (([0, 2, 3], (0, 3)), ([0, 3], (0, 0))):
        s = Solver()
        a, b = s.int_var(2, 2), s.int_var(0, 1)
        db = s.int_var_values(values)
        s.post(Cumulative(s, [a, b], [s.int_var(4, 4), db], [s.int_var(1, 1)] * 2,
                          s.int_var(1, 1)))
        assert (db.lo, db.hi) == expected


def test_cumulative_no_fit_ignores_tasks_that_fit_beside() -> None:
    """b's demand 1 fits beside a's 2 on capacity 3: nothing to conclude."""
    s = Solver()
    a, b = s.int_var(2, 3), s.int_var(1, 3)
    db = s.int_var_values([0, 3])
    s.post(Cumulative(s, [a, b], [s.int_var(4, 4), db], [s.int_var(2, 2), s.int_var(1, 1)],
                      s.int_var(3, 3)))
    assert (db.lo, db.hi) == (0, 3)


def test_disjunctive_makes_a_task_that_cannot_fit_last_zero() -> None:
    """a occupies [3, 6) and c [7, 9) whatever their starts; b (0 or 2) must start in
    2..6: every start meets one of them, so b lasts 0; with its window up to 9 it fits
    after c."""
    for b_hi, expected in ((6, (0, 0)), (9, (0, 2))):
        s = Solver()
        a, b, c = s.int_var(2, 3), s.int_var(2, b_hi), s.int_var(7, 7)
        db = s.int_var_values([0, 2])
        s.post(Disjunctive(s, [a, b, c], [s.int_var(4, 4), db, s.int_var(2, 2)],
                           strict=False))
        assert (db.lo, db.hi) == expected


@given(st.data())
def test_no_fit_is_sound(data: st.DataObject) -> None:
    """Whenever the rule makes a task last 0, no placement of the tasks (brute force) has
    it last more on the resource."""
    n = data.draw(st.integers(2, 4), label="n")
    unary = data.draw(st.booleans(), label="unary")
    windows = [data.draw(st.tuples(st.integers(0, 4), st.integers(0, 3))) for _ in range(n)]
    durations = [data.draw(st.sampled_from([[1], [2], [3], [0, 2], [0, 3], [0, 1, 3]]))
                 for _ in range(n)]
    demands = [data.draw(st.integers(1, 2)) for _ in range(n)]
    cap = 1 if unary else data.draw(st.integers(1, 3), label="cap")
    if unary:
        demands = [1] * n
    s = Solver()
    starts = [s.int_var(lo, lo + w) for lo, w in windows]
    ds = [s.int_var_values(v) for v in durations]
    try:
        if unary:
            s.post(Disjunctive(s, starts, ds, strict=False))
        else:
            s.post(Cumulative(s, starts, ds, [s.int_var(r, r) for r in demands],
                              s.int_var(cap, cap)))
    except Inconsistency:
        return
    for k in range(n):
        if ds[k].hi > 0 or 0 not in durations[k] or durations[k] == [0]:
            continue
        # the rule (or another) ruled out every positive duration of task k: check
        for st_values in itertools.product(*(range(lo, lo + w + 1) for lo, w in windows)):
            for d_values in itertools.product(*durations):
                if d_values[k] == 0:
                    continue
                used: dict[int, int] = {}
                ok = True
                for j in range(n):
                    for t in range(st_values[j], st_values[j] + d_values[j]):
                        used[t] = used.get(t, 0) + demands[j]
                        ok = ok and used[t] <= cap
                assert not ok, (k, st_values, d_values)
