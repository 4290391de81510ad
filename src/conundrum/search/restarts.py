"""Restarts for the depth-first search, with the nogoods that keep them complete.

A restart abandons the search tree and starts again from the root, so that early choices
made before dom_wdeg's weights knew the problem can be made again, better (Gomes et al.,
heavy-tailed runtimes). What was already searched is not searched again: before leaving,
the tree's refuted branches are turned into nogoods (Lecoutre, Sais, Tabary, Vidal,
"Recording and minimizing nogoods from restarts", 2007), kept in the nogood store
(engine/clauses.py) for the rest of the search.

The nogoods. The search stack holds one frame per branching: the variable, its
alternatives (they partition the variable's domain at that node: EQ/NE, LE/GT, or the
three-way EQ/LE/GT split, see selectors.py), and how many were tried. At frame k, the
alternatives before the one being searched are *refuted*: their subtrees were searched to
the end (every solution there was reported; under branch and bound none beats the
incumbent). So for each refuted alternative a of frame k, `not (P and a)` holds for every
unreported solution, where P is the decisions of the frames below k. At the top frame every
tried alternative is refuted (the restart follows a failure).

P can drop the decision of any frame at its *last* alternative (the reduction of the
paper): an assignment that satisfies the rest of P but not that decision lies in one of its
frame's earlier, refuted alternatives. Those assignments were searched too, so the shorter
nogood excludes nothing new. This also holds for a projected search: a completion stops at
its first solution and closes its frames, so its refuted alternatives hold no projection
left to report.

Exactness. The nogoods exclude only searched regions, the store enforces them on every
fixed assignment, and every restart runs at least as many failures as the one before it
(every sequence here grows without bound, the constant one by one failure a run), so the
search still ends, and reports each solution once. Restarts are counted in failures,
never in seconds, so a run is the same on every machine and in both builds.
"""

from __future__ import annotations

from typing import Any, Final

from conundrum.engine.literals import EQ, Pred, equal_preds, from_decision
from conundrum.engine.var import IntVar

# luby: scale x 1 1 2 1 1 2 4 ...; geometric: scale x 1.5^k; linear: scale x (k + 1);
# constant: scale failures a run (MiniZinc's restart_constant), plus one for each restart
# so far, which keeps the search finite (see Exactness above) at a negligible cost
KINDS: Final = ("luby", "geometric", "linear", "constant")
DEFAULT_SCALE: Final = 100  # failures per unit of the sequence (MiniZinc and Chuffed use 100)
GROWTH: Final = 1.5  # the geometric sequence's ratio


def luby(i: int) -> int:
    """The i-th term (i >= 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ...: the
    restart lengths that are within a log factor of the best for any run-time distribution
    (Luby, Sinclair, Zuckerman 1993)."""
    if i < 1:
        raise ValueError(f"the Luby sequence starts at 1, not {i}")
    while True:
        k = 1  # the block 1 .. 2^k - 1 that holds i
        while (1 << k) - 1 < i:
            k += 1
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1  # the term repeats the sequence from its start


def parse_restarts(spec: object) -> tuple[str, int] | None:
    """`None`, one of KINDS, or one with a scale in failures, "luby:50": the sequence and
    the failures per unit. ValueError otherwise."""
    if spec is None:
        return None
    if isinstance(spec, str):
        kind, sep, num = spec.strip().lower().partition(":")
        scale = DEFAULT_SCALE
        if sep:
            try:
                scale = int(num)
            except ValueError:
                scale = 0
        if kind in KINDS and scale >= 1:
            return kind, scale
    raise ValueError(f"bad restarts {spec!r}: use luby, geometric, linear or constant, "
                     "optionally with :N (N >= 1 failures per unit), e.g. luby:50")


class RestartPolicy:
    """When the next restart is due, in failures counted from the start of the search."""

    __slots__ = ("kind", "scale", "count", "next_at")

    def __init__(self, kind: str, scale: int) -> None:
        self.kind = kind
        self.scale = scale
        self.count = 0  # restarts so far
        self.next_at = self.length()

    def length(self) -> int:
        """The number of failures the current run may take."""
        if self.kind == "luby":
            return self.scale * luby(self.count + 1)
        if self.kind == "linear":
            return self.scale * (self.count + 1)
        if self.kind == "constant":
            return self.scale + self.count
        return int(self.scale * GROWTH ** self.count)

    def restarted(self, fails: int) -> None:
        """A restart happened after `fails` failures: set the next one."""
        self.count += 1
        self.next_at = fails + self.length()


def decision_preds(x: IntVar, kind: int, v: int) -> list[Pred]:
    """The decision (kind, v) on x as predicates. `[x == v]` on a bounds-only domain is
    stated as its two bounds, so that a nogood can always enforce its negation (a hole
    inside a bounds-only domain cannot be made, see literals.py)."""
    p = from_decision(x, kind, v)
    return equal_preds(p.var, p.value) if p.kind == EQ else [p]


def refuted_nogoods(stack: list[list[Any]]) -> list[list[Pred]]:
    """The nogoods of the refuted branches of a search stack (frames as in dfs.py:
    [variable, alternatives, number tried, ...]), from the bottom frame up. An empty
    nogood means the whole tree was refuted."""
    nogoods: list[list[Pred]] = []
    path: list[Pred] = []
    top = len(stack) - 1
    for k, frame in enumerate(stack):
        x = frame[0]
        alts = frame[1]
        tried = frame[2]
        current = tried if k == top else tried - 1  # the one being searched, if any
        if current == len(alts):
            nogoods.append(list(path))  # every alternative refuted: the path itself
            break
        for j in range(current):
            kind, v = alts[j]
            nogoods.append(path + decision_preds(x, kind, v))
        if k < top and current < len(alts) - 1:
            kind, v = alts[current]
            path = path + decision_preds(x, kind, v)
    return nogoods
