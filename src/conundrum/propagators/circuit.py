"""circuit and subcircuit: successor variables that form one cycle.

xs[i] is the node that follows node i (0-based). For `circuit` the cycle visits every node;
for `subcircuit` a node with xs[i] == i is left out and the others form one cycle (or none
is in it at all). The compiler posts all_different (domain consistent) on the successors
beside this propagator, which adds, at each call:

* **no subtour** (the path ends of Caseau and Laburthe): each chain of fixed successors
  start -> ... -> end may not close on itself while it leaves out a node that must be in
  the cycle, so `start` is removed from the end's successors; a closed cycle of fixed
  successors that leaves out such a node is a failure (for subcircuit the nodes it leaves
  out are taken out of the cycle);
* **reachability** (a strong-connectivity check): every node that must be in the cycle
  reaches, and is reached from, one of them along the successor domains; for circuit a
  node that fails this fails the constraint, for subcircuit such a node is taken out of the
  cycle (xs[i] = i).

Both are O(n + the sum of the domain sizes) per call, and exact on fixed values.

Under a learning search each change is marked with the rule it comes from (circuit_explain:
CHAIN, CYCLE, REACHABILITY); the first two are explained by fixed successors, the last one
generically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.engine import DOMAIN, Inconsistency, IntView, Propagator, Solver
from conundrum.propagators.circuit_explain import (
    CHAIN,
    CYCLE,
    REACHABILITY,
    chain_removal,
    cycle_exclusion,
    cycle_failure,
)

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred


class Circuit(Propagator):
    """xs is one cycle over all nodes (sub=False) or over the nodes not pointing to
    themselves (sub=True)."""

    priority = 2
    explains = True

    def __init__(self, solver: Solver, xs: list[IntView], sub: bool) -> None:
        super().__init__(solver)
        self.xs = xs
        self.sub = sub

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        code = journal.code[e]
        if code == CHAIN:
            return chain_removal(journal, self.xs, self.sub, e, out)
        if code == CYCLE:
            return cycle_exclusion(journal, self.xs, self.sub, e, out)
        return False

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return cycle_failure(journal, self.xs, self.sub, out)

    def _mark(self, code: int) -> None:
        """Say which rule the next changes come from (under a learning search)."""
        journal = self.solver.journal
        if journal is not None:
            journal.current_code = code

    def post(self) -> None:
        n = len(self.xs)
        for i, x in enumerate(self.xs):
            x.set_min(0)
            x.set_max(n - 1)
            if not self.sub and n > 1:
                x.remove(i)
            x.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        xs = self.xs
        if len(xs) > 1:
            # the nodes certainly in the cycle
            must = [not self.sub or not xs[i].contains(i) for i in range(len(xs))]
            self._mark(CHAIN)
            self._no_subtour(must)
            self._mark(REACHABILITY)
            self._reachability(must)

    def _no_subtour(self, must: list[bool]) -> None:
        xs, sub = self.xs, self.sub
        n = len(xs)
        nxt = [-1] * n  # the fixed successor, -1 when open (or, for subcircuit, left out)
        has_pred = [False] * n
        for i in range(n):
            x = xs[i]
            if x.lo == x.hi and x.lo != i:
                nxt[i] = x.lo
                has_pred[x.lo] = True
        must_total = 0
        for i in range(n):
            if must[i]:
                must_total += 1
        seen = [False] * n
        for start in range(n):
            if has_pred[start] or nxt[start] < 0:
                continue
            end, needed = start, 0
            while True:
                seen[end] = True
                if must[end]:
                    needed += 1
                if nxt[end] < 0:
                    break
                end = nxt[end]
                if seen[end]:  # two fixed predecessors: all_different fails it anyway
                    raise Inconsistency
            if needed < must_total:  # closing the chain would leave out a necessary node
                xs[end].remove(start)
        self._mark(CYCLE)
        for start in range(n):  # what remains of the fixed edges are closed cycles
            if seen[start] or nxt[start] < 0:
                continue
            members = []
            k = start
            while not seen[k]:
                seen[k] = True
                members.append(k)
                k = nxt[k]
            if not sub:
                if len(members) < n:
                    raise Inconsistency
                continue
            inside = [False] * n
            for k in members:
                inside[k] = True
            for k in range(n):  # this cycle is the subcircuit: everyone else is out
                if not inside[k]:
                    xs[k].assign(k)

    def _reachability(self, must: list[bool]) -> None:
        xs, sub = self.xs, self.sub
        n = len(xs)
        root = must.index(True) if True in must else -1
        if root < 0:
            return  # subcircuit with no node forced in: the empty cycle is still possible
        succ: list[list[int]] = []
        pred: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            out = [v for v in xs[i].values() if v != i]
            succ.append(out)
            for v in out:
                pred[v].append(i)
        forward = _reached(succ, root)
        backward = _reached(pred, root)
        for i in range(n):
            if forward[i] and backward[i]:
                continue
            if not sub:
                raise Inconsistency
            xs[i].assign(i)  # fails if node i must be in the cycle


def _reached(adjacent: list[list[int]], root: int) -> list[bool]:
    """The nodes reachable from root (an explicit stack, no recursion)."""
    seen = [False] * len(adjacent)
    seen[root] = True
    stack = [root]
    while stack:
        k = stack.pop()
        for v in adjacent[k]:
            if not seen[v]:
                seen[v] = True
                stack.append(v)
    return seen
