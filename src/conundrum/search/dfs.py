"""Depth-first search with an explicit stack, and its methods: complete, lds:N, bbs:N.

A node is a state of the engine after propagation. Its alternatives are decisions on one
variable (see selectors.py); each alternative is tried after restoring the node's state
(`trail.restart_level`). Solutions are yielded with every engine variable fixed; the caller
reads the values before resuming the generator.

- complete: plain DFS, every solution exactly once.
- lds:N: limited discrepancy search; iteration k = 0..N explores the paths with at most k
  discrepancies (non-first alternatives) and reports the solutions not reported before (a
  set of seen solutions, so that heuristics whose choices change between iterations, such
  as dom_wdeg or random values, and branch and bound stay exact). If no branch was cut for
  exceeding k, the search was complete and stops.
- bbs:N: bounded backtrack search: stops after N failures.

Auxiliary variables left unfixed once the branching variables are fixed are labelled last,
with the default value choice (auto_value).

Projected enumeration (option `project`, a list of variables): the solutions are distinct on
those variables, each of their assignments that extends to a solution reported once. They
are branched on first (in the order the phases give among them, then by the options'
heuristics); once they are all fixed the node is a *completion*: the rest is searched only
until one solution is found, then the search backtracks into the projection variables (a
completion without solution is simply a failure). Under branch and bound the objective must
be fixed too before a node counts as a completion, so that a better solution with the same
projection is never cut away. Without `project` the search is the plain one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from typing import Any

from conundrum.engine import Inconsistency, IntVar, IntView, Solver, TimeUp
from conundrum.engine.clauses import NogoodStore
from conundrum.engine.literals import Pred
from conundrum.search.restarts import RestartPolicy, parse_restarts, refuted_nogoods
from conundrum.search.selectors import (
    EQ,
    GT,
    LE,
    VALUE_SELECTS,
    VAR_SELECTS,
    Decision,
    ValueChooser,
    VarChooser,
    apply_decision,
    auto_value,
    make_value_select,
    make_var_select,
)
from conundrum.search.stats import SearchStats

PROGRESS_INTERVAL = 0.2


class SearchOptions:
    """How to search (names as in ECLiPSe's search/6)."""

    __slots__ = ("var_select", "value_select", "method", "time_limit", "node_limit", "seed",
                 "on_progress", "phases", "project", "restarts")

    def __init__(self, var_select: str = "dom_wdeg", value_select: str = "auto",
                 method: object = "complete", time_limit: float | None = None,
                 node_limit: int | None = None, seed: int = 0,
                 on_progress: Callable[[SearchStats], object] | None = None,
                 phases: object = None, project: object = None,
                 restarts: str | None = None) -> None:
        self.var_select = var_select
        self.value_select = value_select
        self.method = method
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.seed = seed
        self.on_progress = on_progress
        # (variables, var_select, value_select) triples over the model's variables; the
        # model resolves them to engine variables (search() takes them as `phases`)
        self.phases = phases
        # the variables the solutions must be distinct on (projected enumeration), or None;
        # model variables, resolved by the model as the phases are
        self.project = project
        # None (no restarts), "luby", "geometric", or either with a scale: "luby:50"
        self.restarts = restarts

    def validate(self) -> tuple[str, int | None]:
        """Check the options; return the method as (kind, N)."""
        check_options({"var_select": self.var_select, "value_select": self.value_select,
                       "time_limit": self.time_limit, "node_limit": self.node_limit,
                       "seed": self.seed, "on_progress": self.on_progress,
                       "method": self.method, "restarts": self.restarts})
        return parse_method(self.method)


def check_options(options: dict[str, object]) -> None:
    """Check the given options' values (ValueError naming the wrong one). The model calls
    this on the user's keywords before building SearchOptions, whose typed fields would
    otherwise reject a wrong type with a bare TypeError in the compiled engine."""
    if "var_select" in options and options["var_select"] not in VAR_SELECTS:
        raise ValueError(f"unknown var_select {options['var_select']!r}; choose from "
                         f"{', '.join(VAR_SELECTS)}")
    if "value_select" in options and options["value_select"] not in VALUE_SELECTS:
        raise ValueError(f"unknown value_select {options['value_select']!r}; choose from "
                         f"{', '.join(VALUE_SELECTS)}")
    t = options.get("time_limit")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or not t > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, not {t!r}")
    n = options.get("node_limit")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
        raise ValueError(f"node_limit must be an integer >= 0, not {n!r}")
    seed = options.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    progress = options.get("on_progress")
    if progress is not None and not callable(progress):
        raise ValueError(f"on_progress must be a function of the statistics, not "
                         f"{progress!r}")
    if "method" in options:
        parse_method(options["method"])
    if options.get("restarts") is not None:
        parse_restarts(options["restarts"])
        if "method" in options and parse_method(options["method"])[0] == "lds":
            raise ValueError("restarts cannot be combined with method lds (its iterations "
                             "restart already, and the branches it cuts are not refuted)")
    phases = options.get("phases")
    if phases is not None:
        if not isinstance(phases, list | tuple):
            raise ValueError(f"phases must be a list of (variables, var_select, value_select), "
                             f"not {phases!r}")
        for phase in phases:
            if not isinstance(phase, list | tuple) or len(phase) != 3:
                raise ValueError(f"a phase is (variables, var_select, value_select), not "
                                 f"{phase!r}")
            check_options({"var_select": phase[1], "value_select": phase[2]})


def parse_method(method: object) -> tuple[str, int | None]:
    """"complete", "lds:N", "bbs:N", or an object with `kind` and `n` (cn.lds(3))."""
    if hasattr(method, "kind") and hasattr(method, "n"):
        kind, n = method.kind, method.n
    elif isinstance(method, str):
        text = method.strip().lower().replace("(", ":").rstrip(")")
        if text == "complete":
            return "complete", None
        kind, _, num = text.partition(":")
        try:
            n = int(num)
        except ValueError:
            raise ValueError(f"bad method {method!r}: use complete, lds:N or bbs:N") from None
    else:
        raise ValueError(f"bad method {method!r}: use complete, lds:N or bbs:N")
    if kind not in ("lds", "bbs") or not isinstance(n, int) or n < 0:
        raise ValueError(f"bad method {method!r}: use complete, lds:N or bbs:N (N >= 0)")
    return kind, n


class _Stop(Exception):
    """A limit was reached."""


class ObjectiveBound:
    """Branch and bound's cut: the objective must beat the incumbent, `best` ([] before the
    first solution, else [value]; whoever finds solutions updates it, and a parallel search
    also with other workers' values). Applied at every node, so it lives in the compiled
    search rather than as a closure of the model."""

    __slots__ = ("obj", "sense", "best")

    def __init__(self, obj: IntView, sense: int, best: list[int]) -> None:
        self.obj = obj
        self.sense = sense  # -1 minimise, +1 maximise
        self.best = best

    def apply(self) -> None:
        """Tighten the objective's domain below (above) the incumbent."""
        best = self.best
        if best:
            if self.sense < 0:
                self.obj.set_max(best[0] - 1)
            else:
                self.obj.set_min(best[0] + 1)


def search(solver: Solver, branch_vars: list[IntVar], options: SearchOptions,
           stats: SearchStats, bound: ObjectiveBound | None = None,
           extra_vars: list[IntVar] | None = None,
           start: float | None = None,
           phases: list[tuple[list[IntVar], str, str]] | None = None,
           project: list[IntVar] | None = None,
           ) -> Generator[None, None, None]:
    """Yield once per solution (all variables fixed). The heuristics choose among
    `branch_vars` (the model's variables); `extra_vars` (auxiliaries, determined by the
    others) are labelled in order only once every branch variable is fixed, so that no
    heuristic ever walks an auxiliary's wide domain. `phases`, (variables, var_select,
    value_select) triples, are searched first, each until its variables are fixed, as
    MiniZinc's seq_search does; then the options' heuristics take the rest. `bound` is
    applied at every node before propagation (branch and bound). `start` (a perf_counter
    time, default now) is when the caller's clock started: stats.seconds and the time limit
    count from it. `project` (engine variables, or None) asks for projected enumeration:
    one solution per assignment of those variables (see the module's note).

    Closed before the end (the caller stopped reading), the search is incomplete: its
    statistics say so, with stopped_by "closed" unless the caller named its own reason."""
    kind, n = options.validate()
    if start is None:
        start = time.perf_counter()
    deadline = None if options.time_limit is None else start + options.time_limit
    runner = _Runner(solver, branch_vars, extra_vars or [], options, stats, bound, deadline,
                     start, phases or [], project)
    restarts = parse_restarts(options.restarts)
    if restarts is not None:
        runner.restarts = RestartPolicy(restarts[0], restarts[1])
        runner.store = NogoodStore(solver)
    # propagation looks at the clock too (Solver.fix_point), so that one slow node cannot
    # outlast the limit; a deadline set by the caller (an explanation's) is kept if sooner
    saved_deadline = solver.deadline
    if deadline is not None and (not saved_deadline or deadline < saved_deadline):
        solver.deadline = deadline
    try:
        if kind == "lds":
            seen: set[tuple[int, ...]] = set()
            for k in range(n + 1):  # type: ignore[operator]
                runner.cut = False
                yield from runner.dfs(max_disc=k, seen=seen)
                if not runner.cut:
                    return
            stats.stopped_by = "lds"
        else:
            yield from runner.dfs(fail_limit=n if kind == "bbs" else None)
    except _Stop:
        pass  # check_limits named the limit in stats.stopped_by
    except TimeUp:
        stats.stop("time_limit")
    except GeneratorExit:
        stats.stop("closed")
        raise
    finally:
        if runner.store is not None:
            runner.store.detach()
        solver.deadline = saved_deadline
        stats.seconds = time.perf_counter() - start
        stats.propagations = solver.propagations


def branching(solver: Solver, branch_vars: list[IntVar], extra_vars: list[IntVar],
              options: SearchOptions, phases: list[tuple[list[IntVar], str, str]],
              project: list[IntVar] | None = None,
              ) -> Callable[[], tuple[IntVar, tuple[Decision, ...]] | None]:
    """The search's own choice at the current state of the engine: a function giving
    (variable, decisions) for the next branching, or None when every variable is fixed.
    A parallel search splits the tree with it into subproblems. With `project`, the
    projection variables come first; a branching on another variable means they are all
    fixed (the node is a completion, which must not be split)."""
    runner = _Runner(solver, branch_vars, extra_vars, options, SearchStats(), None, None,
                     0.0, phases, project)
    if project is not None:
        return runner.projected_alternatives
    return runner.alternatives


class _Runner:
    def __init__(self, solver: Solver, branch_vars: list[IntVar], extra_vars: list[IntVar],
                 options: SearchOptions, stats: SearchStats,
                 bound: ObjectiveBound | None, deadline: float | None,
                 start: float, phases: list[tuple[list[IntVar], str, str]],
                 project: list[IntVar] | None) -> None:
        self.solver = solver
        self.vars = branch_vars
        self.stats = stats
        self.bound = bound
        self.deadline = deadline
        self.node_limit = options.node_limit
        self.on_progress = options.on_progress
        self.limited = (options.node_limit is not None or deadline is not None
                        or options.on_progress is not None)
        self.next_progress = start + PROGRESS_INTERVAL
        self.start = start
        self.select_var = make_var_select(options.var_select)
        self.select_value = make_value_select(options.value_select, options.seed)
        self.cut = False
        # restarts (search() sets both): when the next is due, and the nogoods that keep
        # the search from repeating itself (restarts.py)
        self.restarts: RestartPolicy | None = None
        self.store: NogoodStore | None = None
        self.extra = list(extra_vars)
        self.phases = [(list(xs), make_var_select(var_select),
                        make_value_select(value_select, options.seed))
                       for xs, var_select, value_select in phases]
        # projected enumeration: the phases restricted to the projection variables, then
        # the options' heuristics over all of them; the key of a reported solution
        self.projecting = project is not None
        self.completing = False
        self.project_phases: list[tuple[list[IntVar], VarChooser, ValueChooser]] = []
        self.key_vars: list[IntView] = list(branch_vars)
        if project is not None:
            members = {id(x) for x in project}
            for xs, select_var, select_value in self.phases:
                ys = [x for x in xs if id(x) in members]
                if ys:
                    self.project_phases.append((ys, select_var, select_value))
            self.project_phases.append((list(project), self.select_var, self.select_value))
            self.key_vars = list(project)
            if bound is not None:
                self.key_vars.append(bound.obj)

    def projected_alternatives(self) -> tuple[IntVar, tuple[Decision, ...]] | None:
        """Like alternatives(), the projection variables first; sets self.completing when
        they (and the objective, under branch and bound) are all fixed."""
        for xs, select_var, select_value in self.project_phases:
            x = select_var(xs)
            if x is not None:
                self.completing = False
                decisions = select_value(x)
                kind, v = decisions[0]
                if kind == EQ and x.bits < 0 and x.lo < v < x.hi:
                    decisions = ((EQ, v), (LE, v - 1), (GT, v))  # as in alternatives()
                return x, decisions
        bound = self.bound
        self.completing = bound is None or bound.obj.lo == bound.obj.hi
        return self.alternatives()

    def alternatives(self) -> tuple[IntVar, tuple[Decision, ...]] | None:
        """(var, decisions) for the next branching, or None when every variable is fixed."""
        x: IntVar | None = None
        decisions: tuple[Decision, ...] = ()
        for xs, select_var, select_value in self.phases:
            x = select_var(xs)
            if x is not None:
                decisions = select_value(x)
                break
        else:
            x = self.select_var(self.vars)
            if x is not None:
                decisions = self.select_value(x)
        if x is None:
            for y in self.extra:
                if y.lo != y.hi:
                    x = y
                    break
            else:
                return None
            decisions = auto_value(x)
        kind, v = decisions[0]
        if kind == EQ and x.bits < 0 and x.lo < v < x.hi:
            # a bounds-only domain cannot drop an interior value: split around it
            decisions = ((EQ, v), (LE, v - 1), (GT, v))
        return x, decisions

    def check_limits(self) -> None:
        stats = self.stats
        if self.node_limit is not None and stats.nodes >= self.node_limit:
            stats.stopped_by = "node_limit"
            raise _Stop
        if self.deadline is not None or self.on_progress is not None:
            now = time.perf_counter()
            if self.deadline is not None and now > self.deadline:
                stats.stopped_by = "time_limit"
                raise _Stop
            if self.on_progress is not None and now >= self.next_progress:
                self.next_progress = now + PROGRESS_INTERVAL
                stats.seconds = now - self.start
                stats.propagations = self.solver.propagations
                self.on_progress(stats)

    def is_new(self, seen: set[tuple[int, ...]] | None) -> bool:
        """Record the current solution; False if an earlier LDS iteration reported it."""
        if seen is None:
            return True
        # auxiliaries follow from the variables; a projected search reports projections
        key = tuple(x.lo for x in self.key_vars)
        if key in seen:
            return False
        seen.add(key)
        return True

    def dfs(self, max_disc: int | None = None, fail_limit: int | None = None,
            seen: set[tuple[int, ...]] | None = None) -> Iterator[None]:
        solver, stats, trail = self.solver, self.stats, self.solver.trail
        bound = self.bound
        limited = self.limited
        projecting = self.projecting
        restarts = self.restarts
        store = self.store
        profile = stats.depth_nodes
        base = trail.depth
        trail.push_level()
        nogoods: list[list[Pred]] = []  # the refuted branches when restarting
        try:
            while True:  # once, and once more after each restart
                try:
                    if store is not None:
                        for nogood in nogoods:
                            store.add(nogood)
                    if bound is not None:
                        bound.apply()
                        solver.fix_point()  # a direct call when compiled
                except Inconsistency:
                    stats.fails += 1
                    return
                root = self.projected_alternatives() if projecting else self.alternatives()
                if root is None:
                    if self.is_new(seen):
                        stats.solutions += 1
                        yield
                    return
                trail.push_level()
                # a frame: [variable, decisions, next decision, discrepancies so far], and
                # in a projected search whether the frame belongs to a completion
                stack: list[list[Any]] = [[root[0], root[1], 0, 0, self.completing]
                                          if projecting else [root[0], root[1], 0, 0]]
                while stack:
                    frame = stack[-1]
                    alts = frame[1]
                    i = frame[2]
                    if i == len(alts):
                        stack.pop()
                        trail.pop_level()
                        continue
                    frame[2] = i + 1
                    d = frame[3] + 1 if i else frame[3]
                    if max_disc is not None and d > max_disc:
                        self.cut = True
                        frame[2] = len(alts)
                        continue
                    trail.restart_level()
                    if limited:
                        self.check_limits()
                    stats.nodes += 1
                    # nodes by depth (the tree's shape, for --plot): a new depth is rare
                    depth = len(stack)
                    if depth > len(profile):
                        profile.extend([0] * (depth - len(profile)))
                        if depth > stats.max_depth:
                            stats.max_depth = depth
                    profile[depth - 1] += 1
                    kind, v = alts[i]
                    try:
                        apply_decision(frame[0], kind, v)
                        if bound is not None:
                            bound.apply()
                        solver.fix_point()
                    except Inconsistency:
                        stats.fails += 1
                        if fail_limit is not None and stats.fails > fail_limit:
                            stats.stopped_by = "bbs"
                            raise _Stop from None
                        if restarts is not None and stats.fails >= restarts.next_at:
                            break
                        continue
                    children = (self.projected_alternatives() if projecting
                                else self.alternatives())
                    if children is None:
                        if self.is_new(seen):
                            stats.solutions += 1
                            yield
                        if projecting:
                            # one completion is enough: close the completion's open
                            # branchings (the frames above the last one on a projection
                            # variable)
                            k = len(stack) - 1
                            while k >= 0 and stack[k][4]:
                                stack[k][2] = len(stack[k][1])
                                k -= 1
                        continue
                    trail.push_level()
                    if projecting:
                        stack.append([children[0], children[1], 0, d, self.completing])
                    else:
                        stack.append([children[0], children[1], 0, d])
                else:
                    return  # the whole tree was searched
                # a restart (only restarts break the loop): back to the root, keeping what
                # was refuted as nogoods
                nogoods = refuted_nogoods(stack)
                while trail.depth > base + 1:
                    trail.pop_level()
                stats.restarts += 1
                if restarts is not None:
                    restarts.restarted(stats.fails)
        finally:
            while trail.depth > base:
                trail.pop_level()
