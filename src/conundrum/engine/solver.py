"""The solver: variables, propagators, the trail and the propagation queues."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from conundrum.engine.errors import Inconsistency
from conundrum.engine.propagator import Propagator
from conundrum.engine.var import IntVar
from conundrum.state import Trail

PRIORITIES = 3


class Solver:
    """Holds the engine state and runs propagation to a fixpoint."""

    def __init__(self) -> None:
        self.trail = Trail()
        self.vars: list[IntVar] = []
        self.propagators: list[Propagator] = []
        self.queues: list[deque[Propagator]] = [deque() for _ in range(PRIORITIES)]
        self.propagations = 0

    def int_var(self, lo: int, hi: int, name: str = "") -> IntVar:
        """A new variable with domain lo..hi."""
        return IntVar(self, lo, hi, name)

    def int_var_values(self, values: Iterable[int], name: str = "") -> IntVar:
        """A new variable whose domain is the given values."""
        return IntVar(self, 0, 0, name, list(values))

    def post(self, p: Propagator) -> None:
        """Add a propagator and let it prune at once (may raise Inconsistency)."""
        self.propagators.append(p)
        try:
            p.post()
        except Inconsistency:
            p.weight += 1
            self.clear_queue()
            raise
        self.fix_point()

    def clear_queue(self) -> None:
        """Forget every scheduled propagator (after a failure)."""
        for q in self.queues:
            for p in q:
                p.scheduled = not p.active
            q.clear()

    def fix_point(self) -> None:
        """Run queued propagators, cheapest first, until nothing changes."""
        q0, q1, q2 = self.queues
        p: Propagator | None = None
        count = 0
        try:
            while True:
                if q0:
                    p = q0.popleft()
                elif q1:
                    p = q1.popleft()
                elif q2:
                    p = q2.popleft()
                else:
                    return
                if not p.active:
                    continue  # deactivated while queued; stays `scheduled`
                count += 1
                if p.idempotent:
                    p.propagate()  # `scheduled` stays True meanwhile: its changes skip it
                    if p.active:
                        p.scheduled = False
                else:
                    p.scheduled = False
                    p.propagate()
        except Inconsistency:
            if p is not None:
                p.weight += 1
                p.scheduled = not p.active
            self.clear_queue()
            raise
        finally:
            self.propagations += count
