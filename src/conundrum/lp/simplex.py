"""A bounded-variable primal simplex over floats: the solver of the linear relaxation.

    minimise c.x  subject to  a_i.x <= b_i (or == b_i),  lo_j <= x_j <= hi_j

where a bound may be infinite (math.inf). Dense tableau, two phases (artificial columns
for the rows the starting point violates), Dantzig's pricing, Bland's rule after a run of
degenerate steps so that it cannot cycle.

Floats, not exact arithmetic, on purpose: nobody trusts the answer as such. The caller
takes the dual multipliers as the weights of a combination of the rows and derives the
bound from that combination exactly (compiler/relaxation.py); round-off can weaken the
bound, never make it wrong. The tableau is dense, which suits the small and medium models
met here; `max_pivots` caps the work.
"""

from __future__ import annotations

from math import inf
from typing import Final

OPTIMAL: Final = 0
INFEASIBLE: Final = 1
UNBOUNDED: Final = 2
LIMIT: Final = 3

PIVOT_EPS: Final = 1e-9    # smallest tableau entry pivoted on
COST_EPS: Final = 1e-9     # smallest reduced cost that improves
FEAS_EPS: Final = 1e-7     # phase 1 optimum above this: no feasible point
DEGENERATE_RUN: Final = 50  # degenerate steps before Bland's rule takes over


class LPResult:
    """What the simplex ends with: `status` (OPTIMAL, INFEASIBLE, UNBOUNDED, LIMIT), the
    objective value and point when optimal, `duals` (one multiplier per row: >= 0 for a
    <= row, any sign for an == row, such that c + sum(duals_i a_i) are the reduced costs)
    and the number of pivots."""

    __slots__ = ("status", "objective", "x", "duals", "pivots")

    def __init__(self, status: int, objective: float, x: list[float], duals: list[float],
                 pivots: int) -> None:
        self.status = status
        self.objective = objective
        self.x = x
        self.duals = duals
        self.pivots = pivots


class _Tableau:
    """B^-1 A over all columns (structural, then one slack per <= row, then the
    artificials), the values of every column, the basis, and the reduced costs."""

    def __init__(self, rows: list[list[float]], le: list[bool], b: list[float],
                 lo: list[float], hi: list[float]) -> None:
        n = len(lo)
        m = len(rows)
        self.lo: list[float] = list(lo)
        self.hi: list[float] = list(hi)
        self.value: list[float] = []
        for j in range(n):
            # a nonbasic column sits at a finite bound, or at 0 when it has none
            self.value.append(lo[j] if lo[j] > -inf else hi[j] if hi[j] < inf else 0.0)
        residual: list[float] = []
        for i in range(m):
            r = b[i]
            row = rows[i]
            for j in range(n):
                if row[j] != 0.0:
                    r -= row[j] * self.value[j]
            residual.append(r)
        # the logical columns: a slack per <= row, an artificial per row the start violates
        # (and per == row, so that every row has a unit column to read its dual from)
        self.slack: list[int] = []
        self.artificial: list[int] = []
        self.sign: list[float] = []
        ncols = n
        for i in range(m):
            self.slack.append(ncols if le[i] else -1)
            if le[i]:
                ncols += 1
        for i in range(m):
            needs = not le[i] or residual[i] < 0.0
            self.artificial.append(ncols if needs else -1)
            self.sign.append(1.0 if residual[i] >= 0.0 else -1.0)
            if needs:
                ncols += 1
        self.ncols = ncols
        self.tab: list[list[float]] = []
        self.basis: list[int] = []
        for i in range(m):
            line = [0.0] * ncols
            row = rows[i]
            for j in range(n):
                line[j] = row[j]
            s = self.slack[i]
            if s >= 0:
                line[s] = 1.0
                self.lo.append(0.0)
                self.hi.append(inf)
                self.value.append(0.0)
            self.tab.append(line)
        for i in range(m):
            a = self.artificial[i]
            if a >= 0:
                self.tab[i][a] = self.sign[i]
                self.lo.append(0.0)
                self.hi.append(inf)
                self.value.append(0.0)
        for i in range(m):
            a = self.artificial[i]
            if a >= 0:
                # the row's basic column is its artificial, which takes up the residual
                sign = self.sign[i]
                line = self.tab[i]
                for k in range(ncols):
                    line[k] *= sign
                self.basis.append(a)
                self.value[a] = residual[i] * sign
            else:
                s = self.slack[i]
                self.basis.append(s)
                self.value[s] = residual[i]
        self.basic = [False] * ncols
        for q in self.basis:
            self.basic[q] = True
        self.cost: list[float] = [0.0] * ncols
        self.reduced: list[float] = [0.0] * ncols
        self.work = 0  # tableau entries updated by the pivots so far

    def price(self, cost: list[float]) -> None:
        """Take `cost` as the objective: reduced costs c - c_B B^-1 A."""
        self.cost = cost
        reduced = list(cost)
        for i in range(len(self.basis)):
            cb = cost[self.basis[i]]
            if cb != 0.0:
                line = self.tab[i]
                for k in range(self.ncols):
                    if line[k] != 0.0:
                        reduced[k] -= cb * line[k]
        self.reduced = reduced

    def objective(self) -> float:
        total = 0.0
        for k in range(self.ncols):
            if self.cost[k] != 0.0:
                total += self.cost[k] * self.value[k]
        return total

    def entering(self, bland: bool) -> tuple[int, float]:
        """The column to move and its direction (+1 up, -1 down); (-1, 0) at an optimum."""
        best = -1
        direction = 0.0
        size = 0.0
        for k in range(self.ncols):
            if self.basic[k]:
                continue
            d = self.reduced[k]
            if d < -COST_EPS and self.value[k] < self.hi[k]:
                if bland:
                    return k, 1.0
                if -d > size:
                    best, direction, size = k, 1.0, -d
            elif d > COST_EPS and self.value[k] > self.lo[k]:
                if bland:
                    return k, -1.0
                if d > size:
                    best, direction, size = k, -1.0, d
        return best, direction

    def leaving(self, q: int, direction: float, bland: bool) -> tuple[int, float]:
        """The row whose basic column reaches a bound first as column q moves, and the
        step: row -1 when q reaches its own other bound first, step inf when unbounded."""
        step = self.hi[q] - self.lo[q]
        row = -1
        best_alpha = 0.0
        for i in range(len(self.basis)):
            alpha = self.tab[i][q]
            if -PIVOT_EPS < alpha < PIVOT_EPS:
                continue
            p = self.basis[i]
            move = -direction * alpha  # the basic column's change per unit step
            if move < 0.0:
                if self.lo[p] == -inf:
                    continue
                limit = (self.value[p] - self.lo[p]) / -move
            else:
                if self.hi[p] == inf:
                    continue
                limit = (self.hi[p] - self.value[p]) / move
            if limit < 0.0:
                limit = 0.0
            size = alpha if alpha > 0.0 else -alpha
            if limit < step or (limit == step and row >= 0 and (
                    self.basis[i] < self.basis[row] if bland else size > best_alpha)):
                step, row, best_alpha = limit, i, size
        return row, step

    def move(self, q: int, direction: float, row: int, step: float) -> None:
        """Move column q by `step` in `direction`; pivot it into `row` unless -1."""
        delta = direction * step
        self.value[q] += delta
        for i in range(len(self.basis)):
            alpha = self.tab[i][q]
            if alpha != 0.0:
                self.value[self.basis[i]] -= alpha * delta
        if row < 0:
            return
        p = self.basis[row]
        # the leaving column sits exactly on the bound it reached
        lo_p, hi_p = self.lo[p], self.hi[p]
        self.value[p] = lo_p if abs(self.value[p] - lo_p) <= abs(self.value[p] - hi_p) else hi_p
        self.basic[p] = False
        self.basic[q] = True
        self.basis[row] = q
        line = self.tab[row]
        pivot = line[q]
        nonzero: list[int] = []
        for k in range(self.ncols):
            if line[k] != 0.0:
                line[k] /= pivot
                nonzero.append(k)
        line[q] = 1.0
        for i in range(len(self.basis)):
            if i == row:
                continue
            other = self.tab[i]
            f = other[q]
            if f != 0.0:
                for k in nonzero:
                    other[k] -= f * line[k]
                other[q] = 0.0
                self.work += len(nonzero)
        f = self.reduced[q]
        if f != 0.0:
            for k in nonzero:
                self.reduced[k] -= f * line[k]
            self.reduced[q] = 0.0

    def optimise(self, max_pivots: int, max_work: int) -> tuple[int, int]:
        """Pivot to an optimum of the current costs: (status, pivots); LIMIT past
        `max_pivots` pivots or `max_work` tableau entries updated in all."""
        pivots = 0
        degenerate = 0
        while True:
            bland = degenerate >= DEGENERATE_RUN
            q, direction = self.entering(bland)
            if q < 0:
                return OPTIMAL, pivots
            if pivots >= max_pivots or self.work > max_work:
                return LIMIT, pivots
            row, step = self.leaving(q, direction, bland)
            if step == inf:
                return UNBOUNDED, pivots
            degenerate = degenerate + 1 if step == 0.0 else 0
            self.move(q, direction, row, step)
            pivots += 1


def solve(c: list[float], rows: list[list[float]], le: list[bool], b: list[float],
          lo: list[float], hi: list[float], max_pivots: int = 10_000,
          max_work: int = 50_000_000) -> LPResult:
    """Minimise c.x over rows[i].x <= b[i] (le[i]) or == b[i], lo <= x <= hi; LIMIT
    after `max_pivots` pivots or `max_work` tableau entries updated (the same count in
    the compiled and the pure build, unlike a clock)."""
    n = len(c)
    for j in range(n):
        if lo[j] > hi[j]:
            return LPResult(INFEASIBLE, 0.0, [], [], 0)
    t = _Tableau(rows, le, b, lo, hi)
    phase1 = [0.0] * t.ncols
    for a in t.artificial:
        if a >= 0:
            phase1[a] = 1.0
    t.price(phase1)
    status, pivots = t.optimise(max_pivots, max_work)
    if status == LIMIT:
        return LPResult(LIMIT, 0.0, [], [], pivots)
    if t.objective() > FEAS_EPS:
        return LPResult(INFEASIBLE, 0.0, [], [], pivots)
    for a in t.artificial:
        if a >= 0:  # out of the problem from now on: held at 0
            t.hi[a] = 0.0
            if not t.basic[a]:
                t.value[a] = 0.0
    cost = [0.0] * t.ncols
    for j in range(n):
        cost[j] = c[j]
    t.price(cost)
    status, more = t.optimise(max_pivots - pivots, max_work)
    pivots += more
    if status != OPTIMAL:
        return LPResult(status, 0.0, [], [], pivots)
    duals: list[float] = []
    for i in range(len(rows)):
        s = t.slack[i]
        if s >= 0:
            # a <= row's slack column is e_i with cost 0: its reduced cost is the dual
            d = t.reduced[s]
            duals.append(d if d > 0.0 else 0.0)
        else:
            a = t.artificial[i]
            duals.append(t.sign[i] * t.reduced[a])
    return LPResult(OPTIMAL, t.objective(), t.value[:n], duals, pivots)
