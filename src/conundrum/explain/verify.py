"""The independent check of an explanation: every step replayed by brute force over the
cells it cites, with the exact evaluator of conundrum.check and no code of propagation,
compilation or search.

For each step it checks that

* the facts it cites are known at that point;
* its removed values follow: no assignment of the cited variables, within the cited facts,
  satisfies the cited constraints and gives a removed value;
* it is minimal: without any one cited constraint or fact, some removed value no longer
  follows (a contradiction: the rest has a solution);
* a case split's chain does the same under its supposition and ends in a contradiction;
* a search step's refutation tree: every link holds under its suppositions, and every node
  ends in a contradiction or branches on all the candidates left to one variable;

and that the steps end with one value per variable, a solution of the whole model.

The brute force is a depth-first enumeration that checks each constraint once its
variables are all assigned, an all_different of plain variables pairwise as soon as two of
them are, and remembers the dead ends by what the unfinished constraints have seen so far
(for an all_different, only the set of values used), so that pigeonhole arguments over a
Sudoku unit take thousands of nodes instead of millions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from conundrum.check import check_solution, holds
from conundrum.explain.facts import CASE_SPLIT, SEARCH, Fact, Step
from conundrum.lang.expr import Expr, Var, postorder
from conundrum.lang.globals import AllDifferent


class ExplanationError(AssertionError):
    """An explanation step that does not hold (a bug in the explainer)."""


def _scope(c: Expr) -> list[int]:
    return sorted({node.index for node in postorder(c) if isinstance(node, Var)})


def _plain_all_different(c: Expr) -> bool:
    return (isinstance(c, AllDifferent) and all(isinstance(a, Var) for a in c.args)
            and len({a.index for a in c.args}) == len(c.args))  # type: ignore[union-attr]



def exists(constraints: Sequence[Expr], domains: dict[int, list[int]]) -> bool:
    """Whether some assignment of `domains` (every variable the constraints mention must
    have one) satisfies every constraint."""
    scopes = [_scope(c) for c in constraints]
    order: list[int] = []
    for scope in sorted(scopes, key=len):
        order.extend(v for v in scope if v not in order)
    order.extend(v for v in sorted(domains) if v not in order)
    # fewest values first: the cited facts and the tested value come first, so that a
    # conflict among them shows at the top instead of below every other combination
    rank = {v: k for k, v in enumerate(order)}
    order.sort(key=lambda v: (len(domains[v]), rank[v]))
    n = len(order)
    if any(not domains[v] for v in order):
        return False
    if n == 0:
        return all(holds(c, {}) for c in constraints)
    depth = {v: d for d, v in enumerate(order)}
    complete_at: list[list[int]] = [[] for _ in range(n)]  # constraints to evaluate at d
    open_at: list[list[int]] = [[] for _ in range(n + 1)]  # unfinished constraints at d
    peers: list[list[int]] = [[] for _ in range(n)]  # earlier variables that must differ
    for k, (c, scope) in enumerate(zip(constraints, scopes)):
        if not scope:
            if not holds(c, {}):
                return False
            continue
        first, last = min(depth[v] for v in scope), max(depth[v] for v in scope)
        complete_at[last].append(k)
        for d in range(first + 1, last + 1):
            open_at[d].append(k)
        if _plain_all_different(c):
            for v in scope:
                peers[depth[v]].extend(u for u in scope if depth[u] < depth[v])
    as_set = [_plain_all_different(c) for c in constraints]
    values: dict[int, int] = {}

    def key(d: int) -> tuple:
        parts = []
        for k in open_at[d]:
            seen = [values[v] for v in scopes[k] if depth[v] < d]
            parts.append(frozenset(seen) if as_set[k] else tuple(seen))
        return (d, tuple(parts))

    def consistent(d: int, a: int) -> bool:
        for p in peers[d]:
            if values[p] == a:
                return False
        return all(holds(constraints[k], values) for k in complete_at[d])

    dead: set[tuple] = set()
    keys: list[tuple] = [key(0)] + [()] * n
    if keys[0] in dead:
        return False
    index = [0] * n
    d = 0
    while True:
        var = order[d]
        if index[d] < len(domains[var]):
            a = domains[var][index[d]]
            index[d] += 1
            values[var] = a
            if consistent(d, a):
                if d + 1 == n:
                    return True
                keys[d + 1] = key(d + 1)
                if keys[d + 1] not in dead:
                    d += 1
                    index[d] = 0
            continue
        values.pop(var, None)
        dead.add(keys[d])
        if d == 0:
            return False
        d -= 1


class Replay:
    """The candidates of each variable, replayed step by step."""

    def __init__(self, model: object) -> None:
        self.variables: list[Var] = list(model.variables)  # type: ignore[attr-defined]
        self.constraints: list[Expr] = list(model.constraints)  # type: ignore[attr-defined]
        self.declared = {v.index: (sorted(set(v.domain_values)) if v.domain_values is not None
                                   else list(range(v.lo, v.hi + 1))) for v in self.variables}
        self.domains = {k: set(vals) for k, vals in self.declared.items()}
        for c in self.constraints:
            scope = _scope(c)
            if len(scope) == 1:
                k = scope[0]
                self.domains[k] = {a for a in self.domains[k] if holds(c, {k: a})}

    def cited_domains(self, variables: Iterable[int], facts: Sequence[Fact],
                      ) -> dict[int, list[int]]:
        """Declared domains narrowed by the cited facts only."""
        out = {}
        for v in variables:
            vals = self.declared[v]
            for f in facts:
                if f.var == v:
                    vals = [a for a in vals if (a == f.value) == f.equal]
            out[v] = vals
        return out

    def follows(self, constraints: Sequence[int], facts: Sequence[Fact],
                removed: Sequence[Fact], contradiction: bool) -> bool:
        """Whether the cited constraints and facts rule out every removed value (or, for a
        contradiction, have no solution at all)."""
        cs = [self.constraints[p] for p in constraints]
        variables = {v for c in cs for v in _scope(c)} | {f.var for f in facts}
        variables |= {f.var for f in removed}
        doms = self.cited_domains(variables, facts)
        if contradiction:
            return not exists(cs, doms)
        for r in removed:
            trial = dict(doms)
            trial[r.var] = [a for a in doms[r.var] if a == r.value]
            if exists(cs, trial):
                return False
        return True

    def check_step(self, step: Step, where: str, domains: dict[int, set[int]]) -> None:
        """Check one deduction (not a case split) against the candidates `domains`."""
        for f in step.facts:
            if not f.holds_in(domains[f.var]):
                raise ExplanationError(f"{where} cites {f}, which is not known there")
        for r in step.removed:
            if r.equal or r.value not in domains[r.var]:
                raise ExplanationError(f"{where} removes {r}, which is not a candidate")
        if not step.constraints:
            raise ExplanationError(f"{where} cites no constraint")
        if not self.follows(step.constraints, step.facts, step.removed, step.contradiction):
            raise ExplanationError(f"{where}: its conclusion does not follow from what it "
                                   "cites")
        for p in step.constraints:
            rest = [q for q in step.constraints if q != p]
            if self.follows(rest, step.facts, step.removed, step.contradiction):
                raise ExplanationError(f"{where} is not minimal: constraint {p} is not needed")
        for f in step.facts:
            rest_facts = [g for g in step.facts if g != f]
            if self.follows(step.constraints, rest_facts, step.removed, step.contradiction):
                raise ExplanationError(f"{where} is not minimal: fact {f} is not needed")

    def check_case_split(self, step: Step, where: str) -> None:
        supposed = step.assumption
        if supposed is None or not step.chain or step.removed != (supposed.negation(),):
            raise ExplanationError(f"{where}: a case split refutes its supposition")
        if supposed.value not in self.domains[supposed.var]:
            raise ExplanationError(f"{where} supposes {supposed}, which is already ruled out")
        hypothesis = {k: set(d) for k, d in self.domains.items()}
        hypothesis[supposed.var] = {supposed.value}
        for j, link in enumerate(step.chain, 1):
            self.check_step(link, f"{where}, link {j}", hypothesis)
            for r in link.removed:
                hypothesis[r.var].discard(r.value)
        if not step.chain[-1].contradiction:
            raise ExplanationError(f"{where}: the chain does not end in a contradiction")

    def check_search(self, step: Step, where: str) -> None:
        """A refutation tree: each node's links hold under its suppositions; a node either
        ends in a contradiction or branches on every candidate left to one variable."""
        supposed = step.assumption
        if supposed is None or step.removed != (supposed.negation(),):
            raise ExplanationError(f"{where}: a search step refutes its supposition")
        if supposed.value not in self.domains[supposed.var]:
            raise ExplanationError(f"{where} supposes {supposed}, which is already ruled out")
        start = {k: set(d) for k, d in self.domains.items()}
        start[supposed.var] = {supposed.value}
        stack = [(step, start, where)]
        while stack:
            node, hypothesis, place = stack.pop()
            for j, link in enumerate(node.chain, 1):
                self.check_step(link, f"{place}, link {j}", hypothesis)
                for r in link.removed:
                    hypothesis[r.var].discard(r.value)
            if node.chain and node.chain[-1].contradiction:
                continue
            if not node.branches:
                raise ExplanationError(f"{place} neither ends in a contradiction nor branches")
            split = {b.assumption.var for b in node.branches if b.assumption is not None}
            values = {b.assumption.value for b in node.branches if b.assumption is not None}
            if len(split) != 1 or values != hypothesis[next(iter(split))] or \
                    len(values) != len(node.branches):
                raise ExplanationError(f"{place}: the branches do not cover the candidates "
                                       "of one variable")
            for b in node.branches:
                assert b.assumption is not None
                branch = {k: set(d) for k, d in hypothesis.items()}
                branch[b.assumption.var] = {b.assumption.value}
                stack.append((b, branch, f"{place}, if {b.assumption}"))

    def replay(self, steps: Sequence[Step]) -> None:
        """Check each step in turn, ruling out what it removes."""
        for i, step in enumerate(steps, 1):
            where = f"step {i}"
            if step.kind == CASE_SPLIT:
                self.check_case_split(step, where)
            elif step.kind == SEARCH:
                self.check_search(step, where)
            else:
                self.check_step(step, where, self.domains)
            for r in step.removed:
                self.domains[r.var].discard(r.value)

    def run(self, steps: Sequence[Step]) -> None:
        """Check the steps and that they end at a solution of the whole model."""
        self.replay(steps)
        open_vars = [k for k, d in self.domains.items() if len(d) != 1]
        if open_vars:
            raise ExplanationError(f"after the last step, variable {open_vars[0]} has "
                                   f"{len(self.domains[open_vars[0]])} candidates")
        check_solution(self.variables, self.constraints,
                       {k: next(iter(d)) for k, d in self.domains.items()})


def verify(model: object, steps: Sequence[Step]) -> None:
    """Replay the explanation of `model`; raise ExplanationError at the first step that does
    not hold, or if the steps do not end at a solution."""
    Replay(model).run(steps)


def verify_clash(model: object, steps: Sequence[Step]) -> None:
    """Replay the explanation of a clash (conundrum.explain.clash) on `model`, the rules and
    the clashing clues: every step holds as in `verify`, only the last one is a
    contradiction, and it is one; with no step, some variable has no value to begin with.
    Raise ExplanationError otherwise."""
    replay = Replay(model)
    if not steps:
        if all(replay.domains.values()):
            raise ExplanationError("no step, yet every variable has a value to begin with")
        return
    if any(step.contradiction for step in steps[:-1]):
        raise ExplanationError("a contradiction before the last step")
    if not steps[-1].contradiction or steps[-1].kind in (CASE_SPLIT, SEARCH):
        raise ExplanationError("the last step is not a contradiction")
    replay.replay(steps)
