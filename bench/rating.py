"""Explanation and grading benchmark (issue 11): how long explanations are and take, and
the grades of a public easy set against the hardest known Sudokus.

    python bench/rating.py                      # every puzzle of both sets (long)
    python bench/rating.py --sample 10          # the first 10 of each set
    python bench/rating.py --verify             # also replay each explanation by brute force

Sets: bench/data/easy50.txt (Project Euler 96, "easy50" in Peter Norvig's essay) and
bench/data/hard9.txt (the hardest known: AI Escargot, Easter Monster, ... top95); named
puzzles: the seed's Greater-Than Sudoku and the README's newspaper Sudoku. Each puzzle is
explained in this process (the explanation alone is timed, not parsing); the grades go to
bench/RATING.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GRADES = ("easy", "medium", "hard", "fiendish")


def puzzles(path: Path) -> list[tuple[str, str]]:
    """(name, puzzle text) of a file of one-line puzzles, optionally named."""
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        grid = next(f for f in fields if len(f) == 81)
        out.append((fields[0] if fields[0] != grid else f"{path.stem}-{len(out) + 1}", grid))
    return out


def measure(name: str, text: str, verify: bool) -> dict:
    """Explain one Sudoku; its grade, steps and seconds."""
    from conundrum.explain import explain
    from conundrum.explain.rating import rating_of
    from conundrum.explain.verify import verify as replay
    from conundrum.puzzles import sudoku

    puzzle = sudoku.parse(text, name)
    start = time.perf_counter()
    steps = explain(puzzle.model)
    seconds = time.perf_counter() - start
    rating = rating_of(steps)
    row = {"name": name, "grade": rating.grade, "score": rating.score, "steps": rating.steps,
           "hardest": rating.hardest, "techniques": rating.techniques, "seconds": seconds}
    if verify:
        start = time.perf_counter()
        replay(puzzle.model, steps)
        row["verify_seconds"] = time.perf_counter() - start
    return row


def table(rows: list[dict], verify: bool) -> list[str]:
    head = "| puzzle | grade | score | steps | hardest | seconds |"
    rule = "|---|---|---|---|---|---|"
    if verify:
        head += " replay seconds |"
        rule += "---|"
    lines = [head, rule]
    for r in rows:
        line = (f"| {r['name']} | {r['grade']} | {r['score']} | {r['steps']} | "
                f"{r['hardest']} | {r['seconds']:.2f} |")
        if verify:
            line += f" {r['verify_seconds']:.2f} |"
        lines.append(line)
    return lines


def summary(label: str, rows: list[dict]) -> str:
    grades = Counter(r["grade"] for r in rows)
    shown = ", ".join(f"{grades[g]} {g}" for g in GRADES if grades[g])
    return (f"| {label} | {len(rows)} | {shown} | {statistics.median(r['steps'] for r in rows):.0f}"
            f" | {statistics.median(r['seconds'] for r in rows):.2f} | "
            f"{max(r['seconds'] for r in rows):.2f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sample", type=int, default=None, help="the first N of each set")
    ap.add_argument("--verify", action="store_true", help="replay each explanation")
    ap.add_argument("--out", default=str(HERE / "RATING.md"))
    args = ap.parse_args()
    named = [("greater-than (seed)", (ROOT / "examples/greater-than-sudoku.txt").read_text()),
             ("newspaper (README)", (ROOT / "examples/sudoku.txt").read_text())]
    sets = {"easy50": puzzles(HERE / "data/easy50.txt"),
            "hard9": puzzles(HERE / "data/hard9.txt")}
    results: dict[str, list[dict]] = {"named": []}
    for name, text in named:
        results["named"].append(measure(name, text, args.verify))
        print(results["named"][-1], file=sys.stderr, flush=True)
    for label, items in sets.items():
        results[label] = []
        for name, text in items[: args.sample]:
            results[label].append(measure(name, text, args.verify))
            print(results[label][-1], file=sys.stderr, flush=True)
    import conundrum

    lines = ["# Explanations and grades", "",
             f"`python bench/rating.py{' --sample ' + str(args.sample) if args.sample else ''}"
             f"{' --verify' if args.verify else ''}` on {time.strftime('%Y-%m-%d')}, "
             f"conundrum {conundrum.__version__} "
             f"({'compiled' if conundrum.COMPILED else 'pure Python'} engine); seconds are "
             "the explanation alone, in one process.", "",
             "| set | puzzles | grades | median steps | median seconds | max seconds |",
             "|---|---|---|---|---|---|"]
    lines += [summary(label, rows) for label, rows in results.items()]
    for label, rows in results.items():
        lines += ["", f"## {label}", ""] + table(rows, args.verify)
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
