"""Run (instance, system) pairs as separate processes, time them, verify the answers."""

from __future__ import annotations

import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from instances import Instance
from systems import System
from verify import NO_SOLUTION, objective, verify

OK, TIMEOUT, WRONG, ERROR, SKIPPED, ABSENT = "ok", "timeout", "WRONG", "error", "skipped", "absent"


@dataclass
class Cell:
    """The outcome of one (instance, system) pair over its runs."""

    instance: str
    system: str
    status: str
    wall: list[float] = field(default_factory=list)  # whole-process seconds, verified runs
    solver: list[float] = field(default_factory=list)  # the solver's own time, where given
    note: str = ""
    nodes: list[int] = field(default_factory=list)  # search nodes per run, where counted
    search: list[float] = field(default_factory=list)  # solver time without compiling (MiniZinc)
    objective: int | None = None  # hard section: the verified objective of the last run
    proved: bool | None = None  # hard section: the system said its answer is optimal
    # hard optimisations: (whole-process seconds, objective) of each improving solution of
    # the last run, and the process's end (the time of the proof when proved)
    trace: list[tuple[float, int]] = field(default_factory=list)
    end: float | None = None

    @property
    def median(self) -> float | None:
        return statistics.median(self.wall) if self.status == OK and self.wall else None

    @property
    def solver_median(self) -> float | None:
        return statistics.median(self.solver) if self.status == OK and self.solver else None

    @property
    def nodes_median(self) -> float | None:
        return statistics.median(self.nodes) if self.status == OK and self.nodes else None

    @property
    def per_node_time(self) -> float | None:
        """Seconds per search node: the solver's own time (for MiniZinc, Gecode's time
        without MiniZinc's flattening) over the median node count."""
        nodes = self.nodes_median
        spent = statistics.median(self.search) if self.status == OK and self.search \
            else self.solver_median
        return spent / nodes if nodes and spent is not None else None

    def to_json(self) -> dict:
        d = asdict(self)
        d.update(median=self.median, solver_median=self.solver_median,
                 nodes_median=self.nodes_median)
        return d

    @classmethod
    def from_json(cls, d: dict) -> Cell:
        return cls(d["instance"], d["system"], d["status"], d.get("wall", []),
                   d.get("solver", []), d.get("note", ""), d.get("nodes", []),
                   d.get("search", []), d.get("objective"), d.get("proved"),
                   [tuple(p) for p in d.get("trace", [])], d.get("end"))


def _tail(text: str, n: int = 300) -> str:
    text = " ".join(text.strip().split())
    return text[-n:]


def _descendants(pid: int) -> list[int]:
    """Every process below pid (from /proc), children first found first."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()  # after "pid (name) "
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


@dataclass
class Finished:
    """One finished process: its exit status, its output, and when each line of standard
    output arrived (seconds since the process was started)."""

    returncode: int
    stdout: str
    stderr: str
    stamps: list[tuple[float, str]]


def _kill_tree(proc: subprocess.Popen) -> None:
    for pid in _descendants(proc.pid):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)


def _run_group(cmd: list[str], timeout: float, cwd: str) -> Finished:
    """Run cmd in a session of its own, stamping each line of its standard output with the
    time it arrived, so that every system's improving solutions are timed by one clock
    (whole-process seconds) whatever the system reports itself. On a timeout the whole
    process tree is killed, so a peer's child process cannot outlive the run and steal CPU
    from the next measurements. (Killing the process group is not enough: minizinc starts
    fzn-gecode in a group of its own, and one such orphan once ran for 20 minutes.)"""
    t0 = time.perf_counter()
    stamps: list[tuple[float, str]] = []
    err: list[str] = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          stdin=subprocess.DEVNULL, cwd=cwd, start_new_session=True) as proc:
        def read_out() -> None:
            for line in proc.stdout:
                stamps.append((time.perf_counter() - t0, line))

        def read_err() -> None:
            err.append(proc.stderr.read())
        readers = [threading.Thread(target=read_out, daemon=True),
                   threading.Thread(target=read_err, daemon=True)]
        for r in readers:
            r.start()
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_tree(proc)
            proc.wait()
            raise
        finally:
            for r in readers:
                r.join(timeout=10)
    return Finished(proc.returncode, "".join(line for _, line in stamps), "".join(err),
                    stamps)


def improvements(stamps: list[tuple[float, str]], sense: str) -> list[tuple[float, int]]:
    """(time, objective) of each strictly improving solution, from the stamped lines: an
    `IMPROVE v` line (printed by the Python-hosted models as each solution is found) or an
    `OBJ v` line (MiniZinc's intermediate solutions, and every final report)."""
    trace: list[tuple[float, int]] = []
    for t, line in stamps:
        parts = line.split()
        if len(parts) != 2 or parts[0] not in ("IMPROVE", "OBJ"):
            continue
        try:
            v = int(parts[1])
        except ValueError:
            continue
        if not trace or (v < trace[-1][1] if sense == "min" else v > trace[-1][1]):
            trace.append((round(t, 3), v))
    return trace


def measure(inst: Instance, system: System, runs: int, timeout: float,
            log=print, repeat_below: float = float("inf")) -> Cell:
    """Run one pair `runs` times (stopping at the first failure) and verify each answer.
    A first run slower than `repeat_below` seconds is not repeated (its noise is small)."""
    cell = Cell(inst.name, system.name, OK)
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        try:
            cmd = system.prepare(inst, Path(tmp))
        except Exception as exc:  # a peer that cannot even build this model
            cell.status, cell.note = ERROR, f"prepare: {_tail(str(exc))}"
            return cell
        for _ in range(runs):
            t0 = time.perf_counter()
            try:
                proc = _run_group(cmd, timeout, tmp)
            except subprocess.TimeoutExpired:
                cell.status, cell.note = TIMEOUT, f"> {timeout:g} s"
                break
            wall = time.perf_counter() - t0
            rep = system.parse(proc.stdout, inst, proc.stderr)
            problem = verify(inst, rep)
            if inst.group == "hard" and problem == NO_SOLUTION and proc.returncode == 0:
                cell.status, cell.note = TIMEOUT, "no solution within the limit"
                break
            if proc.returncode != 0 and problem is not None:
                cell.status = ERROR
                cell.note = f"exit {proc.returncode}: {_tail(proc.stderr or proc.stdout)}"
                break
            if problem is not None:
                cell.status, cell.note = WRONG, problem
                log(f"!!! WRONG ANSWER: {system.name} on {inst.name}: {problem}",
                    file=sys.stderr)
                break
            cell.wall.append(wall)
            if rep.solver_time is not None:
                cell.solver.append(rep.solver_time)
            if rep.nodes is not None:
                cell.nodes.append(rep.nodes)
            if rep.search_time is not None:
                cell.search.append(rep.search_time)
            if rep.notes:
                cell.note = "; ".join(rep.notes)
            if inst.group == "hard":
                if inst.kind in ("min", "max"):
                    cell.objective = objective(inst, rep.solutions[-1])
                    cell.trace, cell.end = improvements(proc.stamps, inst.kind), wall
                cell.proved = rep.proved
            if wall > repeat_below:
                break
    if cell.status != OK:
        cell.wall, cell.solver, cell.nodes, cell.search = [], [], [], []
    return cell
