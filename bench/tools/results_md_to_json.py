"""Rebuild a results.json (the form `run.py --baseline` reads) from a RESULTS.md, for runs
whose results.json was not kept.

    python bench/tools/results_md_to_json.py bench/RESULTS.md bench/baseline-2026-11-22.json \
        --caveat "..."

Only what the tables hold survives: per (instance, system) the status, the median
whole-process time and the median solver time (each stored as a one-element list), and the
note of the failures table ("> 30 s").  Node counts were not recorded before.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from systems import all_systems  # noqa: E402

STATUSES = {"timeout": "timeout", "skipped": "skipped", "error": "error", "absent": "absent",
            "**WRONG**": "WRONG"}


def tables(text: str) -> dict[str, list[list[str]]]:
    """Every markdown table under a '## ' heading: heading -> rows (the header first)."""
    out: dict[str, list[list[str]]] = {}
    heading = ""
    for line in text.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
        elif line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            out.setdefault(heading, []).append(cells)
    return out


def find(tabs: dict, prefix: str) -> list[list[str]]:
    for heading, rows in tabs.items():
        if heading.startswith(prefix):
            return rows
    raise SystemExit(f"no table under a heading starting {prefix!r}")


def value(cell: str) -> tuple[str, float | None]:
    """'1.290 (1.3x)' -> ('ok', 1.29); 'timeout' -> ('timeout', None); '–' -> ('', None)."""
    cell = cell.strip()
    if cell in STATUSES:
        return STATUSES[cell], None
    m = re.match(r"^(\d+(?:\.\d+)?)", cell)
    return ("ok", float(m.group(1))) if m else ("", None)


def convert(md: str, source: str) -> dict:
    by_label = {s.label: s.name for s in all_systems()}
    tabs = tables(md)
    whole, solver = find(tabs, "Whole-process time"), find(tabs, "Solver's own time")
    names = [by_label[label] for label in whole[0][1:]]
    assert [by_label[label] for label in solver[0][1:]] == names, "tables disagree"
    notes = {(r[0], r[1]): r[3] for r in tabs.get("Failures, timeouts and wrong answers", [])[1:]}
    solver_rows = {r[0]: r[1:] for r in solver[1:]}
    cells = []
    for row in whole[1:]:
        inst = row[0].removesuffix(" (seed)")
        for system, cell, scell in zip(names, row[1:], solver_rows[inst], strict=True):
            status, wall = value(cell)
            _, own = value(scell)
            d = {"instance": inst, "system": system, "status": status or "error",
                 "wall": [wall] if wall is not None else [],
                 "solver": [own] if own is not None and status == "ok" else [],
                 "note": notes.get((inst, system), ""), "nodes": [], "search": []}
            d.update(median=wall, solver_median=d["solver"][0] if d["solver"] else None,
                     nodes_median=None)
            cells.append(d)

    def item(key: str) -> str:
        m = re.search(rf"^- {key}: (.*)$", md, re.M)
        return m.group(1).strip() if m else "?"

    runs = re.search(r"runs per pair: (\d+).*timeout per run: ([\d.]+) s", md)
    versions = {}
    for line in md.split("## Versions", 1)[-1].split("##", 1)[0].splitlines():
        if line.startswith("- ") and ": " in line:
            label, ver = line[2:].split(": ", 1)
            if label in by_label:
                versions[by_label[label]] = ver
    notes_sec = md.split("## Notes", 1)[1].split("##", 1)[0] if "## Notes" in md else ""
    date = item("date")
    meta = {
        "runs": int(runs.group(1)) if runs else None,
        "timeout": float(runs.group(2)) if runs else None,
        "notes": [ln[2:] for ln in notes_sec.splitlines() if ln.startswith("- ")],
        "versions": versions, "command": item("command").strip("`"), "date": date,
        "machine": item("machine"),
        "systems": names, "instances": [r[0].removesuffix(" (seed)") for r in whole[1:]],
        "source": f"parsed from {source} of {date.split()[0]} by "
                  "bench/tools/results_md_to_json.py (medians only, no node counts)",
    }
    return {"meta": meta, "cells": cells}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results_md", type=Path)
    ap.add_argument("output", type=Path)
    ap.add_argument("--source", default="bench/RESULTS.md",
                    help="how the report names the file parsed")
    ap.add_argument("--caveat", help="a remark the comparison should repeat")
    args = ap.parse_args()
    data = convert(args.results_md.read_text(), args.source)
    if args.caveat:
        data["meta"]["caveat"] = args.caveat
    cells = ",\n  ".join(json.dumps(c, ensure_ascii=False) for c in data["cells"])
    args.output.write_text('{"meta": ' + json.dumps(data["meta"], indent=1, ensure_ascii=False)
                           + ',\n "cells": [\n  ' + cells + "\n ]}\n")
    ok = sum(c["status"] == "ok" for c in data["cells"])
    print(f"wrote {args.output}: {len(data['cells'])} cells ({ok} ok)")


if __name__ == "__main__":
    main()
