"""The MiniZinc solver configuration (.msc) that makes `minizinc --solver conundrum` work."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

SOLVER_ID = "org.conundrum.conundrum"
STD_FLAGS = ["-a", "-n", "-f", "-i", "-p", "-r", "-s", "-t"]
# conundrum's own flags that `minizinc --solver conundrum` passes on (flag, description,
# type, default), as MiniZinc's solver configurations spell them
EXTRA_FLAGS = [["--restarts", "restart the search every so many failures, keeping what was "
                "refuted as nogoods: luby, geometric, linear or constant, optionally :N",
                "string", ""],
               ["--search", "auto (default: an optimisation or one solution is a portfolio of "
                "the classic and the learning search, in turns), classic (depth-first), learning "
                "(conflict-driven nogood learning) or portfolio", "string", ""],
               ["--lns", "optimise by large neighbourhood search alone (by default it is one of "
                "the portfolio's searches under a time limit)",
                "bool", "false"],
               ["--no-lns", "never search large neighbourhoods, even under a time limit (the "
                "portfolio's exact searches only)", "bool", "false"],
               ["--no-lp", "no linear relaxation (by default an optimisation is bounded by "
                "the relaxation of its linear constraints, solved at the root)", "bool", "false"],
               ["--why", "on an unsatisfiable model, also print a minimal set of the FlatZinc's "
                "constraints that cannot hold together, as comments", "bool", "false"]]
FZN_COMMAND = "conundrum-fzn"


def mznlib_path() -> Path:
    """The folder of MiniZinc redefinitions shipped in the package."""
    return Path(__file__).resolve().parent / "mznlib"


def executable_path() -> str | None:
    """The `conundrum-fzn` command beside this Python (a virtual environment's bin folder),
    else on the PATH; None if it is not installed."""
    beside = Path(sys.executable).parent / FZN_COMMAND
    if beside.exists():
        return str(beside)
    return shutil.which(FZN_COMMAND)


def solver_config(executable: str, version: str) -> dict:
    """The .msc content as a dict."""
    return {
        "id": SOLVER_ID,
        "name": "conundrum",
        "description": "conundrum: constraint logic programming in Python "
                       "(finite domains, exact arithmetic)",
        "version": version,
        "mznlib": str(mznlib_path()),
        "executable": executable,
        "tags": ["cp", "int"],
        "stdFlags": STD_FLAGS,
        "extraFlags": EXTRA_FLAGS,
        "supportsMzn": False,
        "supportsFzn": True,
        "needsSolns2Out": True,
        "needsMznExecutable": False,
        "needsStdlibDir": False,
        "isGUIApplication": False,
    }


def default_install_dir() -> Path:
    """Where MiniZinc looks for a user's solver configurations."""
    return Path.home() / ".minizinc" / "solvers"


def render(config: dict) -> str:
    return json.dumps(config, indent=2) + "\n"
