"""The corpus comparison (issue 41): 250+ public MiniZinc models with their data, from four
repositories read at fixed commits out of local git mirrors, through
`minizinc --solver conundrum` and `minizinc --solver gecode -G std`, side by side.

    python bench/corpus.py --screen            # select the corpus: bench/corpus/manifest.json
    python bench/corpus.py                     # run it: bench/CORPUS.json and bench/CORPUS.md
    python bench/corpus.py --report-only       # rebuild CORPUS.md from CORPUS.json
    python bench/corpus.py --only 'mzb/golomb/*,hakank/*' --timeout 30 --output /tmp/c.md
    python bench/corpus.py --only ... --cn-flags '--lp' --no-variants --output /tmp/lp.md

Each entry runs as whole `minizinc` processes, one at a time (`--jobs 1`: timing), one core
each: `minizinc --solver S -s --output-mode dzn --output-objective [-a] -t MS MODEL DATA`.
Every answer is compared with the other solver's and with the manifest's (Gecode's, from
the screening); every conundrum solution is fixed into the model and given to Gecode, which
must accept it. bench/corpus/README.md says how the corpus was chosen, where the mirrors
come from and what the report's columns mean.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from pathlib import Path

from corpus_mirrors import COLLECTIONS
from corpus_mzn import version
from corpus_screen import HARD, Screen, choose, entry, sanity, unanswered

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
MANIFEST = BENCH / "corpus" / "manifest.json"


def matcher(only: str | None):
    """A predicate on entry names from comma-separated names or shell globs (None: all)."""
    if not only:
        return None
    pats = [p.strip() for p in only.split(",") if p.strip()]
    return lambda name: any(fnmatch.fnmatchcase(name, p) for p in pats)


def do_screen(args: argparse.Namespace) -> int:
    """The selection step: screen, choose, write the manifest and the screening table."""
    say = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    screen = Screen(Path(args.mirrors), Path(args.cache), args.screen_limit, say)
    records = screen.all(args.jobs, matcher(args.only))
    entries = [entry(r) for r in choose(records)]
    say(f"{len(entries)} entries chosen; conundrum on the unanswered ones")
    entries += unanswered(screen, records, max(HARD, args.screen_limit))
    problems = sanity(entries)
    if problems:
        say("\n".join(problems))
        return 1
    reasons: dict[str, int] = {}
    for r in records:
        if r["outcome"] == "reject":
            reason = r["reason"].split(":")[0]
            reasons[reason] = reasons.get(reason, 0) + 1
    manifest = {
        "generated": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "minizinc": version(),
        "screen": {"limit_s": args.screen_limit, "candidates_tried": len(records),
                   "rejected": reasons,
                   "gecode_timeout": sum(r["outcome"] == "gecode-timeout" for r in records),
                   "kept_ok": sum(r["outcome"] == "ok" for r in records)},
        "collections": [{"key": c.key, "repo": c.repo, "url": c.url, "commit": c.commit,
                         "licence": c.licence, "folder": c.folder}
                        for c in COLLECTIONS.values()],
        "entries": sorted(entries, key=lambda e: e["name"]),
    }
    out = Path(args.manifest)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(manifest, indent=1) + "\n")
    rows = ["name\toutcome\twhy\tkind\tgecode_s"]
    for r in sorted(records, key=lambda r: r["name"]):
        why = r.get("band") or r.get("reason", "")
        rows.append(f"{r['name']}\t{r['outcome']}\t{why[:120]}\t{r.get('kind', '')}\t"
                    f"{r.get('gecode', {}).get('time', '')}")
    screened = out.parent / "screened.tsv"
    screened.write_text("\n".join(rows) + "\n")
    say(f"wrote {out} ({len(entries)} entries) and {screened}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module's docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", default="/work/.mirror",
                    help="folder of the git mirrors, OWNER+NAME/repo (default /work/.mirror)")
    ap.add_argument("--cache", default="/tmp/conundrum-corpus",
                    help="where the models are written for minizinc to read")
    ap.add_argument("--manifest", default=str(MANIFEST))
    ap.add_argument("--results", default=str(BENCH / "CORPUS.json"))
    ap.add_argument("--output", default=str(BENCH / "CORPUS.md"))
    ap.add_argument("--timeout", type=float, default=60, help="seconds per run (default 60)")
    ap.add_argument("--runs", type=int, default=1, help="runs per entry and solver (median)")
    ap.add_argument("--only", help="entry names or shell globs, comma-separated")
    ap.add_argument("--cn-flags", default="", metavar="FLAGS",
                    help="conundrum's own flags for every conundrum run (--fzn-flags), "
                    "e.g. '--lp' (the report's meta keeps the command)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="entries at a time (default 1: timing); the screening may use 2")
    ap.add_argument("--screen", action="store_true", help="select the corpus (the manifest)")
    ap.add_argument("--screen-limit", type=float, default=20,
                    help="Gecode's limit while screening, seconds (default 20; a model it "
                    "does not answer gets 60 s before it is called unanswered)")
    ap.add_argument("--report-only", action="store_true",
                    help="rebuild the report from the results file")
    ap.add_argument("--resume", action="store_true",
                    help="go on with an interrupted run (the results file, same timeout)")
    ap.add_argument("--no-check", action="store_true",
                    help="skip the re-check of conundrum's solutions by Gecode")
    ap.add_argument("--no-variants", action="store_true",
                    help="skip the search variants run on optimisation outliers")
    args = ap.parse_args(argv)
    if args.screen:
        return do_screen(args)
    from corpus_run import do_run  # noqa: PLC0415 (the run's machinery)

    return do_run(args, matcher(args.only))


if __name__ == "__main__":
    sys.exit(main())
