"""Running `minizinc` for the corpus: the command, one whole process timed (wall and CPU
seconds of the process tree), and what its output says (answer, completeness, statistics,
solutions)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SOLVERS = ("gecode", "conundrum")
SATISFY, ALL, OPTIMISE = "satisfy", "all", "optimise"
UNSAT = "unsat"
SAT = "sat"


def command(solver: str, files: list[Path], kind: str, timeout_s: float,
            extra: tuple[str, ...] = (), stats: bool = True,
            flags: tuple[str, ...] = ()) -> list[str]:
    """`minizinc --solver S -s --output-mode dzn --output-objective [-a] -t MS FILES`;
    Gecode with MiniZinc's own library (`-G std`: Debian's Gecode 6.2.0 ships an older
    one, with which `include "globals.mzn"` does not compile under MiniZinc 2.6.4); EXTRA
    goes to the FlatZinc solver (`--fzn-flags`), FLAGS to minizinc."""
    cmd = ["minizinc", "--solver", solver]
    if solver == "gecode":
        cmd += ["-G", "std"]
    if stats:
        cmd.append("-s")
    cmd += ["--output-mode", "dzn", "--output-objective"]
    if kind == ALL:
        cmd.append("-a")
    cmd += [*flags, "-t", str(int(timeout_s * 1000))]
    if extra:
        cmd += ["--fzn-flags", " ".join(extra)]
    return cmd + [str(f) for f in files]


@dataclass
class Process:
    """One finished (or killed) process."""

    returncode: int
    wall: float  # seconds, start to end
    cpu: float  # user + system seconds of the process and the children it waited for
    stdout: str
    stderr: str
    killed: bool = False  # the harness's own limit ran out


def run(cmd: list[str], limit: float, cwd: Path | None = None) -> Process:
    """Run CMD; kill it and its descendants after LIMIT seconds. CPU time comes
    from wait4's resource usage (MiniZinc waits for its solver, so the solver's is in)."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         errors="replace", cwd=cwd, start_new_session=True)
    chunks: dict[str, str] = {}

    def drain(name: str, stream) -> None:
        chunks[name] = stream.read()

    readers = [threading.Thread(target=drain, args=(n, s), daemon=True)
               for n, s in (("out", p.stdout), ("err", p.stderr))]
    for t in readers:
        t.start()
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        # MiniZinc starts its solver in a process group of its own: the whole tree goes
        for pid in [p.pid, *descendants(p.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    timer = threading.Timer(limit, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(p.pid, 0)
    finally:
        timer.cancel()
    wall = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    for t in readers:
        t.join(timeout=10)
    return Process(p.returncode, wall, usage.ru_utime + usage.ru_stime,
                   chunks.get("out", ""), chunks.get("err", ""), killed.is_set())


def descendants(pid: int) -> list[int]:
    """The processes below PID (children, their children, ...), from /proc."""
    parent: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parent[int(d.name)] = int(fields[1])
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, pp in parent.items() if pp == p]
        found += kids
        todo += kids
    return found


_STAT = re.compile(r"^%%%mzn-stat:? (\w+)=(.*)$", re.M)


def stats(out: str) -> dict[str, object]:
    """The `%%%mzn-stat:` lines, the last value of each key (numbers as numbers)."""
    found: dict[str, object] = {}
    for key, value in _STAT.findall(out):
        value = value.strip().strip('"')
        try:
            found[key] = int(value)
        except ValueError:
            try:
                found[key] = float(value)
            except ValueError:
                found[key] = value
    return found


def solutions(out: str) -> list[str]:
    """The solution blocks of a dzn-mode output, each normalised: comments dropped, one
    assignment a line (a value printed over several lines is joined), sorted."""
    blocks = out.split("----------")[:-1]
    normal = []
    for block in blocks:
        text = "\n".join(line for line in block.splitlines()
                         if not line.startswith("%") and not line.startswith("====="))
        assignments = (" ".join(a.split()) for a in re.split(r";\s*(?:\n|$)", text.strip()))
        normal.append("\n".join(sorted(f"{a};" for a in assignments if a)))
    return normal


def objective(block: str) -> int | None:
    m = re.search(r"^_objective = (-?\d+);", block, re.M)
    return int(m.group(1)) if m else None


@dataclass
class Answer:
    """What a run found: the answer (sat/unsat, a count, an objective or unsat) and whether
    the solver says it is final (satisfy: always when answered; all: `==========`;
    optimise: proved optimal)."""

    value: object  # None: nothing (no solution, no proof)
    complete: bool
    solutions: list[str] = field(default_factory=list)
    error: str = ""


def answer(kind: str, proc: Process) -> Answer:
    out = proc.stdout
    sols = solutions(out)
    error = ""
    if "=====ERROR=====" in out or (proc.returncode != 0 and not proc.killed):
        tail = (proc.stderr.strip() or out.strip()).splitlines()[-3:]
        error = " / ".join(tail)[:300] or f"exit status {proc.returncode}"
    if "=====UNSATISFIABLE=====" in out:
        return Answer(UNSAT, True, [], error)
    done = "==========" in out
    if kind == SATISFY:
        return Answer(SAT if sols else None, bool(sols), sols[:1], error)
    if kind == ALL:
        return Answer(len(sols), done, sols, error)
    values = [objective(s) for s in sols]
    best = values[-1] if values else None
    return Answer(best, done and best is not None, sols[-1:], error)


def check_model(model: Path, block: str, folder: Path) -> Path:
    """A model that includes MODEL and fixes every printed variable to BLOCK's value (an
    independent check of a solution: Gecode must find a solution of it)."""
    fixes = [f"constraint {line.rstrip(';')};" for line in block.splitlines()
             if line.strip() and not line.startswith("_objective")]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"check-{os.getpid()}-{threading.get_ident()}.mzn"
    path.write_text(f'include "{model}";\n' + "\n".join(fixes) + "\n")
    return path


def version() -> str:
    r = subprocess.run(["minizinc", "--version"], capture_output=True, text=True)
    return r.stdout.splitlines()[0] if r.stdout else "minizinc: unknown version"


def solver_versions() -> dict[str, str]:
    """The solver configurations as `minizinc --solvers` lists them."""
    r = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True)
    found = {}
    for line in r.stdout.splitlines():
        for s in SOLVERS:
            if f"org.{s}.{s}" in line:
                found[s] = line.strip()
    return found
