"""Graph globals: successor arrays that form a cycle (circuit, subcircuit) and inverse
permutations (inverse).
"""

from __future__ import annotations

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    Element,
    Expr,
    ExprLike,
    Global,
    MinMax,
    Operands,
    make_sum,
)
from conundrum.lang.globals.arithmetic import implies
from conundrum.lang.globals.base import (
    _flatten,
    _is,
    _pairwise_all,
)
from conundrum.lang.globals.counting import AllDifferent


class Circuit(Global):
    """Successors xs (0-based) form one cycle through every node (sub=False), or through
    the nodes i with xs[i] != i, the others being left out (sub=True; no node at all is a
    valid subcircuit). Posted: all_different (domain) + no-subtour + reachability
    (propagators/circuit.py)."""

    __slots__ = ("sub",)

    def __init__(self, args: tuple[ExprLike, ...], sub: bool) -> None:
        super().__init__(args)
        self.sub = sub

    @property
    def name(self) -> str:  # type: ignore[override]
        return "subcircuit" if self.sub else "circuit"

    def holds(self, values: list[int]) -> bool:
        n = len(values)
        if any(not 0 <= v < n for v in values) or len(set(values)) != n:
            return False
        inside = [i for i in range(n) if values[i] != i] if self.sub else list(range(n))
        if not inside:
            return True
        length, k = 1, values[inside[0]]
        while k != inside[0]:
            k = values[k]
            length += 1
        return length == len(inside)

    def decompose(self) -> Expr:
        """Range and pairwise differences; then, following the successors from a node s
        (each step an element, its index clamped into range), s does not come back before
        the number of nodes in the cycle."""
        xs, n = self.args, len(self.args)
        parts: list[Expr | bool] = []
        for x in xs:
            parts += [x >= 0, x < n]
        parts.append(AllDifferent(xs, "domain").decompose())
        size = make_sum((1, x != i) for i, x in enumerate(xs)) if self.sub else n
        for s in range(n) if self.sub else range(1 if n else 0):
            returns: list[Expr | bool] = []
            at: ExprLike = s
            for k in range(1, n):
                at = Element((MinMax((0, MinMax((n - 1, at), False)), True), *xs))
                back = at != s
                returns.append(implies(size > k, back) if self.sub else back)
            cycle = _pairwise_all(returns)
            parts.append(implies(xs[s] != s, cycle) if self.sub else cycle)
        return _pairwise_all(parts)


class Inverse(Global):
    """f and g (args = f + g) are inverse permutations, 0-based: f[i] == j exactly when
    g[j] == i (every pair channelled both ways: domain consistent on each pair)."""

    __slots__ = ()
    name = "inverse"

    def holds(self, values: list[int]) -> bool:
        n = len(values) // 2
        f, g = values[:n], values[n:]
        return (all(0 <= v < n for v in values)
                and all((f[i] == j) == (g[j] == i) for i in range(n) for j in range(n)))

    def decompose(self) -> Expr:
        n = len(self.args) // 2
        fs, gs = self.args[:n], self.args[n:]
        parts: list[Expr | bool] = []
        for x in self.args:
            parts += [x >= 0, x < n]
        parts += [_is(fs[i], j) == _is(gs[j], i) for i in range(n) for j in range(n)]
        return _pairwise_all(parts)


def inverse(f: Operands, g: Operands) -> Expr:
    """f and g are inverse permutations, 0-based: f[i] == j exactly when g[j] == i."""
    fs, gs = _flatten(f, "inverse"), _flatten(g, "inverse")
    if len(fs) != len(gs):
        raise ModelError(f"inverse: f has {len(fs)} elements and g {len(gs)}")
    return Inverse(fs + gs)


def circuit(successors: Operands) -> Expr:
    """successors[i] is the node after node i (0-based), and they form one cycle through
    every node (a Hamiltonian circuit). Propagation: domain-consistent all_different,
    no-subtour on chains of fixed successors, and a reachability (strong connectivity)
    check."""
    return Circuit(_flatten(successors, "circuit"), False)


def subcircuit(successors: Operands) -> Expr:
    """As circuit, over the nodes i with successors[i] != i; a node with
    successors[i] == i is left out (the cycle may also be empty). Nodes that cannot reach
    the nodes forced into the cycle are left out by propagation."""
    return Circuit(_flatten(successors, "subcircuit"), True)
