"""The `conundrum` command line (SPEC section 4) on the benchmark's instances: the command
for each family, the puzzle file it reads, and its output (--json lines, --count) parsed
back into the bench protocol.  Every command gets `--stats` (one line on standard error)
for its node count."""

from __future__ import annotations

import json
import re
from pathlib import Path

from instances import Instance
from models.common import Report

SNAKE = "A + 13*B/C + D + 12*E - F - 11 + G*H/I - 10 = 66"


def relation_grid(givens: list[list[int]], lt: list[tuple[int, int, int, int]]) -> str:
    """The SPEC's relation-grid text: cell rows with < > between neighbours, relation rows
    with ^ (upper cell smaller) or v (upper cell larger) under each cell."""
    n = len(givens)
    less = set(lt)
    lines = []
    for r in range(n):
        row = ""
        for c in range(n):
            row += str(givens[r][c]) if givens[r][c] else "."
            if c < n - 1:
                row += "<" if (r, c, r, c + 1) in less else ">" if (r, c + 1, r, c) in less \
                    else "|" if c % 3 == 2 else " "
        lines.append(row)
        if r < n - 1:
            rel = " ".join("^" if (r, c, r + 1, c) in less else
                           "v" if (r + 1, c, r, c) in less else " " for c in range(n))
            lines.append(rel if rel.strip() else "-" * (2 * n - 1))
    return "\n".join(lines) + "\n"


def sudoku_text(givens: list[list[int]]) -> str:
    n = len(givens)
    if n == 9:
        return "".join(str(v) if v else "." for row in givens for v in row) + "\n"
    return "\n".join(" ".join(str(v) for v in row) for row in givens) + "\n"


def command(inst: Instance, workdir: Path) -> list[str]:
    return [*_command(inst, workdir), "--stats"]


STATS_NODES = re.compile(r"^stats:.*?\b(\d+) nodes\b", re.M)


def _command(inst: Instance, workdir: Path) -> list[str]:
    p = inst.params
    if inst.family == "snake":
        flags = ["--integral"] if p["integral"] else []
        return ["conundrum", "alphametic", "--count", "--digits", "1-9", *flags, SNAKE]
    if inst.family == "alphametic":
        return ["conundrum", "alphametic", "--all", "--json", p["equation"]]
    if inst.family == "eqgrid":
        return ["conundrum", "alphametic", "--no-distinct", "--all", "--json", *p["equations"]]
    if inst.family == "sudoku":
        path = workdir / "puzzle.txt"
        path.write_text(relation_grid(p["givens"], p["lt"]) if p["lt"]
                        else sudoku_text(p["givens"]))
        return ["conundrum", "sudoku", "--json", str(path)]
    if inst.family in ("queens", "magic"):
        return ["conundrum", inst.family, "--count", str(p["n"])]
    raise ValueError(f"no conundrum command for {inst.family}")


def parse(stdout: str, inst: Instance, stderr: str = "") -> Report:
    rep = Report()
    if m := STATS_NODES.search(stderr):
        rep.nodes = int(m.group(1))
    lines = [ln.strip() for ln in stdout.splitlines() if ln.strip()]
    if inst.kind == "count":
        try:
            rep.count = int(lines[-1])
        except (IndexError, ValueError):
            rep.notes.append("no count on the last line")
        return rep
    for ln in lines:
        try:
            obj = json.loads(ln)
        except ValueError:
            continue
        if isinstance(obj, dict) and "grid" in obj:
            rep.solutions.append(tuple(v for row in obj["grid"] for v in row))
        elif isinstance(obj, dict):
            rep.solutions.append(tuple(obj.get(k, -1) for k in inst.names))
    return rep
