"""Model -> engine.

Every expression compiles to an exact rational pair (N, D) of linear forms over engine
variables, value N / D with D never 0: integer expressions have D = 1, `a / b` multiplies
out (N_a*D_b, D_a*N_b) and requires N_b != 0. Relations between pairs are cross-multiplied
(with the sign of the denominators taken into account for < and <=), so rational `/` is
exact and no float is ever used. Non-linear pieces (x*y, floor division, modulo, exact
division, abs, powers, min/max, element) get auxiliary variables with their own
propagators; linear pieces stay linear so that each relation becomes one linear propagator.

Relations and connectives used as values are reified into 0/1 variables. Global
constraints posted at the top level get their dedicated propagator; reified, they are
compiled through their decomposition.

Division or modulo by zero anywhere in the model makes that assignment fail
(docs/arithmetic.md): the conditions are posted globally, whatever the context of the division.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Sequence
from fractions import Fraction

from conundrum.compiler.powers import check_power
from conundrum.compiler.tabulate import table_rows, tabulable
from conundrum.engine import Inconsistency, IntVar, IntView, Propagator, Solver, TimeUp
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    Abs,
    ArgExtreme,
    BinOp,
    BoolConst,
    BoolOp,
    Count,
    Element,
    Expr,
    Global,
    MinMax,
    Pow,
    Rel,
    Sum,
    Var,
    postorder,
    render,
)
from conundrum.lang.globals import (
    AllDifferent,
    AllDifferentExcept0,
    AllEqual,
    BinPacking,
    Circuit,
    Cumulative,
    LinearEquation,
    NoOverlap,
    NoOverlap2D,
    Regular,
    Table,
)
from conundrum.propagators.alldiff import AllDifferentExcept0 as AllDifferentExcept0Prop
from conundrum.propagators.alldiff import post_all_different
from conundrum.propagators.arith import (
    BINARY_OPS,
    ENUMERATION_LIMIT,
    ArgMax,
    BinaryFunction,
    Power,
)
from conundrum.propagators.arith import Abs as AbsProp
from conundrum.propagators.arith import MinMax as MinMaxProp
from conundrum.propagators.circuit import Circuit as CircuitProp
from conundrum.propagators.element import ElementConst, ElementVar
from conundrum.propagators.linear import LinearEq, LinearLe, LinearNe, linear_bounds
from conundrum.propagators.linear_domain import SPAN_LIMIT, LinearEqDomain, linear_span
from conundrum.propagators.packing import BinPacking as BinPackingProp
from conundrum.propagators.reified import ReifiedLinear
from conundrum.propagators.rel import Affine, Difference, EqualOffset, Member
from conundrum.propagators.scheduling import Cumulative as CumulativeProp
from conundrum.propagators.scheduling import Disjunctive
from conundrum.propagators.scheduling import NoOverlap2D as NoOverlap2DProp
from conundrum.propagators.table import Table as TableProp

QUOTIENT_ENUMERATION = 4096  # |D(p)| * |D(q)| up to which a quotient is enumerated
MAX_SCALE = 1 << 16  # largest common denominator kept for an enumerated quotient


class Lin:
    """A linear form sum(coef * engine var) + const with integer coefficients."""

    __slots__ = ("terms", "const")

    def __init__(self, terms: dict[IntVar, int] | None = None, const: int = 0) -> None:
        self.terms: dict[IntVar, int] = terms or {}
        self.const = const

    @staticmethod
    def of(var: IntView) -> Lin:
        """The form of a variable or of a view of one (x + c is {x: 1} + c)."""
        return Lin({var.root: 1}, var.offset)

    def is_const(self) -> bool:
        return not self.terms

    def scaled(self, k: int) -> Lin:
        if k == 0:
            return Lin()
        return Lin({v: c * k for v, c in self.terms.items()}, self.const * k)

    def plus(self, other: Lin, k: int = 1) -> Lin:
        terms = dict(self.terms)
        for v, c in other.terms.items():
            n = terms.get(v, 0) + c * k
            if n:
                terms[v] = n
            else:
                terms.pop(v, None)
        return Lin(terms, self.const + other.const * k)

    def bounds(self) -> tuple[int, int]:
        return linear_bounds(list(self.terms.values()), list(self.terms), self.const)

    def parts(self) -> tuple[list[int], list[IntView], int]:
        return list(self.terms.values()), list(self.terms), self.const


ONE = Lin(None, 1)
Rat = tuple[Lin, Lin]  # (numerator, denominator)


def _sign(lin: Lin) -> int:
    """+1 or -1 when the form's sign is known from bounds, 0 otherwise."""
    lo, hi = lin.bounds()
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    return 0


class Compiler:
    """Builds a Solver from a model's variables and constraints."""

    def __init__(self, variables: list[Var], constraints: list[Expr],
                 deadline: float = 0.0) -> None:
        self.solver = Solver()
        # a time limit counts the compilation too: root propagation stops at the deadline
        # (Solver.fix_point) and the constraints are posted while it has not passed
        self.solver.deadline = deadline
        self.values: dict[int, Rat] = {}
        self.keep: list[Expr] = []  # decompositions must outlive the id()-keyed memo
        # tables that define auxiliary variables (tabulated subexpressions), see finish()
        self.definitions: list[tuple[Propagator, tuple[IntVar, ...]]] = []
        # tabulated nodes waiting to be compiled: id -> (variables, rows, scale)
        self.plans: dict[int, tuple[list[IntVar], list[tuple[tuple[int, ...], int | Fraction]],
                                    int]] = {}
        self.const_vars: dict[int, IntVar] = {}
        self.engine_vars: list[IntVar] = []
        for v in variables:
            if v.domain_values is not None:
                ev = self.solver.int_var_values(v.domain_values, v.name)
                if ev.bits < 0:
                    # too wide for a bit set: the interval keeps bounds only, so the
                    # listed values are enforced by a membership propagator
                    self.post_prop(Member(self.solver, ev, list(v.domain_values)))
            else:
                ev = self.solver.int_var(v.lo, v.hi, v.name)
            self.engine_vars.append(ev)
        # model variable index -> engine variable: a snapshot may hold only some of the
        # model's variables (an explanation compiles a few constraints over their own)
        self.by_index: dict[int, IntVar] = {v.index: ev for v, ev in zip(variables,
                                                                          self.engine_vars)}
        self.decision_count = len(self.engine_vars)
        # variable index -> (engine variable, offset) it is compiled as (see _merge_equal)
        self.alias: dict[int, tuple[IntVar, int]] = {}
        self._merge_equal(constraints)
        for c in constraints:
            if deadline and time.perf_counter() > deadline:
                raise TimeUp
            self.post(c)

    def finish(self, drop_bits: bool = True) -> None:
        """Last touches before search, once every constraint is posted:

        * a variable that needs no bit set drops it (IntVar.drop_bits), unless
          `drop_bits` is False (an explanation removes values from inside domains);
        * a propagator over an auxiliary variable that a table defines (a tabulated
          subexpression such as 13*B/C) charges its failures to that table too, so that
          dom_wdeg weighs the variables behind the auxiliary, as it would the user's
          constraint: the failures of A + 13*B/C + ... == 66 happen in the sum, over the
          quotient's auxiliaries, and would otherwise never count for B and C."""
        if drop_bits:
            for v in self.solver.vars:
                v.drop_bits()
        for table, defined in self.definitions:
            for v in defined:
                for p in v.wake_fix:
                    if p is not table and table not in p.credit:
                        p.credit.append(table)

    def _merge_equal(self, constraints: list[Expr]) -> None:
        """Compile the variables related by top-level equalities x == y + c (also written
        x - y == c, 2*x == 2*y + 2c) as one engine variable (plus offsets), each other one
        kept equal to it by an EqualOffset.

        A non-linear constraint then sees a repeated variable: x*y with x == y becomes x**2,
        whose roots settle it at once, where two propagators exchanging rounded bounds
        would move them about one unit per round; x + y == 10**4 with x - y == 2 becomes
        2*y + 2 == 10**4, settled before search. The equalities themselves compile to
        constants (0 == 0)."""
        parent: dict[int, tuple[int, int]] = {}  # i -> (j, c): x_i == x_j + c
        stack: list[object] = list(constraints)
        while stack:
            c = stack.pop()
            if isinstance(c, BoolOp) and c.op == "and":
                stack.extend(c.args)
                continue
            if isinstance(c, AllEqual):
                stack.append(c.decompose())
                continue
            if not (isinstance(c, Rel) and c.op == "=="):
                continue
            pair = _offset_pair(c.args[0], c.args[1])
            if pair is None:
                continue
            i, j, k = pair
            (ri, oi), (rj, oj) = _find(parent, i), _find(parent, j)
            if ri == rj:
                continue  # already merged: posting the constraint checks its offsets
            # x_i == x_j + k with x_i = x_ri + oi and x_j = x_rj + oj
            if ri < rj:
                parent[rj] = (ri, oi - oj - k)
            else:
                parent[ri] = (rj, oj + k - oi)
        for i in sorted(parent):
            r, offset = _find(parent, i)
            root = self.by_index[r]
            self.alias[i] = (root, offset)
            self.post_prop(EqualOffset(self.solver, self.by_index[i], root, offset))

    def var_lin(self, index: int) -> Lin:
        """The linear form a model variable compiles to (its own engine variable, or the
        one it was merged with plus an offset)."""
        merged = self.alias.get(index)
        if merged is None:
            return Lin.of(self.by_index[index])
        return Lin({merged[0]: 1}, merged[1])

    # ----------------------------------------------------------- helpers
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
        table = TableProp(self.solver, xs, list(rows))
        self.post_prop(table)
        if defines:
            self.definitions.append((table, defines))

    def const_var(self, c: int) -> IntVar:
        v = self.const_vars.get(c)
        if v is None:
            v = self.const_vars[c] = self.solver.int_var(c, c, str(c))
        return v

    def aux(self, lo: int, hi: int) -> IntVar:
        return self.solver.int_var(lo, hi)

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
            self.post_prop(Affine(self.solver, z, coefs[0], xs[0], const))
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
            self.post_prop(Difference(self.solver, z, xs[lone], y, sign * c))
            return
        self.post_prop(LinearEq(self.solver, coefs, xs, c))

    def integer(self, rat: Rat, what: str) -> Lin:
        """The numerator of an integer-valued pair, or a ModelError."""
        n, d = rat
        if d.is_const() and d.const == 1:
            return n
        if d.is_const() and n.is_const() and n.const % d.const == 0:
            return Lin(None, n.const // d.const)
        raise ModelError(f"{what} needs integer values, but an argument may be a fraction "
                         "(written with /): use // or cn.exact_div for integer division")

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
        self.post_prop(Power(self.solver, x, k, z))
        return z

    def binary(self, op: str, a: Lin, b: Lin) -> Lin:
        return Lin.of(self.function(op, self.as_var(a), self.as_var(b)))

    def function(self, op: str, x: IntView, y: IntView) -> IntVar:
        """z = x OP y. Small domains: the table of every (a, b, a OP b), filtered to domain
        consistency by compact-table; otherwise interval reasoning (BinaryFunction)."""
        if _enumerable(x, y, ENUMERATION_LIMIT):
            f = BINARY_OPS[op][0]
            rows = [(a, b, r) for a in x.values() for b in y.values()
                    for r in (f(a, b),) if r is not None]
            if not rows:
                raise Inconsistency
            z = self.aux(min(r[2] for r in rows), max(r[2] for r in rows))
            self.post_table([x, y, z], rows, (z,))
            return z
        z = self.aux(*_binary_range(op, x, y))
        self.post_prop(BinaryFunction(self.solver, op, x, y, z))
        return z

    def nonzero(self, lin: Lin) -> None:
        self.post_linear(lin, "ne")

    def quotient(self, p: Lin, q: Lin) -> Rat:
        """The exact rational p / q (q != 0 already posted).

        When p and q have small domains the quotient takes finitely many values; with L the
        lcm of their denominators, p / q = (L * Q + F) / L where Q = p // q and
        F = (p % q) * L / q in 0..L-1 are integer variables with domain-consistent
        propagators. The pair has the constant denominator L, so sums of quotients stay
        linear, and the linear propagator's divisibility reasoning makes the fractional
        parts F cancel. Otherwise the pair (p, q) is kept as it is."""
        if q.is_const():
            return self.normal(p, q)
        x, y = self.as_var(p), self.as_var(q)
        if not _enumerable(x, y, QUOTIENT_ENUMERATION):
            return self.normal(Lin.of(x), Lin.of(y))
        pairs = [(a, b) for a in x.values() for b in y.values() if b]
        if not pairs:
            raise Inconsistency
        scale = 1
        for a, b in pairs:
            scale = math.lcm(scale, Fraction(a, b).denominator)
        if scale > MAX_SCALE:
            return self.normal(Lin.of(x), Lin.of(y))
        if scale == 1:
            return Lin.of(self.function("//", x, y)), ONE
        # one table (a, b, a // b, frac(a / b) * scale) keeps both parts consistent together
        rows = [(a, b, a // b, (a % b) * scale // b) for a, b in pairs]
        whole = self.aux(min(r[2] for r in rows), max(r[2] for r in rows))
        frac = self.fraction(scale)
        self.post_table([x, y, whole, frac], rows, (whole, frac))
        return self.normal(Lin.of(whole).scaled(scale).plus(Lin.of(frac)), Lin(None, scale))

    # ------------------------------------------------------- rational pairs
    def add(self, a: Rat, b: Rat, k: int = 1) -> Rat:
        (na, da), (nb, db) = a, b
        if da.is_const() and db.is_const():
            g = math.lcm(da.const, db.const)
            return na.scaled(g // da.const).plus(nb.scaled(g // db.const), k), Lin(None, g)
        return self.mul(na, db).plus(self.mul(nb, da), k), self.mul(da, db)

    def normal(self, n: Lin, d: Lin) -> Rat:
        if d.is_const():
            if d.const == 0:
                raise Inconsistency
            if d.const < 0:
                n, d = n.scaled(-1), d.scaled(-1)
            if n.is_const():
                g = math.gcd(n.const, d.const)
                return Lin(None, n.const // g), Lin(None, d.const // g)
            g = d.const
            for c in n.terms.values():
                g = math.gcd(g, c)
            g = math.gcd(g, n.const)
            if g > 1:
                return Lin({v: c // g for v, c in n.terms.items()}, n.const // g), \
                    Lin(None, d.const // g)
        return n, d

    def const_rat(self, value: int | Fraction) -> Rat:
        f = Fraction(value)
        return Lin(None, f.numerator), Lin(None, f.denominator)

    def rat(self, item: object) -> Rat:
        if isinstance(item, Expr):
            return self.values[id(item)]
        return self.const_rat(item)  # type: ignore[arg-type]

    # ----------------------------------------------------------- values
    def value(self, root: object) -> Rat:
        """The exact pair of an expression, compiling every node below it once."""
        if not isinstance(root, Expr):
            return self.const_rat(root)  # type: ignore[arg-type]
        for node in postorder(root, leaf=self._tabulated):
            if id(node) not in self.values:
                self.values[id(node)] = self._node_value(node)
        return self.values[id(root)]

    def _tabulated(self, node: Expr) -> bool:
        """Whether node is compiled as one table over its variables (tabulate.py); the
        rows are computed here and kept for _node_value."""
        if id(node) in self.plans:
            return True
        if id(node) in self.values:
            return False
        variables = tabulable(node, lambda v: self.by_index[v.index].size())
        if variables is None:
            return False
        evs = [self.by_index[v.index] for v in variables]
        if any(ev.bits < 0 for ev in evs):
            return False
        rows = table_rows(node, variables, [ev.values_list() for ev in evs])
        scale = 1
        for _, value in rows:
            if isinstance(value, Fraction):
                scale = math.lcm(scale, value.denominator)
        if scale > MAX_SCALE:
            return False
        self.plans[id(node)] = (evs, rows, scale)
        return True

    def _tabulate(self, node: Expr) -> Rat:
        """A tabulated node: (vars..., value) rows, or, for fractional values,
        (vars..., floor, scaled fraction) rows and the pair (scale*floor + fraction, scale)
        (as `quotient` does)."""
        evs, rows, scale = self.plans.pop(id(node))
        if not rows:
            raise Inconsistency
        if scale == 1:
            values = [int(v) for _, v in rows]  # whole numbers when the scale is 1
            z = self.aux(min(values), max(values))
            self.post_table([*evs, z], [(*t, v) for (t, _), v in zip(rows, values)], (z,))
            return Lin.of(z), ONE
        parts = [(t, math.floor(v), int((v - math.floor(v)) * scale)) for t, v in rows]
        whole = self.aux(min(p[1] for p in parts), max(p[1] for p in parts))
        frac = self.fraction(scale)
        self.post_table([*evs, whole, frac], [(*t, w, f) for t, w, f in parts], (whole, frac))
        return self.normal(Lin.of(whole).scaled(scale).plus(Lin.of(frac)), Lin(None, scale))

    def _node_value(self, node: Expr) -> Rat:
        if id(node) in self.plans:
            return self._tabulate(node)
        if isinstance(node, Var):
            return self.var_lin(node.index), ONE
        if isinstance(node, Sum):
            return self._sum(node)
        if isinstance(node, BinOp):
            return self._binop(node)
        if isinstance(node, Pow):
            n, d = self.rat(node.args[0])
            if node.k == 0:
                return ONE, ONE
            if node.k == 1:
                return n, d
            what = render(node.args[0])
            for part in (n, d):
                lo, hi = (part.const, part.const) if part.is_const() else part.bounds()
                check_power(lo, hi, node.k, what)
            pn = Lin.of(self.power(self.as_var(n), node.k)) if not n.is_const() \
                else Lin(None, n.const ** node.k)
            pd = Lin(None, d.const ** node.k) if d.is_const() \
                else Lin.of(self.power(self.as_var(d), node.k))
            return self.normal(pn, pd)
        if isinstance(node, Abs):
            n, d = self.rat(node.args[0])
            return self.normal(self._abs(n), Lin(None, abs(d.const)) if d.is_const()
                               else self._abs(d))
        if isinstance(node, MinMax):
            return self._minmax(node)
        if isinstance(node, Element):
            return self._element(node)
        if isinstance(node, ArgExtreme):
            return self._arg_extreme(node)
        if isinstance(node, Count):
            value = self.rat(node.args[0])
            total = Lin()
            for item in node.args[1:]:
                total = total.plus(self._reify_rel("==", self.rat(item), value))
            return total, ONE
        if node.boolean:
            return self.reify(node), ONE
        raise ModelError(f"cannot compile {render(node)}")

    def _abs(self, lin: Lin) -> Lin:
        if lin.is_const():
            return Lin(None, abs(lin.const))
        x = self.as_var(lin)
        z = self.aux(0, max(abs(x.lo), abs(x.hi)))
        self.post_prop(AbsProp(self.solver, x, z))
        return Lin.of(z)

    def _sum(self, node: Sum) -> Rat:
        const_part: Rat = self.const_rat(node.const)
        var_parts: list[Rat] = []
        for coef, term in zip(node.coefs, node.args):
            n, d = self.rat(term)
            c = Fraction(coef)
            n = n.scaled(c.numerator)
            d = d.scaled(c.denominator)
            if d.is_const():
                const_part = self.add(const_part, (n, d))
            else:
                var_parts.append((n, d))
        result = const_part
        if var_parts:
            acc = var_parts[0]
            for part in var_parts[1:]:
                acc = self.add(acc, part)
            result = self.add(acc, const_part) if not (
                const_part[0].is_const() and const_part[0].const == 0) else acc
        return self.normal(*result)

    def _binop(self, node: BinOp) -> Rat:
        a, b = (self.rat(x) for x in node.args)
        (na, da), (nb, db) = a, b
        op = node.op
        if op == "*":
            return self.normal(self.mul(na, nb), self.mul(da, db))
        if op == "/":
            self.nonzero(nb)
            return self.quotient(self.mul(na, db), self.mul(da, nb))
        # integer operations on the (possibly rational) operands: p / q with integers p, q
        p, q = self.mul(na, db), self.mul(da, nb)
        if op == "exact_div":
            return self.binary("exact_div", p, q), ONE
        if op == "//":
            return self.binary("//", p, q), ONE
        if op == "%":
            if da.is_const() and da.const == 1 and db.is_const() and db.const == 1:
                return self.binary("%", na, nb), ONE
            floor = self.binary("//", p, q)
            return self.normal(*self.add(a, (self.mul(nb, floor), db), -1))
        raise ModelError(f"unknown operator {op}")

    def _minmax(self, node: MinMax) -> Rat:
        rats = [self.rat(a) for a in node.args]
        if all(d.is_const() and d.const == 1 for _, d in rats):
            xs = [self.as_var(n) for n, _ in rats]
            if len(xs) == 1:
                return Lin.of(xs[0]), ONE
            lo = (max if node.is_max else min)(x.lo for x in xs)
            hi = (max if node.is_max else min)(x.hi for x in xs)
            z = self.aux(lo, hi)
            self.post_prop(MinMaxProp(self.solver, xs, z, node.is_max))
            return Lin.of(z), ONE
        # rational arguments: fold with reified comparisons, r = b ? r : a
        r = rats[0]
        for a in rats[1:]:
            keep = self._reify_rel(">=" if node.is_max else "<=", r, a)
            x = self.mul(r[0], a[1])
            y = self.mul(a[0], r[1])
            num = self.mul(keep, x).plus(self.mul(keep, y), -1).plus(y)
            r = self.normal(num, self.mul(r[1], a[1]))
        return r

    def _element(self, node: Element) -> Rat:
        index = self.as_var(self.integer(self.rat(node.args[0]), "element index"))
        items = [self.integer(self.rat(a), "element") for a in node.args[1:]]
        index.set_min(0)
        index.set_max(len(items) - 1)
        self.solver.fix_point()
        if all(i.is_const() for i in items):
            consts = [i.const for i in items]
            z = self.aux(min(consts), max(consts))
            self.post_prop(ElementConst(self.solver, consts, index, z))
        else:
            xs = [self.as_var(i) for i in items]
            z = self.aux(min(x.lo for x in xs), max(x.hi for x in xs))
            self.post_prop(ElementVar(self.solver, xs, index, z))
        return Lin.of(z), ONE

    def _arg_extreme(self, node: ArgExtreme) -> Rat:
        """A position variable with the ArgMax propagator (arg_min: the arg_max of the
        negated items); rational items go through the decomposition."""
        rats = [self.rat(a) for a in node.args]
        if not all(d.is_const() and d.const == 1 for _, d in rats):
            dec = node.decompose()
            self.keep.append(dec)
            return self.value(dec)
        sign = 1 if node.is_max else -1
        xs = [self.as_var(n.scaled(sign)) for n, _ in rats]
        i = self.aux(0, len(xs) - 1)
        self.post_prop(ArgMax(self.solver, xs, i))
        return Lin.of(i), ONE

    # ------------------------------------------------------- relations
    def rel_form(self, op: str, a: Rat, b: Rat) -> tuple[Lin, str]:
        """L and r in le/eq/ne such that (a OP b) <=> (L r 0)."""
        (na, da), (nb, db) = a, b
        # a - b = diff / (da * db)
        diff = self.mul(na, db).plus(self.mul(nb, da), -1)
        if op == "==":
            return diff, "eq"
        if op == "!=":
            return diff, "ne"
        sign = _sign(da) * _sign(db)  # constant denominators are normalised positive
        if sign == 0:  # unknown sign: compare diff * (da * db), which has the sign of a - b
            diff = self.mul(diff, self.mul(da, db))
            sign = 1
        d = diff.scaled(sign)
        if op == "<=":
            return d, "le"
        if op == "<":
            return d.plus(ONE), "le"
        if op == ">=":
            return d.scaled(-1), "le"
        if op == ">":
            return d.scaled(-1).plus(ONE), "le"
        raise ModelError(f"unknown relation {op}")

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
                    x.set_min(_ceil(-c, a))
            elif r == "eq":
                if c % a:
                    raise Inconsistency
                x.assign(-c // a)
            elif c % a == 0:
                if x.bits < 0 and x.lo < -c // a < x.hi:
                    self.post_prop(LinearNe(s, coefs, xs, c))
                else:
                    x.remove(-c // a)
            s.fix_point()
            return
        if r == "eq" and len(xs) == 2 and sorted(coefs) == [-1, 1]:
            x, y = (xs[0], xs[1]) if coefs[0] == 1 else (xs[1], xs[0])
            self.post_prop(EqualOffset(s, y, x, c))  # x - y + c == 0  <=>  y == x + c
            return
        if r == "eq":
            self.post_eq(coefs, xs, c)
            return
        cls = {"le": LinearLe, "ne": LinearNe}[r]
        self.post_prop(cls(s, coefs, xs, c))

    def _reify_rel(self, op: str, a: Rat, b: Rat) -> Lin:
        lin, r = self.rel_form(op, a, b)
        return self.reify_linear(lin, r)

    def reify_linear(self, lin: Lin, r: str) -> Lin:
        """A 0/1 form equal to (L r 0)."""
        coefs, xs, c = lin.parts()
        if not xs:
            truth = (c <= 0) if r == "le" else (c == 0) if r == "eq" else (c != 0)
            return Lin(None, int(truth))
        b = self.aux(0, 1)
        self.post_prop(ReifiedLinear(self.solver, b, r, coefs, xs, c))
        return Lin.of(b)

    def reify(self, node: Expr) -> Lin:
        """A 0/1 form equal to the truth of a Boolean node (children already compiled)."""
        if isinstance(node, BoolConst):
            return Lin(None, int(node.value))
        if isinstance(node, Var):
            return self.var_lin(node.index)
        if isinstance(node, Rel):
            return self._reify_rel(node.op, self.rat(node.args[0]), self.rat(node.args[1]))
        if isinstance(node, BoolOp):
            parts = [self.rat(a)[0] for a in node.args]
            if node.op == "not":
                return ONE.plus(parts[0], -1)
            if node.op == "and":  # n - sum <= 0
                total = Lin(None, len(parts))
                for p in parts:
                    total = total.plus(p, -1)
                return self.reify_linear(total, "le")
            if node.op == "or":  # 1 - sum <= 0
                total = ONE
                for p in parts:
                    total = total.plus(p, -1)
                return self.reify_linear(total, "le")
            if node.op == "implies":  # a - b <= 0
                return self.reify_linear(parts[0].plus(parts[1], -1), "le")
            if node.op == "xor":  # a + b - 1 == 0
                return self.reify_linear(parts[0].plus(parts[1]).plus(ONE, -1), "eq")
        if isinstance(node, Global):
            dec = node.decompose()
            self.keep.append(dec)
            return self.value(dec)[0]
        raise ModelError(f"{render(node)} cannot be used as a constraint")

    # ---------------------------------------------------- top-level posting
    def post(self, constraint: object) -> None:
        """Post a constraint at the top level (conjunctions are split without recursion)."""
        stack = [constraint]
        while stack:
            c = stack.pop()
            if isinstance(c, BoolConst):
                if not c.value:
                    raise Inconsistency
            elif isinstance(c, BoolOp) and c.op == "and":
                stack.extend(reversed(c.args))
            elif isinstance(c, Rel):
                a, b = self.value(c.args[0]), self.value(c.args[1])
                self._post_rel(c.op, a, b)
            elif isinstance(c, BoolOp) and c.op == "not" and isinstance(c.args[0], Rel):
                inner = c.args[0]
                neg = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
                a, b = self.value(inner.args[0]), self.value(inner.args[1])
                self._post_rel(neg[inner.op], a, b)
            elif isinstance(c, Global) and not isinstance(c, BoolOp):
                self._post_global(c)
            elif isinstance(c, Expr) and c.boolean:
                lin = self.value(c)[0]
                self.post_linear(lin.plus(ONE, -1), "eq")
            else:
                raise ModelError(f"{render(c)} is not a constraint")

    def _post_rel(self, op: str, a: Rat, b: Rat) -> None:
        lin, r = self.rel_form(op, a, b)
        self.post_linear(lin, r)

    def _post_global(self, c: Global) -> None:
        rats = [self.value(a) for a in c.args]
        integer = all(d.is_const() and d.const == 1 for _, d in rats)
        if integer and isinstance(c, AllDifferent | AllDifferentExcept0 | Table):
            xs = [self.as_var(n) for n, _ in rats]
            s = self.solver
            if isinstance(c, AllDifferent):
                post_all_different(s, xs, c.strength)
            elif isinstance(c, AllDifferentExcept0):
                self.post_prop(AllDifferentExcept0Prop(s, xs))
            else:
                self.post_table(xs, list(c.tuples))
            return
        if integer and isinstance(c, LinearEquation):
            self._post_linear_equation(c, [n for n, _ in rats])
            return
        if integer and isinstance(c, Regular):
            self._post_regular(c, [self.as_var(n) for n, _ in rats])
            return
        if integer and isinstance(c, Circuit | NoOverlap | Cumulative | NoOverlap2D
                                  | BinPacking):
            self._post_resource(c, [self.as_var(n) for n, _ in rats])
            return
        dec = c.decompose()
        self.keep.append(dec)
        self.post(dec)

    def _post_linear_equation(self, c: LinearEquation, forms: list[Lin]) -> None:
        """linear_eq: one linear form (a variable used twice merges into one term); with
        strength "domain", the dynamic-programming propagator while the sum spans at most
        SPAN_LIMIT values, and bounds consistency with a warning above."""
        total = Lin(None, -c.rhs)
        for a, form in zip(c.coefs, forms):
            total = total.plus(form, a)
        coefs, xs, const = total.parts()
        if c.strength != "domain" or len(xs) < 2:
            self.post_linear(total, "eq")
            return
        span = linear_span(coefs, [(x.lo, x.hi) for x in xs])
        if span > SPAN_LIMIT:
            warnings.warn(f"linear_eq: the sum spans {span + 1} values, more than "
                          f"{SPAN_LIMIT + 1}: bounds consistency instead of domain "
                          "consistency", RuntimeWarning, stacklevel=2)
            self.post_linear(total, "eq")
            return
        self.post_prop(LinearEqDomain(self.solver, coefs, xs, const))

    def _post_resource(self, c: Global, xs: list[IntView]) -> None:
        """circuit, subcircuit, no_overlap, cumulative, no_overlap_2d and bin_packing:
        their propagators (circuit's beside a domain-consistent all_different)."""
        s = self.solver
        if isinstance(c, Circuit):
            prop: Propagator = CircuitProp(s, xs, c.sub)
            self.post_prop(prop)
            post_all_different(s, xs, "domain")
            return
        if isinstance(c, NoOverlap):
            n = len(xs) // 2
            prop = Disjunctive(s, xs[:n], xs[n:], c.strict)
        elif isinstance(c, Cumulative):
            n = (len(xs) - 1) // 3
            prop = CumulativeProp(s, xs[:n], xs[n:2 * n], xs[2 * n:3 * n], xs[-1])
        elif isinstance(c, BinPacking):
            k = len(xs) - len(c.sizes)
            prop = BinPackingProp(s, xs[:k], xs[k:], list(c.sizes))
        else:
            n = len(xs) // 4
            prop = NoOverlap2DProp(s, xs[:n], xs[n:2 * n], xs[2 * n:3 * n], xs[3 * n:])
        self.post_prop(prop)

    def _post_regular(self, c: Regular, xs: list[IntView]) -> None:
        """A chain of tables (q_i, x_i, q_i+1) over state variables whose domains are the
        states reachable from the start (the automaton is deterministic, so the states
        follow from the values and add no solutions)."""
        states = {c.start}
        q = self.solver.int_var(c.start, c.start)
        for x in xs:
            rows = [(a, v, r) for (a, v), r in c.transitions.items()
                    if a in states and x.lo <= v <= x.hi]
            states = {r for _, _, r in rows}
            if not states:
                raise Inconsistency
            nxt = self.solver.int_var_values(sorted(states))
            self.post_table([q, x, nxt], rows)
            q = nxt
        self.post_table([q], [(a,) for a in sorted(states & c.accepting)])

    def objective(self, expr: object) -> IntView:
        """An engine variable for an integer objective."""
        n, d = self.value(expr)
        if not (d.is_const() and d.const == 1):
            raise ModelError("the objective must be integer-valued: use // or "
                             "cn.exact_div instead of / in it")
        return self.as_var(n)


def _find(parent: dict[int, tuple[int, int]], i: int) -> tuple[int, int]:
    """(r, c) with x_i == x_r + c and r unmerged, following `parent` (i -> (j, c) for
    x_i == x_j + c) and pointing the path straight at r: long chains stay cheap."""
    path = []
    root, offset = i, 0
    while root in parent:
        path.append(root)
        root, c = parent[root]
        offset += c
    rest = offset
    for j in path:
        step = parent[j][1]
        parent[j] = (root, rest)
        rest -= step
    return root, offset


def _offset_pair(a: object, b: object) -> tuple[int, int, int] | None:
    """(i, j, k) when a == b says x_i == x_j + k for two model variables: both sides are
    integer linear forms over variables and their difference is p*x_i - p*x_j + m, with p
    dividing m (x + 3 == y, x - y == 2, 2*x == 2*y + 4, ...)."""
    terms: dict[int, int] = {}
    const = 0
    for side, sign in ((a, 1), (b, -1)):
        if isinstance(side, int) and not isinstance(side, bool):
            const += sign * side
        elif isinstance(side, Var):
            terms[side.index] = terms.get(side.index, 0) + sign
        elif isinstance(side, Sum) and isinstance(side.const, int):
            for coef, t in zip(side.coefs, side.args, strict=True):
                if not (isinstance(t, Var) and isinstance(coef, int)):
                    return None
                terms[t.index] = terms.get(t.index, 0) + sign * coef
            const += sign * side.const
        else:
            return None
    nonzero = [(v, c) for v, c in terms.items() if c]
    if len(nonzero) != 2 or nonzero[0][1] != -nonzero[1][1]:
        return None
    (i, p), (j, _) = nonzero
    if const % p:
        return None  # no solution: posting the constraint finds out
    return i, j, -const // p


def _enumerable(x: IntView, y: IntView, limit: int) -> bool:
    return x.bits >= 0 and y.bits >= 0 and x.size() * y.size() <= limit


def _ceil(p: int, q: int) -> int:
    return -((-p) // q)


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
