"""Ctrl-C in the compiled engine.

Python runs a signal handler (Ctrl-C's KeyboardInterrupt) only between steps of the
interpreter. The compiled search and fixpoint loops are not interpreted, so on their own
they would never notice Ctrl-C until they returned to Python code (at the next solution,
which a hard search may not reach for minutes). They call `poll` every so many nodes and
propagations instead: this module is never compiled, so entering the function is a step
of the interpreter, where a pending KeyboardInterrupt is raised and unwinds the search like
any failure of a limit (Model.minimize then returns the best solution found).

CPython also runs signal handlers inside some of its own C code, and one such place is
fatal to the compiled build: multiplying or dividing big integers (wider than a machine
word, as the bounds of 10^18-wide domains are) checks for signals, so a Ctrl-C arriving
there makes the operation fail with KeyboardInterrupt, and mypyc's integer operations take
any failure of theirs for an exhausted memory: the process aborts ("fatal: out of memory").
So while the engine runs (`deferred`, `deferring`), SIGINT only notes that it came, and
`poll` raises the KeyboardInterrupt at a point where the compiled code expects exceptions.
A Ctrl-C noted in a deferred block and not raised by a poll before the block ends is raised
then. Nothing changes outside the main thread (signals go to the main thread only) or when
the program has its own SIGINT handler.

A noted Ctrl-C stays noted until the outermost deferred block ends: every poll until then
raises it again. Python ignores an exception raised in a garbage collector's callback or
in the finalizer of an abandoned generator (which may run inside a search, closing an
earlier run's generator); a poll there would otherwise take the Ctrl-C away from the search
that is running (notes/ENGINE-BUGS.md, "A Ctrl-C lost").
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, TypeVar

T = TypeVar("T")

_pending = False  # a Ctrl-C came during a deferred block and was not raised yet
_depth = 0  # deferred blocks open (they nest: a run within a run)
_saved: Any = None  # the SIGINT handler the outermost block replaced, None if it did not


def poll() -> None:
    """Raise the KeyboardInterrupt of a Ctrl-C noted by a deferred block; otherwise
    nothing: being interpreted is the point (see the module). The Ctrl-C stays noted (see
    the module) until the outermost deferred block ends."""
    if _pending:
        raise KeyboardInterrupt


def _note(signum: int, frame: object) -> None:
    """The SIGINT handler of a deferred block: no exception here, inside C code."""
    global _pending
    _pending = True


class deferred:  # noqa: N801 (a context manager, used as `with deferred():`)
    """A block where Ctrl-C waits for `poll` (see the module); on leaving it without an
    exception, a Ctrl-C that came and was not raised yet is raised."""

    def __init__(self) -> None:
        self.main = False  # entered by the main thread (the only one signals go to)

    def __enter__(self) -> None:
        global _depth, _saved
        import threading

        # another thread's runs change nothing here: signal handlers belong to the main
        # thread, and only it may install them
        self.main = threading.current_thread() is threading.main_thread()
        if not self.main:
            return
        if _depth == 0:
            import signal

            _saved = None
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                _saved = signal.signal(signal.SIGINT, _note)
        _depth += 1

    def __exit__(self, kind: object, value: object, traceback: object) -> None:
        global _depth, _saved, _pending
        if not self.main:
            return
        _depth -= 1
        if _depth or _saved is None:
            return
        import signal

        signal.signal(signal.SIGINT, _saved)
        _saved = None
        if _pending:
            # heard: by the exception leaving the block if there is one (a poll's, or one
            # that wins over it), otherwise by this one
            _pending = False
            if kind is None:
                raise KeyboardInterrupt


def deferring(steps: Generator[T, None, None]) -> Generator[T, None, None]:
    """The items of `steps`, each one computed in a deferred block, and `steps` closed in
    one: Ctrl-C is held only while the engine works, not while the caller reads a
    solution."""
    try:
        while True:
            with deferred():
                try:
                    item = next(steps)
                except StopIteration:
                    return
            yield item
    finally:
        with deferred():
            steps.close()
