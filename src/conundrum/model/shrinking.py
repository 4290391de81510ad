"""How `Model.conflict` shrinks (issue 43): a solver under assumptions that answers "do
these soft groups have a solution together?" with an unsatisfiable core when they do not,
the two ways of shrinking a core to a minimal conflict, deletion and QuickXplain, and the
search for a smallest conflict.

**The oracle** (`Oracle`): the model is compiled once, the hard constraints as they are and
each soft group behind an indicator (a fresh 0/1 variable b, each constraint of the group
posted as `b -> c`). A question about a set S of groups is one run of the learning search
under assumptions (search/learning.py): b = 0 for the groups outside S, b = 1 for those in
S, decided first, one level each. A solution answers "consistent"; otherwise the final
conflict analysis resolves the assumption found false down to the assumptions it follows
from: an unsatisfiable core, a subset of S, often far smaller. Every nogood the search
learns holds without the assumptions, so no question's answer depends on another's.

**Deletion** (`deletion`): for each group g of the core in turn, ask about the core
without g: a solution, and g is needed (it stays); no solution, and the core becomes the
answer's core (which lacks g, and may lack many more: *clause-set refinement*). n + 1
questions at most for a first core of n groups, each group removed alone; the result is
minimal.

**QuickXplain** (`quickxplain`, Junker 2004): when the groups have an order of preference
(earlier = more preferred: a puzzle's clues in reading order), the *preferred* conflict:
its last group as early in the order as any conflict's can be, then its second-to-last,
and so on (the anti-lexicographic least conflict; CPMpy's convention too). Divide and
conquer: split the candidates in two, find what the less preferred half must add to the
more preferred one, then which of the more preferred half is needed with that. O(k log(n/k))
questions for a conflict of k groups among n (2k log2(n/k) + 2k at most), against n for
deletion: far fewer when the conflict is small beside n. Started on the prefix that ends
at the first core's last group (the preferred conflict lies within it).

**Smallest** (`smallest`; Ignatiev, Previti, Liffiton, Marques-Silva 2015): a conflict
shares a group with every *correction set* (a set of groups whose removal leaves a
solution, such as the groups a solution breaks, `Oracle.violated`). So a fewest-groups set
that hits every correction set found so far is a lower bound on a conflict's size; asked
about, it either clashes (then it is a smallest conflict) or has a solution, whose broken
groups are a new correction set; more, each disjoint from the earlier ones, come from
asking the groups found so far together (as CPMpy's `ocus`). A known conflict bounds the
hitting sets from above: when none smaller is left, it is proved smallest.

A question stopped by the time limit answers "unknown": deletion keeps the group,
QuickXplain takes it as consistent (it prunes only on a proof); either way the result
still has no solution, and `minimal` is False.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from conundrum.lang.errors import ModelError

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel
    from conundrum.engine.clauses import NogoodStore
    from conundrum.engine.literals import Pred
    from conundrum.lang.expr import Expr
    from conundrum.model.model import Model

# ask(groups) -> (True: a solution; False: none, with a core, a subset of groups;
# None: a limit came first)
Ask = Callable[[list[int]], tuple[bool | None, list[int]]]


class Oracle:
    """The model compiled once with an indicator per soft group (see the module).
    `groups`: the positions of each soft group's constraints; `hard`: the others'.
    `deadline`: a time.monotonic() time, or None. `questions` counts the searches."""

    def __init__(self, model: Model, groups: list[list[int]], hard: list[int],
                 deadline: float | None) -> None:
        from conundrum.compiler.compiled import compile_model
        from conundrum.engine import TimeUp
        from conundrum.lang.globals.arithmetic import implies

        self.deadline = deadline
        self.questions = 0
        self.store: NogoodStore | None = None  # the nogoods learned, kept between questions
        self.hints: dict[int, int] | None = None  # the last solution found
        self.n_vars = len(model.variables)
        n_vars = len(model.variables)
        self.members = [[model.constraints[k] for k in positions] for positions in groups]
        self.indices = [v.index for v in model.variables]
        self.last: dict[int, int] = {}  # the last solution found: {variable index: value}
        flags = [model.bool_var() for _ in groups]  # the indicators, in this call only
        try:
            constraints: list[Expr] = [model.constraints[k] for k in hard]
            for b, positions in zip(flags, groups, strict=True):
                constraints.extend(implies(b, model.constraints[k]) for k in positions)
            variables = list(model.variables)
            self.compiled: CompiledModel | None = None
            self.timed_out = False
            try:
                self.compiled = compile_model(variables, constraints,
                                              deadline=self._perf_deadline())
            except TimeUp:
                self.timed_out = True
        finally:
            del model.variables[n_vars:]
        if self.compiled is not None:
            from conundrum.engine.literals import EQ, Pred

            position = {v.index: k for k, v in enumerate(variables)}
            decision = self.compiled.decision
            views = [decision[position[b.index]] for b in flags]
            self.on = [Pred(x.root, EQ, 1 - x.offset) for x in views]
            self.off = [Pred(x.root, EQ, 0 - x.offset) for x in views]

    def _perf_deadline(self) -> float:
        if self.deadline is None:
            return 0.0
        return time.perf_counter() + max(self.deadline - time.monotonic(), 1e-3)

    def ask(self, subset: list[int]) -> tuple[bool | None, list[int]]:
        """Whether the groups at `subset` (with the hard constraints) have a solution;
        when not, a core: a subset of `subset` without one either."""
        from conundrum.engine import Inconsistency
        from conundrum.search.dfs import search
        from conundrum.search.learning import Assumptions
        from conundrum.search.options import SearchOptions
        from conundrum.search.stats import SearchStats

        if self.compiled is None:
            if self.timed_out:
                return None, []
            return False, []  # the hard constraints alone fail at the root
        self.questions += 1
        inside = set(subset)
        order = sorted(subset)
        preds: list[Pred] = [p for k, p in enumerate(self.off) if k not in inside]
        first = len(preds)
        preds += [self.on[k] for k in order]
        if self.store is None:
            from conundrum.engine.clauses import NogoodStore

            self.store = NogoodStore(self.compiled.solver)
        assumptions = Assumptions(preds, self.store)
        left = None if self.deadline is None else max(self.deadline - time.monotonic(), 1e-3)
        # the smallest domain first, its values in a random order (seeded: the same on
        # every run): on the Killer Sudoku of bench/why.py a minimal conflict takes a third
        # of the time it took with activity (VSIDS, which starts from no scores at each
        # question) and the smallest value, the preferred one two fifths; single
        # satisfiable questions there had a heavy tail of seconds
        opts = SearchOptions(search="learning", var_select="first_fail",
                             value_select="random", time_limit=left)
        stats = SearchStats()
        compiled = self.compiled
        trail = compiled.solver.trail
        base = trail.depth
        run = search(compiled.solver, compiled.decision, opts, stats, None, compiled.extra,
                     hints=self.hints, assumptions=assumptions)
        try:
            for _ in run:
                values = [x.lo for x in compiled.decision]
                compiled.check(values)
                self.last = dict(zip(self.indices, values[:self.n_vars], strict=True))
                # the next question's search tries this solution's values first
                self.hints = {x.root.index: x.root.lo for x in compiled.decision[:self.n_vars]}
                return True, []
        except Inconsistency:  # not expected: the search catches its own failures
            raise
        finally:
            run.close()
            while trail.depth > base:
                trail.pop_level()
        if assumptions.core is None:
            return None, []  # a limit stopped it
        return False, [order[k - first] for k in assumptions.core if k >= first]

    def violated(self) -> list[int]:
        """The groups that the last solution found breaks (none was found: every group).
        The checker's exact evaluation, not the solver's: a group it cannot evaluate
        counts as broken, which only makes a correction set larger, never wrong."""
        from conundrum.check import holds

        if not self.last:
            return list(range(len(self.members)))
        broken = []
        for g, members in enumerate(self.members):
            try:
                ok = all(holds(c, self.last) for c in members)
            except KeyError:
                ok = False
            if not ok:
                broken.append(g)
        return broken

    def close(self) -> None:
        """Detach the nogood store (the oracle's questions are over)."""
        if self.store is not None:
            self.store.detach()
            self.store = None


def deletion(ask: Ask, core: list[int]) -> tuple[list[int], bool]:
    """A minimal conflict within `core` (which has no solution), by deletion with core
    refinement; and whether every answer was decided (else it may not be minimal)."""
    core = list(core)
    needed: set[int] = set()
    decided = True
    while True:
        candidates = [g for g in core if g not in needed]
        if not candidates:
            return core, decided
        g = candidates[-1]  # the least preferred first: it leaves the earlier ones
        rest = [h for h in core if h != g]
        answer, smaller = ask(rest)
        if answer is False:
            kept = set(smaller)
            core = [h for h in rest if h in kept]
        else:
            needed.add(g)
            decided = decided and answer is True


def preferred_deletion(ask: Ask, order: list[int]) -> tuple[list[int], bool]:
    """The preferred conflict (see the module) within `order` (groups, most preferred
    first, with no solution together) by deletion from the least preferred, each group
    left out when the ones before it and those kept after it still clash; and whether every
    answer was decided. An answer's core cuts the candidates in bulk: those after its last
    one would each be left out in turn (the questions about them include the core)."""
    prefix = list(order)
    kept: list[int] = []
    decided = True
    while prefix:
        g = prefix.pop()
        answer, core = ask(prefix + kept)
        if answer is False:
            inside = set(core)
            last = max((k for k, h in enumerate(prefix) if h in inside), default=-1)
            del prefix[last + 1:]
        else:
            kept.insert(0, g)
            decided = decided and answer is True
    return kept, decided


def quickxplain(ask: Ask, order: list[int]) -> tuple[list[int], bool]:
    """The preferred conflict (see the module) within `order` (groups, most preferred
    first, with no solution together); and whether every answer was decided."""
    decided = [True]

    def consistent(groups: list[int]) -> bool:
        answer, _ = ask(groups)
        if answer is None:
            decided[0] = False
        return answer is not False

    def explain(background: list[int], delta: bool, candidates: list[int]) -> list[int]:
        if delta and not consistent(background):
            return []
        if len(candidates) == 1:
            return list(candidates)
        half = len(candidates) // 2
        preferred, rest = candidates[:half], candidates[half:]
        found2 = explain(background + preferred, bool(preferred), rest)
        found1 = explain(background + found2, bool(found2), preferred)
        return found1 + found2

    if not order:
        return [], True
    result = explain([], False, order)
    rank = {g: k for k, g in enumerate(order)}
    return sorted(result, key=rank.__getitem__), decided[0]


def smallest(ask: Ask, broken: Callable[[], list[int]], n: int, known: list[int],
             time_left: Callable[[], float | None], new_model: Callable[[], Model],
             ) -> tuple[list[int], bool]:
    """A smallest conflict (fewest groups) among `n` groups, by hitting set duality (see
    the module): `known` is a conflict already found (an upper bound), `broken()` the
    groups that the last solution `ask` found breaks; `new_model()` an empty model (for the
    hitting sets). Returns the conflict and whether it was proved smallest (else it is
    `known`, or a smaller conflict not proved minimal)."""
    best = list(known)
    to_hit: list[list[int]] = []  # correction sets: every conflict has a group in each
    while True:  # ends by a proof, or when the limit stops a question or a hitting set
        candidate, proved = _fewest_hitting(new_model(), to_hit, len(best), time_left())
        if candidate is None:
            # no hitting set smaller than the best conflict: it is a smallest one
            return best, proved
        answer, _ = ask(candidate)
        if answer is None:
            return best, False
        if answer is False:
            return candidate, proved  # the smallest hitting set clashes: nothing smaller can
        kept = set(candidate)
        correction = [g for g in broken() if g not in kept]
        if not correction:  # cannot happen for a true conflict `known`; guard the loop
            return best, False
        # more correction sets, each disjoint from those before: the groups of those
        # found so far asked together (CPMpy's ocus does the same)
        to_hit.append(correction)
        together = list(correction)
        while True:
            answer, _ = ask(sorted(together))
            if answer is not True:
                break
            inside = set(together)
            correction = [g for g in broken() if g not in inside]
            if not correction:
                break
            to_hit.append(correction)
            together += correction


def _fewest_hitting(m: Model, sets: list[list[int]], below: int, time_limit: float | None,
                    ) -> tuple[list[int] | None, bool]:
    """A set of fewest groups with one in each of `sets`, if one has fewer than `below`
    (None: none has); and whether the search (of `m`, an empty model) completed."""
    from conundrum.lang.globals.arithmetic import sum as cn_sum

    if not sets:
        return ([], True) if below > 0 else (None, True)
    ids = sorted({g for s in sets for g in s})
    pick = {g: m.bool_var() for g in ids}
    for s in sets:
        m += cn_sum([pick[g] for g in s]) >= 1
    size = cn_sum(list(pick.values()))
    m += size <= below - 1
    found = m.minimize(size) if time_limit is None else m.minimize(size, time_limit=time_limit)
    complete = m.stats.status in ("optimal_solution", "unsatisfiable")
    if found is None:
        return None, complete
    return [g for g in ids if found[pick[g]] == 1], complete


def undecided(what: str) -> ModelError:
    """The error when the limit ran out before the model was shown to have no solution."""
    return ModelError(f"{what}: the time limit ran out before the model was shown to have "
                      "no solution")
