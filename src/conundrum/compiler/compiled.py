"""A snapshot of a model compiled for search: the engine, its decision variables, the
objective and the independent checker, ready to be searched from the root or from a
subproblem (a list of decisions, see conundrum.parallel).

The sequential search (Model._run) and the worker processes of a parallel search both use
this, so a subproblem is searched exactly as the same subtree of the sequential search.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from conundrum.check import Checker
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, Var
from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.compiler.compile import Compiler
    from conundrum.engine import IntVar
    from conundrum.engine.var import IntView
    from conundrum.search.options import SearchOptions
    from conundrum.search.slicing import Slice

# A decision of a subproblem's path: (position of the decision variable in the snapshot's
# variable list, decision kind (selectors.EQ, NE, LE, GT), value).
PathStep = tuple[int, int, int]


class CompiledModel:
    """The engine for one snapshot (variables, constraints) and an optional objective
    (`sense` -1 minimises, +1 maximises). Build it with `compile_model`."""

    def __init__(self, variables: list[Var], constraints: list[Expr], compiler: Compiler,
                 obj: IntView | None, sense: int, twin: CompiledModel | None = None) -> None:
        self.variables = variables
        self.constraints = constraints
        self.compiler = compiler
        self.solver = compiler.solver
        self.decision: list[IntVar] = compiler.engine_vars
        self.extra: list[IntVar] = compiler.solver.vars[compiler.decision_count:]
        self.position = {id(x): k for k, x in enumerate(self.decision)}
        self.obj = obj
        self.sense = sense
        self.twin = twin  # another compilation of the same snapshot, whose checker is ours
        self._checker: Checker | None = None

    @property
    def check(self) -> Checker:
        """The independent checker of this snapshot's solutions. Prepared at the first
        solution, so that a search that finds none never pays for it (a model of 60,000
        constraints takes seconds), and shared with the twin compilation."""
        if self._checker is None:
            if self.twin is not None:
                self._checker = self.twin.check
            else:
                self._checker = Checker(self.variables, self.constraints)
        return self._checker

    def phases(self, opts: SearchOptions) -> list[tuple[list[IntVar], str, str]]:
        """The options' search phases over this snapshot's engine variables."""
        if not opts.phases:
            return []
        index = {v.index: k for k, v in enumerate(self.variables)}
        phases = []
        for xs, var_select, value_select in opts.phases:  # type: ignore[attr-defined]
            missing = [v for v in xs if v.index not in index]
            if missing:
                raise ModelError(f"phases: variable {missing[0].name or missing[0].index!r} "
                                 "was created after this search began")
            phases.append(([self.decision[index[v.index]] for v in xs], var_select,
                           value_select))
        return phases

    def hints(self, opts: SearchOptions) -> dict[int, int] | None:
        """The options' hints (Model.hint) by engine variable index; None: no hints.
        Variables made after this search began have no engine variable: skipped."""
        if not opts.hints:
            return None
        index = {v.index: k for k, v in enumerate(self.variables)}
        out: dict[int, int] = {}
        for v, value in opts.hints.items():  # type: ignore[attr-defined]
            k = index.get(v.index)
            if k is not None:
                out[self.decision[k].index] = value
        return out

    def project(self, opts: SearchOptions) -> list[IntVar] | None:
        """The options' projection variables as this snapshot's engine variables (None:
        no projection)."""
        positions = self.project_positions(opts)
        return None if positions is None else [self.decision[k] for k in positions]

    def project_positions(self, opts: SearchOptions) -> list[int] | None:
        """The positions of the projection variables in the snapshot (None: no projection)."""
        if opts.project is None:
            return None
        index = {v.index: k for k, v in enumerate(self.variables)}
        positions = []
        for v in opts.project:  # type: ignore[attr-defined]
            if v.index not in index:
                raise ModelError(f"project: variable {v.name or v.index!r} was created "
                                 "after this search began")
            positions.append(index[v.index])
        return positions

    def improves(self, value: int, best: list[int]) -> bool:
        """Whether an objective value beats the incumbent held in `best` ([] or [value])."""
        return improves(value, best, self.sense)

    def apply(self, path: Sequence[PathStep]) -> None:
        """Apply a subproblem's decisions, each followed by propagation as when the search
        made it (raises Inconsistency when they fail); the caller pushes a trail level
        first and pops it after. The order matters: on a bounds-only domain, x != v
        removes v only once it is a bound, which it may become only by the propagation
        of the decisions before it."""
        from conundrum.search.selectors import apply_decision

        fix_point = self.solver.fix_point
        for k, kind, v in path:
            apply_decision(self.decision[k], kind, v)
            fix_point()

    def run(self, opts: SearchOptions, stats: SearchStats, start: float,
            best: list[int] | None = None, path: Sequence[PathStep] = (),
            ) -> Generator[list[int], None, None]:
        """The values of the variables in each solution below `path` (a fresh list each
        time), every one verified by the checker; with `opts.project`, one solution per
        assignment of the projection variables. With an objective, each solution improves
        on the incumbent `best` ([] or [value], updated here; the caller may tighten it
        between solutions, as a parallel search does with other workers' solutions)."""
        run = self.sliced_run(opts, stats, start, best, path, None)
        try:
            for values in run:
                assert values is not None  # (None is a pause: this run has no slices)
                yield values
        finally:
            run.close()

    def sliced_run(self, opts: SearchOptions, stats: SearchStats, start: float,
                   best: list[int] | None, path: Sequence[PathStep], slicer: Slice | None,
                   ) -> Generator[list[int] | None, None, None]:
        """run(), in slices: None each time the slice of `slicer` (search/slicing.py) is
        spent, and it goes on from there when resumed (compiler/portfolio.py)."""
        from conundrum.compiler.collector import RelaxedCollector
        from conundrum.engine import Inconsistency, TimeUp
        from conundrum.search.dfs import ObjectiveBound, search

        obj = self.obj
        incumbent: list[int] = [] if best is None else best
        bound = None if obj is None else ObjectiveBound(obj, self.sense, incumbent)

        phases = self.phases(opts)
        trail = self.solver.trail
        base = trail.depth
        trail.push_level()
        try:
            if path:
                try:
                    self.apply(path)
                except Inconsistency:
                    stats.fails += 1
                    return
                except TimeUp:  # a deadline the caller set on the solver
                    stats.stop("time_limit")
                    return
            runner = search(self.solver, self.decision, opts, stats, bound, self.extra, start,
                            phases, self.project(opts), self.hints(opts), slicer)
            try:
                with RelaxedCollector():
                    for paused in runner:
                        if paused is not None:
                            yield None
                            continue
                        values = [ev.lo for ev in self.decision]
                        self.check(values)
                        if obj is not None:
                            incumbent[:] = [obj.lo]
                        yield values
            finally:
                # Close the search when the caller stops early (solve, a limit, an
                # abandoned generator): its `finally` fills in the statistics, and a
                # compiled generator runs it only when closed, not when merely dropped.
                runner.close()
        finally:
            while trail.depth > base:
                trail.pop_level()


def improves(value: int, best: list[int], sense: int) -> bool:
    """Whether objective `value` beats the incumbent in `best` ([] or [value]) when
    minimising (sense -1) or maximising (+1)."""
    return not best or (value < best[0] if sense < 0 else value > best[0])


def compile_model(variables: list[Var], constraints: list[Expr], objective: object = None,
                  sense: int = 0, keep_holes: bool = False,
                  deadline: float = 0.0, relax: bool = False,
                  twin: CompiledModel | None = None) -> CompiledModel | None:
    """The compiled snapshot, or None when propagation at the root already fails.
    `keep_holes` keeps every bit-set domain a bit set, so that removing a value from
    inside a domain always takes effect (explanations need that). `deadline`, a
    time.perf_counter() time (0.0: none), is checked between constraints and during root
    propagation: past it, engine.TimeUp is raised. `relax` posts the cut of the root's
    linear relaxation on the objective (compiler/relaxation.py). `twin`, another
    compilation of the same snapshot, shares its solution checker."""
    from conundrum.compiler.compile import Compiler
    from conundrum.engine import Inconsistency

    try:
        compiler = Compiler(variables, constraints, deadline)
        obj = compiler.objective(objective) if objective is not None else None
        compiler.solver.fix_point()
        if obj is not None and sense != 0:
            from conundrum.compiler.knapsack import post_knapsack_bounds

            post_knapsack_bounds(compiler.solver, obj, sense)
            if relax:
                from conundrum.compiler.relaxation import relaxation_cut

                relaxation_cut(compiler.solver, obj, sense)
        compiler.finish(drop_bits=not keep_holes)
    except Inconsistency:
        return None
    return CompiledModel(variables, constraints, compiler, obj, sense, twin)
