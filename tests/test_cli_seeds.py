"""End-to-end: the SPEC section 5 seed command lines and the issue's "done means" commands,
run through the real ``conundrum`` command in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SNAKE = "A + 13*B/C + D + 12*E - F - 11 + G*H/I - 10 = 66"
GRID = ["P*XYZ = XUTU", "RSU + Z = RQT", "RQO + TX = RPX", "P + RSU = RQO", "XYZ / Z = TX",
        "XUTU - RQT = RPX"]


def conundrum(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run the installed ``conundrum`` command (or ``python -m conundrum``)."""
    exe = shutil.which("conundrum")
    cmd = [exe] if exe else [sys.executable, "-m", "conundrum"]
    return subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=ROOT,
                          input=stdin, timeout=300, encoding="utf-8")


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def test_snake_rational_count_is_136():
    r = conundrum("alphametic", "--count", "--digits", "1-9", SNAKE)
    assert r.returncode == 0, r.stderr
    assert last_line(r.stdout) == "136"


def test_snake_integral_count_is_20():
    r = conundrum("alphametic", "--count", "--digits", "1-9", "--integral", SNAKE)
    assert r.returncode == 0, r.stderr
    assert last_line(r.stdout) == "20"


@pytest.mark.parametrize("extra", [[], ["--fix", "D=5"]])
def test_donald(extra):
    r = conundrum("alphametic", *extra, "DONALD + GERALD = ROBERT")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "526485 + 197485 = 723970"
    letters, digits = r.stdout.splitlines()[-2:]
    table = dict(zip(letters.split(), map(int, digits.split()), strict=True))
    assert table["D"] == 5 and table["T"] == 0 and len(table) == 10


def test_equation_grid_with_shared_digits():
    r = conundrum("alphametic", "--no-distinct", *GRID)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[:6] == ["7*189 = 1323", "643 + 9 = 652", "650 + 21 = 671", "7 + 643 = 650",
                         "189 / 9 = 21", "1323 - 652 = 671"]


def test_equation_grid_is_unique():
    r = conundrum("alphametic", "--no-distinct", "--count", *GRID)
    assert r.returncode == 0, r.stderr
    assert last_line(r.stdout) == "1"


def test_greater_than_sudoku_prints_the_seed_grid():
    r = conundrum("sudoku", "--json", "examples/greater-than-sudoku.txt")
    assert r.returncode == 0, r.stderr
    grid = json.loads(r.stdout)["grid"]
    assert ["".join(map(str, row)) for row in grid] == [
        "834967251", "915238764", "276451839", "657329148", "489175623", "321846597",
        "743582916", "162793485", "598614372"]
    drawn = conundrum("sudoku", "examples/greater-than-sudoku.txt").stdout.splitlines()
    assert drawn[1] == "│ 8 3 4 │ 9 6 7 │ 2 5 1 │"


def test_queens_10_count_ends_with_724():
    r = conundrum("queens", "10", "--count")
    assert r.returncode == 0, r.stderr
    assert last_line(r.stdout) == "724"


def test_magic_3_count_ends_with_8():
    r = conundrum("magic", "3", "--count")
    assert r.returncode == 0, r.stderr
    assert last_line(r.stdout) == "8"


def test_python_dash_m_works():
    r = subprocess.run([sys.executable, "-m", "conundrum", "alphametic", "--json", "AB + BA = CC"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    sol = json.loads(r.stdout)
    a, b, c = sol["A"], sol["B"], sol["C"]
    assert 10 * a + b + 10 * b + a == 11 * c and len({a, b, c}) == 3
