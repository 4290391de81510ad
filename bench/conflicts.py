"""Conflicts per second of the learning search on the hard section or the FlatZinc test set
(issue 42, item 1).

Each instance of the hard section runs with `search="learning"` (and the options given)
for a fixed time in a child process, once per conundrum build named on the command line
(the interpreter of each: a virtual environment with that build installed), the builds
taking turns instance by instance so that the machine's load falls on them alike. The
report gives, per instance and build, the failures (conflicts), the nodes, the seconds and
conflicts per second, and the ratio of each build to the first.

    python bench/conflicts.py --python old=/tmp/venv-old/bin/python \\
        --python new=/tmp/venv-new/bin/python --seconds 10 --output bench/CONFLICTS.md
    python bench/conflicts.py --site old=/tmp/old/site --site new=/tmp/new/site
    python bench/conflicts.py --only golomb --seconds 5     # this interpreter only
    python bench/conflicts.py --flatzinc --seconds 10      # the FlatZinc test set

A conflict is a failure of the search (`stats.fails`): each one is analysed into a nogood.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

CHILD = """
import json, sys, time
sys.path.insert(0, {bench!r})
import conundrum as cn
from hard import hard_instances
from models.cn_models import build
inst = next(i for i in hard_instances() if i.name == {name!r})
m, xs, obj = build(inst)
opts = dict(search="learning", time_limit={seconds!r}, **{options!r})
t = time.perf_counter()
if inst.kind in ("min", "max"):
    (m.minimize if inst.kind == "min" else m.maximize)(obj, **opts)
else:
    m.solve(**opts)
took = time.perf_counter() - t
s = m.stats
print(json.dumps({{"fails": s.fails, "nodes": s.nodes, "seconds": took,
                  "status": str(s.status), "compiled": cn.COMPILED}}))
"""


def run_one(python: str, name: str, seconds: float, options: dict, site: str = "") -> dict:
    """One instance under one build (an interpreter, and a directory put first on its path
    when the build is installed there), in a child process."""
    code = CHILD.format(bench=str(HERE), name=name, seconds=seconds, options=options)
    p = subprocess.run([python, "-c", code], capture_output=True, text=True,
                       timeout=seconds * 3 + 60, env={**os.environ, "PYTHONPATH": site})
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(p.stdout.strip().splitlines()[-1])


BUSY = 100  # conflicts a run needs for its rate to say something about conflicts
FZN_DATA = HERE.parent / "tests" / "data" / "minizinc"
STAT = re.compile(r"^%%%mzn-stat: (\w+)=(\S+)$", re.M)


def flatzinc_instances(cache: Path) -> dict[str, tuple[Path, bool]]:
    """The FlatZinc test set (tests/data/minizinc's manifest), each model compiled once by
    `minizinc --solver conundrum -c` into `cache`: name -> (FlatZinc file, all solutions)."""
    out: dict[str, tuple[Path, bool]] = {}
    cache.mkdir(parents=True, exist_ok=True)
    for entry in json.loads((FZN_DATA / "manifest.json").read_text()):
        fzn = cache / f"{entry['name']}.fzn"
        if not fzn.exists():
            # no .ozn: minizinc would write it beside the model, into the test data
            cmd = ["minizinc", "--solver", "conundrum", "-c", "--output-mode", "dzn",
                   "--no-output-ozn", "--fzn", str(fzn), str(FZN_DATA / entry["model"])]
            if entry.get("data"):
                cmd.append(str(FZN_DATA / entry["data"]))
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:  # said, not dropped silently (no solver config?)
                print(f"{entry['name']}: minizinc could not compile it: "
                      f"{done.stderr.strip()[:300]}", file=sys.stderr)
                continue
        out[entry["name"]] = (fzn, entry["kind"] == "count")
    return out


def run_flatzinc(python: str, fzn: Path, every: bool, seconds: float, site: str) -> dict:
    """One FlatZinc model under one build's `conundrum fzn --search learning` (all
    solutions for a count), its statistics read off the `%%%mzn-stat` lines."""
    cmd = [python, "-m", "conundrum", "fzn", "--search", "learning", "-s",
           "-t", str(int(seconds * 1000)), *(["-a"] if every else []), str(fzn)]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds * 3 + 60,
                       env={**os.environ, "PYTHONPATH": site})
    stats = dict(STAT.findall(p.stdout))
    if p.returncode != 0 or "failures" not in stats:
        return {"error": (p.stderr.strip().splitlines() or ["?"])[-1]}
    return {"fails": int(stats["failures"]), "nodes": int(stats["nodes"]),
            "seconds": float(stats["solveTime"]), "status": "", "compiled": None}


def rate(cell: dict) -> float | None:
    """Conflicts per second of a cell, None if it failed or had no conflict."""
    if "error" in cell or not cell["fails"] or cell["seconds"] <= 0:
        return None
    return cell["fails"] / cell["seconds"]


def report(builds: list[str], rows: dict[str, dict[str, dict]], meta: dict) -> str:
    """The Markdown table: per instance, each build's conflicts/s and its ratio to the
    first build; then the median of each build's rates and ratios."""
    out = ["# Conflicts per second of the learning search (issue 42)", ""]
    out += [f"- {k}: {v}" for k, v in meta.items()]
    out += ["", "| " + " | ".join(
        ["instance", *(f"{b}: conflicts, nodes, s, conflicts/s" for b in builds),
         *(f"{b} / {builds[0]}" for b in builds[1:])]) + " |"]
    out.append("|---" * (1 + len(builds) + len(builds) - 1) + "|")
    ratios: dict[str, list[float]] = {b: [] for b in builds[1:]}
    rates: dict[str, list[float]] = {b: [] for b in builds}
    for name, cells in rows.items():
        line = [name]
        for b in builds:
            c = cells[b]
            if "error" in c:
                line.append(f"error: {c['error'][:60]}")
                continue
            r = rate(c)
            if r is not None:
                rates[b].append(r)
            line.append(f"{c['fails']:,}, {c['nodes']:,}, {c['seconds']:.1f}, "
                        f"**{r:,.0f}**" if r is not None else
                        f"{c['fails']:,}, {c['nodes']:,}, {c['seconds']:.1f}, -")
        base = rate(cells[builds[0]])
        for b in builds[1:]:
            r = rate(cells[b])
            if base and r:
                ratios[b].append(r / base)
                line.append(f"{r / base:.2f}x")
            else:
                line.append("-")
        out.append("| " + " | ".join(line) + " |")
    out += ["", "Medians over the instances with conflicts:", ""]
    for b in builds:
        if rates[b]:
            out.append(f"- {b}: {statistics.median(rates[b]):,.0f} conflicts/s")
    # a run of a few conflicts in a few milliseconds measures the start, not conflicts
    for b in builds:
        busy = [rate(cells[b]) for cells in rows.values()
                if "error" not in cells[b] and cells[b]["fails"] >= BUSY]
        if busy:
            out.append(f"- {b}, over the {len(busy)} instances with at least {BUSY} "
                       f"conflicts: median {statistics.median(busy):,.0f} conflicts/s, "
                       f"lowest {min(busy):,.0f}")  # type: ignore[type-var]
    for b, rs in ratios.items():
        if rs:
            out.append(f"- {b} / {builds[0]}: median {statistics.median(rs):.2f}x, "
                       f"geometric mean {statistics.geometric_mean(rs):.2f}x")
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", action="append", default=[], metavar="NAME=PATH",
                    help="a build to measure: a name and its interpreter (repeatable); "
                         "default: this interpreter")
    ap.add_argument("--site", action="append", default=[], metavar="NAME=DIR",
                    help="a build installed in DIR (pip install --target DIR), run by this "
                         "interpreter with DIR on its path (repeatable)")
    ap.add_argument("--seconds", type=float, default=10, help="time per run (default 10)")
    ap.add_argument("--only", help="instances whose name contains one of these (comma-separated)")
    ap.add_argument("--options", default='{"var_select": "activity"}',
                    help="extra search options, JSON (default: the hard section's learning "
                         "setting, var_select=activity)")
    ap.add_argument("--flatzinc", action="store_true",
                    help="the FlatZinc test set (tests/data/minizinc) through `conundrum fzn "
                         "--search learning` instead of the hard section")
    ap.add_argument("--output", help="write the Markdown report here (and .json beside it)")
    args = ap.parse_args()
    builds = {name: (python, "") for name, python in (b.split("=", 1) for b in args.python)}
    builds.update((name, (sys.executable, site))
                  for name, site in (b.split("=", 1) for b in args.site))
    if not builds:
        builds = {"this": (sys.executable, "")}
    options = json.loads(args.options)
    fzn = flatzinc_instances(Path("/tmp/conundrum-conflicts-fzn")) if args.flatzinc else {}
    if args.flatzinc:
        names = list(fzn)
    else:
        from hard import hard_instances
        names = [i.name for i in hard_instances()]
    if args.only:
        keys = args.only.split(",")
        names = [n for n in names if any(k in n for k in keys)]
    rows: dict[str, dict[str, dict]] = {}
    for name in names:
        rows[name] = {}
        for b, (python, site) in builds.items():
            if args.flatzinc:
                cell = run_flatzinc(python, *fzn[name], args.seconds, site)
            else:
                cell = run_one(python, name, args.seconds, options, site)
            rows[name][b] = cell
            r = rate(cell)
            print(f"{name:32} {b:8} {cell.get('fails', '-')!s:>9} conflicts "
                  f"{(f'{r:,.0f}/s' if r else cell.get('error', '-'))}", flush=True)
    meta = {
        "command": "python bench/conflicts.py " + " ".join(sys.argv[1:]),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores; load average "
                   + " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "search": (f"`conundrum fzn --search learning -s -t {int(args.seconds * 1000)}` (-a for "
                   "the counts), the FlatZinc test set, one core" if args.flatzinc else
                   f"search='learning', {options}, time_limit={args.seconds:g} s, one core"),
        "builds": ", ".join(f"{b} ({site or python})" for b, (python, site) in builds.items()),
    }
    text = report(list(builds), rows, meta)
    print(text)
    if args.output:
        Path(args.output).write_text(text)
        Path(args.output).with_suffix(".json").write_text(
            json.dumps({"meta": meta, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
