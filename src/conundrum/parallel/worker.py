"""A worker process of a local parallel search (`main`, started by local.py).

The coordinator (local.py) starts it with one end of a socket pair as file descriptor FD,
sends the pickled Job, then one Task at a time. Messages to the coordinator:

    ("ready", pid)                           the job is loaded
    ("solutions", number, [values, ...])     solutions found (in batches)
    ("improved", number, values, objective)  a better solution (optimisation)
    ("progress", number, nodes, fails, propagations, solutions)   every 0.2 s
    ("done", number, stats, count)           the subproblem is searched
    ("error", number, traceback)             something failed; the worker exits

and from it: ("task", Task), ("bound", value) (a better incumbent found elsewhere),
("exit",). The worker exits when the coordinator goes away (end of file, or its parent
process changed), so that no worker outlives its search.

It is a fresh interpreter, not a fork: it inherits neither the caller's threads nor its
`__main__` module (a user's script needs no `if __name__ == "__main__"` guard).
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from multiprocessing.connection import Connection

from conundrum.compiler.compiled import improves
from conundrum.parallel.subproblem import Job, Reporter, Searcher, Task
from conundrum.search.stats import SearchStats

BATCH = 256  # solutions per message at most
BATCH_SECONDS = 0.05  # and at most this late


class CoordinatorGone(Exception):
    """The coordinator closed the connection or died."""


class Link(Reporter):
    """Sends a subproblem's results to the coordinator as they come."""

    def __init__(self, conn: Connection, parent: int, sense: int) -> None:
        super().__init__()
        self.conn = conn
        self.parent = parent
        self.sense = sense
        self.number = -1
        self.sent = 0
        self.batch_start = 0.0
        self.exit_requested = False

    def start(self, number: int) -> None:
        """A new subproblem begins."""
        self.number = number
        self.sent = 0
        self.solutions = []

    def solution(self, values: list[int]) -> None:
        self.solutions.append(values)
        now = time.perf_counter()
        if len(self.solutions) == 1:
            self.batch_start = now
        # the first solution of a subproblem goes at once (solve() waits for it)
        if (self.sent == 0 or len(self.solutions) >= BATCH
                or now - self.batch_start >= BATCH_SECONDS):
            self.flush()

    def improvement(self, values: list[int], objective: int) -> None:
        self.conn.send(("improved", self.number, values, objective))

    def flush(self) -> None:
        if self.solutions:
            self.conn.send(("solutions", self.number, self.solutions))
            self.sent += len(self.solutions)
            self.solutions = []

    def progress(self, stats: SearchStats, best: list[int]) -> None:
        if os.getppid() != self.parent:
            raise CoordinatorGone
        self.flush()
        self.conn.send(("progress", self.number, stats.nodes, stats.fails,
                        stats.propagations, stats.solutions))
        self.read_bounds(best)

    def read_bounds(self, best: list[int]) -> None:
        """Take the incumbents the coordinator sent meanwhile."""
        while self.conn.poll():
            message = self.conn.recv()
            if message[0] == "bound":
                # this worker may have found a better one since the coordinator sent it
                if improves(message[1], best, self.sense):
                    best[:] = [message[1]]
            elif message[0] == "exit":
                raise CoordinatorGone


def serve(conn: Connection) -> None:
    """Load the job, then search the tasks the coordinator sends until told to stop."""
    parent = os.getppid()
    try:
        job: Job = conn.recv()
    except (EOFError, OSError):
        raise
    except Exception:
        conn.send(("error", -1, traceback.format_exc()))
        return
    searcher = Searcher(job)
    link = Link(conn, parent, job.sense)
    conn.send(("ready", os.getpid()))
    while True:
        message = conn.recv()
        if message[0] == "exit":
            return
        if message[0] == "bound":
            continue  # between subproblems: the next task carries the incumbent
        task: Task = message[1]
        link.start(task.number)
        try:
            stats, count = searcher.run(task, link)
        except CoordinatorGone:
            return
        except Exception:
            conn.send(("error", task.number, traceback.format_exc()))
            return
        conn.send(("done", task.number, stats.as_dict(), count))


def main(argv: list[str] | None = None) -> int:
    """Entry point: serve the coordinator on the inherited file descriptor."""
    # Ctrl-C is for the coordinator, which stops the workers itself
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    args = sys.argv[1:] if argv is None else argv
    conn = Connection(int(args[0]))
    try:
        serve(conn)
    except (EOFError, OSError, CoordinatorGone):
        pass  # the coordinator went away: nothing left to do
    return 0


if __name__ == "__main__":
    sys.exit(main())
