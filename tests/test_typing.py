"""The annotations are part of the API: the package passes mypy --strict (as configured in
pyproject.toml), it ships them (py.typed), and user code type-checks against the installed
package: correct code passes, and the mistakes an IDE should flag are flagged."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = Path(__file__).resolve().parent / "typing"


def mypy(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=600)


def errors(output: str, name: str) -> set[tuple[int, str]]:
    """(line, error code) of every error mypy reports in the file `name`."""
    return {(int(m.group(1)), m.group(2))
            for m in re.finditer(rf"^{re.escape(name)}:(\d+): error: .*\[([a-z-]+)\]$",
                                 output, re.M)}


def test_the_package_passes_its_mypy_configuration(tmp_path):
    r = mypy(["--cache-dir", str(tmp_path / "cache")], ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Success: no issues found" in r.stdout


def test_the_installed_package_ships_its_annotations():
    import conundrum

    assert (Path(conundrum.__file__).parent / "py.typed").is_file()


def _check_user_file(name: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # checked outside the repository, so that mypy sees the installed package (through
    # py.typed) and not the sources or the project's configuration
    shutil.copy(SAMPLES / name, tmp_path / name)
    return mypy(["--strict", "--cache-dir", str(tmp_path / "cache"), name], tmp_path)


def test_user_code_type_checks_strictly(tmp_path):
    r = _check_user_file("user_model.py", tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr


def test_user_mistakes_are_flagged(tmp_path):
    name = "user_mistakes.py"
    expected = {(i, m.group(1))
                for i, line in enumerate((SAMPLES / name).read_text().split("\n"), 1)
                if (m := re.search(r"# E: ([a-z-]+)$", line))}
    assert len(expected) >= 10
    r = _check_user_file(name, tmp_path)
    assert errors(r.stdout, name) == expected, r.stdout


@pytest.mark.parametrize("name", ["user_model.py", "user_mistakes.py"])
def test_the_samples_run(name):
    """The samples are real programs: the correct one runs; the mistakes fail at run time
    too (the first one, with the ModelError the type checker anticipated)."""
    r = subprocess.run([sys.executable, str(SAMPLES / name)], capture_output=True, text=True,
                       timeout=300)
    if name == "user_model.py":
        assert r.returncode == 0, r.stderr
    else:
        assert "ModelError: unknown var_select 'first-fail'" in r.stderr


def test_every_public_name_exists_and_the_types_are_exported():
    import conundrum as cn

    assert len(cn.__all__) == len(set(cn.__all__))
    for name in cn.__all__:
        assert getattr(cn, name) is not None, name
    assert {"SearchKeywords", "VarSelect", "ValueSelect", "ExprLike", "Operands",
            "Constraints"} <= set(cn.__all__)
    assert "first_fail" in cn.VarSelect.__args__ and "split" in cn.ValueSelect.__args__
