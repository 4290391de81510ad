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
from conundrum.propagators.element import ElementConst
from conundrum.propagators.linear import LinearEq, LinearLe, linear_bounds
from conundrum.propagators.reified import ReifiedLinear

if TYPE_CHECKING:
    from conundrum.engine import IntVar, IntView, Solver

BIG = 10**9          # a bound beyond is infinite to the LP (the relaxation only widens)
MAX_CELLS = 400_000  # rows x columns of the dense tableau
MAX_WORK = 5_000_000  # tableau entries the pivots may update (about 2 s of pure Python)
MAX_DENOMINATOR = 4096   # of a dual multiplier taken as a fraction
MAX_SCALE = 1 << 40      # beyond this common denominator, multipliers are rounded instead
FIXED_POINT = 1 << 20
MAX_ELEMENT = 1000       # index values of an element beyond which it is left out


def _turn(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    """The cross product of o->a and o->b: > 0 for a left turn (a convex lower hull)."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


class Relaxation:
    """The rows {root index: coefficient} with constant c, meaning sum + c <= 0 (`le`) or
    == 0, and the roots they use. Besides the linear rows themselves: a reified linear
    b <=> (sum + c <= 0) gives its two big-M rows (sum + c <= M (1 - b) and
    1 - (sum + c) <= L b, with M and L the largest values over the root's box), b => sum
    + c == 0 the first of them both ways; a constant element result = array[index] gives
    the facets of the convex hull of its points (i, array[i]) over the index's values.
    Each is a valid inequality over the root's box, so their relaxation is one too."""

    def __init__(self, solver: Solver) -> None:
        self.rows: list[tuple[dict[int, int], int, bool]] = []
        # [x == v] as an affine form of 0/1 literals ({root index: coefficient}, constant),
        # by x's root index and root value: from b <=> x == v and b <=> x != v
        self.literals: dict[int, dict[int, tuple[dict[int, int], int]]] = {}
        elements: list[ElementConst] = []
        for p in solver.propagators:
            if isinstance(p, ReifiedLinear):
                self.literal(p)  # (b <=> x == v holds whether or not it is still active)
            if not p.active:  # entailed at the root: no constraint within the box
                continue
            if isinstance(p, LinearLe):
                self.add(p.coefs, p.xs, p.c, True)
            elif isinstance(p, LinearEq):
                self.add(p.coefs, p.xs, p.c, False)
            elif isinstance(p, ReifiedLinear):
                self.reified(p)
            elif isinstance(p, ElementConst):
                self.element(p)
                elements.append(p)
        by_index = {v.index: v for v in solver.vars}
        encodings = self.encodings(by_index)
        for p in elements:
            self.element_encoded(p, encodings)
        # the columns: the variables some row uses, in the order the rows first name them
        self.roots: dict[int, IntVar] = {k: by_index[k] for terms, _, _ in self.rows
                                         for k in terms}

    def literal(self, p: ReifiedLinear) -> None:
        """Note b <=> (a x + c == 0) or (a x + c != 0) over one variable: [x == v] is b,
        or 1 - b."""
        if len(p.xs) != 1 or p.rel not in ("eq", "ne") or p.b.lo < 0 or p.b.hi > 1:
            return
        a, x = p.coefs[0], p.xs[0]
        if a == 0 or p.c % a != 0:
            return
        value = -p.c // a - x.offset  # of the root
        b = p.b
        form = ({b.root.index: 1}, b.offset) if p.rel == "eq" else \
            ({b.root.index: -1}, 1 - b.offset)
        known = self.literals.setdefault(x.root.index, {})
        first = known.setdefault(value, form)
        if first is not form:  # another literal of the same value: the two are equal
            row = dict(form[0])
            for k, a in first[0].items():
                row[k] = row.get(k, 0) - a
            self.rows.append((row, form[1] - first[1], False))

    def encodings(self, by_index: dict[int, IntVar],
                  ) -> dict[int, dict[int, tuple[dict[int, int], int]]]:
        """The variables whose every value but at most one has a literal: for each, [x ==
        v] of every value v as an affine form, with the rows that tie them together
        (exactly one holds, and x is the sum of v [x == v]); by root index."""
        found: dict[int, dict[int, tuple[dict[int, int], int]]] = {}
        for index, known in self.literals.items():
            x = by_index.get(index)
            if x is None or x.hi - x.lo > MAX_ELEMENT:
                continue
            values = [v for v in range(x.lo, x.hi + 1) if x.contains(v)]
            missing = [v for v in values if v not in known]
            if len(missing) > 1 or len(values) < 2:
                continue
            forms = {v: known[v] for v in values if v in known}
            total: dict[int, int] = {}
            const = 0
            for terms, c in forms.values():
                for k, a in terms.items():
                    total[k] = total.get(k, 0) + a
                const += c
            if missing:  # [x == v0] = 1 - sum of the others, which is then at most 1
                forms[missing[0]] = ({k: -a for k, a in total.items()}, 1 - const)
                self.rows.append((dict(total), const - 1, True))
            else:
                self.rows.append((dict(total), const - 1, False))
            # x = sum(v [x == v])
            row: dict[int, int] = {index: -1}
            shift = 0
            for v, (terms, c) in forms.items():
                for k, a in terms.items():
                    row[k] = row.get(k, 0) + v * a
                shift += v * c
            self.rows.append((row, shift, False))
            found[index] = forms
        return found

    def element_encoded(self, p: ElementConst,
                        encodings: dict[int, dict[int, tuple[dict[int, int], int]]]) -> None:
        """result = sum(array[i] [index == i]) when the index's values are encoded."""
        forms = encodings.get(p.index.root.index)
        if forms is None:
            return
        off = p.index.offset
        row: dict[int, int] = {}
        shift = 0
        for v, (terms, c) in forms.items():
            i = v + off  # the view's value: a position in the array
            if not 0 <= i < len(p.array):
                return  # (the element's own propagation removes it; not yet at this root)
            for k, a in terms.items():
                row[k] = row.get(k, 0) + p.array[i] * a
            shift += p.array[i] * c
        r = p.result
        row[r.root.index] = row.get(r.root.index, 0) - 1
        self.rows.append((row, shift - r.offset, False))

    def add(self, coefs: list[int], xs: list[IntView], c: int, le: bool) -> None:
        """The row sum(coefs_i xs_i) + c <= 0 (le) or == 0, over the views' roots."""
        terms: dict[int, int] = {}
        for k in range(len(xs)):
            a = coefs[k]
            x = xs[k]
            r = x.root
            terms[r.index] = terms.get(r.index, 0) + a
            c += a * x.offset
        self.rows.append((terms, c, le))

    def reified(self, p: ReifiedLinear) -> None:
        """The big-M rows of b <=> (sum + c <= 0), or of b => (sum + c == 0)."""
        b = p.b
        if b.lo < 0 or b.hi > 1 or p.rel not in ("le", "eq"):
            return
        if len(p.xs) == 1 and p.rel == "eq":  # a value's literal: encodings() relates them
            return
        lo, hi = linear_bounds(p.coefs, p.xs, p.c)
        if hi > 0:  # b = 1 makes sum + c <= 0: sum + c + hi * b - hi <= 0
            self.add([*p.coefs, hi], [*p.xs, b], p.c - hi, True)
        if p.rel == "le" and lo <= 0:  # b = 0 makes sum + c >= 1: 1 - sum - c <= (1 - lo) b
            self.add([-a for a in p.coefs] + [lo - 1], [*p.xs, b], 1 - p.c, True)
        if p.rel == "eq" and lo < 0:  # b = 1 makes -(sum + c) <= 0
            self.add([-a for a in p.coefs] + [-lo], [*p.xs, b], lo - p.c, True)

    def element(self, p: ElementConst) -> None:
        """The lower and the upper convex hull of (i, array[i]) over the index's values,
        as rows over (index, result)."""
        index, result = p.index, p.result
        values = [i for i in range(max(index.lo, 0), min(index.hi, len(p.array) - 1) + 1)
                  if index.contains(i)]
        if len(values) < 2 or len(values) > MAX_ELEMENT:
            return
        points = [(i, p.array[i]) for i in values]
        for sign in (1, -1):  # the lower hull, then the upper one (of the negated points)
            hull: list[tuple[int, int]] = []
            for x, y in points:
                y *= sign
                while len(hull) >= 2 and _turn(hull[-2], hull[-1], (x, y)) <= 0:
                    hull.pop()
                hull.append((x, y))
            for (x1, y1), (x2, y2) in zip(hull, hull[1:]):
                # sign * result >= y1 + (y2 - y1) / (x2 - x1) * (index - x1), times x2 - x1
                dx, dy = x2 - x1, y2 - y1
                self.add([-dx * sign, dy], [result, index], dx * y1 - dy * x1, True)

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
        result = simplex.solve(cost, dense, le, b, lo, hi, max_pivots, MAX_WORK)
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
        coefs: dict[int, int] = {}
        const = 0
        for (terms, c, le), k in zip(self.rows, ints, strict=True):
            if k == 0 or (le and k < 0):
                continue
            for index, a in terms.items():
                coefs[index] = coefs.get(index, 0) + k * a
            const += k * c
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
    others = [index for index in coefs if index != z.index]
    rest_lo, _ = linear_bounds([coefs[index] for index in others],
                               [relaxation.roots[index] for index in others], const)
    # the bound it gives z over the root box: a*z + rest <= 0
    bound = -((-rest_lo) // -a) if a < 0 else (-rest_lo) // a
    if (bound <= z.lo) if sense < 0 else (bound >= z.hi):
        return None  # nothing gained at the root; its reduced costs alone are not worth a row
    cut = LinearLe(solver, list(coefs.values()), [relaxation.roots[i] for i in coefs], const)
    solver.post(cut)
    return cut
