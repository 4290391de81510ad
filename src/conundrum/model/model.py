"""Model: variables, constraints, and the solving entry points."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias, Unpack, overload

from conundrum.lang.array import Array
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    BoolConst,
    Expr,
    ExprLike,
    Var,
    as_constraint,
    const_or_expr,
    render,
)
from conundrum.lang.interval import Interval
from conundrum.lang.matrix import Matrix
from conundrum.lang.setvar import SetVar
from conundrum.model.intervals import new_interval
from conundrum.model.options import (
    SearchKeywords,
    Sense,
    check_limit,
    checked_int,
    search_options,
    sense_sign,
)
from conundrum.model.places import caller_place
from conundrum.model.sets import make_set_var
from conundrum.model.solution import Solution as Solution  # re-exported (conundrum/__init__)
from conundrum.model.summary import summary
from conundrum.model.why import Diagnosing
from conundrum.search.stats import SearchStats

OnSolution: TypeAlias = "Callable[[Solution], object]"

if TYPE_CHECKING:
    from conundrum.explain.explainer import Explanation
    from conundrum.explain.rating import Rating
    from conundrum.model.neighbourhood import Held
    from conundrum.parallel.options import Parallel
    from conundrum.search.options import SearchOptions

# What Model.add takes: constraints, and lists or generators of them, nested at will.
Constraints: TypeAlias = "Expr | bool | Iterable[Constraints]"

# The engine, the compiler and the search are imported at the first solve, not at
# `import conundrum`: building a model needs none of them.


def _objective(expr: object) -> Expr | int | Fraction:
    """The objective checked as an operand (a float or a string is refused)."""
    objective = const_or_expr(expr, "objective")
    if isinstance(objective, BoolConst):
        return int(objective.value)
    return objective


class Model(Diagnosing):
    """A constraint model: create variables, add constraints, then solve (and, without a
    solution, ask why: `conflict`, `correction`, model/why.py)."""

    def __init__(self) -> None:
        self.variables: list[Var] = []
        self.constraints: list[Expr] = []
        # position in self.constraints -> the name explanations call it by ("row 4")
        self.labels: dict[int, str] = {}
        # position in self.constraints -> where the user's code added it ("model.py:12"),
        # which names an unlabelled constraint in a conflict (model/diagnosis.py)
        self.places: dict[int, str] = {}
        self.stats = SearchStats()
        self._names: dict[str, Var] = {}
        self.hints: dict[Var, int] = {}  # m.hint(...): values the search tries first
        self.set_variables: list[SetVar] = []
        self._set_names: dict[str, SetVar] = {}

    def __getstate__(self) -> dict[str, Any]:
        # pickled (for worker processes) without the statistics of its last run
        state = dict(self.__dict__)
        del state["stats"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.stats = SearchStats()

    # ------------------------------------------------------------ variables
    def _new_var(self, lo: int, hi: int, values: tuple[int, ...] | None, name: str | None) -> Var:
        if name is not None and not isinstance(name, str):
            raise ModelError(f"a variable name must be a string, not {name!r}")
        name = name or ""
        if name:
            self._check_new_names([name])
        v = Var(self, len(self.variables), name, lo, hi, values)
        self.variables.append(v)
        if name:
            self._names[name] = v
        return v

    def _check_new_names(self, names: Iterable[str | None]) -> None:
        """Refuse a name already given (or given twice here): a name is how the answer
        is read (sol["x"], as_dict(), the JSON output), where one of the two would be lost."""
        seen: set[str] = set()
        for name in names:
            if not name:
                continue
            if name in self._names or name in self._set_names or name in seen:
                raise ModelError(f"two variables are named {name!r}: give each its own name "
                                 "(the name is how the solution is read)")
            seen.add(name)

    @overload
    def int_var(self, lo: int, hi: int | None = None, name: str | None = None) -> Var: ...
    @overload
    def int_var(self, lo: Iterable[int], hi: str | None = None, name: str | None = None,
                ) -> Var: ...

    def int_var(self, lo: int | Iterable[int], hi: int | str | None = None,
                name: str | None = None) -> Var:
        """A variable with domain lo..hi (inclusive) or, given an iterable, those values:
        int_var(1, 9, "x"), int_var([1, 3, 5], "y")."""
        return self._int_var(lo, hi, name)

    def _int_var(self, lo: object, hi: object, name: str | None) -> Var:
        # typed loosely: the checks below turn any wrong argument into a ModelError
        if not isinstance(lo, int) or isinstance(lo, bool):
            if isinstance(hi, str) and name is None:
                name, hi = hi, None
            if hi is not None:
                raise ModelError("int_var(values, name): give the values alone, without hi")
            try:
                values = sorted({checked_int(v, "a domain value") for v in lo})  # type: ignore[attr-defined]
            except TypeError:
                raise ModelError(f"int_var needs bounds or a collection of values, not {lo!r}")\
                    from None
            if not values:
                raise ModelError(f"variable {name or ''!r} has an empty domain")
            return self._new_var(values[0], values[-1], tuple(values), name)
        if isinstance(hi, str) and name is None:
            raise ModelError(f"int_var({lo}, {hi!r}): give both bounds, e.g. int_var(0, 9, name)")
        lo = checked_int(lo, "a lower bound")
        hi = checked_int(hi, "an upper bound") if hi is not None else lo
        if lo > hi:
            raise ModelError(f"variable {name or ''!r} has an empty domain {lo}..{hi}")
        return self._new_var(lo, hi, None, name)

    def int_vars(self, names: str | int | Iterable[str], lo: int | Iterable[int],
                 hi: int | str | None = None, name: str | None = None, *,
                 prefix: str | None = None) -> Array[Var]:
        """Several variables, names (or a count) first, then the domain and name as int_var's:
        int_vars("A B C", 0, 9), int_vars(9, 1, 9, "r") (r[0]..r[8]); an Array, which a
        variable can index (`x[i]` is element). `prefix=` is the old spelling of `name=`."""
        if prefix is not None:
            warnings.warn("int_vars(..., prefix=...) is deprecated: write name=..., as in "
                          "int_var", DeprecationWarning, stacklevel=2)
            name = prefix if name is None else name
        if isinstance(hi, str) and name is None and not isinstance(lo, int):
            name, hi = hi, None
        if name is not None and not isinstance(name, str):
            raise ModelError(f"a variable name must be a string, not {name!r}")
        if isinstance(names, str):
            labels = names.split()
        elif isinstance(names, bool):
            raise ModelError(f"int_vars: names are a string, a count or a list, not {names}")
        elif isinstance(names, int):
            if isinstance(lo, int) and isinstance(hi, str):
                # int_var's order or a missing bound: n variables of a wrong domain, or none
                raise ModelError(f"int_vars({names}, {lo}, {hi!r}): the names or a count "
                                 "first, then both bounds, then the name: int_vars('x y', 0, "
                                 "9) or int_vars(3, 0, 9, 'x')")
            if names < 0:
                raise ModelError(f"int_vars: a negative count {names}")
            labels = [f"{name}[{i}]" if name else "" for i in range(names)]
        else:
            labels = [str(n) for n in names]
        self._check_new_names(labels)  # before any is made: none is made when one clashes
        return Array(self._int_var(lo, hi, label) for label in labels)

    def bool_vars(self, names: str | int | Iterable[str], name: str | None = None) -> Array[Var]:
        """Several 0/1 variables, named as int_vars names them: bool_vars("p q r"),
        bool_vars(5, "b") (b[0]..b[4])."""
        if name is not None and (isinstance(names, bool) or not isinstance(names, int)):
            raise ModelError(f"bool_vars({names!r}, {name!r}): a name goes with a count, "
                             "bool_vars(5, 'b'); give the names in one string: "
                             "bool_vars('p q r')")
        return self.int_vars(names, 0, 1, name)

    def int_matrix(self, rows: int, cols: int, lo: int | Iterable[int],
                   hi: int | str | None = None, name: str | None = None) -> Matrix:
        """A rows x cols grid of variables (a Matrix) named `name[i][j]`."""
        rows, cols = checked_int(rows, "rows"), checked_int(cols, "cols")
        if rows < 0 or cols < 0:
            raise ModelError(f"int_matrix: negative size {rows}x{cols}")
        if isinstance(hi, str) and name is None and not isinstance(lo, int):
            name, hi = hi, None
        if name is not None and not isinstance(name, str):
            raise ModelError(f"a variable name must be a string, not {name!r}")
        if name:
            self._check_new_names(f"{name}[{i}][{j}]" for i in range(rows) for j in range(cols))
        grid: list[list[Var]] = []
        for i in range(rows):
            row: list[Var] = []
            for j in range(cols):
                label = f"{name}[{i}][{j}]" if name else None
                row.append(self._int_var(lo, hi, label))
            grid.append(row)
        return Matrix(grid)

    def bool_var(self, name: str | None = None) -> Var:
        """A 0/1 variable: a Boolean, usable as a constraint (true when 1) and as a
        number (cn.sum of Booleans counts the true ones)."""
        return self.int_var(0, 1, name)

    def set_var(self, lb: Iterable[int], ub: Iterable[int], name: str | None = None) -> SetVar:
        """A set variable holding every element of lb and some of ub: set_var([], range(1,
        10), "S"); `s.card` its size, `sol[s]` a frozenset (docs/sets.md)."""
        return make_set_var(self, lb, ub, name)
    def interval(self, start: object, size: object, end: object = None,
                 optional: bool = False, name: str | None = None) -> Interval:
        """An interval variable [start, end) with start + size == end: each of start, size
        and end is an int, a (lo, hi) pair or a variable; optional=True adds a 0/1
        `.present` (an absent interval takes part in nothing). See docs/intervals.md."""
        return new_interval(self, start, size, end, bool(optional), name)

    def variable(self, name: str) -> Var:
        """The variable with this name."""
        if name not in self._names:
            raise KeyError(f"no variable named {name!r}")
        return self._names[name]

    # ----------------------------------------------------------- constraints
    def add(self, *constraints: Constraints, label: str | None = None) -> Model:
        """Add constraints (also lists or generators of them). An explanation names them
        by `label` ("row 4", "cage A") instead of their formula."""
        if label is not None and not isinstance(label, str):
            raise ModelError(f"label must be a string, not {label!r}")
        place = caller_place()
        stack = list(reversed(constraints))
        while stack:
            c = stack.pop()
            if isinstance(c, Expr | bool):
                c = as_constraint(c)
                self._check_owner(c)
                if label is not None:
                    self.labels[len(self.constraints)] = label
                if place:
                    self.places[len(self.constraints)] = place
                self.constraints.append(c)
            elif isinstance(c, Iterable) and not isinstance(c, str):
                stack.extend(reversed(list(c)))
            else:
                raise ModelError(f"{c!r} is not a constraint")
        return self

    def __iadd__(self, constraint: Constraints) -> Model:
        return self.add(constraint)

    def _check_owner(self, c: Expr) -> None:
        from conundrum.lang.expr import postorder
        for node in postorder(c):
            if isinstance(node, Var) and node.model is not self:
                raise ModelError(f"variable {node.name or node.index!r} in {render(c)} "
                                 "belongs to another model")

    def _objective(self, expr: object) -> Expr | int | Fraction:
        """The objective checked as an operand and as this model's own expression (one over
        another model's variables would optimise whatever variables share their numbers)."""
        objective = _objective(expr)
        if isinstance(objective, Expr):
            self._check_owner(objective)
        return objective

    # ----------------------------------------------------------------- solving
    def _snapshot(self) -> tuple[list[Var], list[Expr]]:
        # a suspended generator keeps solving the model as it was when it started
        return list(self.variables), list(self.constraints)

    def _run(self, opts: SearchOptions, objective: object = None, sense: int = 0,
             snapshot: tuple[list[Var], list[Expr]] | None = None, *,
             stats: SearchStats,
             parallel: Parallel | None = None, single: bool = False,
             ) -> Generator[list[int], None, None]:
        """The values of the snapshot's variables in each solution (model/running.py);
        the run's statistics `stats` become self.stats when it starts."""
        from conundrum.model.running import run_snapshot

        self.stats = stats
        return run_snapshot(snapshot if snapshot is not None else self._snapshot(), opts,
                            objective, sense, stats, parallel, single)

    def _solution(self, variables: list[Var], values: list[int]) -> Solution:
        return Solution(self, {v.index: x for v, x in zip(variables, values)}, variables)

    def solutions(self, limit: int | None = None, **options: Unpack[SearchKeywords],
                  ) -> Iterator[Solution]:
        """Every solution, each exactly once, lazily, in a deterministic order; `limit=N`
        stops after N.

        After the run, self.stats.status says what it established (see SearchStats)."""
        opts, parallel = search_options(self, options)
        return self._solutions(check_limit(limit), opts, parallel)

    def _solutions(self, limit: int | None, opts: SearchOptions, parallel: Parallel | None,
                   goal: str = "all", objective: object = None, sense: int = 0,
                   extra: Sequence[Expr] = (),
                   ) -> Generator[Solution, None, None]:
        """The solutions of a run asked for `goal` (model/running.py)."""
        from conundrum.model.running import solution_stream

        return solution_stream(self, limit, opts, parallel, goal, objective, sense, extra)

    def solve(self, **options: Unpack[SearchKeywords]) -> Solution | None:
        """The first solution, or None; self.stats.status says "satisfied", or
        "unsatisfiable" (proved), or "unknown" (a limit stopped the search first)."""
        opts, parallel = search_options(self, options)
        run = self._solutions(1, opts, parallel, "one")
        try:
            return next(run, None)
        finally:
            run.close()

    def count(self, limit: int | None = None, **options: Unpack[SearchKeywords]) -> int:
        """The number of solutions; `limit=N` stops counting at N. Stopped by a limit, it
        is the number found so far, and self.stats.complete is False."""
        limit = check_limit(limit)
        # a count with a limit runs as an enumeration: the workers' solutions travel back
        # and are counted here, so that it stops at exactly N
        opts, parallel = search_options(self, options, "count" if limit is None else "solutions")
        if limit is not None:
            return sum(1 for _ in self._solutions(limit, opts, parallel))
        stats = SearchStats()
        run = self._run(opts, stats=stats, parallel=parallel)
        try:
            found = sum(1 for _ in run)
        finally:
            run.close()
            stats.conclude("all")
        # a parallel count: the workers count, no solution is sent back
        return found if parallel is None else stats.solutions

    def improving(self, objective: ExprLike, sense: Sense = "min", *,
                  limit: int | None = None, **options: Unpack[SearchKeywords],
                  ) -> Generator[Solution, None, None]:
        """Each improving solution of a branch and bound on `objective`, lazily: every one
        strictly better than the one before (smaller for `sense="min"`, larger for
        `"max"`). When the search runs to its end the last one is optimal, and
        self.stats.status says "optimal_solution"; stopped by a limit (`time_limit`,
        `node_limit`, `limit=N` solutions) or left early (close() the generator, or break
        out of the loop), what it gave is valid but not proved optimal. No solution at
        all: the model is unsatisfiable ("unsatisfiable"), or a limit came first ("unknown").

        minimize and maximize return its last solution; it takes the same search options,
        `workers=` included (the workers share the incumbent)."""
        direction = sense_sign(sense)
        limit = check_limit(limit)
        opts, parallel = search_options(self, options, "optimize")
        return self._solutions(limit, opts, parallel, "best", self._objective(objective),
                               direction)

    def minimize(self, expr: ExprLike | Sequence[ExprLike], *,
                 on_solution: OnSolution | None = None,
                 **options: Unpack[SearchKeywords]) -> Solution | None:
        """An optimal solution for the smallest value of expr, by branch and bound.

        `on_solution(solution)` is called with each improving solution as it is found.
        Stopped by a limit or by Ctrl-C (KeyboardInterrupt), it returns the best solution
        found so far (status "satisfied"; None if there was none). Afterwards
        self.stats.objective, .bound and .gap say how good the answer is. A list
        `[a, b, ...]` minimises lexicographically: `a`, then `b` with `a` at its optimum,
        and so on (self.stats then describes the last objective optimised, with the
        counts of every stage)."""
        return self._optimize(expr, "min", on_solution, options)

    def maximize(self, expr: ExprLike | Sequence[ExprLike], *,
                 on_solution: OnSolution | None = None,
                 **options: Unpack[SearchKeywords]) -> Solution | None:
        """An optimal solution for the largest value of expr, by branch and bound (the
        rest as for minimize)."""
        return self._optimize(expr, "max", on_solution, options)

    def _optimize(self, expr: ExprLike | Sequence[ExprLike], sense: Sense,
                  on_solution: OnSolution | None,
                  options: Mapping[str, Any]) -> Solution | None:
        """The last of the improving solutions (no `limit` here: an unknown option); a
        list of objectives is optimised in lexicographic order (model/lexicographic.py)."""
        if on_solution is not None and not callable(on_solution):
            raise ModelError(f"on_solution must be callable, not {on_solution!r}")
        if isinstance(expr, list | tuple):
            from conundrum.model.lexicographic import optimize_lexicographic

            return optimize_lexicographic(self, expr, sense, on_solution, options)
        opts, parallel = search_options(self, options, "optimize")
        return self._best(self._objective(expr), sense_sign(sense), on_solution, opts, parallel)

    def _best(self, objective: Expr | int | Fraction, sense: int,
              on_solution: OnSolution | None, opts: SearchOptions,
              parallel: Parallel | None, extra: Sequence[Expr] = ()) -> Solution | None:
        """The last improving solution of one branch and bound (see minimize)."""
        last = None
        run = self._solutions(None, opts, parallel, "best", objective, sense, extra)
        try:
            for solution in run:
                last = solution
                if on_solution is not None:
                    on_solution(solution)
        except KeyboardInterrupt:
            # the run stops and says so; Ctrl-C in on_solution lands here as well
            self.stats.stop("interrupted")
        finally:
            run.close()
        return last

    def hint(self, values: Mapping[Var, int] | Solution) -> Model:
        """Values for the search to try first (a known or guessed solution, partial or
        whole): each variable's value choice begins with its hint while the hint is still
        in its domain. A hint never constrains: the answers are the same with or without
        it, only found in another order. A later hint for a variable replaces the earlier
        one; `m.hint({})` keeps them, `m.hints.clear()` forgets them all."""
        from conundrum.model.neighbourhood import checked_values

        self.hints.update(checked_values(self, values, "hint"))
        return self

    def fix(self, values: Mapping[Var, int] | Solution,
            keep: Iterable[Var] | None = None) -> Held:
        """A `with` block during which the given variables (only those of `keep`, if
        given) keep their values, for re-optimising the rest (model/neighbourhood.py)."""
        from conundrum.model.neighbourhood import fix

        return fix(self, values, keep)

    def relax(self, solution: Mapping[Var, int] | Solution, free: Iterable[Var]) -> Held:
        """A `with` block during which every variable of `solution` keeps its value
        except those of `free`: a neighbourhood of it to search."""
        from conundrum.model.neighbourhood import relax

        return relax(self, solution, free)

    def explain(self, names: dict[Var, str] | None = None, *,
                time_limit: float | None = None, node_limit: int | None = None,
                on_progress: Callable[[SearchStats], object] | None = None,
                ) -> Explanation:
        """How to reach the unique solution in small deductions, simplest first.

        Each step names the values it rules out (a variable left with one value is given
        it), the constraints and the earlier facts it uses, and is minimal: none of them
        can be dropped. Steps on one constraint come before steps on two; when neither is
        left, a case split refutes a supposition by a chain of such steps. `names` gives
        variables the names to use in the steps' text. Raises ExplainError (a ModelError)
        when the model has no solution or more than one.

        `time_limit` and `node_limit` bound the whole explanation (every search it runs);
        stopped by one, the result (a list of steps) has `complete` False and holds the
        steps made so far, which do not reach the solution; self.stats says the same."""
        from conundrum.explain import explain
        from conundrum.explain.wording import Wording, describe_all

        steps = explain(self, time_limit, node_limit, on_progress)
        self.stats = steps.stats
        describe_all(steps, Wording(self, {v.index: n for v, n in (names or {}).items()}))
        return steps

    def difficulty(self, *, time_limit: float | None = None, node_limit: int | None = None,
                   on_progress: Callable[[SearchStats], object] | None = None) -> Rating:
        """How hard the model is to solve by reasoning: the grade derived from its
        explanation (easy, medium, hard, fiendish), or grade None when the model does not
        have exactly one solution (see Rating.solutions), or when `time_limit` or
        `node_limit` stopped the explanation first (Rating.complete is then False)."""
        from conundrum.explain.rating import rate

        return rate(self, time_limit, node_limit, on_progress)

    def to_minizinc(self, objective: ExprLike | None = None, sense: Sense = "min") -> str:
        """This model as a MiniZinc model (text) with the same solutions: globals by their
        MiniZinc names, conundrum's / // % kept exactly; `solve minimize objective` (or
        maximize, sense="max") when an objective is given. See docs/export.md."""
        from conundrum.io.minizinc import to_minizinc

        sense_sign(sense)
        return to_minizinc(self, None if objective is None else self._objective(objective),
                           sense)

    def _repr_html_(self) -> str:
        """The summary a notebook shows: variables, domain sizes, constraints by kind."""
        from conundrum.display.html import model_html

        return model_html(self)

    def __repr__(self) -> str:
        return f"Model({len(self.variables)} variables, {len(self.constraints)} constraints)"

    def __str__(self) -> str:
        """print(model): counts, variables by domain, constraints by kind, the first ones."""
        return summary(self)
