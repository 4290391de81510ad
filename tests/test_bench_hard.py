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


def test_improvements_keep_strict_progress_in_the_sense_of_the_objective() -> None:
    from measure import improvements
    stamps = [(0.1, "IMPROVE 60\n"), (0.2, "noise\n"), (0.3, "IMPROVE 58\n"),
              (0.4, "OBJ 59\n"), (0.5, "IMPROVE x\n"), (0.6, "OBJ 55\n"), (0.7, "SOL 1 2\n")]
    assert improvements(stamps, "min") == [(0.1, 60), (0.3, 58), (0.6, 55)]
    assert improvements(stamps, "max") == [(0.1, 60)]


def test_the_runner_stamps_each_line_as_it_arrives(tmp_path: Path) -> None:
    """A process that prints, sleeps and prints again: the second stamp is later by about
    the sleep, so lines are timed as they come and not when the process ends."""
    from measure import _run_group
    script = ("import time; print('IMPROVE 5', flush=True); time.sleep(0.5); "
              "print('IMPROVE 3', flush=True)")
    done = _run_group([sys.executable, "-c", script], 30, str(tmp_path))
    (t1, a), (t2, b) = done.stamps
    assert (a.split(), b.split()) == (["IMPROVE", "5"], ["IMPROVE", "3"])
    assert t2 - t1 >= 0.45 and done.returncode == 0


def test_anytime_report_reads_the_marks_from_the_traces(tmp_path: Path) -> None:
    import anytime
    from measure import Cell
    from systems import by_name as systems_by_name
    inst = by_name()["hard-jobshop-ft06"]  # minimise, optimum 55
    cn = Cell(inst.name, "conundrum", "ok", objective=55, proved=True,
              trace=[(0.2, 70), (2.0, 56), (12.0, 55)], end=14.0)
    sat = Cell(inst.name, "cpsat-1w", "ok", objective=55, proved=True,
               trace=[(0.3, 55)], end=0.5)
    cells = {(inst.name, "conundrum"): cn, (inst.name, "cpsat-1w"): sat}
    assert [anytime.at(cn, t) for t in (0.1, 1, 10, 25)] == [None, 70, 56, 55]
    assert anytime.time_to_optimum(inst, cn) == 12.0
    systems = [systems_by_name()["conundrum"], systems_by_name()["cpsat-1w"]]
    text = "\n".join(anytime.markdown([inst], systems, cells, 25.0, None))
    assert "| hard-jobshop-ft06 | 55 | 70 (27%) | 56 (2%) | **55** | 12.0 s | 14.0 s |" in text
    assert "met on 0 of 1; missed: hard-jobshop-ft06" in text
    assert anytime.chart([inst], systems, cells, 25.0, tmp_path / "a.png")
    assert (tmp_path / "a.png").stat().st_size > 1000


def test_nurse_rostering_verifier() -> None:
    """A roster built by hand from the rules is accepted and costed from the data; each
    broken rule is named."""
    from verify import objective
    inst = by_name()["hard-nurse-12x14-1"]
    p = inst.params
    nurses, days = p["nurses"], p["days"]
    # nurses 0-3 on day shifts, three of them a day (one off in turn, and nurses 1 and 2
    # once more at a weekend, when two suffice); 4-7 on evenings and 8-11 on nights, two a
    # day, every other day: 7 to 10 shifts each, never 7 days in a row
    extra_off = {(1, 5), (2, 12)}
    rows = [[0 if (d + n) % 4 == 0 or (n, d) in extra_off else 1 for d in range(days)]
            for n in range(4)]
    rows += [[shift if (d + n) % 2 == 0 else 0 for d in range(days)]
             for shift in (2, 3) for n in range(4)]
    roster = tuple(v for row in rows for v in row)
    assert valid(inst, roster) is None
    assert objective(inst, roster) == sum(p["cost"][n][d][rows[n][d]]
                                          for n in range(nurses) for d in range(days))
    broken = [list(row) for row in rows]
    k = broken[8].index(3)
    broken[8][k + 1] = 1  # a day shift right after a night
    assert "right after" in valid(inst, tuple(v for row in broken for v in row))
    idle = [list(row) for row in rows]
    idle[0] = [0] * days
    assert valid(inst, tuple(v for row in idle for v in row)) is not None
