"""The internal failure signal. Never reaches the user: search catches it."""


class Inconsistency(Exception):
    """A domain became empty or a constraint is violated: the current node fails."""
