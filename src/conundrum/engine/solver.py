"""The solver: variables, propagators, the trail and the propagation queue."""

from __future__ import annotations

from collections import deque

from conundrum.engine.errors import Inconsistency
from conundrum.engine.var import IntVar
from conundrum.state import Trail

PRIORITIES = 3


class Solver:
    """Holds the engine state and runs propagation to a fixpoint."""

    def __init__(self) -> None:
        self.trail = Trail()
        self.vars: list[IntVar] = []
        self.propagators: list = []
        self.queues = [deque() for _ in range(PRIORITIES)]
        self.current = None
        self.propagations = 0

    def int_var(self, lo: int, hi: int, name: str = "") -> IntVar:
        """A new variable with domain lo..hi."""
        return IntVar(self, lo, hi, name)

    def int_var_values(self, values, name: str = "") -> IntVar:
        """A new variable whose domain is the given values."""
        return IntVar(self, 0, 0, name, values=list(values))

    def post(self, p) -> None:
        """Add a propagator and let it prune at once (may raise Inconsistency)."""
        self.propagators.append(p)
        self.current = p
        try:
            p.post()
        except Inconsistency:
            p.weight += 1
            self.clear_queue()
            raise
        finally:
            self.current = None
        self.fix_point()

    def clear_queue(self) -> None:
        """Forget every scheduled propagator (after a failure)."""
        for q in self.queues:
            for p in q:
                p.scheduled = False
            q.clear()

    def fix_point(self) -> None:
        """Run queued propagators, cheapest first, until nothing changes."""
        queues = self.queues
        try:
            while True:
                for q in queues:
                    if q:
                        p = q.popleft()
                        break
                else:
                    return
                p.scheduled = False
                if not p.active:
                    continue
                self.current = p
                self.propagations += 1
                p.propagate()
        except Inconsistency:
            if self.current is not None:
                self.current.weight += 1
            self.clear_queue()
            raise
        finally:
            self.current = None
