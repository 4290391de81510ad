"""The systems under test: how to find each one, its version, and the command that runs one
instance on it (after an untimed preparation step: writing the program, compiling it)."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from instances import Instance
from models.common import Report, parse_report

HERE = Path(__file__).resolve().parent
WORKER = HERE / "worker.py"


def _run(cmd: list[str]) -> str:
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (r.stdout + r.stderr).strip()
    except (OSError, subprocess.SubprocessError) as exc:
        return f"? ({exc})"


@dataclass
class System:
    """A system that can run instances; subclasses say how."""

    name: str
    label: str
    skip_families: tuple[str, ...] = ()

    def missing(self) -> str | None:
        """None when installed, else a note saying what is absent."""
        return None

    def version(self) -> str:
        return "?"

    def supports(self, inst: Instance) -> bool:
        if inst.group == "hard" and self.name not in HARD_SYSTEMS:
            return False  # no models for the hard section (issue 29)
        return inst.family not in self.skip_families

    def prepare(self, inst: Instance, workdir: Path) -> list[str]:
        """Untimed set-up; returns the command to time."""
        raise NotImplementedError

    def parse(self, stdout: str, inst: Instance, stderr: str = "") -> Report:
        return parse_report(stdout)


@dataclass
class PySystem(System):
    """A system driven from Python in a fresh interpreter (bench/worker.py)."""

    module: str = ""
    dist: str = ""

    def missing(self) -> str | None:
        if importlib.util.find_spec(self.module) is None:
            return f"Python module `{self.module}` not importable (pip install {self.dist})"
        return None

    def version(self) -> str:
        from importlib import metadata
        try:
            return metadata.version(self.dist)
        except metadata.PackageNotFoundError:
            return "(source tree)"

    def prepare(self, inst: Instance, workdir: Path) -> list[str]:
        return [sys.executable, str(WORKER), self.name, inst.name]


@dataclass
class SwiSystem(System):
    def missing(self) -> str | None:
        if shutil.which("swipl"):
            return None
        return "`swipl` not on PATH (apt-get install swi-prolog-nox)"

    def version(self) -> str:
        return _run(["swipl", "--version"]).replace("SWI-Prolog version ", "").split(" for")[0]

    def prepare(self, inst: Instance, workdir: Path) -> list[str]:
        from models import prolog
        src = workdir / "prog.pl"
        src.write_text(prolog.program(inst, gnu=False))
        return ["swipl", str(src)]


@dataclass
class GnuSystem(System):
    def missing(self) -> str | None:
        return None if shutil.which("gplc") else "`gplc` not on PATH (apt-get install gprolog)"

    def version(self) -> str:
        m = re.search(r"GNU Prolog\)? ([\d.]+)", _run(["gprolog", "--version"]))
        return m.group(1) if m else "?"

    def prepare(self, inst: Instance, workdir: Path) -> list[str]:
        from models import prolog
        src = workdir / "prog.pl"
        src.write_text(prolog.program(inst, gnu=True))
        exe = workdir / "prog"
        r = subprocess.run(["gplc", "--no-top-level", "-o", str(exe), str(src)],
                           capture_output=True, text=True, timeout=300)
        if r.returncode:
            raise RuntimeError(f"gplc failed: {(r.stdout + r.stderr)[-500:]}")
        return [str(exe)]


STAT_RE = re.compile(r"%%%mzn-stat:\s*(\w+)=([\d.eE+-]+)")


@dataclass
class MiniZincSystem(System):
    solver: str = "gecode"

    def missing(self) -> str | None:
        if not shutil.which("minizinc"):
            return "`minizinc` not on PATH (apt-get install minizinc flatzinc)"
        if self.solver not in _run(["minizinc", "--solvers"]).lower():
            hint = ("conundrum minizinc-config --install" if self.solver == "conundrum"
                    else "apt-get install flatzinc")
            return f"MiniZinc has no {self.solver} solver configuration ({hint})"
        return None

    def version(self) -> str:
        m = re.search(r"version ([\d.]+)", _run(["minizinc", "--version"]))
        name = "Gecode" if self.solver == "gecode" else "conundrum"
        g = re.search(rf"{name} ([\d.]+)", _run(["minizinc", "--solvers"]))
        return f"MiniZinc {m.group(1) if m else '?'}, {name} {g.group(1) if g else '?'}"

    def prepare(self, inst: Instance, workdir: Path) -> list[str]:
        from models import mzn
        src = workdir / "model.mzn"
        src.write_text(mzn.model(inst))
        cmd = ["minizinc", "--solver", self.solver, "--statistics"]
        if inst.kind in ("count", "all"):
            cmd.append("--all-solutions")
        limit = os.environ.get("BENCH_TIME_LIMIT")
        if inst.group == "hard" and limit:  # stop a little early, keep the best solution
            cmd += ["--time-limit", str(int(float(limit) * 1000))]
        if inst.group == "hard" and inst.kind in ("min", "max"):
            cmd.append("--intermediate-solutions")  # each improving solution, as found
        return [*cmd, str(src)]

    def parse(self, stdout: str, inst: Instance, stderr: str = "") -> Report:
        rep = parse_report(stdout)
        stats = dict(STAT_RE.findall(stdout))
        if "solveTime" in stats:
            rep.solver_time = float(stats["solveTime"]) + float(stats.get("flatTime", 0))
            # Gecode's own time (setting up from FlatZinc, then search), for time per node
            rep.search_time = float(stats["solveTime"]) + float(stats.get("initTime", 0))
        if "nodes" in stats:  # Gecode: nodes of its search tree
            rep.nodes = int(stats["nodes"])
        if rep.objective is not None and "==========" not in stdout:
            rep.notes.append("optimality not proven")
        if inst.group == "hard":
            rep.proved = bool(rep.solutions) and (
                inst.kind == "one" or "==========" in stdout)
        return rep


@dataclass
class CliSystem(System):
    """conundrum's own command line (issue 3), where it has a command for the family."""

    FAMILIES = ("snake", "alphametic", "eqgrid", "sudoku", "queens", "magic")

    def missing(self) -> str | None:
        return None if shutil.which("conundrum") else "`conundrum` command not on PATH"

    def version(self) -> str:
        return PySystem("conundrum", "", module="conundrum", dist="conundrum").version()

    def supports(self, inst: Instance) -> bool:
        return inst.family in self.FAMILIES and inst.kind != "max"

    def prepare(self, inst: Instance, workdir: Path) -> list[str]:
        from models import cli
        return cli.command(inst, workdir)

    def parse(self, stdout: str, inst: Instance, stderr: str = "") -> Report:
        from models import cli
        return cli.parse(stdout, inst, stderr)


@dataclass
class HardOnlySystem(PySystem):
    """A peer run on the hard section only (issue 29: Pumpkin through CPMpy)."""

    def supports(self, inst: Instance) -> bool:
        return inst.group == "hard"


# the systems with models for the hard section (issue 29)
HARD_SYSTEMS = ("conundrum", "cpsat", "cpsat-1w", "cpmpy", "pumpkin", "minizinc",
                "conundrum-mzn")

# families of global constraints (issue 9) that a peer has no model for: python-constraint2
# has no scheduling or circuit constraint, and the Prolog programs were not written for them
NO_GLOBALS = ("jobshop", "tsp")


def all_systems() -> list[System]:
    """Every system, conundrum first."""
    return [
        PySystem("conundrum", "conundrum", module="conundrum", dist="conundrum"),
        CliSystem("conundrum-cli", "conundrum CLI"),
        PySystem("python-constraint2", "python-constraint2", module="constraint",
                 dist="python-constraint2", skip_families=NO_GLOBALS),
        PySystem("cpsat", "CP-SAT (default workers)", module="ortools", dist="ortools"),
        PySystem("cpsat-1w", "CP-SAT (1 worker)", module="ortools", dist="ortools"),
        PySystem("cpmpy", "CPMpy (OR-Tools)", module="cpmpy", dist="cpmpy"),
        # Pumpkin (lazy clause generation) through CPMpy's `pumpkin` backend (issue 29)
        HardOnlySystem("pumpkin", "Pumpkin (via CPMpy)", module="pumpkin_solver",
                       dist="pumpkin-solver"),
        SwiSystem("swipl", "SWI-Prolog clpfd", skip_families=NO_GLOBALS),
        GnuSystem("gprolog", "GNU Prolog FD", skip_families=NO_GLOBALS),
        MiniZincSystem("minizinc", "MiniZinc + Gecode"),
        # the same MiniZinc models, through conundrum's FlatZinc front end
        MiniZincSystem("conundrum-mzn", "MiniZinc + conundrum", solver="conundrum"),
    ]


def by_name() -> dict[str, System]:
    return {s.name: s for s in all_systems()}
