"""Auxiliary variables: the engine variables the compiler adds for the pieces of an
expression that are not linear (x*y, floor division, modulo, exact division, abs, powers,
exact quotients), each with the propagator that defines it, and the posting of a linear
relation L r 0 (r in le, eq, ne), which every pass ends in.

Small domains get a table of every (a, b, a OP b), filtered to domain consistency by
compact-table; wide ones a dedicated propagator with interval reasoning.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from conundrum.compiler.linear import ONE, Lin, Rat, ceil_div, normal
from conundrum.compiler.tabulate import few_values
from conundrum.engine import Inconsistency, IntVar, IntView, Propagator, Solver
from conundrum.lang.errors import ModelError
from conundrum.propagators import arith, linear, rel, table

QUOTIENT_ENUMERATION = 4096  # |D(p)| * |D(q)| up to which a quotient is enumerated
MAX_SCALE = 1 << 16  # largest common denominator kept for an enumerated quotient


class Aux:
    """The engine side of a compilation: the solver, the auxiliary variables made so far
    and the propagators that define them."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        # tables that define auxiliary variables (tabulated subexpressions), see
        # Compiler.finish
        self.definitions: list[tuple[Propagator, tuple[IntVar, ...]]] = []
        self.const_vars: dict[int, IntVar] = {}
        # node id -> the engine variable its truth value is to be: a top-level `b == c`
        # over a 0/1 variable b names b as c's truth (post.py), instead of a new 0/1
        # variable and a propagator keeping the two equal on every change
        self.truth_targets: dict[int, IntVar] = {}

    def post_prop(self, prop: Propagator) -> None:
        self.solver.post(prop)

    def post_table(self, xs: list[IntView], rows: Sequence[tuple[int, ...]],
                   defines: tuple[IntVar, ...] = ()) -> None:
        """Post a table, first merging the columns of one variable (views x + c of it
        included): a row survives only if those columns agree (compact-table assumes
        distinct variables: filtering one view changes the other behind its back)."""
        first: dict[IntVar, int] = {}
        keep = []
        same = []  # (i, j, c): column j is column i's variable shifted by c
        for j, x in enumerate(xs):
            i = first.get(x.root)
            if i is not None:
                same.append((i, j, x.offset - xs[i].offset))
            else:
                first[x.root] = j
                keep.append(j)
        if same:
            rows = list(dict.fromkeys(tuple(r[j] for j in keep) for r in rows
                                      if all(r[j] - r[i] == c for i, j, c in same)))
            xs = [xs[j] for j in keep]
        prop = table.Table(self.solver, xs, list(rows))
        self.post_prop(prop)
        if defines:
            self.definitions.append((prop, defines))

    def const_var(self, c: int) -> IntVar:
        v = self.const_vars.get(c)
        if v is None:
            v = self.const_vars[c] = self.solver.int_var(c, c, str(c))
        return v

    def aux(self, lo: int, hi: int) -> IntVar:
        return self.solver.int_var(lo, hi)

    def truth(self, node: object = None) -> IntVar:
        """The 0/1 variable to hold a node's truth: the one a top-level equality named
        for it (truth_targets), else a new one."""
        target = self.truth_targets.pop(id(node), None) if node is not None else None
        return target if target is not None else self.aux(0, 1)

    def fraction(self, scale: int) -> IntVar:
        """The scaled fractional part of a tabulated quotient, 0..scale-1. It takes only as
        many values as its table has (at most a few dozen), spread over a range of
        thousands: bounds only, so that it costs no wide bit set; its table keeps it on
        values it lists and divisibility reasoning pins it."""
        return self.solver.int_var(0, scale - 1, "", bitset=False)

    def as_var(self, lin: Lin) -> IntView:
        """An engine variable (or a view of one) equal to the form: x + c is a view."""
        if lin.is_const():
            return self.const_var(lin.const)
        if len(lin.terms) == 1:
            (v, c), = lin.terms.items()
            if c == 1:
                return v.view(lin.const)
        lo, hi = lin.bounds()
        z = self.aux(lo, hi)
        coefs, xs, const = lin.parts()
        if len(xs) == 1:
            # z == a*x + const, domain consistent: z keeps exactly the reachable values
            self.post_prop(rel.Affine(self.solver, z, coefs[0], xs[0], const))
            return z
        self.post_eq(coefs + [-1], xs + [z], const)
        return z

    def post_eq(self, coefs: list[int], xs: list[IntView], c: int) -> None:
        """Post sum(a_i x_i) + c == 0 (two or more terms). Three unit terms of mixed signs
        (z == x - y + c, z == x + y + c) get the dedicated Difference propagator: the same
        filtering as LinearEq, cheaper per call, and such equalities run tens of times per
        node where differences are terms (Golomb rulers)."""
        if len(xs) == 3 and all(a == 1 or a == -1 for a in coefs) and len(set(coefs)) == 2:
            # the term whose sign occurs once is x; z - x + y - k = 0 gives z == x - y + k
            lone = coefs.index(-1) if coefs.count(-1) == 1 else coefs.index(1)
            y, z = (xs[k] for k in range(3) if k != lone)  # z last: as_var's new variable
            sign = coefs[lone]  # multiply by -sign so that x has coefficient -1
            self.post_prop(rel.Difference(self.solver, z, xs[lone], y, sign * c))
            return
        self.post_prop(linear.LinearEq(self.solver, coefs, xs, c))

    def post_linear(self, lin: Lin, r: str) -> None:
        """Post L r 0 at the top level."""
        coefs, xs, c = lin.parts()
        s = self.solver
        if not xs:
            if (r == "le" and c > 0) or (r == "eq" and c != 0) or (r == "ne" and c == 0):
                raise Inconsistency
            return
        if len(xs) == 1:
            a, x = coefs[0], xs[0]
            if r == "le":  # a*x <= -c
                if a > 0:
                    x.set_max((-c) // a)
                else:
                    x.set_min(ceil_div(-c, a))
            elif r == "eq":
                if c % a:
                    raise Inconsistency
                x.assign(-c // a)
            elif c % a == 0:
                if x.bits < 0 and x.lo < -c // a < x.hi:
                    self.post_prop(linear.LinearNe(s, coefs, xs, c))
                else:
                    x.remove(-c // a)
            s.fix_point()
            return
        if r == "eq" and len(xs) == 2 and sorted(coefs) == [-1, 1]:
            x, y = (xs[0], xs[1]) if coefs[0] == 1 else (xs[1], xs[0])
            self.post_prop(rel.EqualOffset(s, y, x, c))  # x - y + c == 0  <=>  y == x + c
            return
        if r == "eq":
            self.post_eq(coefs, xs, c)
            return
        if r == "le" and len(xs) == 2 and sorted(coefs) == [-1, 1]:
            x, y = (xs[0], xs[1]) if coefs[0] == 1 else (xs[1], xs[0])
            if x.root is not y.root:
                self.post_prop(linear.Precedence(s, x, y, c))
                return
        cls = {"le": linear.LinearLe, "ne": linear.LinearNe}[r]
        self.post_prop(cls(s, coefs, xs, c))

    # ------------------------------------------------- non-linear pieces
    def mul(self, a: Lin, b: Lin) -> Lin:
        if a.is_const():
            return b.scaled(a.const)
        if b.is_const():
            return a.scaled(b.const)
        x, y = self.as_var(a), self.as_var(b)
        if x is y:
            return Lin.of(self.power(x, 2))
        return Lin.of(self.function("*", x, y))

    def power(self, x: IntView, k: int) -> IntVar:
        cands = [x.lo ** k, x.hi ** k]
        if x.lo <= 0 <= x.hi:
            cands.append(0)
        z = self.aux(min(cands), max(cands))
        self.post_prop(arith.Power(self.solver, x, k, z))
        return z

    def binary(self, op: str, a: Lin, b: Lin) -> Lin:
        return Lin.of(self.function(op, self.as_var(a), self.as_var(b)))

    def function(self, op: str, x: IntView, y: IntView) -> IntVar:
        """z = x OP y. Small domains: the table of every (a, b, a OP b), filtered to domain
        consistency by compact-table, unless it takes too many values (`few_values`,
        compiler/tabulate.py); otherwise interval reasoning (BinaryFunction)."""
        if _enumerable(x, y, arith.ENUMERATION_LIMIT):
            f = arith.BINARY_OPS[op]
            rows = [(a, b, r) for a in x.values() for b in y.values()
                    for r in (f(a, b),) if r is not None]
            if not rows:
                raise Inconsistency
            values = {r[2] for r in rows}
            if few_values(values):
                z = self.aux(min(values), max(values))
                self.post_table([x, y, z], rows, (z,))
                return z
        z = self.aux(*_binary_range(op, x, y))
        self.post_prop(arith.BinaryFunction(self.solver, op, x, y, z))
        return z

    def abs_of(self, lin: Lin) -> Lin:
        if lin.is_const():
            return Lin(None, abs(lin.const))
        # a sign known from the domains: |lin| is lin or -lin, and no Abs to wake at every
        # change (a FlatZinc int_mod's |b| over 100000..999999 ran a thousand times a node
        # beside the slow convergence of its product)
        lo, hi = lin.bounds()
        if lo >= 0:
            return lin
        if hi <= 0:
            return lin.scaled(-1)
        x = self.as_var(lin)
        z = self.aux(0, max(abs(x.lo), abs(x.hi)))
        self.post_prop(arith.Abs(self.solver, x, z))
        return Lin.of(z)

    def quotient(self, p: Lin, q: Lin) -> Rat:
        """The exact rational p / q (q != 0 already posted).

        When p and q have small domains the quotient takes finitely many values; with L the
        lcm of their denominators, p / q = (L * Q + F) / L where Q = p // q and
        F = (p % q) * L / q in 0..L-1 are integer variables with domain-consistent
        propagators. The pair has the constant denominator L, so sums of quotients stay
        linear, and the linear propagator's divisibility reasoning makes the fractional
        parts F cancel. Otherwise the pair (p, q) is kept as it is."""
        if q.is_const():
            return normal(p, q)
        x, y = self.as_var(p), self.as_var(q)
        if not _enumerable(x, y, QUOTIENT_ENUMERATION):
            return normal(Lin.of(x), Lin.of(y))
        pairs = [(a, b) for a in x.values() for b in y.values() if b]
        if not pairs:
            raise Inconsistency
        scale = 1
        for a, b in pairs:
            scale = math.lcm(scale, Fraction(a, b).denominator)
        if scale > MAX_SCALE:
            return normal(Lin.of(x), Lin.of(y))
        if scale == 1:
            return Lin.of(self.function("//", x, y)), ONE
        # one table (a, b, a // b, frac(a / b) * scale) keeps both parts consistent together
        rows = [(a, b, a // b, (a % b) * scale // b) for a, b in pairs]
        whole = self.aux(min(r[2] for r in rows), max(r[2] for r in rows))
        frac = self.fraction(scale)
        self.post_table([x, y, whole, frac], rows, (whole, frac))
        return normal(Lin.of(whole).scaled(scale).plus(Lin.of(frac)), Lin(None, scale))

    def add(self, a: Rat, b: Rat, k: int = 1) -> Rat:
        """a + k*b (constant denominators over their lcm, others multiplied out)."""
        (na, da), (nb, db) = a, b
        if da.is_const() and db.is_const():
            g = math.lcm(da.const, db.const)
            return na.scaled(g // da.const).plus(nb.scaled(g // db.const), k), Lin(None, g)
        return self.mul(na, db).plus(self.mul(nb, da), k), self.mul(da, db)


def _enumerable(x: IntView, y: IntView, limit: int) -> bool:
    return x.bits >= 0 and y.bits >= 0 and x.size() * y.size() <= limit


def _binary_range(op: str, x: IntView, y: IntView) -> tuple[int, int]:
    """A sound initial range for z = x OP y."""
    xl, xh, yl, yh = x.lo, x.hi, y.lo, y.hi
    if op == "*":
        ps = (xl * yl, xl * yh, xh * yl, xh * yh)
        return min(ps), max(ps)
    if op in ("exact_div", "//"):
        m = max(abs(xl), abs(xh))
        return -m - 1, m + 1
    if op == "%":
        m = max(abs(yl), abs(yh))
        return -m, m
    raise ModelError(op)
