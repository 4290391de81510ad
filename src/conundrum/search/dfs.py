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
projection is never cut away. When the phases name variables outside the projection (a
MiniZinc annotation on introduced variables), they are followed first instead, as Gecode
follows them; a node is then a completion once the projection is fixed, and a projection met
again down another branch is skipped. Without `project` the search is the plain one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from typing import Any, Final

from conundrum.engine import Inconsistency, IntVar, IntView, Solver, TimeUp
from conundrum.engine.clauses import NogoodStore
from conundrum.engine.literals import Pred
from conundrum.search.auto import switch_budget
from conundrum.search.bound import ObjectiveBound
from conundrum.search.learning import Assumptions, learning_search
from conundrum.search.options import SearchOptions, check_options, parse_method, parse_search
from conundrum.search.restarts import DEFAULT_SCALE, RestartPolicy, parse_restarts, refuted_nogoods
from conundrum.search.selectors import (
    EQ,
    LEARNING_VAR_SELECTS,
    NE,
    Alternatives,
    Outward,
    Random32,
    ValueChooser,
    VarChooser,
    apply_decision,
    auto_value,
    bounded,
    hinted,
    make_value_select,
    make_var_select,
)
from conundrum.search.slicing import PAUSE, Slice
from conundrum.search.stats import SearchStats

PROGRESS_INTERVAL: Final = 0.2
# the options are checked in options.py; these names stay importable from here
__all__ = ["ObjectiveBound", "SearchOptions", "branching", "check_options", "parse_method",
           "search"]


class _Stop(Exception):
    """A limit was reached."""


class _Switch(Exception):
    """search="auto": the depth-first phase used its failure budget (see `search`)."""


def search(solver: Solver, branch_vars: list[IntVar], options: SearchOptions,
           stats: SearchStats, bound: ObjectiveBound | None = None,
           extra_vars: list[IntVar] | None = None,
           start: float | None = None,
           phases: list[tuple[list[IntVar], str, str]] | None = None,
           project: list[IntVar] | None = None,
           hints: dict[int, int] | None = None,
           slicer: Slice | None = None,
           assumptions: Assumptions | None = None,
           ) -> Generator[int | None, None, None]:
    """Yield once per solution (all variables fixed): None; with `slicer`, also PAUSE
    each time its slice is spent (search/slicing.py). The heuristics choose among
    `branch_vars` (the model's variables); `extra_vars` (auxiliaries, determined by the
    others) are labelled in order only once every branch variable is fixed, so that no
    heuristic ever walks an auxiliary's wide domain. `phases`, (variables, var_select,
    value_select) triples, are searched first, each until its variables are fixed, as
    MiniZinc's seq_search does; then the options' heuristics take the rest. `bound` is
    applied at every node before propagation (branch and bound). `start` (a perf_counter
    time, default now) is when the caller's clock started: stats.seconds and the time limit
    count from it. `project` (engine variables, or None) asks for projected enumeration:
    one solution per assignment of those variables (see the module's note). `hints`
    (engine variable index -> value, Model.hint) are tried first by every value choice.
    `slicer` makes the search share the core with others (compiler/portfolio.py): then
    "auto" is taken as "classic", never switching on its own. `assumptions`
    (learning.Assumptions) makes it the learning search under those assumptions.

    Closed before the end (the caller stopped reading), the search is incomplete: its
    statistics say so, with stopped_by "closed" unless the caller named its own reason."""
    kind, n = options.validate()
    if start is None:
        start = time.perf_counter()
    deadline = None if options.time_limit is None else start + options.time_limit
    runner = _Runner(solver, branch_vars, extra_vars or [], options, stats, bound, deadline,
                     start, phases or [], project, hints)
    if slicer is not None:
        runner.slicer = slicer
        runner.limited = True
    restarts = parse_restarts(options.restarts)
    which, budget = parse_search(options.search)
    if which == "auto" and options.var_select in LEARNING_VAR_SELECTS:
        which = "learning"  # a learning heuristic asks for the learning search (auto.py)
    learning = which == "learning" or assumptions is not None
    runner.assumptions = assumptions
    # "auto": an optimisation may go on learning after a failure budget (auto.py)
    switching = False
    if which == "auto" and kind == "complete" and slicer is None:
        runner.switch_at = switch_budget(solver, budget, bound is not None)
        switching = runner.switch_at is not None
    stats.search = "learning" if learning else "classic"
    if learning and restarts is None:
        restarts = ("luby", DEFAULT_SCALE)  # learning restarts by default
    if restarts is not None:
        runner.restarts = RestartPolicy(restarts[0], restarts[1])
        kept = None if assumptions is None else assumptions.store  # shared between runs
        runner.store = NogoodStore(solver) if kept is None else kept
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
        elif learning and runner.store is not None and runner.restarts is not None:
            yield from learning_search(runner, runner.store, runner.restarts, bound,
                                       n if kind == "bbs" else None, options)
        elif switching:
            try:
                yield from runner.dfs(seen=runner.repeated())
            except _Switch:
                yield from _learn_on(runner, bound, options)
        else:
            yield from runner.dfs(fail_limit=n if kind == "bbs" else None,
                                  seen=runner.repeated())
    except _Stop:
        pass  # check_limits named the limit in stats.stopped_by
    except TimeUp:
        stats.stop("time_limit")
    except GeneratorExit:
        stats.stop("closed")
        raise
    finally:
        if runner.store is not None and (assumptions is None
                                         or runner.store is not assumptions.store):
            runner.store.detach()
        solver.deadline = saved_deadline
        stats.seconds = time.perf_counter() - start
        stats.propagations = solver.propagations


def _learn_on(runner: _Runner, bound: ObjectiveBound | None, options: SearchOptions,
              ) -> Iterator[int | None]:
    """The second phase of search="auto": the learning search from the root, with the
    incumbent the depth-first phase found, branching by activity unless `var_select`
    names another heuristic than the default."""
    if runner.store is not None:
        runner.store.detach()  # the depth-first phase's restart nogoods
    runner.store = NogoodStore(runner.solver)
    policy = RestartPolicy("luby", DEFAULT_SCALE)
    policy.next_at += runner.stats.fails
    runner.switch_at = None
    runner.stats.search = "learning"
    if options.var_select == "dom_wdeg":
        options = options.copy()
        options.var_select = "activity"
    yield from learning_search(runner, runner.store, policy, bound, None, options)


def branching(solver: Solver, branch_vars: list[IntVar], extra_vars: list[IntVar],
              options: SearchOptions, phases: list[tuple[list[IntVar], str, str]],
              project: list[IntVar] | None = None, bound: ObjectiveBound | None = None,
              ) -> Callable[[], tuple[IntVar, Alternatives] | None]:
    """The search's own choice at the current state of the engine: a function giving
    (variable, decisions) for the next branching, or None when every variable is fixed.
    A parallel search splits the tree with it into subproblems. With `project`, the
    projection variables come first; a branching on another variable means they are all
    fixed (the node is a completion, which must not be split). `bound` is the objective
    (never applied here): its variable is branched on last, as in the search."""
    runner = _Runner(solver, branch_vars, extra_vars, options, SearchStats(), bound, None,
                     0.0, phases, project)
    if project is not None:
        return runner.projected_alternatives
    return runner.alternatives


class _Runner:
    def __init__(self, solver: Solver, branch_vars: list[IntVar], extra_vars: list[IntVar],
                 options: SearchOptions, stats: SearchStats,
                 bound: ObjectiveBound | None, deadline: float | None,
                 start: float, phases: list[tuple[list[IntVar], str, str]],
                 project: list[IntVar] | None,
                 hints: dict[int, int] | None = None) -> None:
        self.solver = solver
        self.vars = branch_vars
        self.stats = stats
        self.bound = bound
        # An objective that is one of the branching variables is branched on after all the
        # others (issue 29), toward better values: chosen first (a small domain, in every
        # constraint), its first value is a bound no cheap search proves or refutes (bin
        # packing into the lower bound of bins), and the whole run stays under it.
        self.objective: IntVar | None = None
        self.sense = 0
        if bound is not None:
            root = bound.obj.root
            rest = [x for x in branch_vars if x is not root]
            if len(rest) < len(branch_vars):
                self.vars = rest
                self.objective = root
                self.sense = bound.sense
        self.deadline = deadline
        self.node_limit = options.node_limit
        self.on_progress = options.on_progress
        self.limited = (options.node_limit is not None or deadline is not None
                        or options.on_progress is not None)
        self.next_progress = start + PROGRESS_INTERVAL
        self.start = start
        # under restarts, ties are broken at random so that each restart can choose anew
        rng = None if options.restarts is None else Random32(options.seed)
        # (the learning search's own selections replace this one: see learning.py)
        self.select_var = make_var_select(
            "dom_wdeg" if options.var_select in LEARNING_VAR_SELECTS else options.var_select,
            rng)
        self.select_value = make_value_select(options.value_select, options.seed)
        self.cut = False
        # restarts (search() sets both): when the next is due, and the nogoods that keep
        # the search from repeating itself (restarts.py)
        self.restarts: RestartPolicy | None = None
        self.store: NogoodStore | None = None
        self.assumptions: Assumptions | None = None  # decided first (learning.py)
        self.switch_at: int | None = None  # search="auto": the depth-first phase's budget
        self.slicer: Slice | None = None  # sharing the core: the current slice's budget
        self.extra = list(extra_vars)
        self.phases = [(list(xs), make_var_select(var_select, rng),
                        make_value_select(value_select, options.seed))
                       for xs, var_select, value_select in phases]
        if hints:  # the hints come first in every value choice
            self.select_value = hinted(hints, self.select_value)
            self.phases = [(xs, select_var, hinted(hints, select_value))
                           for xs, select_var, select_value in self.phases]
        # projected enumeration: the phases restricted to the projection variables, then
        # the options' heuristics over all of them; the key of a reported solution
        self.projecting = project is not None
        self.completing = False
        self.project_phases: list[tuple[list[IntVar], VarChooser, ValueChooser]] = []
        self.key_vars: list[IntView] = list(branch_vars)
        # phases over variables outside the projection (a MiniZinc search annotation on
        # introduced variables) are followed as given, as Gecode follows them: a node is
        # a completion once the projection is fixed, whatever was branched on before, and
        # a projection reached again down another branch is not reported twice (`seen`)
        self.phases_first = False
        if project is not None:
            members = {id(x) for x in project}
            self.phases_first = any(id(x) not in members
                                    for xs, _, _ in self.phases for x in xs)
            for xs, select_var, select_value in self.phases:
                ys = [x for x in xs if id(x) in members]
                if ys and not self.phases_first:
                    self.project_phases.append((ys, select_var, select_value))
            if not self.phases_first:
                self.project_phases.append((list(project), self.select_var,
                                            self.select_value))
            self.key_vars = list(project)
            if bound is not None:
                self.key_vars.append(bound.obj)
        self.project: list[IntVar] = list(project) if project is not None else []

    def projected_alternatives(self) -> tuple[IntVar, Alternatives] | None:
        """Like alternatives(), the projection variables first (unless the phases come
        first, see __init__); sets self.completing when they (and the objective, under
        branch and bound) are all fixed."""
        if self.phases_first:
            bound = self.bound
            self.completing = (bound is None or bound.obj.lo == bound.obj.hi) and all(
                x.lo == x.hi for x in self.project)
            return self.alternatives()
        for xs, select_var, select_value in self.project_phases:
            x = select_var(xs)
            if x is not None:
                self.completing = False
                return x, bounded(x, select_value(x))
        bound = self.bound
        self.completing = bound is None or bound.obj.lo == bound.obj.hi
        return self.alternatives()

    def alternatives(self) -> tuple[IntVar, Alternatives] | None:
        """(var, decisions) for the next branching, or None when every variable is fixed."""
        x: IntVar | None = None
        decisions: Alternatives = ()
        for xs, select_var, select_value in self.phases:
            x = select_var(xs)
            if x is not None:
                decisions = select_value(x)
                break
        else:
            x = self.select_var(self.vars)
            if x is not None:
                decisions = self.select_value(x)
            else:
                obj = self.objective
                if obj is not None and obj.lo != obj.hi:
                    x = obj
                    v = obj.lo if self.sense < 0 else obj.hi
                    decisions = ((EQ, v), (NE, v))
        if x is None:
            for y in self.extra:
                if y.lo != y.hi:
                    x = y
                    break
            else:
                return None
            decisions = auto_value(x)
        return x, bounded(x, decisions)

    def narrowed(self, alts: Outward) -> bool:
        """Apply the objective's bound at an Outward branching's node before its next
        value is chosen (it follows the bounds found since): whether a value is left."""
        try:
            if self.bound is not None:
                self.bound.apply()
                self.solver.fix_point()
        except Inconsistency:
            self.stats.fails += 1
            return False
        return alts.narrow()

    def stop_by(self, reason: str) -> None:
        """Stop the search: `reason` is the limit that was reached."""
        self.stats.stopped_by = reason
        raise _Stop

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

    def repeated(self) -> set[tuple[int, ...]] | None:
        """The reported projections to skip when met again (a set to fill), when the
        tree may reach one projection down two branches; None when it cannot."""
        return set() if self.phases_first else None

    def is_new(self, seen: set[tuple[int, ...]] | None) -> bool:
        """Record the current solution; False if it was reported before (an earlier LDS
        iteration, or another branch that reached the same projection)."""
        if seen is None:
            return True
        # auxiliaries follow from the variables; a projected search reports projections
        key = tuple(x.lo for x in self.key_vars)
        if key in seen:
            return False
        seen.add(key)
        return True

    def dfs(self, max_disc: int | None = None, fail_limit: int | None = None,
            seen: set[tuple[int, ...]] | None = None) -> Iterator[int | None]:
        solver, stats, trail = self.solver, self.stats, self.solver.trail
        bound = self.bound
        limited = self.limited
        projecting = self.projecting
        restarts = self.restarts
        store = self.store
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
                        yield None
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
                    if i and isinstance(alts, Outward) and not self.narrowed(alts):
                        frame[2] = len(alts)
                        continue
                    if limited:
                        self.check_limits()
                        slicer = self.slicer
                        if slicer is not None and slicer.due(stats):
                            yield PAUSE  # at the node, before its next alternative
                    stats.count_node(len(stack))
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
                        if self.switch_at is not None and stats.fails >= self.switch_at:
                            raise _Switch from None
                        if restarts is not None and stats.fails >= restarts.next_at:
                            break
                        continue
                    children = (self.projected_alternatives() if projecting
                                else self.alternatives())
                    if children is None:
                        if self.is_new(seen):
                            stats.solutions += 1
                            yield None
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
