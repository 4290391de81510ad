"""Side by side: conundrum's default search against each search it chooses among, on the
hard section (issue 42 item 3: the default within about 2x of the best of them).

Each input is the results JSON of one `bench/run.py --instances hard --systems conundrum`
run (the default, or `--cn-options` naming one search); the table gives each run's status,
objective and time per instance, and the default's time over the best time among the
others that reached the same answer (proved, or the same objective).

    python bench/searches.py --output bench/HARD-portfolio.md \\
        default=/tmp/hard-new.json classic=/tmp/hard-classic.json \\
        learning=/tmp/hard-learning.json lns=/tmp/hard-lnsalone.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def cells(path: Path) -> dict[str, dict]:
    """instance -> the conundrum cell of one run."""
    data = json.loads(path.read_text())
    return {c["instance"]: c for c in data["cells"] if c["system"] == "conundrum"}


def shown(cell: dict | None) -> str:
    """A cell as `proved 55, 0.2 s`, `solution 959, 25.2 s`, `none` or the error."""
    if cell is None:
        return ""
    if cell["status"] != "ok":
        return cell["status"]
    what = "proved" if cell.get("proved") else "solution"
    objective = "" if cell.get("objective") is None else f" {cell['objective']}"
    return f"{what}{objective}, {cell['median']:.1f} s"


def ratio(default: dict | None, others: list[dict | None]) -> str:
    """The default's time over the best other time for a proof (— when the default did
    not prove, or none of the others did)."""
    if default is None or not default.get("proved"):
        return "—"
    times = [c["median"] for c in others if c is not None and c.get("proved")]
    if not times:
        return "only the default proves"
    return f"{default['median'] / min(times):.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", metavar="NAME=RESULTS.json",
                    help="the default's run first, then the others")
    ap.add_argument("--output", help="write the Markdown table here (default: stdout)")
    args = ap.parse_args(argv)
    names, runs = [], []
    for item in args.runs:
        name, _, path = item.partition("=")
        names.append(name)
        runs.append(cells(Path(path)))
    order = list(runs[0])
    lines = ["| instance | " + " | ".join(names) + " | default / best proof |",
             "|---" * (len(names) + 2) + "|"]
    for inst in order:
        row = [r.get(inst) for r in runs]
        lines.append(f"| {inst} | " + " | ".join(shown(c) for c in row)
                     + f" | {ratio(row[0], row[1:])} |")
    proofs = [sum(1 for c in r.values() if c.get("proved")) for r in runs]
    lines.append("")
    lines.append("Proofs (satisfaction: a solution): " + ", ".join(
        f"{n} {p}" for n, p in zip(names, proofs, strict=True)) + f" of {len(order)}.")
    text = "\n".join(lines) + "\n"
    if args.output:
        Path(args.output).write_text(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
