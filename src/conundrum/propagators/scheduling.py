"""Scheduling resources: a unary resource (no_overlap), a cumulative resource, and
non-overlapping rectangles (no_overlap_2d). Each filters bounds only.

A task i has a start s_i and a duration d_i (and for cumulative a demand r_i), all
variables or constants. The reasoning uses the smallest duration p_i = d_i.lo and demand
h_i = r_i.lo, and the window est_i = s_i.lo (earliest start) to lct_i = s_i.hi + d_i.hi
(latest completion): a task that may last longer still occupies at least p_i, so every
conclusion drawn with p_i holds for each of its durations.

Strengths (documented in docs/globals/):

* `Disjunctive` (no_overlap): pairwise detectable precedences (if task i cannot end
  before j starts, j ends before i starts), plus overload checking and edge-finding in both
  directions, O(n^2) per call (Vilím's rules, computed here with sorted arrays instead of a
  Θ-Λ-tree: the resources of puzzle-sized models hold a few dozen tasks at most).
* `Cumulative`: each running task's demand fits the capacity on its own (a demand above
  it forces duration 0); timetabling (the profile of compulsory parts [lst_i, ect_i)
  bounds the capacity from below and pushes each start past the profile segments it
  cannot share); energetic overload checking on the windows [est_a, lct_b]. O(n^2) per
  call.
* Both: the no-room rule. A task whose duration may be 0 (an undecided optional interval:
  its duration is size * present) has no compulsory part, so the rules above leave it
  alone; when not even its smallest positive duration q fits at any start in
  [s.lo, s.hi] beside the profile of the others' compulsory parts, it lasts 0 (every
  duration >= q occupies at least [s, s + q)). O(n * segments) per call.
* `NoOverlap2D`: for each pair of rectangles, the four ways to separate them (left, right,
  below, above); none left is a failure and a single one left is enforced. O(n^2) per call.

Each is exact on fixed values (the pairwise tests, and the profile of whole tasks), which
is what the engine requires of a propagator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine import BOUNDS, Inconsistency, IntView, Propagator, Solver
from conundrum.propagators.cumulative_explain import (
    explain_cumulative,
    explain_cumulative_failure,
    profile_segments,
)
from conundrum.propagators.disjunctive_explain import (
    EDGE_BACKWARD,
    EDGE_FORWARD,
    NO_FIT,
    PRECEDENCE,
    RULES,
    explain_disjunctive,
    explain_disjunctive_failure,
)
from conundrum.propagators.scheduling_explain import (
    explain_separation,
    explain_separation_failure,
    rectangle_ways,
)

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred

NO_TIME: Final = -(1 << 62)  # below every time: the largest value of no task


def edge_finding(est: list[int], lct: list[int], p: list[int]) -> list[int]:
    """Earliest starts implied by overload checking and edge-finding on a unary resource.

    Tasks have earliest starts `est`, latest completions `lct` and durations `p` (> 0).
    For every set Ω = {j : lct_j <= L} with L one of the lct values: if ECT(Ω), the earliest
    completion of Ω, exceeds L, the resource is overloaded (Inconsistency); and a task i
    outside Ω that cannot complete with Ω before L (ECT(Ω ∪ {i}) > L) must come after all of
    Ω, so it starts at ECT(Ω) or later. ECT of a set is the largest est_a + (the durations of
    the tasks of the set that start no earlier than est_a). Returns the new earliest starts
    (never smaller than `est`).

    One pass per L over the tasks in order of est, with T the durations of Ω: before
    position a, the Ω tasks met so far take `done` of T, so threshold est_a counts T - done
    of Ω. For i outside Ω, ECT(Ω ∪ {i}) is the largest of: a threshold of Ω before i (in
    that order) plus p_i; est_i + p_i + T - done; a threshold of Ω after i, which is at most
    ECT(Ω) <= L and so never decides the test (ties of est count either way: the same
    thresholds). O(n^2), no list but the output written (this runs at every call of a
    disjunctive: its cost is most of a job shop's search)."""
    n = len(est)
    out = list(est)
    order = sorted(range(n), key=lambda k: est[k])
    e_sorted = [est[k] for k in order]
    c_sorted = [lct[k] for k in order]
    p_sorted = [p[k] for k in order]
    by_lct = sorted(range(n), key=lambda k: lct[k])
    pushed: list[int] = []  # positions (in est order) to push at the current L
    total = 0  # T: the durations of Ω
    added = 0  # the tasks of by_lct in Ω
    while added < n:
        bound = lct[by_lct[added]]
        while added < n and lct[by_lct[added]] == bound:
            total += p[by_lct[added]]
            added += 1
        done = 0
        ect = NO_TIME  # the largest threshold of Ω so far: ECT(Ω) at the end
        pushed.clear()
        for a in range(n):
            e = e_sorted[a]
            q = p_sorted[a]
            if c_sorted[a] <= bound:
                v = e + total - done
                if v > ect:
                    ect = v
                done += q
            elif ect + q > bound or e + q + total - done > bound:
                pushed.append(a)
        if ect > bound:
            raise Inconsistency
        for a in pushed:
            k = order[a]
            if out[k] < ect:
                out[k] = ect
    return out


def smallest_positive(d: IntView) -> int:
    """The smallest value above 0 in d's domain (d.hi > 0)."""
    q = d.next_value(0)
    return 1 if q is None else q


def earliest_fit(segments: list[tuple[int, int, int]], est: int, p: int, h: int,
                 cap: int) -> int:
    """The earliest start from est of a task of length p and demand h that is in none of
    the profile `segments` (start, end, height; in time order) it cannot run beside
    (height + h > cap). The task's own compulsory part must not be in the profile."""
    t = est
    for a, b, height in segments:
        if b <= t:
            continue
        if a >= t + p:
            break
        if height + h > cap:
            t = b
    return t


def compulsory_profile(starts: list[IntView], durations: list[IntView],
                       heights: list[int], tasks: list[int]) -> list[tuple[int, int, int]]:
    """The compulsory parts [lst, ect) of `tasks` (task k of height heights[k]) as disjoint
    segments (start, end, height) of positive height, in time order."""
    events: list[tuple[int, int]] = []
    for k in tasks:
        lst, ect = starts[k].hi, starts[k].lo + durations[k].lo
        if lst < ect:
            events.append((lst, heights[k]))
            events.append((ect, -heights[k]))
    return profile_segments(events)


class Disjunctive(Propagator):
    """Tasks (s_i, d_i) on a unary resource: no two overlap. With strict=False a task of
    duration 0 may sit anywhere (MiniZinc's disjunctive); with strict=True it may not sit
    strictly inside another task (disjunctive_strict).

    Under a learning search it marks each change in the journal's payload with the rule
    that made it (scheduling_explain.py: a pair's precedence, an edge-finding push)."""

    priority = 2
    makes_holes = False
    explains = True

    def __init__(self, solver: Solver, starts: list[IntView], durations: list[IntView],
                 strict: bool) -> None:
        super().__init__(solver)
        self.starts = starts
        self.durations = durations
        self.strict = strict

    def post(self) -> None:
        for x in self.starts:
            x.subscribe(self, BOUNDS)
        for d in self.durations:
            d.subscribe(self, BOUNDS)
        for d in self.durations:
            d.set_min(0)
        self.propagate()

    def propagate(self) -> None:
        self._precedences()
        self._edge_finding()
        self._no_fit()

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return explain_disjunctive(journal, self.starts, self.durations, self.strict, e,
                                   out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_disjunctive_failure(journal, self.starts, self.durations,
                                           self.strict, out)

    def _precedences(self) -> None:
        """For each pair that cannot go in one order, post the other order."""
        s, d, strict = self.starts, self.durations, self.strict
        journal = self.solver.journal
        n = len(s)
        # _separate's rule on the two orders of each pair, without its list of ways: this
        # runs at every call, on every pair, and nearly every pair can still go either way
        for i in range(n):
            si = s[i]
            di = d[i]
            for j in range(i + 1, n):
                sj = s[j]
                dj = d[j]
                if not strict and (di.lo == 0 or dj.lo == 0):
                    continue
                i_first = si.lo + di.lo <= sj.hi
                j_first = sj.lo + dj.lo <= si.hi
                if i_first and j_first:
                    continue
                if journal is not None:
                    journal.current_code = PRECEDENCE + RULES * (i * n + j)
                if i_first:
                    _precede(si, di, sj)
                elif j_first:
                    _precede(sj, dj, si)
                else:
                    raise Inconsistency

    def _edge_finding(self) -> None:
        s, d = self.starts, self.durations
        journal = self.solver.journal
        tasks = [k for k in range(len(s)) if d[k].lo > 0]
        if len(tasks) < 2:
            return
        est = [s[k].lo for k in tasks]
        lct = [s[k].hi + d[k].hi for k in tasks]
        p = [d[k].lo for k in tasks]
        if journal is not None:
            journal.current_code = EDGE_FORWARD  # an overload
        new_est = edge_finding(est, lct, p)
        for a, k in enumerate(tasks):
            if new_est[a] > est[a]:
                if journal is not None:
                    journal.current_code = EDGE_FORWARD + RULES * (k + 1)
                s[k].set_min(new_est[a])
        # the mirror image: time runs backwards, latest completions become earliest starts
        est = [-(s[k].hi + d[k].hi) for k in tasks]
        lct = [-s[k].lo for k in tasks]
        if journal is not None:
            journal.current_code = EDGE_BACKWARD
        new_est = edge_finding(est, lct, p)
        for a, k in enumerate(tasks):
            if new_est[a] > est[a]:
                if journal is not None:
                    journal.current_code = EDGE_BACKWARD + RULES * (k + 1)
                latest_end = -new_est[a]
                s[k].set_max(latest_end - d[k].lo)
                d[k].set_max(latest_end - s[k].lo)

    def _no_fit(self) -> None:
        """A task that may last 0 (an optional interval not yet present) and cannot fit in
        its start window between the compulsory parts of the others lasts 0."""
        s, d = self.starts, self.durations
        n = len(s)
        undecided = [k for k in range(n) if d[k].lo == 0 < d[k].hi]
        if not undecided:
            return
        tasks = [k for k in range(n) if d[k].lo > 0]
        segments = compulsory_profile(s, d, [1] * n, tasks)
        if not segments:
            return
        journal = self.solver.journal
        for k in undecided:
            if earliest_fit(segments, s[k].lo, smallest_positive(d[k]), 1, 1) > s[k].hi:
                if journal is not None:
                    journal.current_code = NO_FIT + RULES * (k + 1)
                d[k].set_max(0)


class Cumulative(Propagator):
    """Tasks (s_i, d_i, r_i) on a resource of capacity c: at every time, the demands of the
    running tasks add up to at most c. Tasks of duration or demand 0 use nothing."""

    priority = 2
    makes_holes = False
    explains = True

    def __init__(self, solver: Solver, starts: list[IntView], durations: list[IntView],
                 demands: list[IntView], capacity: IntView) -> None:
        super().__init__(solver)
        self.starts = starts
        self.durations = durations
        self.demands = demands
        self.capacity = capacity

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return explain_cumulative(journal, self.starts, self.durations, self.demands,
                                  self.capacity, e, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_cumulative_failure(journal, self.starts, self.durations,
                                          self.demands, self.capacity, out)

    def post(self) -> None:
        for group in (self.starts, self.durations, self.demands):
            for x in group:
                x.subscribe(self, BOUNDS)
        self.capacity.subscribe(self, BOUNDS)
        for group in (self.durations, self.demands):
            for x in group:
                x.set_min(0)
        if self.starts:
            self.capacity.set_min(0)
        self.propagate()

    def propagate(self) -> None:
        s, d, r, c = self.starts, self.durations, self.demands, self.capacity
        # a task that runs needs its demand at least once: it is at most the capacity, and
        # a task that cannot fit must last 0
        peak = 0
        for k in range(len(s)):
            if r[k].lo > c.hi:
                d[k].set_max(0)
            elif d[k].lo > 0:
                r[k].set_max(c.hi)
                if r[k].lo > peak:
                    peak = r[k].lo
        tasks = [k for k in range(len(s)) if d[k].lo > 0 and r[k].lo > 0]
        if not tasks:
            c.set_min(peak)
            return
        segments = self._profile(tasks)
        for _, _, height in segments:
            if height > peak:
                peak = height
        c.set_min(peak)
        cap = c.hi
        for k in tasks:
            self._push(k, segments, cap)
        # an undecided task (it may last 0: an optional interval not yet present) that
        # cannot fit anywhere in its start window beside the compulsory parts lasts 0
        for k in range(len(s)):
            dk = d[k]
            if dk.lo == 0 < dk.hi and 0 < r[k].lo <= cap:
                q = smallest_positive(dk)
                if earliest_fit(segments, s[k].lo, q, r[k].lo, cap) > s[k].hi:
                    dk.set_max(0)
        self._overload(tasks, cap)

    def _profile(self, tasks: list[int]) -> list[tuple[int, int, int]]:
        """The compulsory parts [lst, ect) as disjoint segments (start, end, height) of
        positive height, in time order."""
        return compulsory_profile(self.starts, self.durations,
                                  [r.lo for r in self.demands], tasks)

    def _push(self, k: int, segments: list[tuple[int, int, int]], cap: int) -> None:
        """Move task k's start bounds past the profile segments it cannot run beside."""
        x, p, h = self.starts[k], self.durations[k].lo, self.demands[k].lo
        lst, ect = x.hi, x.lo + p
        # earliest start: scan forwards from est
        t = x.lo
        for a, b, height in segments:
            if b <= t:
                continue
            if a >= t + p:
                break
            own = h if lst <= a and b <= ect else 0
            if height - own + h > cap:
                t = b
        x.set_min(t)
        # latest start: scan backwards from the latest end lst + p
        u = x.hi + p
        for e in range(len(segments) - 1, -1, -1):
            a, b, height = segments[e]
            if a >= u:
                continue
            if b <= u - p:
                break
            own = h if lst <= a and b <= ect else 0
            if height - own + h > cap:
                u = a
        x.set_max(u - p)

    def _overload(self, tasks: list[int], cap: int) -> None:
        """Fail when the tasks that must run inside a window [est_a, lct_b] need more energy
        (duration x demand) than cap * (lct_b - est_a)."""
        s, d, r = self.starts, self.durations, self.demands
        by_lct = sorted(tasks, key=lambda k: s[k].hi + d[k].hi)
        # the tasks' windows and energies read once, in order of lct: the double loop
        # below reads each O(n) times
        ests = [s[k].lo for k in by_lct]
        ends = [s[k].hi + d[k].hi for k in by_lct]
        energies = [d[k].lo * r[k].lo for k in by_lct]
        n = len(by_lct)
        for lo in sorted(set(ests)):
            energy = 0
            for b in range(n):
                if ests[b] < lo:
                    continue
                energy += energies[b]
                if energy > cap * (ends[b] - lo):
                    raise Inconsistency


class NoOverlap2D(Propagator):
    """Rectangles (x_i, y_i, w_i, h_i) do not overlap: each pair is separated on x or on y
    (a rectangle of width or height 0 may still not lie strictly inside another).

    Under a learning search it marks each change in the journal's payload with the pair
    (i * n + j) whose last separation it enforces."""

    priority = 2
    makes_holes = False
    explains = True

    def __init__(self, solver: Solver, xs: list[IntView], ys: list[IntView],
                 ws: list[IntView], hs: list[IntView]) -> None:
        super().__init__(solver)
        self.xs, self.ys, self.ws, self.hs = xs, ys, ws, hs

    def post(self) -> None:
        for group in (self.xs, self.ys, self.ws, self.hs):
            for v in group:
                v.subscribe(self, BOUNDS)
        for group in (self.ws, self.hs):
            for v in group:
                v.set_min(0)
        self.propagate()

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        pair = journal.code[e]
        n = len(self.xs)
        if not 0 <= pair < n * n or pair // n >= pair % n:  # a stale code: no pair i < j
            return False
        ways = rectangle_ways(self.xs, self.ys, self.ws, self.hs, pair // n, pair % n)
        return explain_separation(journal, ways, e, 0, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        pair = journal.current_code
        n = len(self.xs)
        if not 0 <= pair < n * n or pair // n >= pair % n:  # a stale code: no pair i < j
            return False
        ways = rectangle_ways(self.xs, self.ys, self.ws, self.hs, pair // n, pair % n)
        return explain_separation_failure(journal, ways, 0, out)

    def propagate(self) -> None:
        xs, ys, ws, hs = self.xs, self.ys, self.ws, self.hs
        journal = self.solver.journal
        n = len(xs)
        for i in range(n):
            for j in range(i + 1, n):
                if journal is not None:
                    journal.current_code = i * n + j
                # i left of j, j left of i, i below j, j below i
                _separate([(xs[i], ws[i], xs[j]), (xs[j], ws[j], xs[i]),
                           (ys[i], hs[i], ys[j]), (ys[j], hs[j], ys[i])])


def _separate(ways: list[tuple[IntView, IntView, IntView]]) -> None:
    """One of the separations a + length <= b must hold: fail when none is still possible,
    and enforce (bounds consistent) the only one left."""
    possible = [way for way in ways if way[0].lo + way[1].lo <= way[2].hi]
    if not possible:
        raise Inconsistency
    if len(possible) == 1:
        _precede(*possible[0])


def _precede(a: IntView, length: IntView, b: IntView) -> None:
    """Enforce a + length <= b, bounds consistent."""
    b.set_min(a.lo + length.lo)
    a.set_max(b.hi - length.lo)
    length.set_max(b.hi - a.lo)
