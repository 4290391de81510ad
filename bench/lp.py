"""Where the linear relaxation's cut raises the root bound (issue 42, item 2).

    python bench/lp.py                       # every optimisation model of the corpus
    python bench/lp.py --only 'hakank/*'     # some of them

Each optimisation model of bench/corpus/manifest.json is flattened once by
`minizinc --solver conundrum -c` (into --cache), read by conundrum's FlatZinc reader and
compiled twice at the root, without and with the relaxation's cut
(compiler/relaxation.py); it prints the objective's root bounds both ways, the time of
the relaxation alone (building its rows and solving the simplex) and the sizes. The models
whose bound moves are the ones to time with and without `--no-lp` through the corpus
harness (bench/corpus.py --cn-flags); bench/LP.md has both, and

    python bench/lp.py --table ROOT.json WITH.json WITHOUT.json

prints its table from this script's --json and the harness's two --results.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from corpus import MANIFEST, matcher
from corpus_mirrors import COLLECTIONS, Mirror


def flatten(entry: dict, mirrors: dict[str, Mirror], cache: Path, out: Path) -> Path | None:
    """The entry's FlatZinc for conundrum (made once), or None when MiniZinc refuses it."""
    fzn = out / (entry["name"].replace("/", "__") + ".fzn")
    if fzn.exists():
        return fzn
    key = entry["name"].split("/", 1)[0]
    files = [entry["model"]] + ([entry["data"]] if entry["data"] else [])
    paths = mirrors[key].extract(files, cache)
    r = subprocess.run(["minizinc", "--solver", "conundrum", "-c", *map(str, paths),
                        "-o", str(fzn)], capture_output=True, text=True, timeout=300)
    return fzn if r.returncode == 0 else None


def root_bounds(fzn: Path) -> dict:
    """The root bounds without and with the cut, and what the relaxation cost."""
    from conundrum.compiler.compiled import compile_model
    from conundrum.compiler.relaxation import Relaxation, relaxation_cut
    from conundrum.io.flatzinc.build import read

    problem = read(fzn.read_text())
    sense = -1 if problem.kind == "minimize" else 1
    model = problem.model
    plain = compile_model(model.variables, model.constraints, problem.objective, sense)
    if plain is None:
        return {"root": "fails"}
    before = (plain.obj.lo, plain.obj.hi)
    start = time.perf_counter()
    relaxation = Relaxation(plain.solver)
    rows, columns = len(relaxation.rows), len(relaxation.roots)
    try:
        cut = relaxation_cut(plain.solver, plain.obj, sense)
    except Exception as e:  # noqa: BLE001 (Inconsistency: the cut proves no solution)
        return {"root": type(e).__name__}
    seconds = time.perf_counter() - start
    after = (plain.obj.lo, plain.obj.hi)
    return {"before": before, "after": after, "cut": cut is not None, "rows": rows,
            "columns": columns, "seconds": round(seconds, 3), "raised": before != after}


def _cell(run: dict) -> str:
    mark = "" if run.get("complete") else "*"
    return f"{run.get('answer')}{mark}, {run['wall']:.2f} s, {run.get('nodes')} nodes"


def table(root_json: str, with_json: str, without_json: str) -> str:
    """The markdown table of bench/LP.md: root bounds, Gecode, conundrum without and with
    the relaxation (an answer marked * is not proved)."""
    roots = json.loads(Path(root_json).read_text())
    with_lp = json.loads(Path(with_json).read_text())["entries"]
    without = json.loads(Path(without_json).read_text())["entries"]
    lines = ["| model | optimum | root bound without, with | Gecode | conundrum --no-lp | "
             "conundrum (default: relaxation) |", "|---|---|---|---|---|---|"]
    for name, run in with_lp.items():
        root = roots.get(name, {})
        bounds = f"{root.get('before')} -> {root.get('after')}".replace("[", "").replace(
            "]", "")
        lines.append(f"| {name} | {root.get('reference')} | {bounds} | "
                     f"{_cell(run['gecode'])} | {_cell(without[name]['conundrum'])} | "
                     f"{_cell(run['conundrum'])} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="entry names or shell globs, comma-separated")
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--cache", default="/tmp/conundrum-corpus")
    ap.add_argument("--fzn", default="/tmp/conundrum-corpus/lp-fzn",
                    help="where the flattened models are kept")
    ap.add_argument("--json", help="also write the rows as JSON here")
    ap.add_argument("--table", nargs=3, metavar=("ROOT", "WITH", "WITHOUT"),
                    help="print bench/LP.md's table from this script's --json and the "
                    "corpus harness's results with and without --no-lp")
    args = ap.parse_args(argv)
    if args.table:
        print(table(*args.table))
        return 0
    only = matcher(args.only)
    manifest = json.loads(MANIFEST.read_text())
    mirrors = {k: Mirror(c, Path(args.mirrors)) for k, c in COLLECTIONS.items()}
    out = Path(args.fzn)
    out.mkdir(parents=True, exist_ok=True)
    results = {}
    for entry in manifest["entries"]:
        if entry["kind"] != "optimise" or (only is not None and not only(entry["name"])):
            continue
        fzn = flatten(entry, mirrors, Path(args.cache), out)
        row = {"flatten": "failed"} if fzn is None else root_bounds(fzn)
        row["reference"] = entry["reference"].get("answer")
        results[entry["name"]] = row
        print(f"{entry['name']:62} {json.dumps(row)}", flush=True)
    raised = [n for n, r in results.items() if r.get("raised")]
    total = sum(r.get("seconds", 0) for r in results.values())
    print(f"{len(raised)} of {len(results)} root bounds raised; the relaxation took "
          f"{total:.2f} s in all", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
