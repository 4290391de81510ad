"""The FlatZinc row set: the MiniZinc models of tests/data/minizinc run through
`minizinc --solver conundrum` and `minizinc --solver gecode`, side by side.

    python bench/flatzinc.py [--runs 3] [--timeout 60] [--output bench/FLATZINC.md]

Needs MiniZinc with Gecode and conundrum's solver configuration (`conundrum minizinc-config
--install`, done by bench/install-peers). Times are whole-process wall seconds of the
`minizinc` command (compilation to FlatZinc included, as a user runs it), medians of the
runs; the answer of each run is compared with the manifest's (Gecode's) and a wrong one is
shown as WRONG, never as a time.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "minizinc"
SOLVERS = ("conundrum", "gecode")


def command(entry: dict, solver: str) -> list[str]:
    # Gecode with MiniZinc's standard library (-G std): Debian's Gecode 6.2.0 library does
    # not compile `include "globals.mzn"` under MiniZinc 2.6.4
    library = ["-G", "std"] if solver == "gecode" else []
    cmd = ["minizinc", "--solver", solver, *library, "--output-mode", "dzn",
           "--output-objective"]
    if entry["kind"] == "count":
        cmd.append("-a")
    cmd.append(str(DATA / entry["model"]))
    if entry.get("data"):
        cmd.append(str(DATA / entry["data"]))
    return cmd


def answer(entry: dict, out: str) -> object:
    """What the run found, in the manifest's terms (count, optimum, sat/unsat), or None if
    the search did not complete."""
    kind = entry["kind"]
    if kind == "count":
        return out.count("----------") if "==========" in out else None
    if kind == "optimum":
        if "==========" not in out:
            return None
        found = re.findall(r"^_objective = (-?\d+);", out, re.M)
        return int(found[-1]) if found else None
    if "=====UNSATISFIABLE=====" in out:
        return "unsat"
    return "sat" if "----------" in out else None


def measure(entry: dict, solver: str, runs: int, timeout: float) -> tuple[str, float | None]:
    """(status, median seconds): status ok, WRONG, timeout or error."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        try:
            r = subprocess.run(command(entry, solver), capture_output=True, text=True,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timeout", None
        elapsed = time.perf_counter() - start
        if r.returncode != 0:
            return "error", None
        if answer(entry, r.stdout) != entry["expected"]:
            return "WRONG", None
        times.append(elapsed)
    return "ok", statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--output", default=str(ROOT / "bench" / "FLATZINC.md"))
    args = ap.parse_args()
    manifest = json.loads((DATA / "manifest.json").read_text())
    rows, wins, ratios = [], 0, []
    for entry in manifest:
        cells = {s: measure(entry, s, args.runs, args.timeout) for s in SOLVERS}
        shown = []
        for s in SOLVERS:
            status, t = cells[s]
            shown.append(f"{t:.3f}" if status == "ok" else status)
        (cs, ct), (gs, gt) = cells["conundrum"], cells["gecode"]
        ratio = ""
        if cs == gs == "ok" and ct and gt:
            ratios.append(gt / ct)
            ratio = f"{gt / ct:.2g}x"
            wins += ct <= gt
        rows.append(f"| {entry['name']} | {entry['kind']} | {entry['expected']} | "
                    f"{shown[0]} | {shown[1]} | {ratio} |")
        print(rows[-1], file=sys.stderr)
    version = subprocess.run(["minizinc", "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    geo = statistics.geometric_mean(ratios) if ratios else float("nan")
    lines = [
        "# FlatZinc row set: MiniZinc models through conundrum and Gecode",
        "",
        f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        f"- machine: {platform.machine()}, {platform.system()} {platform.release()}",
        f"- command: `python bench/flatzinc.py --runs {args.runs} --timeout {args.timeout:g}`",
        f"- {version}; models: tests/data/minizinc (sources and licences in its README)",
        "- times: whole-process wall seconds of `minizinc --solver S` (compilation to FlatZinc "
        "included), median of the runs; ratio = Gecode / conundrum (above 1: conundrum "
        "faster); every answer checked against the manifest",
        "",
        f"conundrum at least as fast on {wins} of {len(ratios)} models both solved; geometric "
        f"mean of the ratios {geo:.2f}.",
        "",
        "| model | kind | expected | MiniZinc + conundrum | MiniZinc + Gecode | ratio |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    Path(args.output).write_text("\n".join(lines))
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
