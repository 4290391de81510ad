"""The options common to every command (SPEC section 4), mostly in-process through
``conundrum.cli.main``; the exit statuses 0/1/2/3; standard input and ``-f FILE``."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conundrum.cli import main, terminal
from conundrum.search.selectors import VALUE_SELECTS, VAR_SELECTS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def json_stream(out: str) -> tuple[list[dict], dict]:
    """The solutions and the final summary of --json-stream output (every line is JSON;
    the last one, and only it, is the summary)."""
    lines = json_lines(out)
    assert lines and all("status" not in line for line in lines[:-1])
    summary = lines[-1]
    assert summary["status"] in ("complete", "incomplete")
    assert {"solutions", "nodes", "fails", "propagations", "seconds"} <= set(summary)
    return lines[:-1], summary


def test_first_solution_by_default(capsys):
    status, out, err = run(capsys, "alphametic", "SEND + MORE = MONEY")
    assert status == 0 and err == ""
    assert out.splitlines()[0] == "9567 + 1085 = 10652"


def test_no_solution_exit_1(capsys):
    status, out, _ = run(capsys, "magic", "2")
    assert (status, out) == (1, "no solution\n")
    status, out, _ = run(capsys, "alphametic", "A = A + 1")
    assert (status, out) == (1, "no solution\n")


def test_all_json_and_limit(capsys):
    status, out, _ = run(capsys, "alphametic", "--all", "--json", "A + B = 3")
    sols = json_lines(out)  # SPEC 4: each solution as one JSON object on its own line
    assert status == 0
    assert sorted((s["A"], s["B"]) for s in sols) == [(0, 3), (1, 2), (2, 1), (3, 0)]
    status, out, _ = run(capsys, "alphametic", "--limit", "2", "--json", "A + B = 3")
    assert status == 0 and len(json_lines(out)) == 2
    status, out, _ = run(capsys, "alphametic", "--all", "--json-stream", "A + B = 3")
    sols, summary = json_stream(out)
    assert status == 0 and len(sols) == 4
    assert summary["status"] == "complete" and summary["solutions"] == 4
    status, out, _ = run(capsys, "alphametic", "--limit", "2", "--json-stream", "A + B = 3")
    sols, summary = json_stream(out)
    assert status == 0 and len(sols) == 2 and summary["solutions"] == 2
    status, out, _ = run(capsys, "alphametic", "--all", "A + B = 3")
    assert out.count("\n\n") == 3  # four solutions separated by blank lines


def test_count_is_the_last_line(capsys):
    status, out, _ = run(capsys, "alphametic", "--count", "A + B = 3")
    assert status == 0 and out == "4\n"
    status, out, _ = run(capsys, "queens", "6", "--count", "--limit", "3")
    assert status == 0 and out.splitlines()[-1] == "3"


def test_unique(capsys):
    status, out, _ = run(capsys, "alphametic", "--unique", "SEND + MORE = MONEY")
    assert status == 0 and out.splitlines()[-1] == "unique"
    status, out, _ = run(capsys, "queens", "6", "--unique")
    lines = out.splitlines()
    assert status == 0 and lines[-1] == "not unique" and "a second solution:" in lines
    status, out, _ = run(capsys, "queens", "6", "--unique", "--json")
    assert json_lines(out)[-1] == {"unique": False} and len(json_lines(out)) == 3
    status, out, _ = run(capsys, "queens", "6", "--unique", "--json-stream")
    sols, summary = json_stream(out)
    assert len(sols) == 2 and summary["unique"] is False and summary["status"] == "complete"
    status, out, _ = run(capsys, "alphametic", "--unique", "--json-stream",
                         "SEND + MORE = MONEY")
    sols, summary = json_stream(out)
    assert len(sols) == 1 and summary["unique"] is True and summary["solutions"] == 1


def test_json_stream_summary_of_counts_failures_and_limits(capsys):
    status, out, _ = run(capsys, "queens", "6", "--count", "--json")
    assert (status, out) == (0, "4\n")  # SPEC 4: the last line is the count alone
    status, out, _ = run(capsys, "queens", "6", "--count", "--json-stream")
    sols, summary = json_stream(out)
    assert status == 0 and sols == [] and summary["solutions"] == 4
    assert summary["status"] == "complete" and summary["nodes"] > 0
    status, out, _ = run(capsys, "magic", "2", "--json-stream")
    sols, summary = json_stream(out)
    assert status == 1 and sols == [] and summary["solutions"] == 0
    assert summary["status"] == "complete"
    status, out, err = run(capsys, "queens", "8", "--all", "--node-limit", "30",
                           "--json-stream")
    sols, summary = json_stream(out)
    assert status == 3 and summary["status"] == "incomplete"
    assert summary["stopped_by"] == "node_limit" and summary["solutions"] == len(sols)


def test_grid_json_and_plain(capsys):
    status, out, _ = run(capsys, "sudoku", "--json", str(EXAMPLES / "sudoku.txt"))
    grid = json.loads(out)["grid"]
    assert status == 0 and len(grid) == 9 and all(sorted(row) == list(range(1, 10))
                                                    for row in grid)
    status, out, _ = run(capsys, "sudoku", "--plain", str(EXAMPLES / "sudoku.txt"))
    assert out.splitlines() == ["".join(map(str, row)) for row in grid]


def test_one_line_and_multi_line_sudoku_agree(capsys):
    a = run(capsys, "sudoku", "--json", str(EXAMPLES / "sudoku.txt"))[1]
    b = run(capsys, "sudoku", "--json", str(EXAMPLES / "sudoku-one-line.txt"))[1]
    assert a == b


def test_standard_input(capsys, monkeypatch):
    text = (EXAMPLES / "sudoku-4x4.txt").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text)))
    status, out, _ = run(capsys, "sudoku", "--json", "-")
    grid = json.loads(out)["grid"]
    assert status == 0 and grid[0][0] == 1 and grid[1][2] == 3 and grid[3][3] == 2


def test_equations_from_a_file(capsys, tmp_path):
    f = tmp_path / "eqs.txt"
    f.write_text("# the seed's equation grid\nP*XYZ = XUTU, RSU + Z = RQT\n\nRQO + TX = RPX;"
                 " P + RSU = RQO\nXYZ / Z = TX\nXUTU - RQT = RPX\n", encoding="utf-8")
    status, out, _ = run(capsys, "alphametic", "--no-distinct", "--json", "-f", str(f))
    sol = json.loads(out)
    assert status == 0 and (sol["P"], sol["X"], sol["Y"], sol["Z"]) == (7, 1, 8, 9)


@pytest.mark.parametrize("var_select", VAR_SELECTS)
def test_every_variable_selection_counts_the_same(capsys, var_select):
    status, out, _ = run(capsys, "queens", "6", "--count", "--var-select", var_select)
    assert (status, out) == (0, "4\n")


@pytest.mark.parametrize("value_select", VALUE_SELECTS)
def test_every_value_selection_counts_the_same(capsys, value_select):
    status, out, _ = run(capsys, "magic", "3", "--count", "--value-select", value_select,
                         "--seed", "7")
    assert (status, out) == (0, "8\n")


def test_time_limit_exit_3(capsys):
    status, out, err = run(capsys, "queens", "13", "--count", "--time-limit", "0.2")
    assert status == 3 and out == ""
    assert "time limit" in err and "incomplete" in err


def test_node_limit_and_incomplete_method_exit_3(capsys):
    status, out, err = run(capsys, "queens", "8", "--all", "--node-limit", "30", "--json")
    assert status == 3 and "node limit" in err
    assert all(len(s["queens"]) == 8 for s in json_lines(out))
    status, out, err = run(capsys, "queens", "8", "--count", "--method", "lds:0")
    assert status == 3 and out == "" and "lds" in err


def test_complete_method_is_accepted(capsys):
    status, out, _ = run(capsys, "queens", "5", "--count", "--method", "complete")
    assert (status, out) == (0, "10\n")


def test_stats_go_to_standard_error(capsys):
    status, out, err = run(capsys, "queens", "6", "--count", "--stats")
    assert status == 0 and out == "4\n"
    assert err.startswith("stats: ") and "nodes" in err and "4 solutions" in err


def test_progress_line_only_on_a_terminal(capsys, monkeypatch):
    calls = []
    real = terminal.ProgressLine.__call__

    def spy(self, stats):
        calls.append(stats)
        real(self, stats)

    monkeypatch.setattr(terminal.ProgressLine, "__call__", spy)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    status, out, err = run(capsys, "queens", "9", "--count")
    assert status == 0 and out == "352\n"
    if calls:  # the run lasted long enough for at least one report
        assert "\r" in err and "nodes" in err
    assert err.endswith("\r\x1b[K") or err == ""


def test_real_command_prints_nothing_extra_when_not_a_terminal():
    exe = shutil.which("conundrum")
    cmd = [exe] if exe else [sys.executable, "-m", "conundrum"]
    r = subprocess.run(cmd + ["queens", "8", "--count"], capture_output=True, text=True,
                       timeout=120)
    assert (r.returncode, r.stdout, r.stderr) == (0, "92\n", "")


def test_version_names_the_release_the_engine_and_python() -> None:
    import platform
    import tomllib

    import conundrum

    r = subprocess.run([sys.executable, "-m", "conundrum", "--version"], capture_output=True,
                       text=True, timeout=60)
    engine = "compiled engine" if conundrum.COMPILED else "pure-Python engine"
    assert r.returncode == 0 and r.stdout == (
        f"conundrum {conundrum.__version__} ({engine}, Python {platform.python_version()})\n")
    # the release number is written once, in conundrum/__init__.py; packaging reads it there
    from importlib.metadata import version

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "conundrum.__version__"}
    assert version("conundrum") == conundrum.__version__
