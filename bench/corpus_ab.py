"""Builds side by side on the corpus's FlatZinc (issue 41): each entry of
bench/corpus/manifest.json (or those --only names) is compiled once by `minizinc -c` with
conundrum's library into a cache folder, then run by `conundrum fzn -s -t MS [-a]` (or
without `-t`: --untimed) under each build (`--site NAME=DIR`: a build installed with
`pip install --target DIR .`), one entry at a time, the builds alternating, so that a
change of a propagator is measured on the same files in one run. Prints one line an
entry (time, nodes, objective, solutions, whether the run ended) and writes them as JSON.

    python bench/corpus_ab.py --site before=/tmp/b0/site --site after=/tmp/b1/site \\
        --only 'hakank/golf_puzzle/*,hakank/coins/*' --timeout 20 --output /tmp/ab.json

Needs the corpus's git mirrors (bench/corpus_mirrors.py) and minizinc; the timing is
whole-process wall time (interpreter start and reading included).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from corpus import MANIFEST, matcher
from corpus_mirrors import COLLECTIONS, Mirror
from corpus_mzn import stats


def flatzinc(entry: dict, mirrors: dict[str, Mirror], cache: Path) -> Path | None:
    """The entry's FlatZinc (compiled once, kept in `cache`), or None if it does not
    compile."""
    target = cache / (entry["name"].replace("/", "__") + ".fzn")
    if target.exists():
        return target
    files = [entry["model"]] + ([entry["data"]] if entry["data"] else [])
    paths = mirrors[entry["name"].split("/", 1)[0]].extract(files, cache / "sources")
    done = subprocess.run(["minizinc", "-c", "--solver", "conundrum", "--no-output-ozn",
                           "--output-mode", "dzn", "--output-objective", "-o", str(target),
                           *map(str, paths)], capture_output=True, text=True)
    if done.returncode:
        print(f"{entry['name']}: does not compile: {done.stderr[-200:]}", file=sys.stderr)
        return None
    return target


def run(site: str, fzn: Path, kind: str, timeout: float, timed: bool = True) -> dict:
    """One `conundrum fzn` run under the build at `site`: its figures. `timed`: with
    `-t` (as the MiniZinc IDE runs a solver); otherwise killed after `timeout` seconds."""
    cmd = [sys.executable, "-m", "conundrum", "fzn", "-s"]
    if timed:
        cmd += ["-t", str(int(timeout * 1000))]
    if kind == "all":
        cmd.append("-a")
    start = time.perf_counter()
    try:
        out = subprocess.run(cmd + [str(fzn)], capture_output=True, text=True,
                             env=dict(os.environ, PYTHONPATH=site),
                             timeout=timeout + 30 if timed else timeout).stdout
    except subprocess.TimeoutExpired:
        out = ""
    found = stats(out)
    return {"seconds": round(time.perf_counter() - start, 2),
            "nodes": found.get("nodes"),
            "objective": found.get("objective"),
            "solutions": out.count("----------"),
            "ended": "==========" in out or "=====UNSATISFIABLE=====" in out}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", action="append", required=True, metavar="NAME=DIR")
    ap.add_argument("--only", help="comma-separated entry names or shell globs")
    ap.add_argument("--timeout", type=float, default=20, help="seconds a run")
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--cache", default="/tmp/conundrum-corpus-fzn")
    ap.add_argument("--output", default="/tmp/corpus-ab.json")
    ap.add_argument("--untimed", action="store_true",
                    help="run without -t (the default search without a time limit), "
                         "killed after --timeout seconds")
    args = ap.parse_args()
    sites = [s.split("=", 1) for s in args.site]
    mirrors = {k: Mirror(c, Path(args.mirrors)) for k, c in COLLECTIONS.items()}
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    only = matcher(args.only)
    results: dict[str, dict] = {}
    for entry in json.loads(MANIFEST.read_text())["entries"]:
        if only is not None and not only(entry["name"]):
            continue
        fzn = flatzinc(entry, mirrors, cache)
        if fzn is None:
            continue
        row = {name: run(site, fzn, entry["kind"], args.timeout, not args.untimed)
               for name, site in sites}
        results[entry["name"]] = row
        cells = "  ".join(f"{name}: {r['seconds']} s, {r['nodes']} nodes, objective "
                          f"{r['objective']}, {r['solutions']} solutions"
                          f"{', ended' if r['ended'] else ''}" for name, r in row.items())
        print(f"{entry['name']} ({entry['kind']})  {cells}", flush=True)
        Path(args.output).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
