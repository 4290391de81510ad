"""The workers: each request's work runs in a process of its own, started from a fork
server that has the puzzles loaded, and killed when it passes the time limit. At most
`workers` run at once and at most `queue` more wait for one; past that the pool says it is
busy, at once, rather than letting requests pile up."""

from __future__ import annotations

import multiprocessing
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

MEMORY_LIMIT = 2 * 1024**3  # bytes of address space for one worker (where it can be set)


class Busy(Exception):
    """Every worker is taken and the queue is full: answer 503 and let the user retry."""


class TimeLimit(Exception):
    """The work passed the time limit; its process was killed."""


@dataclass(frozen=True)
class Settings:
    """How much the server does at once: running workers, requests waiting for one, and
    the seconds one request may take before its worker is killed."""

    workers: int = 2
    queue: int = 4
    time_limit: float = 20.0


def _work(conn: Connection, action: str, request: dict[str, Any]) -> None:
    """In the worker: cap the memory, do the request, send (status, answer) back."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ImportError, ValueError, OSError):  # not on this system, or already lower
        pass
    from conundrum.serve.actions import run

    conn.send(run(action, request))
    conn.close()


class WorkerPool:
    """Runs requests in worker processes under the Settings' limits (see the module)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        methods = multiprocessing.get_all_start_methods()
        # not fork: the server has threads, and a fork copies their locks as they are
        self._context: Any = multiprocessing.get_context(
            "forkserver" if "forkserver" in methods else "spawn")
        if "forkserver" in methods:  # each worker starts with the actions loaded
            self._context.set_forkserver_preload(["conundrum.serve.actions"])
        self._slots = threading.BoundedSemaphore(settings.workers)
        self._lock = threading.Lock()
        self._admitted = 0  # running or waiting
        self._live: set[Any] = set()
        self._closed = False

    def run(self, action: str, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """(HTTP status, answer) of a checked request; Busy when the queue is full,
        TimeLimit when the work took too long."""
        limit = self.settings.workers + self.settings.queue
        with self._lock:
            if self._closed or self._admitted >= limit:
                raise Busy
            self._admitted += 1
        try:
            # a waiting request waits at most for the work queued before it
            wait = self.settings.time_limit * (limit / self.settings.workers + 1)
            if not self._slots.acquire(timeout=wait):
                raise Busy
            try:
                return self._in_process(action, request)
            finally:
                self._slots.release()
        finally:
            with self._lock:
                self._admitted -= 1

    def _in_process(self, action: str, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        receive, send = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_work, args=(send, action, request),
                                        daemon=True)
        process.start()
        with self._lock:
            self._live.add(process)
            closed = self._closed
        send.close()
        if closed:
            process.kill()
        try:
            if not receive.poll(self.settings.time_limit):
                raise TimeLimit
            try:
                answer: tuple[int, dict[str, Any]] = receive.recv()
            except EOFError:  # the worker died without an answer
                return 500, {"error": "the worker stopped without an answer (out of "
                                      "memory?)"}
            return answer
        finally:
            if process.is_alive():
                process.kill()
            process.join(5)
            receive.close()
            with self._lock:
                self._live.discard(process)

    def close(self) -> None:
        """Kill the running workers and refuse new work."""
        with self._lock:
            self._closed = True
            live = list(self._live)
        for process in live:
            process.kill()
