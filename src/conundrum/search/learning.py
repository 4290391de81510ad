"""The learning search (issue 29, plan 2.6 and 2.8): conflict-driven nogood learning with
backjumping and restarts, beside the depth-first search of dfs.py and with its options,
limits and statistics.

A decision is one trail level and one predicate made true (engine/literals.py); there are
no alternatives to come back to: when propagation fails, conflict analysis (conflict.py)
learns a nogood from the journal, the search jumps back to the level where the nogood says
something new, and the nogood store (engine/clauses.py) makes that known. So the "other
branch" of a decision is what a learned nogood asserts, and a failure found once is never
searched again, whatever the order of the decisions after a restart.

- **Choices**: the classic heuristics (`var_select`, `value_select`, phases, the objective
  last); a value choice is made a predicate: `x = v`, `x != v`, `x <= v` or `x >= v`. A
  domain kept as bounds only (engine/var.py) gets bound predicates only, since a hole
  cannot be made inside it.
- **Restarts**: Luby x 100 failures unless `restarts` says otherwise; nogoods survive,
  except that at the root the store forgets the less useful half of its learned nogoods
  once there are more than MAX_LEARNED of them (engine/clauses.py, `reduce`).
- **Enumeration stays exact**: after each solution a permanent *blocking* nogood (the
  decisions that led to it, or the projection's values) is added and treated as a
  conflict, so the solution is never found again; every nogood learned from it cuts only
  where no new solution is. The search ends when a conflict holds at the root.
- **Branch and bound**: after each improving solution the search restarts and the
  objective's bound becomes a fact of the root; learned nogoods stay valid (bounds only
  tighten); a conflict at the root proves the last solution optimal. At each return to
  the root the objective's domain there is a proved bound (`stats.bound`).

- **Assumptions** (issue 43, `Assumptions`): predicates decided first, in order, one
  level each (an assumption that holds already gets an empty level). Learning treats them
  as any decision, so every nogood holds without them. An assumption found false when its
  turn comes ends the search: the final conflict analysis (conflict.decisions_behind)
  resolves its negation down to the assumptions it follows from, an unsatisfiable core.

Counters: a node per decision, a failure per conflict, `restarts`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from conundrum.engine import Inconsistency
from conundrum.engine.journal import Journal
from conundrum.engine.literals import (
    EQ,
    GE,
    LE,
    Pred,
    equal_preds,
    falsified,
    from_decision,
    holds,
    make_true,
    negate,
)
from conundrum.engine.reasons import decision_explanation, explain_conflict
from conundrum.search.activity import Activity
from conundrum.search.conflict import analyse, decisions_behind
from conundrum.search.selectors import Random32, ValueChooser, auto_value
from conundrum.search.slicing import PAUSE

if TYPE_CHECKING:
    from conundrum.engine.clauses import NogoodStore
    from conundrum.engine.var import IntVar
    from conundrum.search.dfs import ObjectiveBound, _Runner
    from conundrum.search.options import SearchOptions
    from conundrum.search.restarts import RestartPolicy
    from conundrum.state import Trail


# the store's tiers (Pumpkin's): learned nogoods of at most KEEP_LBD levels stay; past
# MAX_LEARNED of the others, the less active half is forgotten at the next root
KEEP_LBD = 5
MAX_LEARNED = 4000


class Assumptions:
    """Predicates the learning search decides first, in order, each on a trail level of
    its own (a search *under assumptions*, issue 43). When one of them is found false
    there, the search ends with no solution and `core` lists the positions of assumptions
    that cannot all hold (with the model): the one found false and those its negation
    follows from (an unsatisfiable core); `core` is [] when the model has no solution
    whatever is assumed. A nogood learned meanwhile holds without the assumptions, so
    runs under different assumptions may share one `store` (kept attached after the run:
    its owner detaches it)."""

    def __init__(self, preds: list[Pred], store: NogoodStore | None = None) -> None:
        self.preds = preds
        self.store = store
        self.core: list[int] | None = None  # None: no core (a solution, or a limit)

    def failed(self, journal: Journal, root: int, k: int) -> None:
        """Assumption k is false where the first k hold: read the core."""
        levels = decisions_behind(journal, [negate(self.preds[k])], root)
        self.core = sorted({level - root - 1 for level in levels} | {k})


def decision_pred(x: IntVar, kind: int, v: int) -> Pred:
    """The first alternative of a value choice as the predicate to make true. On a
    bounds-only domain an (in)equality becomes a bound: a learned nogood must be able to
    assert the decision's negation, and a hole cannot be made there."""
    p = from_decision(x, kind, v)
    if x.bits >= 0 or p.kind == GE or p.kind == LE:
        return p
    if p.kind == EQ:
        return Pred(x, GE, v) if v == x.hi else Pred(x, LE, v)
    return Pred(x, GE, v + 1) if v == x.lo else Pred(x, LE, v - 1)  # NE at a bound


def _blocking(runner: _Runner, decisions: list[Pred]) -> list[Pred]:
    """The nogood that keeps the current solution from being found again: its projection
    (a projected search), else the decisions that led to it. Under those decisions
    propagation fixed every variable, so they hold for this solution alone."""
    if runner.projecting:
        out: list[Pred] = []
        for x in runner.key_vars:
            out.extend(equal_preds(x.root, x.lo - x.offset))
        return out
    return list(decisions)


def _saving(activity: Activity, chooser: ValueChooser) -> ValueChooser:
    """`chooser`, behind phase saving if it is the default value choice (auto)."""
    return activity.chooser(chooser) if chooser is auto_value else chooser


def learning_search(runner: _Runner, store: NogoodStore, policy: RestartPolicy,
                    bound: ObjectiveBound | None, fail_limit: int | None,
                    options: SearchOptions) -> Iterator[int | None]:
    """Yield once per solution, as dfs.search does (see the module); PAUSE when the
    runner's slice is spent (search/slicing.py). A better incumbent found meanwhile by
    another search is applied by a restart on resuming."""
    solver, stats = runner.solver, runner.stats
    trail = solver.trail
    base = trail.depth
    trail.push_level()
    root = trail.depth
    journal = Journal(solver)
    journal.attach()
    activity = Activity(len(solver.vars), Random32(options.seed))
    if options.var_select == "activity":
        runner.select_var = activity.select
    base_value = runner.select_value
    phases = options.value_select == "auto"  # phase saving stands in for auto's values
    if phases:
        runner.select_value = activity.chooser(base_value)
    # and for the phases' auto (a FlatZinc's own variables, under conundrum's defaults)
    # and the projection's, which hold their choosers from before: without it the
    # all-interval 16 of the FlatZinc found nothing in 20 s, the same model without
    # phases a solution in 10 s
    runner.phases = [(xs, select_var, _saving(activity, select_value))
                     for xs, select_var, select_value in runner.phases]
    runner.project_phases = [
        (xs, select_var, runner.select_value if select_value is base_value
         else _saving(activity, select_value))
        for xs, select_var, select_value in runner.project_phases]
    decisions: list[Pred] = []
    try:
        if not _at_root(runner, journal, bound):
            return
        slicer = runner.slicer
        while True:
            if slicer is not None and slicer.due(stats):
                incumbent = None if bound is None else list(bound.best)
                yield PAUSE  # consistent here: after propagation, before a decision
                if bound is not None and bound.best != incumbent:
                    if phases:
                        activity.save_undone(journal, root)
                    _back_to(trail, root, root, decisions)
                    stats.restarts += 1
                    policy.restarted(stats.fails)
                    if not _at_root(runner, journal, bound):
                        return
                    continue
            conflict: list[Pred]
            permanent: list[Pred] | None = None
            assumed = runner.assumptions
            if assumed is not None and len(decisions) < len(assumed.preds):
                d = assumed.preds[len(decisions)]
                if falsified(d):  # the assumptions before imply its negation
                    assumed.failed(journal, root, len(decisions))
                    return
                choice = None
            else:
                d = None
                choice = runner.projected_alternatives() if runner.projecting else \
                    runner.alternatives()
            if d is None and choice is None:
                stats.solutions += 1
                activity.save(solver.vars)
                yield None
                if bound is not None:
                    _back_to(trail, root, root, decisions)
                    if not _at_root(runner, journal, bound):
                        return
                    continue
                conflict = _blocking(runner, decisions)
                if not conflict:
                    return  # the root was the only solution
                permanent = conflict
            else:
                if d is None:
                    assert choice is not None
                    x, alts = choice
                    kind, v = alts[0]
                    d = decision_pred(x, kind, v)
                    if holds(d):  # cannot happen with the selectors' choices; never loop
                        raise AssertionError(f"decision {d!r} already holds")
                if runner.limited:
                    runner.check_limits()
                trail.push_level()
                decisions.append(d)
                stats.count_node(len(decisions))
                journal.current = None
                journal.conflict = None
                try:
                    if not holds(d):  # (an assumption may hold already: a level of its own)
                        make_true(d)
                        solver.fix_point()
                    continue
                except Inconsistency:
                    conflict = _explained(journal)
            # learn from conflicts until the state is consistent again
            while True:
                if permanent is None:
                    stats.fails += 1
                    if fail_limit is not None and stats.fails > fail_limit:
                        runner.stop_by("bbs")
                result = analyse(journal, conflict, root, decisions)
                if not result.nogood:
                    if runner.assumptions is not None:
                        runner.assumptions.core = []  # no solution, whatever is assumed
                    return  # nothing left below the root
                for index in result.seen:
                    activity.bump(index)
                activity.decay()
                store.decay()
                if phases:
                    activity.save_undone(journal, result.level)
                _back_to(trail, result.level, root, decisions)
                if result.level == root:
                    store.reduce(MAX_LEARNED, KEEP_LBD)
                journal.conflict = None
                try:
                    if permanent is not None:
                        blocking = permanent
                        permanent = None
                        store.add(blocking)
                    store.add(result.nogood, max(result.lbd, 1), result.latest)
                    break
                except Inconsistency:
                    conflict = _explained(journal)
            if stats.fails >= policy.next_at:
                if phases:
                    activity.save_undone(journal, root)
                _back_to(trail, root, root, decisions)
                store.reduce(MAX_LEARNED, KEEP_LBD)
                stats.restarts += 1
                policy.restarted(stats.fails)
                if not _at_root(runner, journal, bound):
                    return
    finally:
        journal.detach()
        while trail.depth > base:
            trail.pop_level()


def _explained(journal: Journal) -> list[Pred]:
    """The predicates behind the failure just raised: the failed propagator's explanation,
    or the decisions if none is known."""
    out: list[Pred] = []
    p = journal.conflict
    if p is None:
        decision_explanation(journal, journal.trail.depth, out)
    else:
        explain_conflict(journal, p, out)
    return out


def _back_to(trail: Trail, level: int, root: int, decisions: list[Pred]) -> None:
    """Pop the trail to `level` (a backjump; the root for a restart) and forget the
    decisions above it (decisions[k] is the one of level root + 1 + k)."""
    while trail.depth > level:
        trail.pop_level()
    del decisions[level - root:]


def _at_root(runner: _Runner, journal: Journal, bound: ObjectiveBound | None) -> bool:
    """Apply the objective's bound at the root (after a solution or a restart); False if
    the root fails: nothing is left to search."""
    if bound is None:
        return True
    journal.current = None
    try:
        bound.apply()
        runner.solver.fix_point()
    except Inconsistency:
        runner.stats.fails += 1
        return False
    # what the root now allows, the learned nogoods included, bounds every better solution
    obj = bound.obj
    runner.stats.tighten(obj.lo if bound.sense < 0 else obj.hi, bound.sense)
    return True
