"""Every long-running entry point keeps its time and node limit, wherever the time goes
(root propagation, compilation, explanation, grading, generation), and says when it was
stopped; generation without a seed draws one and prints it.

Each check runs on an input that takes far longer than the limit without it (the ones that
would not return at all run in a subprocess with a timeout), and asserts only that the
run ends within the limit plus a generous slack: never a speed.
"""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import conundrum as cn
from conundrum.explain import explain
from conundrum.model.budget import LimitReached
from conundrum.puzzles import hidato, numbrix
from conundrum.puzzles.generate import generate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LIMIT = 1.0
SLACK = 5.0  # generous: the machine may be busy; the point is "not minutes"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                          text=True, timeout=120)


def run_python(code: str) -> subprocess.CompletedProcess:
    """Code that would not return at all without the fix: a timeout makes that a failure
    instead of a hung test run."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=60)


def hard(module: object, name: str) -> cn.Model:
    path = EXAMPLES / name
    puzzle = module.parse(path.read_text(), str(path))  # type: ignore[attr-defined]
    return puzzle.explain_model or puzzle.model


# ------------------------------------------------------------------ root propagation

def test_root_propagation_stops_at_the_time_limit() -> None:
    # x < y < x: bounds chase each other one unit per propagation, 2**40 times
    r = run_python("""
        import time, conundrum as cn
        m = cn.Model()
        x, y = m.int_var(0, 2**40, "x"), m.int_var(0, 2**40, "y")
        m.add(x < y, y < x)
        t = time.perf_counter()
        sol = m.solve(time_limit=1)
        print(sol, m.stats.complete, m.stats.stopped_by, time.perf_counter() - t)
    """)
    assert r.returncode == 0, r.stderr
    sol, complete, stopped, seconds = r.stdout.split()
    assert (sol, complete, stopped) == ("None", "False", "time_limit")
    assert float(seconds) < LIMIT + SLACK


def test_a_product_of_wide_domains_does_not_factor_at_the_root() -> None:
    # x * y == a prime: interval reasoning moved the bounds past each candidate divisor in
    # turn, a billion rounds before search could start; now search starts (nodes > 0) and
    # the limit stops it
    r = run_python("""
        import time, conundrum as cn
        m = cn.Model()
        x, y = m.int_var(2, 2**62, "x"), m.int_var(2, 2**62, "y")
        m.add(x * y == 2**61 - 1)
        t = time.perf_counter()
        sol = m.solve(time_limit=1)
        print(sol, m.stats.complete, m.stats.stopped_by, m.stats.nodes,
              time.perf_counter() - t)
    """)
    assert r.returncode == 0, r.stderr
    sol, complete, stopped, nodes, seconds = r.stdout.split()
    assert (sol, complete, stopped) == ("None", "False", "time_limit")
    assert int(nodes) > 0 and float(seconds) < LIMIT + SLACK


def test_the_product_still_finds_its_factors() -> None:
    m = cn.Model()
    x, y = m.int_var(2, 2**40, "x"), m.int_var(2, 2**40, "y")
    m.add(x * y == 1_000_003 * 999_983, x <= y)
    sol = m.solve(time_limit=60)
    assert sol is not None and (sol[x], sol[y]) == (999_983, 1_000_003)


def test_a_power_too_large_to_compute_is_a_model_error() -> None:
    m = cn.Model()
    x, y = m.int_var(0, 10, "x"), m.int_var(0, 1000, "y")
    m.add(y == x ** 10**7)
    start = time.perf_counter()
    with pytest.raises(cn.ModelError, match=r"x \*\* 10,000,000 .* bits"):
        m.solve(time_limit=LIMIT)
    assert time.perf_counter() - start < LIMIT + SLACK
    wide = cn.Model()  # a wide domain, not tabulated: the compiler's own power
    x, y = wide.int_var(0, 10**6, "x"), wide.int_var(0, 10**9, "y")
    wide.add(y == x ** 20000)
    with pytest.raises(cn.ModelError, match="bits"):
        wide.solve()


def test_a_huge_exponent_over_small_bases_still_solves() -> None:
    m = cn.Model()
    x, y = m.int_var(-1, 1, "x"), m.int_var(-5, 5, "y")
    m.add(y == x ** 10**7)
    assert sorted((s[x], s[y]) for s in m.solutions()) == [(-1, 1), (0, 0), (1, 1)]


def test_flatzinc_int_pow_builds_no_row_beyond_the_result(tmp_path: Path) -> None:
    # 60,002 pairs, each power up to 3**30000 (47,000 bits) before: gigabytes and minutes
    path = tmp_path / "pow.fzn"
    path.write_text("var 2..3: a :: output_var;\nvar 0..30000: b :: output_var;\n"
                    "var 0..1000: c :: output_var;\nconstraint int_pow(a, b, c);\n"
                    "solve satisfy;\n")
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "conundrum", "fzn", "-a", str(path)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("----------") == 10 + 7  # 2**0..2**9 and 3**0..3**6
    assert time.perf_counter() - start < 30


# ------------------------------------------------------------------ explanations and grades

def test_explain_stops_at_the_time_limit_with_the_steps_so_far() -> None:
    m = hard(hidato, "hidato.txt")
    start = time.perf_counter()
    steps = m.explain(time_limit=LIMIT)
    assert time.perf_counter() - start < LIMIT + SLACK
    assert steps.complete is False and steps.stopped_by == "time_limit"
    assert m.stats.complete is False and m.stats.stopped_by == "time_limit"
    assert all(step.text for step in steps)  # the steps made are worded as usual


def test_explain_stops_at_the_node_limit() -> None:
    m = hard(numbrix, "numbrix.txt")
    steps = explain(m, node_limit=50)
    assert steps.complete is False and steps.stopped_by == "node_limit"
    assert steps.stats.nodes <= 50 + 1


def test_an_explanation_within_its_limits_is_complete() -> None:
    m = cn.Model()
    x = m.int_vars(3, 1, 3, "x")
    m.add(cn.all_different(x), x[0] == 1, x[1] < x[2])
    steps = m.explain(time_limit=60, node_limit=10**6)
    assert steps.complete is True and steps.stopped_by is None and steps.unique is True
    assert len(steps) >= 1


def test_difficulty_stops_at_the_time_limit_without_a_grade() -> None:
    m = hard(numbrix, "numbrix.txt")
    calls: list[int] = []
    start = time.perf_counter()
    rating = m.difficulty(time_limit=LIMIT, on_progress=lambda s: calls.append(s.nodes))
    assert time.perf_counter() - start < LIMIT + SLACK
    assert rating.complete is False and rating.stopped_by == "time_limit"
    assert rating.grade is None and "not rated" in str(rating)
    assert calls  # the progress callback was told along the way


def test_a_bad_limit_is_a_model_error() -> None:
    m = hard(numbrix, "numbrix.txt")
    with pytest.raises(cn.ModelError, match="time_limit"):
        m.explain(time_limit=-1)
    with pytest.raises(cn.ModelError, match="node_limit"):
        m.difficulty(node_limit="many")  # type: ignore[arg-type]


# ------------------------------------------------------------------ generation

def test_generation_stops_at_the_time_limit() -> None:
    # a Killer Sudoku takes about 5 s to generate (compiled); a 9x9 KenKen, 0.84 s since
    # its cages' tables lost the rows two cells of a row cannot share (compiler/distinct.py),
    # finished within the limit when the machine was quiet
    start = time.perf_counter()
    with pytest.raises(LimitReached) as info:
        generate("killer", 9, seed=1, time_limit=LIMIT)
    assert time.perf_counter() - start < LIMIT + SLACK
    assert info.value.reason == "time_limit"


def test_generation_stops_at_the_node_limit() -> None:
    with pytest.raises(LimitReached) as info:
        generate("sudoku", 9, seed=1, node_limit=100)
    assert info.value.reason == "node_limit"


def test_a_difficulty_search_stops_at_the_time_limit() -> None:
    start = time.perf_counter()
    with pytest.raises(LimitReached):
        generate("sudoku", 9, "fiendish", seed=1, time_limit=LIMIT)
    assert time.perf_counter() - start < LIMIT + SLACK


def test_generation_without_a_seed_draws_one_that_makes_it_again() -> None:
    first, second = generate("sudoku", 4), generate("sudoku", 4)
    assert first.seed != second.seed
    assert generate("sudoku", 4, seed=first.seed).text == first.text


# ------------------------------------------------------------------ the command line

@pytest.mark.parametrize("args", [
    ("numbrix", str(EXAMPLES / "numbrix.txt"), "--rate"),
    ("hidato", str(EXAMPLES / "hidato.txt"), "--hint"),
    ("hidato", str(EXAMPLES / "hidato.txt"), "--explain"),
    ("rate", "--as", "numbrix", str(EXAMPLES / "numbrix.txt")),
    # seed 5 takes some 9 s to generate here: a drawn seed can finish inside the limit
    ("generate", "kenken", "--size", "9", "--seed", "5"),
])
def test_cli_keeps_the_time_limit_with_status_3(args: tuple[str, ...]) -> None:
    start = time.perf_counter()
    r = run_cli(*args, "--time-limit", str(LIMIT))
    assert time.perf_counter() - start < LIMIT + SLACK
    assert r.returncode == 3, r.stderr
    assert re.fullmatch(r"conundrum: the time limit stopped the \w+ .*\n", r.stderr)
    assert "\r" not in r.stderr  # no progress line off a terminal


def test_cli_node_limit_and_json_of_a_stopped_rating() -> None:
    r = run_cli("numbrix", str(EXAMPLES / "numbrix.txt"), "--rate", "--json",
                "--node-limit", "50")
    assert r.returncode == 3 and "node limit" in r.stderr
    assert '"grade": null' in r.stdout and '"stopped_by": "node_limit"' in r.stdout
    r = run_cli("rate", "--as", "numbrix", str(EXAMPLES / "numbrix.txt"), "--node-limit", "50")
    assert r.returncode == 3 and "node limit" in r.stderr


def test_cli_shows_a_progress_line_on_a_terminal() -> None:
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "conundrum", "numbrix",
                                 str(EXAMPLES / "numbrix.txt"), "--rate", "--time-limit",
                                 str(LIMIT)], stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        seen = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            seen += chunk
        assert proc.wait(timeout=60) == 3
    finally:
        os.close(master)
    assert b"\r\x1b[K  rating: " in seen and b" nodes, " in seen
    assert seen.rstrip().endswith(b"no grade")  # the line was erased before the message


def test_cli_generate_without_a_seed_prints_the_one_drawn() -> None:
    runs = [run_cli("generate", "sudoku", "--size", "4") for _ in range(2)]
    seeds = []
    for r in runs:
        assert r.returncode == 0, r.stderr
        match = re.match(r"# sudoku, seed (\d+): ", r.stdout)
        assert match, r.stdout
        seeds.append(match.group(1))
    assert seeds[0] != seeds[1]
    again = run_cli("generate", "sudoku", "--size", "4", "--seed", seeds[0])
    assert again.stdout == runs[0].stdout
