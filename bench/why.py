"""Minimal conflicts on issue 43's four models (bench/why_models.py), conundrum beside
CPMpy's `mus` and `quickxplain` (OR-Tools CP-SAT as its solver), in one run, one core.

conundrum's ways, each a fresh model:
- `naive`: the slice-1 algorithm kept here for comparison: deletion, one solve per soft
  group, each compiling the model as it stands;
- `deletion`: `m.conflict(soft=<a set>)`: no order, so deletion within the first core of
  the search under assumptions, each answer's core refining the candidates;
- `preferred`: `m.conflict(soft=<the list>)`: the preferred conflict (QuickXplain or
  deletion from the least preferred, chosen by the first core's size);
- `quickxplain`: the same with `method="quickxplain"` forced;
- `smallest`: `method="smallest"` (the fewest groups, by hitting set duality), under
  `--smallest-limit` seconds.

CPMpy's `mus` runs `--cpmpy-runs` times (CP-SAT's default workers are not deterministic:
its conflict's size varies), `quickxplain` and `optimal_mus` once; each in a process of
its own, stopped after `--peer-limit` seconds.

    python bench/why.py --output bench/WHY.md      # needs cpmpy and ortools (bench/install-peers)
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import conundrum as cn  # noqa: E402
from why_models import CASES  # noqa: E402


def naive(m: cn.Model, soft: list[str] | None, limit: float) -> tuple[int, bool]:
    """Slice 1's deletion: one solve of the model as it stands per soft group."""
    from conundrum.model.diagnosis import _Clock, _solvable, groups_of

    clock = _Clock(limit)
    groups, hard = groups_of(m, soft)
    core = list(groups)
    minimal = True
    i = 0
    while i < len(core):
        rest = hard | {k for j, g in enumerate(core) if j != i for k in g.positions}
        answer = _solvable(m, rest, clock)
        if answer is False:
            del core[i]
        else:
            minimal = minimal and answer is True
            i += 1
    return len(core), minimal


def run_conundrum(name: str, way: str, limit: float) -> dict:
    case = CASES[name]()
    m = case.model
    soft_list = case.soft if case.soft is not None else list(m.constraints)
    start = time.perf_counter()
    if way == "naive":
        size, minimal = naive(m, case.soft, limit)
    else:
        if way == "deletion":
            soft = None if case.soft is None else set(case.soft)
            conflict = m.conflict(soft=soft, time_limit=limit)
        elif way == "preferred":
            conflict = m.conflict(soft=soft_list, time_limit=limit)
        elif way == "smallest":
            soft = None if case.soft is None else set(case.soft)
            conflict = m.conflict(soft=soft, time_limit=limit, method="smallest")
            size, minimal = len(conflict.labels), conflict.smallest
            return {"seconds": time.perf_counter() - start, "size": size, "minimal": minimal,
                    "proof": "smallest"}
        else:
            conflict = m.conflict(soft=soft_list, time_limit=limit, method="quickxplain")
        size, minimal = len(conflict.labels), conflict.minimal
    return {"seconds": time.perf_counter() - start, "size": size, "minimal": minimal}


def run_cpmpy(name: str, way: str) -> dict:
    """One CPMpy run, in this process."""
    try:
        from cpmpy.tools.explain import mus, optimal_mus, quickxplain
    except ImportError:
        return {"error": "cpmpy not installed"}
    case = CASES[name]()
    start = time.perf_counter()
    soft, hard, _ = case.cpmpy()
    way_of = {"mus": mus, "quickxplain": quickxplain, "optimal_mus": optimal_mus}
    found = way_of[way](soft, hard, solver="ortools")
    return {"seconds": time.perf_counter() - start, "size": len(found), "minimal": True}


def run_cpmpy_apart(name: str, way: str, limit: float) -> dict:
    """One CPMpy run in a process of its own, stopped after `limit` seconds."""
    command = [sys.executable, __file__, "--cpmpy-one", name, way]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit,
                              check=True)
    except subprocess.TimeoutExpired:
        return {"error": f"no answer in {limit:.0f} s"}
    except subprocess.CalledProcessError as e:
        return {"error": (e.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def cpmpy_runs(name: str, way: str, runs: int, limit: float) -> dict:
    """`runs` runs of one CPMpy way: every size, the median time."""
    results = [run_cpmpy_apart(name, way, limit) for _ in range(runs)]
    ok = [r for r in results if "error" not in r]
    if not ok:
        return results[0]
    return {"sizes": [r["size"] for r in ok], "size": min(r["size"] for r in ok),
            "seconds": statistics.median(r["seconds"] for r in ok), "minimal": True,
            "failed": len(results) - len(ok)}


def cell(r: dict) -> str:
    if "error" in r:
        return r["error"]
    if r.get("proof") == "smallest":
        mark = " (proved smallest)" if r["minimal"] else " (minimal, not proved smallest)"
    else:
        mark = "" if r["minimal"] else " (not proved minimal)"
    if "sizes" in r and len(r["sizes"]) > 1:
        failed = f", {r['failed']} runs without an answer" if r["failed"] else ""
        return (f"{'/'.join(map(str, r['sizes']))} in {len(r['sizes'])} runs, "
                f"median {r['seconds']:.2f} s{failed}")
    return f"{r['size']}, {r['seconds']:.2f} s{mark}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--output", help="write the Markdown report here")
    ap.add_argument("--only", nargs="*", default=list(CASES))
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per conundrum run")
    ap.add_argument("--smallest-limit", type=float, default=60.0,
                    help="seconds for conundrum's smallest conflict")
    ap.add_argument("--peer-limit", type=float, default=120.0, help="seconds per CPMpy run")
    ap.add_argument("--cpmpy-runs", type=int, default=5, help="runs of CPMpy's mus")
    ap.add_argument("--cpmpy-one", nargs=2, metavar=("MODEL", "WAY"),
                    help=argparse.SUPPRESS)  # one CPMpy run, its result as JSON
    args = ap.parse_args()
    if args.cpmpy_one:
        print(json.dumps(run_cpmpy(*args.cpmpy_one)))
        return
    ways = ["naive", "deletion", "preferred", "quickxplain", "smallest"]
    rows = []
    for name in args.only:
        row = {way: run_conundrum(name, way, args.smallest_limit if way == "smallest"
                                  else args.limit) for way in ways}
        row["cpmpy mus"] = cpmpy_runs(name, "mus", args.cpmpy_runs, args.peer_limit)
        for w in ("quickxplain", "optimal_mus"):
            row[f"cpmpy {w}"] = run_cpmpy_apart(name, w, args.peer_limit)
        rows.append((name, row))
        print(name, {k: cell(v) for k, v in row.items()}, flush=True)
    heads = ways + ["cpmpy mus", "cpmpy quickxplain", "cpmpy optimal_mus"]
    try:
        import cpmpy
        import ortools
        peers = f"cpmpy {cpmpy.__version__}, ortools {ortools.__version__}"
    except ImportError:
        peers = "cpmpy not installed"
    lines = ["# Minimal conflicts: conundrum and CPMpy (issue 43)", "",
             f"- command: python {' '.join(sys.argv)}",
             f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
             f"- machine: {platform.machine()}, {os.cpu_count()} cores; load average "
             + " ".join(f"{x:.1f}" for x in os.getloadavg()),
             f"- conundrum: {'compiled' if cn.COMPILED else 'pure Python'} engine, "
             f"Python {platform.python_version()}; peers: {peers} (CP-SAT, its default "
             "workers)",
             "- each cell: conflict size (soft groups), seconds (model building excluded "
             "for conundrum, included for CPMpy's lists)", "",
             "| model | " + " | ".join(heads) + " |",
             "|---|" + "---|" * len(heads)]
    for name, row in rows:
        lines.append(f"| {name} | " + " | ".join(cell(row[h]) for h in heads) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.output:
        Path(args.output).write_text(text)


if __name__ == "__main__":
    main()
