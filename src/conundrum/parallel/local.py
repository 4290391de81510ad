"""Worker processes on this machine for a parallel search (the coordinator's side of the
protocol in worker.py).

Each worker is a fresh interpreter (`python -m conundrum.parallel.worker`) joined to the
coordinator by a socket pair, in its own session so that Ctrl-C reaches only the
coordinator, which then stops every worker (close() kills and reaps them: none is left
behind). A worker that dies is replaced, and its subproblem is reported lost so that the
coordinator searches it again.
"""

from __future__ import annotations

import subprocess
import sys
import time
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait
from pathlib import Path

from conundrum.lang.errors import WorkerError
from conundrum.parallel.subproblem import Task

MESSAGES_PER_POLL = 64  # read at most this many messages of one worker per poll
MAX_DEATHS_PER_WORKER = 3  # more deaths than this per worker slot: give up


# The workers import this very conundrum, wherever the caller found it (an installed
# package, or a source tree put on sys.path at run time), and nothing else from there.
_PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
_BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); import conundrum; del sys.path[0]; "
         "from conundrum.parallel.worker import main; sys.exit(main(sys.argv[2:]))")


class _Slot:
    """One worker process and what it is doing."""

    def __init__(self, process: subprocess.Popen, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.task: int | None = None
        self.since = 0.0
        # the job is loaded: a subproblem given earlier would wait in the pipe, its time
        # budget (counted by the worker from when it starts it) running late
        self.ready = False


class LocalPool:
    """`workers` worker processes searching the subproblems of one job."""

    def __init__(self, workers: int, job: bytes) -> None:
        self.job = job
        self.capacity = workers
        self.deaths = 0
        self.slots: list[_Slot] = []
        try:
            for _ in range(workers):
                self.slots.append(self._start())
        except BaseException:
            self.close()
            raise

    def _start(self) -> _Slot:
        ours, theirs = Pipe()
        fd = theirs.fileno()
        process = subprocess.Popen([sys.executable, "-c", _BOOT, _PACKAGE_ROOT, str(fd)],
                                   pass_fds=(fd,), stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        theirs.close()
        ours.send_bytes(self.job)
        return _Slot(process, ours)

    def idle(self) -> int:
        """How many workers wait for a subproblem (with the job loaded)."""
        return sum(1 for slot in self.slots if slot.task is None and slot.ready)

    def submit(self, task: Task) -> None:
        """Give a subproblem to an idle worker."""
        slot = next(slot for slot in self.slots if slot.task is None and slot.ready)
        slot.task = task.number
        slot.since = time.perf_counter()
        try:
            slot.conn.send(("task", task))
        except OSError:
            pass  # it died: poll() reports the subproblem lost

    def share_bound(self, value: int) -> None:
        """Tell the busy workers about a better incumbent."""
        for slot in self.slots:
            if slot.task is not None:
                try:
                    slot.conn.send(("bound", value))
                except OSError:
                    pass

    def poll(self, timeout: float) -> list[tuple]:
        """The workers' messages (see worker.py), waiting up to `timeout` seconds for the
        first; ("lost", number, why) for a subproblem whose worker died, ("done", number,
        stats, count, worker name) when one is searched."""
        by_conn = {id(slot.conn): slot for slot in self.slots}
        events: list[tuple] = []
        for ready in wait([slot.conn for slot in self.slots], timeout):
            slot = by_conn[id(ready)]
            conn = slot.conn
            try:
                for _ in range(MESSAGES_PER_POLL):
                    message = conn.recv()
                    if message[0] == "done":
                        events.append(message + (f"pid {slot.process.pid}",
                                                 time.perf_counter() - slot.since))
                        slot.task = None
                    elif message[0] == "ready":
                        slot.ready = True
                    else:
                        events.append(message)
                    if not conn.poll():
                        break
            except (EOFError, OSError):
                events.append(self._replace(slot))
        return events

    def _replace(self, slot: _Slot) -> tuple:
        """A worker died: start another in its place; ("lost", the subproblem it was
        searching or None, why)."""
        code = slot.process.wait()
        slot.conn.close()
        self.deaths += 1
        why = f"worker process {slot.process.pid} died (exit status {code})"
        if self.deaths > MAX_DEATHS_PER_WORKER * self.capacity:
            raise WorkerError(f"{why}; {self.deaths} worker processes died in this search, "
                              "giving up")
        self.slots[self.slots.index(slot)] = self._start()
        return ("lost", slot.task, why)

    def close(self) -> None:
        """Stop every worker now and reap it (no process outlives the search)."""
        for slot in self.slots:
            try:
                slot.process.kill()
            except OSError:
                pass
        for slot in self.slots:
            slot.process.wait()
            slot.conn.close()
        self.slots = []
