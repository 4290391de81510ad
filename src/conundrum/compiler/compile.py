"""Model -> engine: the entry point of the compiler, and the state its passes share.

`Compiler(variables, constraints)` makes one engine variable per model variable, then runs
the passes, each its own module:

* normalise.py: the variables that top-level equalities x == y + c relate become one
  engine variable plus offsets;
* post.py: each top-level constraint to propagators (globals by a table of posting
  functions), through
* linearise.py: each expression to an exact rational pair of linear forms (linear.py),
  with auxiliary variables (auxiliary.py) for the non-linear pieces and small tables
  (tabulate.py), and
* reify.py: relations as linear relations, and their truth as 0/1 values.

The passes are functions of this compiler, which holds the solver and the memo of the
pairs compiled so far; it compiles each constraint as the passes meet its nodes, so the
engine's variables and propagators are made in the order of the model.
"""

from __future__ import annotations

import time
from fractions import Fraction

from conundrum._interrupt import poll
from conundrum.compiler import linearise, normalise
from conundrum.compiler.auxiliary import Aux
from conundrum.compiler.cliques import with_cliques
from conundrum.compiler.distinct import DistinctPairs
from conundrum.compiler.linear import Lin, Rat, const_rat
from conundrum.compiler.post import post
from conundrum.engine import IntVar, IntView, Solver, TimeUp
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, Var
from conundrum.propagators import rel


class Compiler(Aux):
    """Builds a Solver from a model's variables and constraints."""

    def __init__(self, variables: list[Var], constraints: list[Expr],
                 deadline: float = 0.0) -> None:
        super().__init__(Solver())
        # a time limit counts the compilation too: root propagation stops at the deadline
        # (Solver.fix_point) and the constraints are posted while it has not passed
        self.solver.deadline = deadline
        self.values: dict[int, Rat] = {}  # id(node) -> its pair
        self.keep: list[Expr] = []  # decompositions must outlive the id()-keyed memo
        # tabulated nodes waiting to be compiled: id -> (variables, rows, scale)
        self.plans: dict[int, tuple[list[IntVar], list[tuple[tuple[int, ...], int | Fraction]],
                                    int]] = {}
        # what each constraint keeps apart: for the tables (distinct.py) and the cliques
        kept = [normalise.kept_apart(c) for c in constraints]
        self.distinct = DistinctPairs(kept)
        merged = normalise.merged_variables(constraints)
        # a variable equal to another (x == y, offset 0: MiniZinc's bool2int, a renaming)
        # is that variable's engine variable itself, in both places of the decision list:
        # a second variable kept equal by a propagator would double every change of it
        same = {i: r for i, r, offset in merged if offset == 0}
        # model variable index -> engine variable: a snapshot may hold only some of the
        # model's variables (an explanation compiles a few constraints over their own)
        self.by_index: dict[int, IntVar] = {}
        for v in variables:
            if v.index not in same:
                self.by_index[v.index] = self._engine_var(v)
        for v in variables:
            if v.index in same:
                root = self.by_index[same[v.index]]
                self._restrict(root, v)
                self.by_index[v.index] = root
        self.engine_vars: list[IntVar] = [self.by_index[v.index] for v in variables]
        self.decision_count = len(self.solver.vars)
        # variable index -> (engine variable, offset) it is compiled as (normalise.py)
        self.alias: dict[int, tuple[IntVar, int]] = {}
        for i, r, offset in merged:
            root = self.by_index[r]
            self.alias[i] = (root, offset)
            if offset:
                self.post_prop(rel.EqualOffset(self.solver, self.by_index[i], root, offset))
        for c in with_cliques(constraints, kept):  # disequalities by cliques (cliques.py)
            if deadline and time.perf_counter() > deadline:
                raise TimeUp
            poll()  # a Ctrl-C held while the engine works (conundrum/_interrupt.py)
            post(self, c)

    def _engine_var(self, v: Var) -> IntVar:
        """A new engine variable with v's domain."""
        if v.domain_values is None:
            return self.solver.int_var(v.lo, v.hi, v.name)
        ev = self.solver.int_var_values(v.domain_values, v.name)
        if ev.bits < 0:
            # too wide for a bit set: the interval keeps bounds only, so the listed values
            # are enforced by a membership propagator
            self.post_prop(rel.Member(self.solver, ev, list(v.domain_values)))
        return ev

    def _restrict(self, ev: IntVar, v: Var) -> None:
        """Keep in ev only the values of v's domain (v shares ev; raises Inconsistency
        when none is left)."""
        ev.set_bounds(v.lo, v.hi)
        if v.domain_values is not None:
            if ev.bits >= 0:
                ev.keep_values(v.domain_values)
            else:
                self.post_prop(rel.Member(self.solver, ev, list(v.domain_values)))

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
            drop_unneeded_bits(self.solver.vars)
        for table, defined in self.definitions:
            for v in defined:
                for w in v.wake_fix:
                    p = w.prop
                    if p is not table and table not in p.credit:
                        p.credit.append(table)

    def var_lin(self, index: int) -> Lin:
        """The linear form a model variable compiles to (its own engine variable, or the
        one it was merged with plus an offset)."""
        merged = self.alias.get(index)
        if merged is None:
            return Lin.of(self.by_index[index])
        return Lin({merged[0]: 1}, merged[1])

    def value(self, root: object) -> Rat:
        """The exact pair of an expression, compiling every node below it once."""
        return linearise.value(self, root)

    def rat(self, item: object) -> Rat:
        """The pair of an already compiled node, or of a constant."""
        if isinstance(item, Expr):
            return self.values[id(item)]
        return const_rat(item)  # type: ignore[arg-type]

    def objective(self, expr: object) -> IntView:
        """An engine variable for an integer objective."""
        n, d = self.value(expr)
        if not (d.is_const() and d.const == 1):
            raise ModelError("the objective must be integer-valued: use // or "
                             "cn.exact_div instead of / in it")
        return self.as_var(n)


def drop_unneeded_bits(variables: list[IntVar]) -> None:
    """Make every variable bounds-only that can never hold a hole: none now, no propagator
    of its own that makes one, and none it could be handed by a propagator that copies
    holes (x == y + c) from a variable that keeps its bit set."""
    keep = [v for v in variables if v.needs_bits()]
    kept = {id(v) for v in keep}
    while keep:  # spread along the copying propagators
        for w in rel.hole_partners(keep.pop()):
            if w.bits >= 0 and id(w) not in kept:
                kept.add(id(w))
                keep.append(w)
    for v in variables:
        if v.bits >= 0 and id(v) not in kept:
            v.drop_bits()
