"""The benchmark suite in its quick form (issue 4): small instances, conundrum only, one
run each, every answer checked against its known value.  Keeps bench/ from rotting."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_quick_verifies_every_answer() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--timeout", "60"],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    assert "quick: every answer verified" in proc.stdout, out[-3000:]
    assert "WRONG" not in out, out[-3000:]
