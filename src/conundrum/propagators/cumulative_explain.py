"""Explanations of the Cumulative propagator (issue 29 slice 9), for the learning search
(the principles are in scheduling_explain.py).

Timetable pushes (Schutt, Feydy, Stuckey, "Explaining the cumulative propagator", 2011,
interval explanations): a start pushed from t past a profile segment [a, b) is explained by
the tasks whose compulsory parts cover [a', b), a' = max(a, t) (`[s_j <= a']`,
`[s_j >= b - p_j]`, their durations and demands: the highest first, just enough of them to
overload the segment beside the task, the last one's demand lifted to what is needed), by
the task's own duration and demand, the capacity, and the task's previous bound lifted to
`[s_k >= a' - p_k + 1]` (every start from there on meets the segment); a push over several
segments joins their explanations. The other inferences (a duration forced to 0 by a
demand above the capacity, a demand capped by it, the capacity raised to a peak) and the
failures (a peak above the capacity, a push that empties a domain, an energetic overload of
a window) are explained the same way.
"""

from __future__ import annotations

from conundrum.engine import IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import Pred, contains_in
from conundrum.propagators.scheduling_explain import (
    NONE,
    add_ge,
    add_le,
    all_bounds,
    empties_from_above,
    empties_from_below,
    reach_hi,
    reach_lo,
    roles_of,
    view_bounds,
)


def profile_segments(events: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The profile of parts given as events (time, +height at a start, -height at an end):
    disjoint segments (start, end, height) of positive height, in time order. Sorts
    `events`."""
    events.sort()
    out: list[tuple[int, int, int]] = []
    height = 0
    for e in range(len(events)):
        t, delta = events[e]
        height += delta
        if e + 1 < len(events) and events[e + 1][0] > t and height > 0:
            out.append((t, events[e + 1][0], height))
    return out


class Tasks:
    """The bounds of a cumulative resource's tasks at one journal position: starts
    est..lst, smallest durations p, smallest demands h, the capacity's upper bound, and
    the tasks that count (p > 0 and h > 0)."""

    def __init__(self, journal: Journal, starts: list[IntView], durations: list[IntView],
                 demands: list[IntView] | None, capacity: IntView | None, pos: int) -> None:
        self.journal = journal
        self.starts = starts
        self.durations = durations
        self.demands = demands
        self.capacity = capacity
        self.est, self.lst = all_bounds(journal, starts, pos)
        self.p, _ = all_bounds(journal, durations, pos)
        # no demands and no capacity: a unary resource (each demand 1, the capacity 1)
        self.h = [1] * len(starts)
        if demands is not None:
            self.h, _ = all_bounds(journal, demands, pos)
        self.cap = 1
        if capacity is not None:
            _, self.cap = view_bounds(journal, capacity, pos)
        n = len(starts)
        self.ect = [self.est[k] + self.p[k] for k in range(n)]
        self.running = [k for k in range(n) if self.p[k] > 0 and self.h[k] > 0]

    def segments(self, skip: int) -> list[tuple[int, int, int]]:
        """The profile of the compulsory parts [lst, ect) of the running tasks but `skip`,
        as disjoint segments (start, end, height) of positive height in time order."""
        events: list[tuple[int, int]] = []
        for k in self.running:
            if k != skip and self.lst[k] < self.ect[k]:
                events.append((self.lst[k], self.h[k]))
                events.append((self.ect[k], -self.h[k]))
        return profile_segments(events)

    def cover(self, a: int, b: int, need: int, skip: int, out: list[Pred]) -> bool:
        """Append the bounds of running tasks (but `skip`) whose compulsory parts cover
        [a, b) and whose demands add up to `need` or more: the highest first, the last one's
        demand lifted to what is still needed. False if they do not add up."""
        if need <= 0:
            return True
        covering = [k for k in self.running
                    if k != skip and self.lst[k] <= a and self.ect[k] >= b]
        covering.sort(key=lambda k: -self.h[k])
        journal = self.journal
        for k in covering:
            if need <= 0:
                break
            add_le(journal, self.starts[k], a, out)
            add_ge(journal, self.starts[k], b - self.p[k], out)
            add_ge(journal, self.durations[k], self.p[k], out)
            self.demand_ge(k, min(self.h[k], need), out)
            need -= self.h[k]
        return need <= 0

    def demand_ge(self, k: int, v: int, out: list[Pred]) -> None:
        """`[r_k >= v]` (nothing on a unary resource)."""
        if self.demands is not None:
            add_ge(self.journal, self.demands[k], v, out)

    def capacity_le(self, out: list[Pred]) -> None:
        """The capacity's upper bound (nothing on a unary resource)."""
        if self.capacity is not None:
            add_le(self.journal, self.capacity, self.cap, out)

    def own(self, k: int, out: list[Pred]) -> None:
        """Task k's smallest duration and demand, and the capacity's upper bound."""
        add_ge(self.journal, self.durations[k], self.p[k], out)
        self.demand_ge(k, self.h[k], out)
        self.capacity_le(out)

    def no_fit(self, k: int, q: int, out: list[Pred]) -> bool:
        """Explain why task k, which may last 0 (it has no compulsory part), cannot last q
        or more: from its earliest start, every start up to its latest meets a profile
        segment it cannot run beside (as scheduling.earliest_fit). Appends task k's start
        window, demand and the capacity, and a cover of each segment passed (the first
        one's start lifted as in push_lo); False if the sweep ends inside the window."""
        h, cap, lst = self.h[k], self.cap, self.lst[k]
        if q <= 0 or h <= 0:
            return False
        start = len(out)
        t = self.est[k]
        first = True
        for a, b, height in self.segments(k):
            if b <= t:
                continue
            if a >= t + q or t > lst:
                break
            if height + h > cap:
                from_t = max(a, t)
                if first:
                    add_ge(self.journal, self.starts[k], from_t - q + 1, out)
                    first = False
                if not self.cover(from_t, b, cap - h + 1, k, out):
                    del out[start:]
                    return False
                t = b
        if t <= lst:
            del out[start:]
            return False
        add_le(self.journal, self.starts[k], lst, out)
        self.demand_ge(k, h, out)
        self.capacity_le(out)
        return True

    def push_lo(self, k: int, target: int, out: list[Pred]) -> int:
        """Explain s_k >= target by the timetable: sweep from est_k past the overloaded
        segments (as Cumulative._push) until target; the bound reached (NONE: none)."""
        p, h, cap = self.p[k], self.h[k], self.cap
        if p <= 0 or h <= 0:
            return NONE
        t = self.est[k]
        first = True
        for a, b, height in self.segments(k):
            if b <= t:
                continue
            if a >= t + p or t >= target:
                break
            if height + h > cap:
                start = max(a, t)
                if first:
                    add_ge(self.journal, self.starts[k], start - p + 1, out)
                    self.own(k, out)
                    first = False
                if not self.cover(start, b, cap - h + 1, k, out):
                    return NONE
                t = b
        return NONE if first else t

    def push_hi(self, k: int, target: int, out: list[Pred]) -> int:
        """The mirror of push_lo: explain s_k <= target; the bound reached (NONE: none)."""
        p, h, cap = self.p[k], self.h[k], self.cap
        if p <= 0 or h <= 0:
            return NONE
        u = self.lst[k] + p  # the latest end
        first = True
        segments = self.segments(k)
        for e in range(len(segments) - 1, -1, -1):
            a, b, height = segments[e]
            if a >= u:
                continue
            if b <= u - p or u - p <= target:
                break
            if height + h > cap:
                end = min(b, u)
                if first:
                    add_le(self.journal, self.starts[k], end - 1, out)
                    self.own(k, out)
                    first = False
                if not self.cover(a, end, cap - h + 1, k, out):
                    return NONE
                u = a
        return NONE if first else u - p

    def peak(self, out: list[Pred]) -> int:
        """Explain the largest lower bound the tasks give the capacity: one running task's
        demand or the highest point of the profile. Returns it (0: nothing to say)."""
        best = 0
        single = -1
        for k in range(len(self.starts)):
            if self.p[k] > 0 and self.h[k] > best:
                best = self.h[k]
                single = k
        top: tuple[int, int, int] = (0, 0, 0)
        for seg in self.segments(-1):
            if seg[2] > top[2]:
                top = seg
        if top[2] > best:
            self.cover(top[0], top[0] + 1, top[2], -1, out)
            return top[2]
        if single >= 0:
            add_ge(self.journal, self.durations[single], 1, out)
            self.demand_ge(single, best, out)
        return best

    def overload(self, out: list[Pred]) -> bool:
        """Find a window [lo, L] that the tasks starting no earlier than lo and ending by L
        overload (as Cumulative._overload) and append its explanation: each task's
        `[s >= lo]`, `[s <= L - p]` (its first p units lie in the window), duration, demand,
        and the capacity, with L lifted as far as the energy allows."""
        cap = self.cap
        if cap <= 0:
            return False
        ends = [self.lst[k] + self.p[k] for k in self.running]  # first portions end by
        by_end = [self.running[a] for a in sorted(range(len(ends)), key=lambda a: ends[a])]
        for lo in sorted({self.est[k] for k in self.running}):
            energy = 0
            inside: list[int] = []
            for k in by_end:
                if self.est[k] < lo:
                    continue
                energy += self.p[k] * self.h[k]
                inside.append(k)
                if energy > cap * (self.lst[k] + self.p[k] - lo):
                    last = lo + (energy - 1) // cap  # energy > cap * (last - lo)
                    journal = self.journal
                    for j in inside:
                        add_ge(journal, self.starts[j], lo, out)
                        add_le(journal, self.starts[j], last - self.p[j], out)
                        add_ge(journal, self.durations[j], self.p[j], out)
                        self.demand_ge(j, self.h[j], out)
                    self.capacity_le(out)
                    return True
        return False


def smallest_positive_before(journal: Journal, x: IntView, e: int) -> int:
    """The smallest value above 0 of the view x just before entry e (NONE: none)."""
    lo, hi, bits = journal.domain_at(x.root.index, journal.prev[e])
    off = x.offset
    for v in range(max(1 - off, lo), hi + 1):
        if contains_in(v, lo, hi, bits):
            return v + off
    return NONE


def no_room(journal: Journal, ts: Tasks, k: int, e: int, out: list[Pred]) -> bool:
    """Explain entry e, task k's duration lowered to 0 because a task of k's smallest
    positive duration q fits nowhere in its start window (Tasks.no_fit explains d_k <=
    q - 1; reach_hi adds the holes 1..q - 1 of d_k's domain)."""
    if ts.p[k] != 0:
        return False
    d = ts.durations[k]
    q = smallest_positive_before(journal, d, e)
    if q == NONE or not ts.no_fit(k, q, out):
        return False
    return reach_hi(journal, d, e, q - 1, out)


def explain_cumulative(journal: Journal, starts: list[IntView], durations: list[IntView],
                       demands: list[IntView], capacity: IntView, e: int,
                       out: list[Pred]) -> bool:
    """Explain entry e of a Cumulative: a start pushed by the timetable, a duration forced
    to 0 or a demand capped by the capacity, the capacity raised to a peak."""
    i = journal.var[e]
    roles = roles_of(i, [starts, durations, demands, [capacity]])
    if len(roles) != 1:
        return False  # a variable in two roles: which one moved is not known
    group, k = roles[0]
    lo, hi, _ = journal.domain_at(i, e)
    plo, phi, _ = journal.domain_at(i, journal.prev[e])
    if lo > plo and hi < phi:
        return False
    raised = lo > plo
    ts = Tasks(journal, starts, durations, demands, capacity, e)
    if group == 0:
        x = starts[k]
        if raised:
            t = ts.push_lo(k, lo + x.offset, out)
            return t != NONE and reach_lo(journal, x, e, t, out)
        t = ts.push_hi(k, hi + x.offset, out)
        return t != NONE and reach_hi(journal, x, e, t, out)
    if group == 1 and not raised:  # r_k > c, or no room in the window: the task cannot run
        if ts.h[k] <= ts.cap:
            return no_room(journal, ts, k, e, out)
        add_ge(journal, demands[k], ts.cap + 1, out)
        add_le(journal, capacity, ts.cap, out)
        return reach_hi(journal, durations[k], e, 0, out)
    if group == 2 and not raised:  # a running task needs its demand at least once
        if ts.p[k] <= 0:
            return False
        add_ge(journal, durations[k], 1, out)
        add_le(journal, capacity, ts.cap, out)
        return reach_hi(journal, demands[k], e, ts.cap, out)
    if group == 3 and raised:
        return reach_lo(journal, capacity, e, ts.peak(out), out)
    return False


def explain_cumulative_failure(journal: Journal, starts: list[IntView],
                               durations: list[IntView], demands: list[IntView],
                               capacity: IntView, out: list[Pred]) -> bool:
    """Explain a failure of a Cumulative now: a running task's demand or a peak of the
    profile above the capacity, a timetable push that empties a start's domain, or an
    energetic overload. False if none of them is found."""
    now = len(journal)
    ts = Tasks(journal, starts, durations, demands, capacity, now)
    start = len(out)
    if empties_from_below(journal, capacity, ts.peak(out), out):
        return True
    del out[start:]
    for k in ts.running:
        t = ts.push_lo(k, ts.lst[k] + 1, out)
        if t != NONE and empties_from_below(journal, starts[k], t, out):
            return True
        del out[start:]
        t = ts.push_hi(k, ts.est[k] - 1, out)
        if t != NONE and empties_from_above(journal, starts[k], t, out):
            return True
        del out[start:]
    return ts.overload(out)
