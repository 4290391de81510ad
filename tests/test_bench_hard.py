"""The benchmark's hard section (bench/hard.py, issue 29): the vendored data read back, the
expectations that can be recomputed cheaply, and the verifiers accepting a right answer
and refusing wrong ones. Nothing here is timed and no solver runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import hard  # noqa: E402
from instances import all_instances  # noqa: E402
from models.common import Report  # noqa: E402
from verify import valid, verify  # noqa: E402


def by_name() -> dict:
    return {i.name: i for i in hard.hard_instances()}


def test_vendored_data_reads_back() -> None:
    insts = by_name()
    ft10 = insts["hard-jobshop-ft10"].params["jobs"]
    assert len(ft10) == 10 and all(len(job) == 10 for job in ft10)
    assert sorted(m for m, _ in ft10[0]) == list(range(10))
    r = insts["hard-rcpsp-J30_1_1"].params
    assert len(r["d"]) == 30 and len(r["rr"]) == len(r["rc"]) == 4
    assert len(r["suc"]) == 30 and r["suc"][-1] == []
    q = insts["hard-qcp-25-264-0"].params
    assert q["n"] == 25 and sum(v < 0 for row in q["givens"] for v in row) == 264


def test_generated_expectations() -> None:
    n, edges = hard.mycielski(5)
    assert (n, len(edges)) == (47, 236)
    n, edges = hard.mycielski(6)
    assert (n, len(edges)) == (95, 755)
    inst = by_name()["hard-knapsack-50-1"]
    assert inst.expected == hard.knapsack_dp(inst.params)
    small = {"weights": [3, 4, 5], "values": [4, 5, 6], "capacity": 7}
    assert hard.knapsack_dp(small) == 9


def test_hard_section_is_opt_in() -> None:
    assert not any(i.quick for i in hard.hard_instances())
    assert all(i.group == "hard" for i in hard.hard_instances())
    assert {i.name for i in hard.hard_instances()} <= {i.name for i in all_instances()}


def test_verifiers() -> None:
    insts = by_name()
    ai = insts["hard-allinterval-16"]
    zigzag = tuple(v for k in range(8) for v in (k, 15 - k))
    assert valid(ai, zigzag) is None
    assert valid(ai, tuple(range(16))) is not None
    col = insts["hard-coloring-myciel5"]
    assert valid(col, (0,) * 47) is not None
    kn = insts["hard-knapsack-50-1"]
    assert verify(kn, Report(solutions=[(0,) * 50])) is None  # feasible, short of optimum
    assert verify(kn, Report(solutions=[(0,) * 50], proved=True)) is not None  # wrong proof
    assert verify(kn, Report(solutions=[(1,) * 50])) is not None  # over capacity
    bp = insts["hard-binpacking-u120-1"]
    one_each = tuple(range(120))
    assert verify(bp, Report(solutions=[one_each])) is None
    assert verify(bp, Report(solutions=[(0,) * 120])) is not None
    js = insts["hard-jobshop-ft06"]
    serial, t = [], 0
    for job in js.params["jobs"]:
        for _, d in job:
            serial.append(t)
            t += d
    assert verify(js, Report(solutions=[tuple(serial)])) is None


def test_hard_report(tmp_path: Path) -> None:
    """run.py --report-only on a synthetic hard results file: statuses and totals."""
    def cell(inst, system, status="ok", objective=None, proved=None, wall=1.0):
        return {"instance": inst, "system": system, "status": status,
                "wall": [wall] if status == "ok" else [], "solver": [], "note": "",
                "nodes": [], "search": [], "objective": objective, "proved": proved}
    cells = [cell("hard-knapsack-50-1", "cpsat-1w", objective=1459, proved=True, wall=0.5),
             cell("hard-knapsack-50-1", "conundrum", objective=1378, proved=False, wall=25),
             cell("hard-golomb-9", "cpsat-1w", objective=44, proved=True, wall=2.0),
             cell("hard-golomb-9", "conundrum", objective=44, proved=True, wall=4.0)]
    meta = {"runs": 1, "timeout": 30, "notes": [], "versions": {}, "command": "x",
            "systems": ["conundrum", "cpsat-1w"],
            "instances": ["hard-knapsack-50-1", "hard-golomb-9"]}
    res = tmp_path / "r.json"
    res.write_text(json.dumps({"meta": meta, "cells": cells}))
    out = tmp_path / "HARD.md"
    subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--report-only",
                    "--results", str(res), "--output", str(out)], check=True,
                   capture_output=True)
    text = out.read_text()
    assert "solution 1378" in text and "proved 1459" in text
    # knapsack: unproved, counted as the 30 s timeout against 0.5 s; golomb: 4 / 2
    assert "| conundrum | 2/2 | 1/2 | 1/2 | 2.00x over 1 | 10.95x |" in text
