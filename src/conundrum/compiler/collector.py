"""Python's cyclic garbage collector during a search (issue 42, item 1).

A learning search allocates a predicate object for every literal of every explanation and
keeps those of its nogoods, so the heap grows by hundreds of thousands of tracked objects,
and the collector's older generations, collected after every 10 collections of the one
below by default, traversed all of them again and again: a fifth of all-interval 24's
learning search was `gc_collect_main` under predicate allocations (compiled; 2,060 ->
2,636 conflicts per second with the thresholds below). A search's objects are freed by
reference counting; the few cycles it leaves (700 to 30,000 objects in 4 s of search on
the hard section's models, counted by gc.collect() after a run with the collector off)
are young, and the youngest generation keeps its threshold, so they go as before. Only
the older generations are collected less often, which costs a little memory and no
speed.
"""

from __future__ import annotations

import gc
from types import TracebackType
from typing import Final

# the least threshold of the two older generations during a search (CPython's default 10)
OLDER_THRESHOLD: Final = 100


class RelaxedCollector:
    """A context in which the collector's older generations are collected at most every
    OLDER_THRESHOLD collections of the generation below. On leaving, the thresholds found
    on entering come back, unless someone else changed them meanwhile (then theirs stay):
    so contexts that overlap without nesting, as the arms of a portfolio may, never leave
    the thresholds raised."""

    def __init__(self) -> None:
        self.found = (0, 0, 0)
        self.set = (0, 0, 0)

    def __enter__(self) -> RelaxedCollector:
        found = gc.get_threshold()
        self.found = (found[0], found[1], found[2])
        self.set = (found[0], max(found[1], OLDER_THRESHOLD), max(found[2], OLDER_THRESHOLD))
        if self.set != self.found:
            gc.set_threshold(*self.set)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.set != self.found and gc.get_threshold() == self.set:
            gc.set_threshold(*self.found)
