"""Step-wise explanation of a clash: from clues that cannot all hold, with the rules, to a
constraint (a cell's unit, a cage, a line) that no values can satisfy (issue 43, item 5).

The explainer of explainer.py leads to a unique solution; here there is none, so every
value is fair game: each step rules out values that cannot follow (any of them, not only
those outside a solution), simplest first as there (one constraint, then two, then a case
split, then a search), and a deduction that finds its constraints unsatisfiable under the
facts it cites ends the explanation. Every step is one the explainer makes, so the same
independent check (`conundrum.explain.verify.verify_clash`) replays it.

A model whose declared domains and one-variable constraints (a given outside a cell's
values) leave a variable empty needs no step: `empty` names it.
"""

from __future__ import annotations

from collections.abc import Callable

from conundrum.explain.explainer import Explainer
from conundrum.explain.facts import COMBINATION, DEDUCTION, Step, derived_view
from conundrum.model.budget import Budget, LimitReached
from conundrum.search.stats import SearchStats


class _NoSolution(dict[int, int]):
    """The solution a clash does not have: no value of any variable is in it."""

    def __missing__(self, key: int) -> None:
        return None


class ClashSteps(list[Step]):
    """The steps of a clash's explanation. `reached`: the last step is a contradiction
    (or `empty` lists variables left without a value before any step); otherwise
    `stopped_by` says which limit came first ("time_limit", "node_limit")."""

    def __init__(self, steps: list[Step], reached: bool, empty: list[int],
                 stopped_by: str | None = None) -> None:
        super().__init__(steps)
        self.reached = reached
        self.empty = empty
        self.stopped_by = stopped_by


class ClashExplainer(Explainer):
    """The explainer's deductions on a model without a solution, up to a contradiction."""

    def _unique_solution(self) -> dict[int, int]:
        self.unique = False
        return _NoSolution()

    def empty(self) -> list[int]:
        """Variables with no value left."""
        return [k for k, d in self.domains.items() if not d]

    def run(self) -> list[Step]:
        """Steps until one ends in a contradiction (in self.steps as they come), then only
        those the contradiction needs."""
        start = {k: set(d) for k, d in self.domains.items()}
        steps = self.steps
        singles = [(pos,) for pos in self.scopes]
        while not self.empty():
            cand = self.best(singles, self.domains, False, self.pools, self.stale)
            kind = DEDUCTION
            if cand is None:
                cand = self.best(self.pairs(), self.domains, False, self.pools, self.stale)
                kind = COMBINATION
            if cand is not None:
                step = self.step(cand, kind, self.domains)
            else:
                step = self.case_split() or self.search_step()
            steps.append(step)
            if step.contradiction:
                break
            self.apply(step.removed, self.domains, self.stale)
            step.derived = derived_view(step.removed, self.domains)
        if steps and steps[-1].contradiction:
            steps[:] = needed(steps, start)
        return steps


def needed(steps: list[Step], start: dict[int, set[int]]) -> list[Step]:
    """The steps the last one (a contradiction) depends on, in order, from the candidates
    `start`: a step stays when it rules out a value a kept step's facts need ruled out
    (each value is ruled out once, so the facts still hold), and each kept step's
    `derived` is made again from the candidates left then."""
    wanted: set[tuple[int, int]] = set()  # (variable, value) that must be ruled out
    kept: list[Step] = []
    for step in reversed(steps):
        if not step.contradiction and not any((f.var, f.value) in wanted
                                              for f in step.removed):
            continue
        kept.append(step)
        for f in step.facts:
            if f.holds_in(start[f.var]):
                continue
            if f.equal:
                wanted.update((f.var, u) for u in start[f.var] if u != f.value)
            else:
                wanted.add((f.var, f.value))
    kept.reverse()
    domains = {k: set(d) for k, d in start.items()}
    for step in kept:
        for f in step.removed:
            domains[f.var].discard(f.value)
        if step.removed:
            step.derived = derived_view(step.removed, domains)
    return kept


def explain_clash(model: object, time_limit: float | None = None,
                  node_limit: int | None = None,
                  on_progress: Callable[[SearchStats], object] | None = None) -> ClashSteps:
    """The steps from a model without a solution (a puzzle's rules and clashing clues) to
    a contradiction. A limit that comes first gives the steps made so far, `reached`
    False."""
    from conundrum.engine import TimeUp

    budget = Budget(time_limit, node_limit, on_progress)
    explainer: ClashExplainer | None = None
    try:
        explainer = ClashExplainer(model, budget)
        empty = explainer.empty()
        if empty:
            return ClashSteps([], True, empty)
        steps = explainer.run()
    except (LimitReached, TimeUp) as exc:
        reason = exc.reason if isinstance(exc, LimitReached) else "time_limit"
        made = [] if explainer is None else explainer.steps
        return ClashSteps(made, False, [], reason)
    return ClashSteps(steps, bool(steps) and steps[-1].contradiction, [])


__all__ = ["ClashExplainer", "ClashSteps", "explain_clash"]
