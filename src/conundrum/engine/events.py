"""Events: when a variable's domain changes, which propagators wake up.

There are three events, strongest (rarest) first:

FIX     the variable became fixed (its domain is a single value).
BOUNDS  its smallest or largest value changed (a FIX is also a BOUNDS change).
DOMAIN  any value was removed (every change is a DOMAIN change).

A propagator subscribes to the weakest event that can still help it: a bounds-consistent
linear sum only learns something when a bound moves, so it listens to BOUNDS; a
value-eliminating all_different only acts on fixed variables, so it listens to FIX; a
domain-consistent propagator (matching all_different, table) listens to DOMAIN.

When a variable changes, every propagator subscribed to an event that the change implies is
scheduled (FIX implies BOUNDS implies DOMAIN), unless it is inactive (entailed) or already
in the queue. The propagator that is running is not rescheduled by its own changes when it
declares itself idempotent (it reaches its own fixpoint before it returns). Each variable
keeps, for each event, the list of the propagators to wake (FIX: all three lists), so that
a change walks one list and tests one flag per propagator (propagator.py says how).

A view (`x + c`, view.py) has the events of its variable: the offset changes no event.
"""

from typing import Final

FIX: Final = 0
BOUNDS: Final = 1
DOMAIN: Final = 2
