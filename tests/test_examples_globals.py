"""The examples of issue 9's global constraints (examples/jobshop.py, tsp.py, nonogram.py)
run as scripts of the installed package, and their printed answers checked independently
of conundrum: the job-shop schedule against the ft06 data (precedences, one task at a time
per machine, makespan 55), the tour against a Held-Karp optimum computed here, the
Nonogram picture against its clues. The output formats are those of the scripts'
docstrings."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

# ft06 (Fisher and Thompson, 1963; OR-Library jobshop1.txt), copied here rather than
# imported from the example: per job, (machine, duration) of each task in order.
FT06 = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
]
FT06_OPTIMUM = 55  # the published optimum

CITIES = [(73, 4), (54, 61), (73, 1), (26, 59), (62, 35), (83, 20), (4, 66), (62, 41),
          (9, 31), (95, 46)]

NONOGRAM_ROWS = [[2], [4], [6], [8], [10], [1, 1], [1, 2, 1, 1], [1, 2, 1, 1], [1, 2, 1], [8]]
NONOGRAM_COLUMNS = [[1], [7], [3, 1], [4, 4], [5, 4], [5, 1], [4, 2, 1], [3, 1], [7], [1]]


def run(script: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run an example with this interpreter (so with the installed package)."""
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)


# ------------------------------------------------------------------ job shop

TASK = re.compile(r"m(\d+) (\d+)-(\d+)")


def parse_schedule(out: str) -> tuple[int, str, list[list[tuple[int, int, int]]]]:
    """(makespan, state, per job its tasks (machine, start, end)) from the job-shop output."""
    head = re.search(r"^makespan (\d+) \((.*)\)$", out, re.M)
    assert head, out
    jobs: dict[int, list[tuple[int, int, int]]] = {}
    for number, tasks in re.findall(r"^job (\d+): (.*)$", out, re.M):
        jobs[int(number)] = [(int(a), int(b), int(c)) for a, b, c in TASK.findall(tasks)]
    assert sorted(jobs) == list(range(len(jobs))), out
    return int(head.group(1)), head.group(2), [jobs[j] for j in range(len(jobs))]


def schedule_problems(schedule: list[list[tuple[int, int, int]]]) -> list[str]:
    """What is wrong with a schedule of FT06 (nothing: an empty list)."""
    problems = []
    if len(schedule) != len(FT06):
        return [f"{len(schedule)} jobs, expected {len(FT06)}"]
    busy: dict[int, list[tuple[int, int]]] = {}
    for j, (job, tasks) in enumerate(zip(FT06, schedule)):
        if len(tasks) != len(job):
            problems.append(f"job {j}: {len(tasks)} tasks, expected {len(job)}")
            continue
        previous_end = 0
        for k, ((machine, duration), (m, start, end)) in enumerate(zip(job, tasks)):
            if m != machine or end - start != duration:
                problems.append(f"job {j} task {k}: m{m} {start}-{end}, expected machine "
                                f"{machine} for {duration}")
            if start < previous_end:
                problems.append(f"job {j} task {k} starts at {start}, before {previous_end}")
            previous_end = end
            busy.setdefault(m, []).append((start, end))
    for m, spans in busy.items():
        spans.sort()
        for (_, end), (start, _) in zip(spans, spans[1:]):
            if start < end:
                problems.append(f"machine {m}: a task starts at {start} before one ends at {end}")
    return problems


def test_jobshop_prints_an_optimal_ft06_schedule() -> None:
    r = run("jobshop.py")
    assert r.returncode == 0, r.stdout + r.stderr
    makespan, state, schedule = parse_schedule(r.stdout)
    assert schedule_problems(schedule) == []
    assert makespan == max(end for tasks in schedule for _, _, end in tasks) == FT06_OPTIMUM
    assert state == "optimal"
    # the Gantt chart shows the same schedule: machine m's row has job j's digit at time t
    # exactly while j's task on m runs
    rows = dict(re.findall(r"^machine (\d+) \|(.*)\|$", r.stdout, re.M))
    assert sorted(rows) == [str(m) for m in range(6)]
    for m, row in rows.items():
        expected = ["."] * makespan
        for j, tasks in enumerate(schedule):
            for machine, start, end in tasks:
                if machine == int(m):
                    expected[start:end] = str(j) * (end - start)
        assert row == "".join(expected), f"machine {m}"


def test_jobshop_time_limit() -> None:
    """A tiny time limit stops the search: either no schedule yet (exit 1) or a valid
    schedule, not claimed optimal unless it is."""
    r = run("jobshop.py", "--time-limit", "0.001")
    if r.returncode == 1:
        assert "no schedule found (stopped by time_limit)" in r.stdout
        return
    assert r.returncode == 0, r.stdout + r.stderr
    makespan, state, schedule = parse_schedule(r.stdout)
    assert schedule_problems(schedule) == []
    assert makespan >= FT06_OPTIMUM
    assert state == "optimal" or state == "best found, stopped by time_limit"


# ------------------------------------------------------------------ travelling salesman

def rounded_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Euclidean distance, half up (never exactly half for integer coordinates)."""
    return int(math.hypot(a[0] - b[0], a[1] - b[1]) + 0.5)


def held_karp(dist: list[list[int]]) -> int:
    """The length of the shortest tour, by Held and Karp's dynamic programme over subsets
    (best[S][j]: the shortest path from city 0 through the cities of S, ending at j)."""
    n = len(dist)
    inf = math.inf
    best = [[inf] * n for _ in range(1 << n)]
    best[1][0] = 0
    for subset in range(1, 1 << n, 2):  # subsets holding city 0
        for j in range(n):
            here = best[subset][j]
            if here == inf:
                continue
            for k in range(n):
                if not subset >> k & 1:
                    bigger = subset | 1 << k
                    best[bigger][k] = min(best[bigger][k], here + dist[j][k])
    full = (1 << n) - 1
    return int(min(best[full][j] + dist[j][0] for j in range(1, n)))


def test_held_karp_against_brute_force_on_six_cities() -> None:
    from itertools import permutations

    dist = [[rounded_distance(a, b) for b in CITIES[:6]] for a in CITIES[:6]]
    brute = min(sum(dist[a][b] for a, b in zip((0, *p), (*p, 0)))
                for p in permutations(range(1, 6)))
    assert held_karp(dist) == brute


def test_tsp_prints_a_shortest_tour() -> None:
    r = run("tsp.py")
    assert r.returncode == 0, r.stdout + r.stderr
    tour_line = re.search(r"^tour ([\d ]+)$", r.stdout, re.M)
    length_line = re.search(r"^length (\d+) \((.*)\)$", r.stdout, re.M)
    assert tour_line and length_line, r.stdout
    tour = [int(v) for v in tour_line.group(1).split()]
    n = len(CITIES)
    assert tour[0] == tour[-1] == 0 and sorted(tour[:-1]) == list(range(n)), tour
    dist = [[rounded_distance(a, b) for b in CITIES] for a in CITIES]
    length = sum(dist[a][b] for a, b in zip(tour, tour[1:]))
    assert int(length_line.group(1)) == length == held_karp(dist)
    assert length_line.group(2) == "optimal"


# ------------------------------------------------------------------ Nonogram

def blocks(line: str) -> list[int]:
    """The lengths of the runs of '#' in a line."""
    return [len(run) for run in re.findall(r"#+", line)]


def test_nonogram_picture_satisfies_every_clue() -> None:
    r = run("nonogram.py")
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    picture, verdict = lines[:-1], lines[-1]
    assert len(picture) == len(NONOGRAM_ROWS), r.stdout
    width = len(NONOGRAM_COLUMNS)
    assert all(len(row) == width and set(row) <= {"#", "."} for row in picture), r.stdout
    assert [blocks(row) for row in picture] == NONOGRAM_ROWS
    columns = ["".join(row[c] for row in picture) for c in range(len(NONOGRAM_COLUMNS))]
    assert [blocks(col) for col in columns] == NONOGRAM_COLUMNS
    assert verdict == "unique"


def test_nonogram_from_a_file(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.txt"
    # 3 x 3: a plus sign; then an ambiguous 2 x 2 and one without a solution
    puzzle.write_text("# a plus sign\n1\n3\n1\n\n1\n3\n1\n")
    r = run("nonogram.py", str(puzzle))
    assert r.returncode == 0 and r.stdout == ".#.\n###\n.#.\nunique\n", r.stdout + r.stderr
    puzzle.write_text("1\n1\n\n1\n1\n")
    r = run("nonogram.py", str(puzzle))
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "not unique"
    picture = r.stdout.splitlines()[:2]
    assert [blocks(row) for row in picture] == [[1], [1]]
    assert [blocks(col) for col in ("".join(c) for c in zip(*picture))] == [[1], [1]]
    puzzle.write_text("2\n-\n\n1\n0\n")
    r = run("nonogram.py", str(puzzle))
    assert r.returncode == 1 and r.stdout == "no solution\n"
    puzzle.write_text("1\nx\n\n1\n")
    r = run("nonogram.py", str(puzzle))
    assert r.returncode == 2 and "line 2" in r.stderr
