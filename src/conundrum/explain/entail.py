"""Entailment on a few constraints: does a set of facts, with these constraints, force a
fact? The test is a complete search (every solution of the constraints under the facts
keeps the fact), so "minimal" below means that no cited item can be dropped, not merely that
propagation would no longer see the deduction.

A :class:`SubProblem` is compiled once per set of constraints, over their own variables.
Each test pushes a trail level, applies the facts as domain changes, propagates, searches
for a counterexample and undoes. Domains keep their bit sets (``keep_holes``) so that a fact
x != w always takes effect.

Under a Budget (model/budget.py) each search gets what is left of the limits, and one that a
limit cuts short raises LimitReached: its missing counterexample would otherwise read as
"entailed". Propagation stops at the budget's deadline too (engine.TimeUp).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from conundrum.compiler.compiled import CompiledModel, compile_model
from conundrum.explain.facts import Fact
from conundrum.lang.expr import Expr, Var, postorder
from conundrum.model.budget import Budget
from conundrum.search.options import SearchOptions
from conundrum.search.selectors import EQ, NE
from conundrum.search.stats import SearchStats

_OPTIONS = SearchOptions(var_select="first_fail")


def scope_of(constraint: Expr) -> list[Var]:
    """The variables a constraint mentions, in index order."""
    found = {node.index: node for node in postorder(constraint) if isinstance(node, Var)}
    return [found[k] for k in sorted(found)]


class SubProblem:
    """A set of constraints over their own variables, ready for entailment tests."""

    def __init__(self, constraints: Sequence[Expr], budget: Budget | None = None) -> None:
        self.budget = budget
        seen: dict[int, Var] = {}
        for c in constraints:
            for v in scope_of(c):
                seen[v.index] = v
        self.variables = [seen[k] for k in sorted(seen)]
        self.position = {v.index: k for k, v in enumerate(self.variables)}
        # None: the constraints have no solution whatever the facts
        self.compiled: CompiledModel | None = compile_model(
            self.variables, list(constraints), keep_holes=True,
            deadline=0.0 if budget is None else budget.deadline)

    @contextmanager
    def _facts(self, facts: Sequence[Fact]) -> Iterator[bool]:
        """Apply the facts (those about other variables are ignored) and propagate for the
        duration of the block; yields False when that already fails."""
        from conundrum.engine import Inconsistency

        assert self.compiled is not None
        if self.budget is not None:
            self.budget.check()  # many tests need no search: the clock is read here too
        decision, position = self.compiled.decision, self.position
        trail = self.compiled.solver.trail
        base = trail.depth
        trail.push_level()
        try:
            try:
                for f in facts:
                    k = position.get(f.var)
                    if k is not None:
                        if f.equal:
                            decision[k].assign(f.value)
                        else:
                            decision[k].remove(f.value)
                self.compiled.solver.fix_point()
                consistent = True
            except Inconsistency:
                consistent = False
            yield consistent
        finally:
            while trail.depth > base:
                trail.pop_level()

    def _first(self, decision: list[tuple[int, int, int]]) -> list[int] | None:
        """A solution below the loaded facts and this decision, or None."""
        assert self.compiled is not None
        stats = SearchStats()
        budget = self.budget
        opts = _OPTIONS
        if budget is not None and (budget.limited or budget.on_progress is not None):
            opts = SearchOptions(var_select="first_fail", **budget.search_limits())
        run = self.compiled.run(opts, stats, time.perf_counter(), path=decision)
        try:
            found = next(run, None)
        finally:
            run.close()
        if budget is not None:
            budget.charge(stats)  # LimitReached if the limit, not the search, said None
        return found

    def satisfiable(self, facts: Sequence[Fact]) -> bool:
        """Whether the constraints have a solution that keeps every fact."""
        return not self.entails(facts, None)

    def entails(self, facts: Sequence[Fact], target: Fact | None) -> bool:
        """Whether the facts force `target` (None: whether they leave no solution)."""
        if self.compiled is None:
            return True
        with self._facts(facts) as consistent:
            if not consistent:
                return True
            if target is None or target.var not in self.position:
                # a variable the constraints do not mention is forced only when nothing
                # is possible at all
                return self._first([]) is None
            k = self.position[target.var]
            held = self.compiled.decision[k].contains(target.value)
            if not target.equal:
                return not held or self._first([(k, EQ, target.value)]) is None
            return held and self._first([(k, NE, target.value)]) is None

    def entailed(self, facts: Sequence[Fact], targets: Sequence[Fact]) -> list[Fact]:
        """The targets (all x != w) that the facts force. Propagation settles most; each
        solution found for another shows at once every value it uses to be possible."""
        if self.compiled is None:
            return list(targets)
        with self._facts(facts) as consistent:
            if not consistent:
                return list(targets)
            decision, position = self.compiled.decision, self.position
            possible: set[tuple[int, int]] = set()
            out = []
            for t in targets:
                k = position[t.var]
                if not decision[k].contains(t.value):
                    out.append(t)
                elif (k, t.value) not in possible:
                    values = self._first([(k, EQ, t.value)])
                    if values is None:
                        out.append(t)
                    else:
                        possible.update(enumerate(values[: len(self.variables)]))
            return out

    def refuted_by_propagation(self, facts: Sequence[Fact]) -> bool:
        """Whether propagation alone (no search) finds the facts contradictory here."""
        if self.compiled is None:
            return True
        with self._facts(facts) as consistent:
            return not consistent

    def minimise(self, tiers: Sequence[Sequence[Fact]], target: Fact | None,
                 ) -> list[Fact] | None:
        """A minimal list of facts that forces `target`, taken from the first tier (a
        growing list of candidate fact lists) that forces it; None when none does.

        One placed value (x = v) that forces it alone is taken at once; otherwise
        deletion-based: each fact is dropped in turn and kept out when the rest still force
        the target; the result is minimal because forcing is monotone in the facts."""
        if self.entails([], target):
            return []
        for tier in tiers:
            if self.entails(tier, target):
                for f in tier:  # one fact is often enough (a placed value rules it out)
                    if f.equal and self.entails([f], target):
                        return [f]
                kept = list(tier)
                i = 0
                while i < len(kept):
                    trial = kept[:i] + kept[i + 1:]
                    if self.entails(trial, target):
                        kept = trial
                    else:
                        i += 1
                return kept
        return None
