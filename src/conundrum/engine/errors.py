"""The internal signals of the engine. Never reach the user: search catches them."""


class Inconsistency(Exception):
    """A domain became empty or a constraint is violated: the current node fails."""


class TimeUp(Exception):
    """The solver's deadline passed during propagation (Solver.deadline): the run stops
    and reports itself incomplete."""
