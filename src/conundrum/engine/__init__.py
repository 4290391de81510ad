"""The engine: domains, variables and views, events, the propagator base and the fixpoint
loop."""

from conundrum.engine.errors import Inconsistency, TimeUp
from conundrum.engine.events import BOUNDS, DOMAIN, FIX
from conundrum.engine.propagator import Propagator
from conundrum.engine.solver import Solver
from conundrum.engine.var import IntVar, IntView, OffsetView

__all__ = ["BOUNDS", "DOMAIN", "FIX", "Inconsistency", "IntVar", "IntView", "OffsetView",
           "Propagator", "Solver", "TimeUp"]
