"""Explanations of the Disjunctive propagator (issue 29 slice 9), for the learning search
(the principles are in scheduling_explain.py).

The propagator marks each change with a payload code: the rule, and the pair or task it
was applied to. A detectable precedence is a separation of the pair
(scheduling_explain.explain_separation). An edge-finding push of task i to ECT(Omega) is
explained by the set Theta of tasks of Omega that, with i, cannot run in a window [E, L]
(each `[s_j >= E]`, `[s_j <= L - p_j]`, with L lifted to E + p(Theta) + p_i - 1; i's
`[s_i >= E]`): i must then come after every task of Omega, and so after the set Omega_a
whose earliest completion is the bound (`[s_j >= E_a]`, `[s_j <= L - p_j]`). An overload
by the set that does not fit its window. Backwards, time is mirrored (see Windows). A
task that may last 0 and has no room between the compulsory parts of the others (NO_FIT)
is explained as the cumulative one (cumulative_explain.no_room, demands and capacity 1).
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import Pred
from conundrum.propagators.cumulative_explain import Tasks, no_room
from conundrum.propagators.scheduling_explain import (
    INFINITY,
    NONE,
    add_ge,
    add_le,
    all_bounds,
    empties_from_above,
    empties_from_below,
    explain_separation,
    explain_separation_failure,
    pair_ways,
    reach_hi,
    reach_lo,
    roles_of,
)

# payload codes (code = rule + RULES * argument): the pair (i * n + j) of a detectable
# precedence, the task + 1 of an edge-finding push (0: the overload check), the task + 1
# whose duration the profile of the compulsory parts leaves no room for (NO_FIT)
PRECEDENCE: Final = 0
EDGE_FORWARD: Final = 1
EDGE_BACKWARD: Final = 2
NO_FIT: Final = 3
RULES: Final = 4


# ------------------------------------------------------------------------ unary resource
class Windows:
    """The tasks of a unary resource at one journal position, seen forwards (est = s.lo,
    lct = s.hi + d.hi) or backwards (time reversed: est = -(s.hi + d.hi), lct = -s.lo), as
    scheduling.edge_finding reads them; p = d.lo, and the tasks that count have p > 0.

    The predicates it writes describe each task's *first portion* [s, s + p) in real time:
    forwards, "est >= E" is `[s >= E]` and "lct <= L" is `[s <= L - p]`; backwards, "est
    >= E" is `[s <= -E - p]` and "lct <= L" is `[s >= -L]`. Only the pushed task of a
    backward rule needs its real end bounded (`[s <= -E - d.hi]`, `[d <= d.hi]`)."""

    def __init__(self, journal: Journal, starts: list[IntView], durations: list[IntView],
                 pos: int, forward: bool) -> None:
        self.journal = journal
        self.starts = starts
        self.durations = durations
        self.forward = forward
        s_lo, s_hi = all_bounds(journal, starts, pos)
        d_lo, d_hi = all_bounds(journal, durations, pos)
        n = len(starts)
        self.s_lo = s_lo
        self.s_hi = s_hi
        self.d_hi = d_hi
        self.p = d_lo
        if forward:
            self.est = s_lo
            self.lct = [s_hi[k] + d_hi[k] for k in range(n)]
        else:
            self.est = [-(s_hi[k] + d_hi[k]) for k in range(n)]
            self.lct = [-s_lo[k] for k in range(n)]
        self.tasks = [k for k in range(n) if d_lo[k] > 0]

    # ---------------------------------------------------------------- predicates
    def est_ge(self, j: int, v: int, pushed: bool, out: list[Pred]) -> None:
        if self.forward:
            add_ge(self.journal, self.starts[j], v, out)
        elif pushed:
            add_le(self.journal, self.starts[j], -v - self.d_hi[j], out)
            add_le(self.journal, self.durations[j], self.d_hi[j], out)
        else:
            add_le(self.journal, self.starts[j], -v - self.p[j], out)

    def lct_le(self, j: int, v: int, out: list[Pred]) -> None:
        if self.forward:
            add_le(self.journal, self.starts[j], v - self.p[j], out)
        else:
            add_ge(self.journal, self.starts[j], -v, out)

    def energy(self, j: int, out: list[Pred]) -> None:
        add_ge(self.journal, self.durations[j], self.p[j], out)

    # ---------------------------------------------------------------- task sets
    def omega(self, skip: int, bound: int) -> list[int]:
        """The tasks but `skip` with lct <= bound, by earliest start."""
        om = [j for j in self.tasks if j != skip and self.lct[j] <= bound]
        om.sort(key=lambda j: self.est[j])
        return om

    def completion(self, om: list[int]) -> tuple[int, int]:
        """ECT(om), the largest est_a + p(the tasks of om from a on), and that a."""
        best = NONE
        at = -1
        total = 0
        for a in range(len(om) - 1, -1, -1):
            total += self.p[om[a]]
            v = self.est[om[a]] + total
            if v > best:
                best = v
                at = a
        return best, at

    def with_task(self, om: list[int], i: int) -> tuple[int, int, int]:
        """The largest E + p_i + p(the tasks of om from E on) over the thresholds E <= est_i
        (the sets that hold i), with that E and the index in om where its tasks begin."""
        ei = self.est[i]
        m = len(om)
        suffix = [0] * (m + 1)
        for a in range(m - 1, -1, -1):
            suffix[a] = suffix[a + 1] + self.p[om[a]]
        b = 0
        while b < m and self.est[om[b]] < ei:
            b += 1
        best = ei + self.p[i] + suffix[b]
        at = b
        start = ei
        for a in range(b):
            v = self.est[om[a]] + self.p[i] + suffix[a]
            if v > best:
                best = v
                at = a
                start = self.est[om[a]]
        return best, start, at

    def overloaded(self, om: list[int], a: int, out: list[Pred]) -> None:
        """Append why the tasks om[a:] cannot all run in [est of om[a], its lct]: they start
        no earlier than E and end their first portions by L = E + their durations - 1."""
        e0 = self.est[om[a]]
        last = e0 - 1
        for x in range(a, len(om)):
            last += self.p[om[x]]
        for x in range(a, len(om)):
            j = om[x]
            self.est_ge(j, e0, False, out)
            self.lct_le(j, last, out)
            self.energy(j, out)

    def find_overload(self, out: list[Pred]) -> bool:
        """Find a set Omega = {lct <= L} whose earliest completion exceeds L, and explain it."""
        for bound in sorted({self.lct[j] for j in self.tasks}):
            om = self.omega(-1, bound)
            ect, a = self.completion(om)
            if ect > bound:
                self.overloaded(om, a, out)
                return True
        return False

    def push(self, i: int, target: int, out: list[Pred]) -> int:
        """Explain est_i >= target by edge-finding (as scheduling.edge_finding): a set Omega
        of the other tasks, all with lct <= L, such that the tasks of Omega and i starting
        no earlier than E cannot run in [E, L] (so i comes after every task of Omega), and
        whose earliest completion is the bound. Returns the bound reached: the largest
        such completion up to `target` (NONE: no set found, INFINITY: Omega is overloaded
        in itself, which explains anything)."""
        if self.p[i] <= 0:
            return NONE  # i may last 0: it need not be ordered with the others
        best = NONE
        best_bound = 0
        for bound in sorted({self.lct[j] for j in self.tasks if j != i}):
            om = self.omega(i, bound)
            ect, _ = self.completion(om)
            if ect > bound:
                return self._overload_of(om, out)
            if ect <= best:
                continue
            val, _, _ = self.with_task(om, i)
            if val > bound:
                best = ect
                best_bound = bound
                if ect >= target:
                    break
        if best == NONE:
            return NONE
        om = self.omega(i, best_bound)
        ect, a2 = self.completion(om)
        val, e0, b = self.with_task(om, i)
        last = val - 1  # the window [e0, last] that om[b:] and i overload, lifted
        e2 = self.est[om[a2]]
        for x in range(min(a2, b), len(om)):
            j = om[x]
            threshold = NONE
            if x >= b:
                threshold = e0
            if x >= a2 and e2 > threshold:
                threshold = e2
            self.est_ge(j, threshold, False, out)
            self.lct_le(j, last, out)
            self.energy(j, out)
        self.est_ge(i, e0, True, out)
        self.energy(i, out)
        return ect

    def _overload_of(self, om: list[int], out: list[Pred]) -> int:
        _, a = self.completion(om)
        self.overloaded(om, a, out)
        return INFINITY


def explain_disjunctive(journal: Journal, starts: list[IntView], durations: list[IntView],
                        strict: bool, e: int, out: list[Pred]) -> bool:
    """Explain entry e of a Disjunctive, by the rule its payload code names: a detectable
    precedence of a pair, or an edge-finding push (forwards: a start's lower bound;
    backwards: a start's upper bound, or a duration's upper bound below the latest end)."""
    code = journal.code[e]
    rule = code % RULES
    arg = code // RULES
    n = len(starts)
    if rule == PRECEDENCE:
        if arg >= n * n or arg // n >= arg % n:  # a stale code: no pair i < j
            return False
        ways = pair_ways(starts, durations, arg // n, arg % n)
        return explain_separation(journal, ways, e, 0 if strict else 1, out)
    k = arg - 1
    if k < 0 or k >= n:
        return False
    i = journal.var[e]
    roles = roles_of(i, [starts, durations])
    if len(roles) != 1 or roles[0][1] != k:
        return False
    lo, hi, _ = journal.domain_at(i, e)
    plo, phi, _ = journal.domain_at(i, journal.prev[e])
    x = starts[k]
    if rule == NO_FIT:
        if roles[0][0] != 1 or not hi < phi or lo > plo:
            return False
        return no_room(journal, Tasks(journal, starts, durations, None, None, e), k, e,
                       out)
    if rule == EDGE_FORWARD:
        if roles[0][0] != 0 or not lo > plo:
            return False
        ws = Windows(journal, starts, durations, e, True)
        t = ws.push(k, lo + x.offset, out)
        return t != NONE and reach_lo(journal, x, e, t, out)
    if not hi < phi:
        return False
    ws = Windows(journal, starts, durations, e, False)
    if roles[0][0] == 0:
        t = ws.push(k, -(hi + x.offset) - ws.p[k], out)
        return t != NONE and reach_hi(journal, x, e, -t - ws.p[k], out)
    d = durations[k]
    t = ws.push(k, -(hi + d.offset) - ws.s_lo[k], out)  # the latest end is -t
    if t == NONE:
        return False
    add_ge(journal, x, ws.s_lo[k], out)
    return reach_hi(journal, d, e, -t - ws.s_lo[k], out)


def explain_disjunctive_failure(journal: Journal, starts: list[IntView],
                                durations: list[IntView], strict: bool,
                                out: list[Pred]) -> bool:
    """Explain a failure of a Disjunctive now, by the rule running when it failed (the
    payload code): a pair with no order left, an overloaded set, or an edge-finding push
    that empties a start's domain."""
    code = journal.current_code
    rule = code % RULES
    arg = code // RULES
    n = len(starts)
    if rule == PRECEDENCE:
        if arg >= n * n or arg // n >= arg % n:  # a stale code: no pair i < j
            return False
        ways = pair_ways(starts, durations, arg // n, arg % n)
        return explain_separation_failure(journal, ways, 0 if strict else 1, out)
    ws = Windows(journal, starts, durations, len(journal), rule == EDGE_FORWARD)
    k = arg - 1
    if 0 <= k < n and rule != NO_FIT:  # NO_FIT lowers to 0 a duration that may be 0
        start = len(out)
        x = starts[k]
        if rule == EDGE_FORWARD:
            t = ws.push(k, ws.s_hi[k] + 1, out)
            if t != NONE and empties_from_below(journal, x, t, out):
                return True
        else:
            t = ws.push(k, -(ws.s_lo[k] - 1) - ws.p[k], out)
            if t != NONE and empties_from_above(journal, x, -t - ws.p[k], out):
                return True
        del out[start:]
    return ws.find_overload(out)
