"""The solver: variables, propagators, the trail and the propagation queues."""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from conundrum._interrupt import poll
from conundrum.engine.errors import Inconsistency, TimeUp
from conundrum.engine.propagator import Propagator, Waker
from conundrum.engine.var import IntVar
from conundrum.state import Trail

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal

PRIORITIES: Final = 3
# fix_point looks at the clock once every this many propagations (a power of two less
# one, as a mask): often enough to stop within a fraction of a second, rarely enough that
# the hot loop does not feel it
CLOCK_MASK: Final = 1023


class Solver:
    """Holds the engine state and runs propagation to a fixpoint."""

    def __init__(self) -> None:
        self.trail = Trail()
        self.vars: list[IntVar] = []
        self.propagators: list[Propagator] = []
        # one FIFO list per priority; fix_point reads each from a head index
        self.queues: list[list[Waker]] = [[] for _ in range(PRIORITIES)]
        self.propagations = 0
        # a time.perf_counter() time after which fix_point raises TimeUp (0.0: none); the
        # search and the compiler set it from the run's time limit
        self.deadline = 0.0
        # the journal of a learning search (engine/journal.py), else None: the fixpoint
        # tells it which propagator is running and which one failed
        self.journal: Journal | None = None

    def int_var(self, lo: int, hi: int, name: str = "", bitset: bool = True) -> IntVar:
        """A new variable with domain lo..hi (`bitset=False`: bounds only, whatever the
        range)."""
        return IntVar(self, lo, hi, name, None, bitset)

    def int_var_values(self, values: Iterable[int], name: str = "") -> IntVar:
        """A new variable whose domain is the given values."""
        return IntVar(self, 0, 0, name, list(values))

    def post(self, p: Propagator) -> None:
        """Add a propagator and let it prune at once (may raise Inconsistency)."""
        self.propagators.append(p)
        try:
            p.post()
        except Inconsistency:
            p.failed()
            self.clear_queue()
            raise
        self.fix_point()

    def clear_queue(self) -> None:
        """Forget every scheduled propagator (after a failure)."""
        for q in self.queues:
            for w in q:
                w.scheduled = not w.prop.active
            q.clear()

    def check_clock(self) -> None:
        """Let Ctrl-C in (conundrum/_interrupt.py) and raise TimeUp once the deadline has
        passed: for the loops outside the fixpoint that may run long between two nodes,
        such as conflict analysis (search/conflict.py)."""
        poll()
        if self.deadline and time.perf_counter() > self.deadline:
            raise TimeUp

    def fix_point(self) -> None:
        """Run queued propagators, cheapest first, until nothing changes. Raises TimeUp
        (with the queues cleared) when the deadline has passed, so that a root propagation
        converging slowly cannot outlast a time limit."""
        q0, q1, q2 = self.queues
        h0 = h1 = h2 = 0  # the next propagator to run in each queue
        w: Waker | None = None
        count = 0
        journal = self.journal
        try:
            while True:
                if h0 < len(q0):
                    w = q0[h0]
                    h0 += 1
                else:
                    if h0:
                        q0.clear()
                        h0 = 0
                    if h1 < len(q1):
                        w = q1[h1]
                        h1 += 1
                    else:
                        if h1:
                            q1.clear()
                            h1 = 0
                        if h2 < len(q2):
                            w = q2[h2]
                            h2 += 1
                        else:
                            if h2:
                                q2.clear()
                            return
                p = w.prop
                if not p.active:
                    continue  # deactivated while queued; stays `scheduled`
                count += 1
                if journal is not None:
                    journal.current = p
                if p.idempotent:
                    p.propagate()  # `scheduled` stays True meanwhile: its changes skip it
                    if p.active:
                        w.scheduled = False
                else:
                    w.scheduled = False
                    p.propagate()
                if not count & CLOCK_MASK:
                    poll()  # lets Ctrl-C in (see conundrum/_interrupt.py)
                    if self.deadline and time.perf_counter() > self.deadline:
                        self.clear_queue()
                        raise TimeUp
        except Inconsistency:
            failed: Propagator | None = None
            if w is not None:
                failed = w.prop
                failed.failed()
                w.scheduled = not failed.active
            if journal is not None:
                journal.conflict = failed
            self.clear_queue()
            raise
        finally:
            self.propagations += count
