"""conundrum's benchmark runner.

    python bench/run.py                      # full run: every instance, every installed peer
    python bench/run.py --quick              # CI: small instances, conundrum only, one run
    python bench/run.py --profile queens-8   # one conundrum instance under cProfile
    python bench/run.py --list               # instances and systems

Each (instance, system) pair runs as its own process; whole-process wall time and (where
reported) the solver's own time are recorded over --runs runs (medians); every answer is
verified.  Writes bench/RESULTS.md, bench/ratios.png, bench/scaling.png and
bench/out/results.json.
"""

from __future__ import annotations

import argparse
import fnmatch
import hashlib
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import anytime  # noqa: E402
from instances import SCALING, Instance, all_instances  # noqa: E402
from measure import ABSENT, OK, SKIPPED, WRONG, Cell, measure  # noqa: E402
from systems import System, all_systems  # noqa: E402

# pairs not attempted: known to take far beyond any sensible timeout (see README); the
# reason is shown in RESULTS.md
_PC = "python-constraint2"
SKIP = {
    (_PC, "sudoku25"): "plain backtracking over 330 blanks",
    (_PC, "sudoku16"): "plain backtracking over 150 blanks",
    (_PC, "golomb-9"): "golomb-8 already times out",
    (_PC, "golomb-10"): "golomb-8 already times out",
    (_PC, "queens-13"): "queens-12 took 12 s; queens-13 has 5.2x the solutions",
    ("swipl", "golomb-10"): "golomb-9 already times out",
    ("swipl", "queens-13"): "queens-12 took 29 s; queens-13 has 5.2x the solutions",
    **{(s, "queens-13"): "queens-12 took 17 s; over 60 s when tried (2026-11-23)"
       for s in ("cpsat", "cpsat-1w", "cpmpy")},
}

# run last (reported in the usual order): the pairs most likely to time out
SLOW_LAST = ("queens-11", "queens-12", "queens-13", "magic-4x4", "golomb-8", "golomb-9",
             "golomb-10", "alpha-planets", "sudoku25")


def select(args: argparse.Namespace) -> tuple[list[Instance], list[System]]:
    insts = all_instances()
    if args.quick:
        insts = [i for i in insts if i.quick]
    if not args.instances:  # the hard section (issue 29) runs only when asked for
        insts = [i for i in insts if i.group != "hard"]
    if args.instances:
        pats = args.instances.split(",")
        scaling = {n for names in SCALING.values() for n in names} if "scaling" in pats \
            else set()
        insts = [i for i in insts if i.name in scaling or
                 any(fnmatch.fnmatch(i.name, p) or i.group == p for p in pats)]
    systems = all_systems()
    if not any(i.group == "hard" for i in insts):  # Pumpkin runs on the hard section only
        systems = [s for s in systems if any(s.supports(i) for i in insts) or not insts]
    if args.quick:
        systems = [s for s in systems if s.name == "conundrum"]
    elif args.systems:
        wanted = args.systems.split(",")
        unknown = sorted(set(wanted) - {s.name for s in systems})
        if unknown:  # a typo must not quietly drop a peer from a long run
            sys.exit(f"unknown system(s) {', '.join(unknown)}; see --list")
        systems = [s for s in systems if s.name in wanted]
    return insts, systems


def results_path(args: argparse.Namespace) -> Path:
    """Where the raw results go: bench/out/results.json for the default report, else beside
    the report (so a side run with --output never overwrites the main run's results); a run
    of the hard section alone: bench/HARD.json."""
    out = Path(args.output)
    if out == Path(DEFAULT_OUTPUT) and args.instances == "hard":
        return HERE / "HARD.json"
    return RESULTS_JSON if out == Path(DEFAULT_OUTPUT) else out.with_suffix(".json")


def _json_options(text: str) -> str:
    try:
        value = json.loads(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not JSON: {e}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("expected a JSON object of search options")
    return text


def run(args: argparse.Namespace) -> int:
    insts, systems = select(args)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)  # before an hour of runs
    runs = 1 if args.quick else args.runs
    # the hard section's models stop themselves a little before the timeout and report their
    # best solution (models/common.py time_limit); the process is killed only past --timeout
    os.environ["BENCH_TIME_LIMIT"] = str(anytime.run_limit(args.timeout))
    notes, versions, present = [], {}, []
    if args.cn_options:
        os.environ["BENCH_CN_OPTIONS"] = args.cn_options
        notes.append(f"conundrum's models ran with the search options {args.cn_options}")
    for s in systems:
        why = s.missing()
        if why:
            notes.append(f"{s.label} skipped: {why}")
            print(f"note: {s.label} skipped: {why}", file=sys.stderr)
        else:
            present.append(s)
            versions[s.name] = s.version()
    cells: dict[tuple[str, str], Cell] = {}
    t_start = time.perf_counter()
    timeout, squeezed = args.timeout, False
    meta = {"runs": runs, "timeout": args.timeout, "notes": notes, "versions": versions,
            "command": command_line(), "systems": [s.name for s in systems],
            "instances": [i.name for i in insts],
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if args.baseline:
        meta["baseline"] = str(Path(args.baseline).resolve())
    import report  # (matplotlib is imported only by its chart functions)
    meta["machine"] = report.machine()
    if any(s.name.startswith("conundrum") for s in present):
        meta["engine"] = {"start": engine_state()}
    for inst in sorted(insts, key=lambda i: i.name in SLOW_LAST):
        if args.budget and not squeezed and time.perf_counter() - t_start > args.budget:
            squeezed, runs, timeout = True, 1, min(timeout, 15.0)
            notes.append(f"time budget of {args.budget:g} s spent: from {inst.name} on, one run "
                         f"per pair and a {timeout:g} s timeout")
            print(f"note: {notes[-1]}", file=sys.stderr)
        for s in systems:
            if s not in present:
                cells[(inst.name, s.name)] = Cell(inst.name, s.name, ABSENT)
                continue
            if (s.name, inst.name) in SKIP or not s.supports(inst):
                why = SKIP.get((s.name, inst.name), "no model or command for this instance")
                cells[(inst.name, s.name)] = Cell(inst.name, s.name, SKIPPED,
                                                  note=f"not attempted: {why}")
                continue
            cell = measure(inst, s, runs, timeout, log=print, repeat_below=args.repeat_below)
            cells[(inst.name, s.name)] = cell
            shown = f"{cell.median:.3f} s" if cell.status == OK else cell.status.upper()
            print(f"{inst.name:28s} {s.name:20s} {shown:>10s}  {cell.note}", flush=True)
        if not args.quick:
            save(meta, cells, results_path(args))
    elapsed = time.perf_counter() - t_start
    if "engine" in meta:
        meta["engine"]["end"] = engine_state()
        if meta["engine"]["end"] != meta["engine"]["start"]:
            print(f"note: conundrum changed during the run: {meta['engine']}", file=sys.stderr)
    wrong = [c for c in cells.values() if c.status == WRONG]
    failed_cn = [c for c in cells.values() if c.system == "conundrum" and c.status != OK]
    print(f"\n{len(insts)} instances x {len(systems)} systems in {elapsed:.0f} s; "
          f"{len(wrong)} wrong answers; conundrum not ok on {len(failed_cn)}")
    for c in wrong:
        print(f"!!! WRONG: {c.system} on {c.instance}: {c.note}", file=sys.stderr)

    if args.quick:
        ok = not failed_cn
        print("quick: every answer verified" if ok else
              "quick: FAILED " + ", ".join(f"{c.instance} ({c.status}: {c.note})"
                                           for c in failed_cn))
        return 0 if ok else 1
    save(meta, cells, results_path(args))
    write_outputs(args, insts, systems, cells, meta)
    return 0


RESULTS_JSON = HERE / "out" / "results.json"
DEFAULT_OUTPUT = str(HERE / "RESULTS.md")


def engine_state() -> str:
    """The conundrum under test: the checkout's git commit (and whether its source has
    uncommitted changes), a digest of the installed package's files, .py and compiled alike,
    and whether that installed package is this checkout's source (a stale `pip install .`
    would measure an older engine)."""
    spec = importlib.util.find_spec("conundrum")
    if spec is None or spec.origin is None:
        return "not importable"
    pkg = Path(spec.origin).parent
    digest = hashlib.sha1()
    for f in sorted(pkg.rglob("*")):
        if f.is_file() and "__pycache__" not in f.parts:
            digest.update(str(f.relative_to(pkg)).encode())
            digest.update(f.read_bytes())
    checkout = HERE.parent
    src = checkout / "src" / "conundrum"

    def git(*cmd: str) -> str:
        try:
            # -C the checkout, not the installed package: site-packages may sit inside some
            # other repository (pyenv is a git clone). --no-optional-locks: a status must
            # not write the index of someone's work tree.
            return subprocess.run(["git", "--no-optional-locks", "-C", str(checkout), *cmd],
                                  capture_output=True, text=True, timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""

    commit = git("rev-parse", "--short", "HEAD") or "no git"
    dirty = " + uncommitted changes" if git("status", "--porcelain", "--", "src") else ""
    def installed_differs(f: Path) -> bool:
        copy = pkg / f.relative_to(src)
        return not copy.is_file() or copy.read_bytes() != f.read_bytes()

    stale = [f.name for f in src.rglob("*.py")
             if "__pycache__" not in f.parts and installed_differs(f)]
    installed = (" (installed package differs from src/ in " + ", ".join(sorted(stale)[:5])
                 + ")") if stale else ""
    return f"commit {commit}{dirty}, source digest {digest.hexdigest()[:12]}{installed}"


def command_line() -> str:
    return ("python bench/run.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])).strip()


def save(meta: dict, cells: dict, path: Path) -> None:
    """Results so far, so that a report can be rebuilt (--report-only) after a crash."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(
        {"meta": meta, "cells": [c.to_json() for c in cells.values()]}, indent=1))


def report_only(args: argparse.Namespace) -> int:
    data = json.loads(Path(args.results).read_text())
    meta = data["meta"]
    cells = {(d["instance"], d["system"]): Cell.from_json(d) for d in data["cells"]}
    known = {i.name: i for i in all_instances()}
    insts = [known[n] for n in meta["instances"] if n in known]
    systems = [s for s in all_systems() if s.name in meta["systems"]]
    write_outputs(args, insts, systems, cells, meta)
    return 0


def write_outputs(args, insts, systems, cells, meta: dict) -> None:
    import report

    out_md = Path(args.output)
    hard = [i for i in insts if i.group == "hard"]
    if hard:  # the hard section has its own report (bench/HARD.md by default)
        hard_md = out_md if out_md != Path(DEFAULT_OUTPUT) else HERE / "HARD.md"
        png = hard_md.with_name(hard_md.stem + "-anytime.png")
        limit = anytime.run_limit(meta["timeout"])
        drawn = anytime.chart(hard, systems, cells, limit, png)
        hard_md.write_text(report.hard_markdown(
            hard, systems, cells, timeout=meta["timeout"], command=meta["command"],
            versions=meta["versions"], notes=meta["notes"], date=meta.get("date"),
            engine=meta.get("engine"), runs=meta["runs"])
            + "\n".join(anytime.markdown(hard, systems, cells, limit,
                                          png.name if drawn else None)))
        print(f"wrote {hard_md}" + (f" and {png}" if drawn else ""))
        insts = [i for i in insts if i.group != "hard"]
        if not insts:
            return
    notes_md = HERE / "profile-notes.md"
    extra = notes_md.read_text() if notes_md.exists() else ""
    base_file = args.baseline or meta.get("baseline")
    baseline = report.load_baseline(Path(base_file)) if base_file else None
    out_md.write_text(report.markdown(insts, systems, cells, runs=meta["runs"],
                                      timeout=meta["timeout"], command=meta["command"],
                                      notes=meta["notes"], versions=meta["versions"],
                                      profile_notes=extra, baseline=baseline,
                                      engine=meta.get("engine"), date=meta.get("date")))
    print(f"wrote {out_md}")
    png = out_md.with_name("ratios.png")
    if report.chart(insts, systems, cells, png):
        print(f"wrote {png}")
    else:
        print("matplotlib missing: no charts")
        return
    png = out_md.with_name("scaling.png")
    if report.scaling_chart(insts, systems, cells, meta["timeout"], png):
        print(f"wrote {png}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="small instances, conundrum only, one run (CI)")
    ap.add_argument("--runs", type=int, default=3, help="runs per pair (median)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--instances", help="comma-separated names, globs or groups")
    ap.add_argument("--systems", help="comma-separated system names (see --list)")
    ap.add_argument("--repeat-below", type=float, default=10.0, metavar="S",
                    help="repeat a pair only when its first run took less than S seconds")
    ap.add_argument("--budget", type=float, metavar="S",
                    help="after S seconds in total, one run per pair and a 15 s timeout")
    ap.add_argument("--output", default=DEFAULT_OUTPUT,
                    help="the report; ratios.png and scaling.png are written beside it, and "
                         "for a report other than the default its results as OUTPUT.json")
    ap.add_argument("--baseline", metavar="FILE",
                    help="a previous results.json: RESULTS.md compares this run with it "
                         "(\"How the figures moved\"), e.g. bench/baseline-2026-11-22.json")
    ap.add_argument("--report-only", action="store_true",
                    help="rebuild RESULTS.md and the charts from bench/out/results.json")
    ap.add_argument("--results", metavar="FILE", default=str(RESULTS_JSON),
                    help="--report-only: the results.json to report (default: the last run's)")
    ap.add_argument("--profile", metavar="INSTANCE",
                    help="run one conundrum instance under cProfile")
    ap.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    ap.add_argument("--profile-limit", type=float, metavar="S",
                    help="--profile: stop conundrum's search after S seconds (slow instances)")
    ap.add_argument("--list", action="store_true", help="list instances and systems")
    ap.add_argument("--cn-options", metavar="JSON", type=_json_options,
                    help='extra search options for the conundrum models, as a JSON object, '
                    'e.g. \'{"restarts": "luby"}\' (the report notes them)')
    args = ap.parse_args(argv)
    if args.list:
        for i in all_instances():
            print(f"{i.name:28s} {i.group:14s} {i.kind:6s} quick={i.quick}")
        for s in all_systems():
            print(f"system {s.name:20s} {s.missing() or 'installed'}")
        return 0
    if args.report_only:
        return report_only(args)
    if args.profile:
        from profiling import profile
        return profile(args.profile, args.top, args.profile_limit)
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
