"""The benchmark report (bench/report.py) from a synthetic results file: the targets section
must name every instance where conundrum is slower than a Python peer or more than 3x behind
Gecode, so a missed target cannot hide in a long table."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cell(instance: str, system: str, seconds: float | None, status: str = "ok") -> dict:
    return {"instance": instance, "system": system, "status": status,
            "wall": [seconds] if seconds is not None else [], "solver": [], "note": "",
            "nodes": [], "search": []}


def test_targets_name_every_missed_target(tmp_path: Path) -> None:
    cells = [
        cell("queens-8", "conundrum", 1.0),
        cell("queens-8", "cpsat", 2.0),  # conundrum faster
        cell("queens-8", "minizinc", 0.2),  # 5x behind Gecode: a missed target
        cell("golomb-8", "conundrum", 1.0),
        cell("golomb-8", "cpsat", 0.5),  # conundrum slower: a missed target
        cell("golomb-8", "minizinc", 0.9),
        cell("golomb-8", "python-constraint2", None, "timeout"),
    ]
    results = tmp_path / "results.json"
    results.write_text(json.dumps({"meta": {
        "runs": 1, "timeout": 30.0, "notes": [], "command": "synthetic", "versions": {},
        "instances": ["queens-8", "golomb-8"],
        "systems": ["conundrum", "python-constraint2", "cpsat", "minizinc"],
    }, "cells": cells}))
    out = tmp_path / "RESULTS.md"
    proc = subprocess.run([sys.executable, str(ROOT / "bench" / "run.py"), "--report-only",
                           "--results", str(results), "--output", str(out)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = out.read_text()
    section = text[text.index("## Targets"):]
    section = section[:section.index("\n## ", 1)]
    assert "slower than a Python peer on 1: golomb-8 (cpsat 0.5x)" in section
    assert "more than 3x behind MiniZinc+Gecode on 1: queens-8 (5x behind)" in section
    assert "| golomb-8 | faster (peer: timeout) | SLOWER (0.5x) |" in section
    assert "| queens-8 |" in section and "NO (0.2x)" in section


def test_engine_line_tells_a_changed_engine_from_other_commits(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    import report

    same = {"start": "commit aaa1111, source digest d1", "end": "commit bbb2222, source digest d1"}
    (line,) = report.engine_lines(same)
    assert "changed during the run" not in line and "bbb2222" in line and "aaa1111" in line
    changed = {"start": "commit aaa1111, source digest d1",
               "end": "commit bbb2222, source digest d2"}
    (line,) = report.engine_lines(changed)
    assert "**changed during the run**" in line
    assert report.engine_lines({"start": "commit aaa1111, source digest d1",
                                "end": "commit aaa1111, source digest d1"}) == [
        "- conundrum engine: commit aaa1111, source digest d1"]
