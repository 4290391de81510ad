"""The errors of the language: the user-facing ones, and Undefined, which a node raises
when its value on an assignment does not exist (division by zero, ...)."""

TRAP_MESSAGE = (
    "a constraint has no truth value while the model is being built: use & | ~ instead of "
    "and/or/not, write a < b < c as (a < b) & (b < c), use cn.implies(a, b) for implication, "
    "and do not test constraints with `if`, `in` or bool(); evaluate them on a solution "
    "with sol.value(...)"
)


class ModelError(ValueError):
    """A mistake in a model, reported when the model is built, with what to write instead."""


class WorkerError(RuntimeError):
    """A parallel search failed in a worker (an exception there, or workers that keep
    dying); every worker has been stopped. The message carries the worker's traceback."""


class Undefined(Exception):
    """The assignment makes an operation undefined (division by zero, ...)."""
