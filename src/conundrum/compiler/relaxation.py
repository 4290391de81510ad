"""The linear relaxation of a compiled model, and the cut its optimum gives the objective.

The rows are the model's linear constraints as the engine holds them (LinearLe, LinearEq:
sum(a_i x_i) + c REL 0, over views root + offset), the columns the roots, the box the
roots' bounds at the root node. Minimising (or maximising) the objective's root over them
with the simplex of lp/simplex.py gives dual multipliers w: w_i >= 0 on a <= row, any sign
on an == row. Whatever w is, sum(w_i * row_i) <= 0 is a valid inequality (a non-negative
combination of <= rows and any combination of == rows); with the LP's optimal w, its
bounds reasoning over the box gives the objective the LP's bound, and once branch and
bound caps the objective it fixes the columns whose reduced cost exceeds the gap (the
reduced-cost argument). So the cut is built from the multipliers rounded to exact
fractions and checked by nothing but arithmetic on integers: round-off in the simplex can
only weaken it. It is posted as one more LinearLe, so the classic and the learning search
use it alike, and the latter explains it as any linear row.

Where the rows' coefficients share a factor g the constant is rounded up (a
Chvatal-Gomory step: sum((a/g) x) <= floor(b/g) holds for integers), which can only
strengthen it.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, inf, lcm
from typing import TYPE_CHECKING

from conundrum.lp import simplex
from conundrum.propagators.linear import LinearEq, LinearLe, linear_bounds

if TYPE_CHECKING:
    from conundrum.engine import IntVar, IntView, Solver

BIG = 10**9          # a bound beyond is infinite to the LP (the relaxation only widens)
MAX_CELLS = 400_000  # rows x columns of the dense tableau
MAX_DENOMINATOR = 4096   # of a dual multiplier taken as a fraction
MAX_SCALE = 1 << 40      # beyond this common denominator, multipliers are rounded instead
FIXED_POINT = 1 << 20


class Relaxation:
    """The rows {root index: coefficient} with constant c, meaning sum + c <= 0 (`le`) or
    == 0, and the roots they use."""

    def __init__(self, solver: Solver) -> None:
        self.rows: list[tuple[dict[int, int], int, bool]] = []
        self.roots: dict[int, IntVar] = {}
        for p in solver.propagators:
            if not p.active:  # entailed at the root: no constraint within the box
                continue
            if isinstance(p, LinearLe):
                le = True
            elif isinstance(p, LinearEq):
                le = False
            else:
                continue
            terms: dict[int, int] = {}
            c = p.c
            for k in range(len(p.xs)):
                a = p.coefs[k]
                x = p.xs[k]
                r = x.root
                terms[r.index] = terms.get(r.index, 0) + a
                c += a * x.offset
                self.roots[r.index] = r
            self.rows.append((terms, c, le))

    def multipliers(self, objective: IntVar, sense: int,
                    max_pivots: int) -> list[Fraction] | None:
        """The LP's dual multipliers, one per row as exact fractions, for minimising
        (sense -1) or maximising (+1) `objective`; None when the LP has no optimum, is too
        big, or the objective is in no row."""
        if objective.index not in self.roots or not self.rows:
            return None
        columns = list(self.roots)
        where = {index: j for j, index in enumerate(columns)}
        n = len(columns)
        if len(self.rows) * (n + 2 * len(self.rows)) > MAX_CELLS:
            return None
        dense: list[list[float]] = []
        le: list[bool] = []
        b: list[float] = []
        for terms, c, is_le in self.rows:
            line = [0.0] * n
            for index, a in terms.items():
                line[where[index]] = float(a)
            dense.append(line)
            le.append(is_le)
            b.append(float(-c))
        lo: list[float] = []
        hi: list[float] = []
        for index in columns:
            r = self.roots[index]
            lo.append(float(r.lo) if r.lo > -BIG else -inf)
            hi.append(float(r.hi) if r.hi < BIG else inf)
        cost = [0.0] * n
        cost[where[objective.index]] = 1.0 if sense < 0 else -1.0
        result = simplex.solve(cost, dense, le, b, lo, hi, max_pivots)
        if result.status != simplex.OPTIMAL:
            return None
        return [Fraction(w).limit_denominator(MAX_DENOMINATOR) for w in result.duals]

    def combine(self, weights: list[Fraction]) -> tuple[dict[int, int], int]:
        """sum(weights_i * row_i) scaled to integers, with its common factor divided out
        (constant rounded up): ({root index: coefficient}, c) meaning sum + c <= 0."""
        scale = 1
        for w in weights:
            scale = lcm(scale, w.denominator)
            if scale > MAX_SCALE:
                break
        if scale > MAX_SCALE:  # round to a fixed point instead (any weights stay valid)
            scale = FIXED_POINT
            ints = [int(w * scale) for w in weights]  # towards 0: a <= row's stays >= 0
        else:
            ints = [int(w * scale) for w in weights]
        coefs: dict[int, int] = {}
        const = 0
        for (terms, c, le), w in zip(self.rows, ints, strict=True):
            if w == 0 or (le and w < 0):
                continue
            for index, a in terms.items():
                coefs[index] = coefs.get(index, 0) + w * a
            const += w * c
        coefs = {index: a for index, a in coefs.items() if a != 0}
        g = 0
        for a in coefs.values():
            g = gcd(g, a)
        if g > 1:
            coefs = {index: a // g for index, a in coefs.items()}
            const = -((-const) // g)
        return coefs, const


def relaxation_cut(solver: Solver, objective: IntView, sense: int,
                   max_pivots: int = 2_000) -> LinearLe | None:
    """Post the cut of the root's linear relaxation on `objective` (sense -1 minimise, +1
    maximise) and return it, or None when there is none worth posting (no optimum, or no
    bound on the objective from it). May raise Inconsistency: the cut proves the model
    has no solution."""
    relaxation = Relaxation(solver)
    z = objective.root
    weights = relaxation.multipliers(z, sense, max_pivots)
    if weights is None:
        return None
    coefs, const = relaxation.combine(weights)
    a = coefs.get(z.index, 0)
    if a == 0 or (a < 0) != (sense < 0):  # the combination does not bound the objective
        return None
    views = [relaxation.roots[index] for index in coefs]
    cs = [coefs[index] for index in coefs]
    rest_lo, _ = linear_bounds([cs[k] for k in range(len(cs)) if views[k] is not z],
                               [v for v in views if v is not z], const)
    # the bound it gives z over the root box: a*z + rest <= 0
    bound = -((-rest_lo) // -a) if a < 0 else (-rest_lo) // a
    if (bound <= z.lo) if sense < 0 else (bound >= z.hi):
        return None  # nothing gained at the root; its reduced costs alone are not worth a row
    cut = LinearLe(solver, cs, list(views), const)
    solver.post(cut)
    return cut
