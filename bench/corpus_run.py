"""The corpus run: every entry of the manifest through both solvers, answers compared and
conundrum's solutions re-checked by Gecode; the search variants on the optimisation
outliers; the raw results (CORPUS.json) and the report (CORPUS.md)."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from corpus_mirrors import COLLECTIONS, Mirror
from corpus_mzn import (
    ALL,
    OPTIMISE,
    SAT,
    SATISFY,
    SOLVERS,
    UNSAT,
    Answer,
    answer,
    check_model,
    command,
    objective,
    run,
    solver_versions,
    stats,
    version,
)
from host import cpu_name

KEYS = ("nodes", "failures", "restarts", "propagations", "peakDepth", "solveTime",
        "initTime", "flatTime", "solutions")
VARIANTS = (("--no-lns",), ("--search", "classic"), ("--search", "learning"))
GRACE = 120.0  # the harness's own limit over -t: flattening, start-up, printing
CHECK_SAMPLE = 5  # "all" entries Gecode did not enumerate: solutions checked one by one


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def measure(solver: str, paths: list[Path], kind: str, timeout: float,
            extra: tuple[str, ...] = ()) -> tuple[dict, Answer]:
    """One whole `minizinc` process: its figures and its answer."""
    p = run(command(solver, paths, kind, timeout, extra), timeout + GRACE)
    a, s = answer(kind, p), stats(p.stdout)
    warnings = sorted({line.split("warning:", 1)[1].strip()[:160]
                       for line in p.stderr.splitlines() if "warning:" in line})
    rec = {"wall": round(p.wall, 4), "cpu": round(p.cpu, 4),
           **{k: s[k] for k in KEYS if k in s},
           "answer": a.value, "complete": a.complete, "error": a.error,
           "killed": p.killed, "warnings": warnings[:5]}
    if kind == ALL:
        rec["digest"] = digest(a.solutions)
    return rec, a


def digest(blocks: list[str]) -> str:
    """A digest of a set of solutions (sorted normalised blocks)."""
    return hashlib.sha1("\n--\n".join(sorted(blocks)).encode()).hexdigest()[:16]


def summary(runs: list[dict]) -> dict:
    """The median figures of a solver's runs (the answer of the last run; every run's
    answer must be the same)."""
    last = runs[-1]
    med = {k: statistics.median([r[k] for r in runs]) for k in ("wall", "cpu")}
    out = {**{k: last[k] for k in last if k not in ("wall", "cpu")}, **med,
           "walls": [r["wall"] for r in runs]}
    answers = {json.dumps([r["answer"], r["complete"]]) for r in runs}
    if len(answers) > 1:
        out["unstable"] = sorted(answers)
    return out


def conflict(kind: str, method: str | None, g: Answer, c: Answer) -> str | None:
    """Why two answers cannot both be right (None: they can)."""
    if kind == SATISFY:
        if {g.value, c.value} == {SAT, UNSAT}:
            return f"Gecode {g.value}, conundrum {c.value}"
        return None
    if kind == ALL:
        if g.complete and c.complete and g.value != c.value:
            return f"count: Gecode {g.value}, conundrum {c.value}"
        for full, part, who in ((g, c, "conundrum"), (c, g, "Gecode")):
            if full.complete and isinstance(part.value, int) and part.value > full.value:
                return f"{who} printed {part.value} solutions, the other counted {full.value}"
        if g.complete and c.complete and set(g.solutions) != set(c.solutions):
            return "the same count, different solutions"
        if g.complete and not set(c.solutions) <= set(g.solutions):
            return "conundrum printed a solution Gecode did not"
        return None
    if UNSAT in (g.value, c.value):
        other = c if g.value == UNSAT else g
        if other.value not in (None, UNSAT):
            return f"Gecode {g.value}, conundrum {c.value}"
        return None
    if g.value is None or c.value is None:
        return None
    better = (lambda a, b: a > b) if method == "maximize" else (lambda a, b: a < b)
    if g.complete and c.complete and g.value != c.value:
        return f"optima: Gecode {g.value}, conundrum {c.value}"
    if g.complete and better(c.value, g.value):
        return f"conundrum's {c.value} beats Gecode's proved optimum {g.value}"
    if c.complete and better(g.value, c.value):
        return f"Gecode's {g.value} beats conundrum's proved optimum {c.value}"
    return None


def verdict(entry: dict, g: Answer, c: Answer) -> dict:
    """agree / WRONG / gecode-only / conundrum-only / neither (+ the conflict's reason)."""
    why = conflict(entry["kind"], entry.get("method"), g, c)
    ref = entry["reference"]
    if why is None and c.complete and ref.get("complete") and c.value != ref["answer"]:
        why = f"the manifest's reference is {ref['answer']}, conundrum {c.value}"
    if why:
        return {"status": "WRONG", "note": why}
    status = {(True, True): "agree", (True, False): "gecode-only",
              (False, True): "conundrum-only", (False, False): "neither"}
    return {"status": status[(g.complete, c.complete)]}


def accepted(model: Path, data: list[Path], block: str, kind: str, timeout: float,
             folder: Path) -> dict:
    """Gecode, given the model with every printed variable fixed to BLOCK's value: accepted
    (a solution), REJECTED (unsatisfiable) or unknown; for an optimisation, the objective
    it finds for the fixed solution, next to the one printed."""
    path = check_model(model, block, folder)
    try:
        p = run(command("gecode", [path, *data], OPTIMISE if kind == OPTIMISE else SATISFY,
                        timeout, stats=False), timeout + GRACE)
    finally:
        path.unlink(missing_ok=True)
    a = answer(OPTIMISE if kind == OPTIMISE else SATISFY, p)
    if a.error:
        return {"status": "unknown", "note": a.error[:200]}
    if a.value == UNSAT:
        return {"status": "REJECTED"}
    if a.value is None:
        return {"status": "unknown", "note": "Gecode found nothing in time"}
    out = {"status": "accepted"}
    if kind == OPTIMISE:
        printed = objective(block)
        out["objective"] = printed
        if a.complete and a.value != printed:
            out["status"] = "objective differs"
            out["note"] = f"printed {printed}, Gecode's optimum with it fixed {a.value}"
    return out


def recheck(entry: dict, paths: list[Path], g: Answer, c: Answer, timeout: float,
            folder: Path) -> dict:
    """conundrum's solutions checked: each "all" solution against Gecode's complete
    enumeration (or, without one, a few fixed into the model); the one of a satisfaction
    or optimisation fixed into the model and solved by Gecode."""
    if not c.solutions:
        return {"status": "none printed"}
    if entry["kind"] == ALL:
        if g.complete:
            missing = len(set(c.solutions) - set(g.solutions))
            return {"status": "accepted" if missing == 0 else "REJECTED",
                    "note": f"{len(c.solutions)} solutions, all in Gecode's enumeration"
                    if missing == 0 else f"{missing} not in Gecode's enumeration"}
        picks = sorted({0, len(c.solutions) - 1,
                        *range(0, len(c.solutions), max(1, len(c.solutions) // CHECK_SAMPLE))})
        results = [accepted(paths[0], paths[1:], c.solutions[i], SATISFY, timeout, folder)
                   for i in picks[:CHECK_SAMPLE + 1]]
        bad = [r for r in results if r["status"] != "accepted"]
        return bad[0] if bad else {"status": "accepted",
                                   "note": f"{len(results)} solutions fixed, each accepted"}
    return accepted(paths[0], paths[1:], c.solutions[-1], entry["kind"], timeout, folder)


def machine() -> dict:
    return {"platform": f"{platform.machine()}, {platform.system()} {platform.release()}",
            "cpu": cpu_name("unknown"), "cores": os.cpu_count(),
            "python": platform.python_version()}


def uptime() -> str:
    r = subprocess.run(["uptime"], capture_output=True, text=True)
    return r.stdout.strip()


def git_head(root: Path) -> str:
    r = subprocess.run(["git", "-C", str(root), "log", "-1", "--format=%h %s"],
                       capture_output=True, text=True)
    return r.stdout.strip()[:100]


class Runner:
    """Runs the entries, keeping the results (saved after each entry)."""

    def __init__(self, args: argparse.Namespace, meta: dict) -> None:
        self.args = args
        self.mirrors = {k: Mirror(c, Path(args.mirrors)) for k, c in COLLECTIONS.items()}
        self.cache = Path(args.cache)
        self.results: dict = {"meta": meta, "entries": {}}

    def paths(self, entry: dict) -> list[Path]:
        key = entry["name"].split("/", 1)[0]
        files = [entry["model"]] + ([entry["data"]] if entry["data"] else [])
        return self.mirrors[key].extract(files, self.cache)

    def entry(self, entry: dict) -> dict:
        """Both solvers on ENTRY, --runs times each; the verdict and the re-check."""
        t, kind = self.args.timeout, entry["kind"]
        paths = self.paths(entry)
        load = os.getloadavg()[0]
        cells, answers = {}, {}
        for solver in SOLVERS:
            runs = []
            extra = tuple(self.args.cn_flags.split()) if solver == "conundrum" else ()
            for _ in range(self.args.runs):
                rec, a = measure(solver, paths, kind, t, extra)
                runs.append(rec)
                answers[solver] = a
                if not a.complete or rec["wall"] > 10:  # not repeated: slow or unfinished
                    break
            cells[solver] = summary(runs)
        g, c = answers["gecode"], answers["conundrum"]
        out = {"name": entry["name"], "load": round(load, 2), **cells,
               "verdict": verdict(entry, g, c)}
        if not self.args.no_check:
            out["check"] = recheck(entry, paths, g, c, t, self.cache / "checks")
        return out

    def variants(self, entry: dict, base: dict) -> dict:
        """The search variants (`--fzn-flags`) for an optimisation outlier."""
        found = {}
        for extra in VARIANTS:
            rec, _ = measure("conundrum", self.paths(entry), entry["kind"],
                             self.args.timeout, extra)
            found[" ".join(extra)] = {k: rec.get(k) for k in (
                "wall", "answer", "complete", "nodes", "failures", "restarts", "solveTime")}
        return found

    def save(self) -> None:
        Path(self.args.results).write_text(json.dumps(self.results, indent=1) + "\n")

    def all(self, entries: list[dict]) -> None:
        done = self.results["entries"]

        def one(e: dict) -> dict:
            r = self.entry(e)
            g, c, v = r["gecode"], r["conundrum"], r["verdict"]
            say(f"{e['name']:60} {e['kind']:8} G {g['wall']:7.2f}s {str(g['answer']):>8} "
                f"C {c['wall']:7.2f}s {str(c['answer']):>8} {v['status']} "
                f"{r.get('check', {}).get('status', '')} {v.get('note', '')}")
            return r

        with ThreadPoolExecutor(max_workers=self.args.jobs) as pool:
            for e, r in zip(entries, pool.map(one, entries)):
                done[e["name"]] = r
                self.save()


def optimisation_outlier(entry: dict, r: dict) -> bool:
    """An optimisation that conundrum did not prove where Gecode did, or proved more than
    twice as slowly (Gecode's search at least 0.2 s)."""
    if entry["kind"] != OPTIMISE:
        return False
    g, c = r["gecode"], r["conundrum"]
    if g["complete"] and not c["complete"]:
        return True
    return bool(g["complete"] and c["complete"] and g["wall"] < c["wall"] / 2 and
                gecode_search(g) >= 0.2)


def gecode_search(cell: dict) -> float:
    return float(cell.get("initTime", 0.0)) + float(cell.get("solveTime", 0.0))


def do_run(args: argparse.Namespace, only: Callable[[str], bool] | None) -> int:
    """The run (or, with --report-only, the report of a previous run)."""
    from corpus_report import write_report

    if args.report_only:
        results = json.loads(Path(args.results).read_text())
        manifest = json.loads(Path(args.manifest).read_text())
        write_report(results, manifest, Path(args.output))
        say(f"wrote {args.output}")
        return 0
    manifest = json.loads(Path(args.manifest).read_text())
    entries = [e for e in manifest["entries"] if only is None or only(e["name"])]
    if not entries:
        say("no entry matches --only")
        return 1
    root = Path(__file__).resolve().parents[1]
    cn = subprocess.run(["conundrum", "--version"], capture_output=True, text=True)
    meta = {
        "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": machine(), "uptime_before": uptime(),
        "command": "python bench/corpus.py " + shlex.join(sys.argv[1:]),
        "minizinc": version(), "solvers": solver_versions(),
        "conundrum": cn.stdout.strip(), "harness": git_head(root),
        "timeout": args.timeout, "runs": args.runs, "jobs": args.jobs,
        "manifest_generated": manifest.get("generated"), "entries": len(entries),
    }
    runner = Runner(args, meta)
    if args.resume and Path(args.results).exists():  # an interrupted run goes on
        old = json.loads(Path(args.results).read_text())
        if old["meta"].get("timeout") == args.timeout:
            runner.results = old
            meta = old["meta"]
            entries_left = [e for e in entries if e["name"] not in old["entries"]]
            say(f"resuming: {len(entries) - len(entries_left)} entries done")
            entries = entries_left
    say(f"{len(entries)} entries, {args.timeout:g} s each per solver; {meta['uptime_before']}")
    runner.all(entries)
    if not args.no_variants:
        by_name = {e["name"]: e for e in manifest["entries"]}
        outliers = [n for n, r in runner.results["entries"].items()
                    if n in by_name and "variants" not in r and
                    optimisation_outlier(by_name[n], r)]
        say(f"search variants on {len(outliers)} optimisation outliers")
        for n in outliers:
            runner.results["entries"][n]["variants"] = runner.variants(
                by_name[n], runner.results["entries"][n])
            say(f"  {n}: {runner.results['entries'][n]['variants']}")
            runner.save()
    meta["finished"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    meta["uptime_after"] = uptime()
    runner.save()
    write_report(runner.results, manifest, Path(args.output))
    say(f"wrote {args.results} and {args.output}")
    wrong = [n for n, r in runner.results["entries"].items()
             if r["verdict"]["status"] == "WRONG" or
             r.get("check", {}).get("status") in ("REJECTED", "objective differs")]
    if wrong:
        say("!!! answers that differ or solutions rejected: " + ", ".join(wrong))
    return 0
