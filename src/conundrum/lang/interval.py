"""Interval variables (issue 31 item 3): a task with a start, a size and an end, which
may be optional (present or absent).

An `Interval` is plain data made by `Model.interval`: its `start` and `end` are
variables, its `size` a variable or a constant, and `present` a 0/1 variable for an
optional interval (the constant 1 otherwise). The model ties them with
`start + size == end` when present; an absent interval's start, size and end are free
within their domains and it takes part in nothing (no resource, no precedence).
"""

from __future__ import annotations

from conundrum.lang.expr import Expr, Var


class Interval:
    """A task [start, end) of length size; `present` is 1 when it takes place (always, for
    a mandatory interval). Made by `m.interval(...)`."""

    __slots__ = ("end", "name", "optional", "present", "size", "start")

    def __init__(self, start: Var, size: Var | int, end: Var, present: Var | int,
                 name: str) -> None:
        self.start = start
        self.size = size
        self.end = end
        self.present = present
        self.name = name
        self.optional = not isinstance(present, int)

    def length(self) -> Expr | int:
        """The time the interval takes on a resource: its size when present, else 0."""
        if isinstance(self.present, int):
            return self.size
        return self.size * self.present

    def __repr__(self) -> str:
        kind = "optional interval" if self.optional else "interval"
        return f"<{kind} {self.name or '?'}>"
