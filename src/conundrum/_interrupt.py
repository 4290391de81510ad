"""Ctrl-C in the compiled engine.

Python runs a signal handler (Ctrl-C's KeyboardInterrupt) only between steps of the
interpreter. The compiled search and fixpoint loops are not interpreted, so on their own
they would never notice Ctrl-C until they returned to Python code (at the next solution,
which a hard search may not reach for minutes). They call `poll` every so many nodes and
propagations instead: this module is never compiled, so entering the function is a step
of the interpreter, where a pending KeyboardInterrupt is raised and unwinds the search like
any failure of a limit (Model.minimize then returns the best solution found).
"""


def poll() -> None:
    """Nothing: being interpreted is the point (see the module)."""
