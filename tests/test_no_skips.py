"""The suite fails when a test is skipped (tests/no_skips.py): checked on a small run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def run_pytest(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_sample.py").write_text(body, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no_skips", "-p", "no:cacheprovider",
         str(tmp_path / "test_sample.py")],
        capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(TESTS)})


def test_a_skipped_test_fails_the_run(tmp_path):
    r = run_pytest(tmp_path, "import pytest\n\ndef test_ok():\n    pass\n\n"
                   "def test_absent():\n    pytest.importorskip('no_such_module_here')\n")
    assert r.returncode == 1, r.stdout
    assert "1 test(s) skipped" in r.stdout and "test_absent" in r.stdout


def test_a_run_without_skips_passes(tmp_path):
    r = run_pytest(tmp_path, "import pytest\n\ndef test_ok():\n    pass\n\n"
                   "@pytest.mark.xfail(strict=True)\ndef test_known():\n    assert False\n")
    assert r.returncode == 0, r.stdout
