"""Step-wise explanation: from the givens to the unique solution in small deductions,
simplest first (after Bogaerts, Gamba and Guns, "A framework for step-wise explaining how to
solve constraint satisfaction problems", AIJ 2021).

The explainer keeps the candidates of every variable. At each step it takes the cheapest
deduction available, cheapest meaning, in this order:

1. one constraint (a *deduction*) before two that share a variable (a *combination*);
2. fewer cited facts;
3. more values ruled out.

A deduction on constraints S with facts F rules out value w of x when S has no solution with
F and x = w (complete search on S alone, see entail.py); F is then shrunk until no fact can
be dropped. Each constraint (and each pair) keeps its list of available deductions until one
of its variables changes.

When no deduction on one or two constraints is left, the step is a *case split*: suppose
x = w, chain single-constraint deductions under that supposition until one constraint
has no solution left, and conclude x != w. The supposition tried first is a value of a
variable with the fewest candidates; among the first few that propagation refutes, the
shortest chain wins. If no supposition is refuted that way, the last resort is a *search*
step: a search on the whole model refutes x = w.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from conundrum.check import holds
from conundrum.explain.entail import SubProblem, scope_of
from conundrum.explain.facts import (
    CASE_SPLIT,
    COMBINATION,
    DEDUCTION,
    SEARCH,
    Fact,
    Step,
    derived_view,
    facts_of,
)
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, Var
from conundrum.model.budget import Budget, LimitReached
from conundrum.search.stats import SearchStats

MAX_VALUES = 4096  # values per variable an explanation will consider
CASE_SPLIT_TRIES = 6  # refuted suppositions whose chains are compared
MAX_CHAIN = 500  # links in one case split's chain


class ExplainError(ModelError):
    """The model cannot be explained: it has no solution, or more than one
    (``solutions`` is 0 or 2)."""

    def __init__(self, message: str, solutions: int) -> None:
        super().__init__(message)
        self.solutions = solutions


Key = tuple[int, ...]  # positions in Model.constraints: one, or a pair


class Explanation(list[Step]):
    """The steps of an explanation: a list, with what a limit did to it. `complete` is
    False when a time or node limit stopped the explanation first (`stopped_by` says
    which): every step given holds, but they do not reach the solution. `unique` is True
    once the solution was found unique, None when the limit came before that was known.
    `stats`: the nodes and seconds of the whole explanation."""

    def __init__(self, steps: Iterable[Step] = (), complete: bool = True,
                 stopped_by: str | None = None, unique: bool | None = True,
                 stats: SearchStats | None = None) -> None:
        super().__init__(steps)
        self.complete = complete
        self.stopped_by = stopped_by
        self.unique = unique
        self.stats = SearchStats() if stats is None else stats


@dataclass
class Candidate:
    """A deduction available now: constraints `key` and `facts` rule out `removed` (or,
    with `contradiction`, have no solution at all)."""

    key: Key
    facts: list[Fact]
    removed: list[Fact]
    contradiction: bool = False

    def cost(self) -> tuple:
        return (not self.contradiction, len(self.key), len(self.facts), -len(self.removed),
                self.key)


def declared_domain(v: Var) -> list[int]:
    """The values a variable was declared with."""
    if v.domain_values is not None:
        values = sorted(set(v.domain_values))
    else:
        if v.hi - v.lo + 1 > MAX_VALUES:
            raise ModelError(f"explain: variable {v.name or v.index!r} has "
                             f"{v.hi - v.lo + 1:,} values; an explanation considers at most "
                             f"{MAX_VALUES:,} per variable")
        values = list(range(v.lo, v.hi + 1))
    if len(values) > MAX_VALUES:
        raise ModelError(f"explain: variable {v.name or v.index!r} has {len(values):,} "
                         f"values; an explanation considers at most {MAX_VALUES:,} per "
                         "variable")
    return values



class Explainer:
    """Explains one model; `run()` gives the steps."""

    def __init__(self, model: object, budget: Budget | None = None) -> None:
        self.budget = budget
        self.steps: list[Step] = []  # made so far (run() fills it)
        self.unique: bool | None = None  # known once the solution is found unique
        if budget is not None:
            budget.check()
        variables: list[Var] = list(model.variables)  # type: ignore[attr-defined]
        constraints: list[Expr] = list(model.constraints)  # type: ignore[attr-defined]
        self.model = model
        self.variables = variables
        self.constraints = constraints
        self.declared = {v.index: declared_domain(v) for v in variables}
        self.domains: dict[int, set[int]] = {k: set(d) for k, d in self.declared.items()}
        self.scopes: dict[int, list[int]] = {}
        for pos, c in enumerate(constraints):
            scope = [v.index for v in scope_of(c)]
            if len(scope) >= 2:
                self.scopes[pos] = scope
            elif scope:  # a given: x == 5, x != 0, ...
                k = scope[0]
                self.domains[k] = {a for a in self.domains[k] if holds(c, {k: a})}
            elif not holds(c, {}):
                self.domains = {k: set() for k in self.domains}
        self.solution = self._unique_solution()
        self.keys_of_var: dict[int, list[Key]] = {}
        for pos, scope in self.scopes.items():
            for k in scope:
                self.keys_of_var.setdefault(k, []).append((pos,))
        self.pair_keys: list[Key] | None = None
        self.subproblems: dict[Key, SubProblem] = {}
        self.pools: dict[Key, list[Candidate]] = {}
        self.stale: set[Key] = {(pos,) for pos in self.scopes}

    def _unique_solution(self) -> dict[int, int]:
        budget = self.budget
        limits = {} if budget is None else budget.search_limits()
        found = list(self.model.solutions(limit=2, **limits))  # type: ignore[attr-defined]
        if budget is not None:
            budget.charge(self.model.stats)  # type: ignore[attr-defined]
        if not found:
            raise ExplainError("the model has no solution, so there is nothing to explain", 0)
        if len(found) > 1:
            raise ExplainError("the model has more than one solution; an explanation leads "
                               "to a unique one", 2)
        sol = found[0]
        self.unique = True
        return {v.index: sol[v] for v in self.variables}

    # ------------------------------------------------------------------------ facts
    def facts(self, variables: Iterable[int], domains: dict[int, set[int]]) -> list[Fact]:
        """The facts stating the candidates of these variables."""
        out: list[Fact] = []
        for k in variables:
            out.extend(facts_of(k, domains[k], self.declared[k]))
        return out

    def subproblem(self, key: Key) -> SubProblem:
        sub = self.subproblems.get(key)
        if sub is None:
            sub = SubProblem([self.constraints[pos] for pos in key], self.budget)
            self.subproblems[key] = sub
        return sub

    # ------------------------------------------------------------------ deductions
    def pool(self, key: Key, domains: dict[int, set[int]], real: bool,
             minimal: bool = True) -> list[Candidate]:
        """Every deduction on the constraints `key` under `domains`: groups of ruled-out
        values, each with a minimal set of facts. `real` steps rule out only values that
        are not in the solution (the only ones that can follow); a supposition's chain
        (real False) may rule out any value, and looks for a contradiction first. Without
        `minimal`, one candidate cites every fact of the scope (a quick draft)."""
        sub = self.subproblem(key)
        scope = [v.index for v in sub.variables]
        facts = self.facts(scope, domains)
        if not real and not sub.satisfiable(facts):
            kept = sub.minimise(self._tiers(facts, None), None) if minimal else facts
            assert kept is not None
            return [Candidate(key, kept, [], contradiction=True)]
        fixed_values = {f.value for f in facts if f.equal}
        targets = [Fact(k, w, False) for k in scope if len(domains[k]) > 1
                   for w in sorted(domains[k]) if not real or w != self.solution[k]]
        # values already placed in the scope first: they are ruled out by one fact
        targets.sort(key=lambda t: (t.value not in fixed_values, t.var, t.value))
        entailed = sub.entailed(facts, targets)
        if not minimal:
            return [Candidate(key, facts, entailed)] if entailed else []
        candidates: list[Candidate] = []
        covered: set[Fact] = set()
        for t in entailed:
            if t in covered:
                continue
            kept = sub.minimise(self._tiers(facts, t), t)
            assert kept is not None  # the whole list of facts forces t
            removed = sub.entailed(kept, entailed)
            covered.update(removed)
            candidates.append(Candidate(key, kept, removed))
        return candidates

    @staticmethod
    def _tiers(facts: list[Fact], target: Fact | None) -> list[list[Fact]]:
        """Growing lists of facts to look for a minimal explanation in: facts about the
        target's value, then placed values too, then all (unplaced facts first in each, as
        deletion drops early ones first)."""
        if target is None:
            return [facts]
        same = [f for f in facts if f.value == target.value]
        placed = same + [f for f in facts if f.equal and f.value != target.value]
        in_placed = set(placed)
        rest = [f for f in facts if f not in in_placed]
        return [same, placed, rest + placed]

    def best(self, keys: Iterable[Key], domains: dict[int, set[int]], real: bool,
             pools: dict[Key, list[Candidate]], stale: set[Key],
             minimal: bool = True) -> Candidate | None:
        """The cheapest deduction on these keys (refreshing the stale ones' pools)."""
        best: Candidate | None = None
        for key in keys:
            if key in stale:
                pools[key] = self.pool(key, domains, real, minimal)
                stale.discard(key)
            for cand in pools.get(key, ()):
                if best is None or cand.cost() < best.cost():
                    best = cand
        return best

    def pairs(self) -> list[Key]:
        """Pairs of constraints that share a variable (computed when first needed)."""
        if self.pair_keys is None:
            found: set[Key] = set()
            for keys in self.keys_of_var.values():
                for i, (a,) in enumerate(keys):
                    for (b,) in keys[i + 1:]:
                        found.add((min(a, b), max(a, b)))
            self.pair_keys = sorted(found)
            self.stale.update(self.pair_keys)
            for key in self.pair_keys:
                for pos in key:
                    for k in self.scopes[pos]:
                        if key not in self.keys_of_var[k]:
                            self.keys_of_var[k].append(key)
        return self.pair_keys

    # ------------------------------------------------------------------ the loop
    def run(self) -> list[Step]:
        """The steps, until every variable has one value left (also in self.steps, where
        a caller stopped by a limit finds those made so far)."""
        steps = self.steps
        singles = [(pos,) for pos in self.scopes]
        while any(len(d) > 1 for d in self.domains.values()):
            cand = self.best(singles, self.domains, True, self.pools, self.stale)
            kind = DEDUCTION
            if cand is None:
                cand = self.best(self.pairs(), self.domains, True, self.pools, self.stale)
                kind = COMBINATION
            if cand is not None:
                step = self.step(cand, kind, self.domains)
            else:
                step = self.case_split() or self.search_step()
            self.apply(step.removed, self.domains, self.stale)
            step.derived = derived_view(step.removed, self.domains)
            steps.append(step)
        return steps

    def apply(self, removed: Iterable[Fact], domains: dict[int, set[int]],
              stale: set[Key]) -> None:
        for f in removed:
            domains[f.var].discard(f.value)
            stale.update(self.keys_of_var.get(f.var, ()))

    def step(self, cand: Candidate, kind: str, domains: dict[int, set[int]]) -> Step:
        return Step(removed=tuple(cand.removed), derived=(), constraints=cand.key,
                    facts=tuple(cand.facts), kind=kind, rank=_rank(cand, kind),
                    contradiction=cand.contradiction)

    # ------------------------------------------------------------------ case splits
    def whole(self) -> SubProblem:
        return self.subproblem(tuple(sorted(self.scopes)))

    def case_split(self) -> Step | None:
        """The shortest refutation, by single-constraint deductions, of one supposition
        x = w among the first few that propagation refutes. The chains are compared as
        quick drafts (each deduction citing every fact in its scope); only the shortest is
        then made of minimal steps."""
        whole = self.whole()
        facts = self.facts(self.domains, self.domains)
        suppositions = sorted((len(d), k, w) for k, d in self.domains.items() if len(d) > 1
                              for w in d if w != self.solution[k])
        best: tuple[tuple[int, int, int], Fact] | None = None
        tried = 0
        for _, k, w in suppositions:
            supposed = Fact(k, w, True)
            if not whole.refuted_by_propagation([*facts, supposed]):
                continue
            draft = self.chain(supposed, minimal=False)
            if draft is None:
                continue
            tried += 1
            if best is None or _chain_cost(draft) < best[0]:
                best = (_chain_cost(draft), supposed)
            if tried >= CASE_SPLIT_TRIES:
                break
        return None if best is None else self.chain(best[1])

    def deduce(self, domains: dict[int, set[int]], stale: set[Key], minimal: bool,
               ) -> tuple[list[Step], bool]:
        """Single-constraint deductions on hypothetical `domains` (changed in place), from
        the constraints in `stale`, until one constraint has no solution left (True) or no
        deduction is left (False)."""
        pools: dict[Key, list[Candidate]] = {}
        singles = [(pos,) for pos in self.scopes]
        links: list[Step] = []
        for _ in range(MAX_CHAIN):
            cand = self.best(singles, domains, False, pools, stale, minimal)
            if cand is None:
                return links, False
            link = self.step(cand, DEDUCTION, domains)
            links.append(link)
            if cand.contradiction:
                return links, True
            self.apply(cand.removed, domains, stale)
            stale.intersection_update(singles)
            link.derived = derived_view(cand.removed, domains)
        return links, False

    def _supposing(self, supposed: Fact, domains: dict[int, set[int]],
                   ) -> tuple[dict[int, set[int]], set[Key]]:
        """A copy of `domains` with the supposition made, and the constraints it touches."""
        hypothesis = {k: set(d) for k, d in domains.items()}
        hypothesis[supposed.var] = {supposed.value}
        return hypothesis, {key for key in self.keys_of_var.get(supposed.var, ())
                            if len(key) == 1}

    def chain(self, supposed: Fact, minimal: bool = True) -> Step | None:
        """Single-constraint deductions under `supposed` until a contradiction, pruned to
        the links the contradiction needs; None if no contradiction is reached."""
        links, contradiction = self.deduce(*self._supposing(supposed, self.domains), minimal)
        if not contradiction:
            return None
        links = self._needed(links, supposed)
        return Step(removed=(supposed.negation(),), derived=(),
                    constraints=_constraints_of([links]), facts=self._real_facts([links]),
                    kind=CASE_SPLIT, rank=5, assumption=supposed, chain=tuple(links))

    def _real_facts(self, chains: Iterable[Iterable[Step]]) -> tuple[Fact, ...]:
        """The facts cited by these links that are known outside any supposition."""
        return tuple(sorted({f for links in chains for link in links for f in link.facts
                             if f.holds_in(self.domains[f.var])}))

    def _needed(self, links: list[Step], supposed: Fact) -> list[Step]:
        """The links the final contradiction depends on, in order."""
        needed: set[tuple[int, int]] = set()  # (variable, ruled-out value)
        kept: list[Step] = []
        for link in reversed(links):
            if not link.contradiction and not any((f.var, f.value) in needed
                                                  for f in link.removed):
                continue
            kept.append(link)
            for f in link.facts:
                if f == supposed or f.holds_in(self.domains[f.var]):
                    continue
                if f.equal:
                    needed.update((f.var, u) for u in self.domains[f.var] if u != f.value)
                else:
                    needed.add((f.var, f.value))
        kept.reverse()
        return kept

    def search_step(self) -> Step:
        """The last resort, when no supposition is refuted by a chain alone: a refutation
        tree. Suppose x = w (a variable with the fewest candidates); deduce; with no
        contradiction yet, split on the variable with the fewest candidates left, each
        value a branch that deduces and splits again, until every branch ends in a
        contradiction. Every link is a minimal single-constraint deduction, so the checker
        replays it as it replays a case split."""
        _, k, w = min((len(d), k, min(u for u in d if u != self.solution[k]))
                      for k, d in self.domains.items() if len(d) > 1)
        supposed = Fact(k, w, True)
        root = Step(removed=(supposed.negation(),), derived=(), constraints=(), facts=(),
                    kind=SEARCH, rank=6, assumption=supposed)
        stack = [(root, *self._supposing(supposed, self.domains))]
        nodes: list[Step] = []
        while stack:
            node, domains, stale = stack.pop()
            nodes.append(node)
            links, contradiction = self.deduce(domains, stale, True)
            node.chain = tuple(links)
            node.contradiction = contradiction
            if contradiction:
                continue
            # the whole model has no solution here, so no variable is empty: split
            _, y = min((len(d), v) for v, d in domains.items() if len(d) > 1)
            branches = []
            for u in sorted(domains[y]):
                branch = Step(removed=(), derived=(), constraints=(), facts=(), kind=SEARCH,
                              rank=6, assumption=Fact(y, u, True))
                branches.append(branch)
            node.branches = tuple(branches)
            for branch in reversed(branches):
                assert branch.assumption is not None
                stack.append((branch, *self._supposing(branch.assumption, domains)))
        chains = [node.chain for node in nodes]
        root.constraints = _constraints_of(chains)
        root.facts = self._real_facts(chains)
        root.nodes = len(nodes)
        return root


def _constraints_of(chains: Iterable[Iterable[Step]]) -> tuple[int, ...]:
    return tuple(sorted({pos for links in chains for link in links
                         for pos in link.constraints}))


def _rank(cand: Candidate, kind: str) -> int:
    if kind == COMBINATION:
        return 4
    unplaced = {f.value for f in cand.facts if not f.equal}
    if not unplaced:
        return 1
    return 2 if len(unplaced) == 1 else 3


def _chain_cost(step: Step) -> tuple[int, int, int]:
    return (len(step.chain), len(step.facts), len(step.constraints))


def explain(model: object, time_limit: float | None = None, node_limit: int | None = None,
            on_progress: Callable[[SearchStats], object] | None = None,
            budget: Budget | None = None) -> Explanation:
    """The steps from the givens to the model's unique solution (ExplainError otherwise).

    `time_limit` (seconds, counted from this call) and `node_limit` (the nodes of every
    search the explanation runs, together) stop it early: the Explanation is then marked
    incomplete (complete False, stopped_by "time_limit" or "node_limit") and holds the
    steps made so far. `on_progress` is called with the statistics so far, as a search's.
    `budget`, instead of the three, shares a larger computation's limits (generation's)."""
    from conundrum.engine import TimeUp

    if budget is None:
        budget = Budget(time_limit, node_limit, on_progress)
    explainer: Explainer | None = None
    try:
        explainer = Explainer(model, budget)
        steps = explainer.run()
    except (LimitReached, TimeUp) as exc:
        reason = exc.reason if isinstance(exc, LimitReached) else "time_limit"
        budget.stats.stop(reason)
        made = [] if explainer is None else explainer.steps
        unique = None if explainer is None else explainer.unique
        return Explanation(made, complete=False, stopped_by=reason, unique=unique,
                           stats=budget.finish())
    return Explanation(steps, stats=budget.finish())


__all__ = ["CASE_SPLIT", "COMBINATION", "DEDUCTION", "SEARCH", "ExplainError", "Explainer",
           "Explanation", "explain"]
