"""The four models of issue 43's "Fast" target, each built twice from the same data: for
conundrum (`Model` with labelled constraints) and for CPMpy (soft and hard lists in the
same order), so that bench/why.py compares like with like.

- sudoku: a 9x9 Sudoku, 25 clues taken from a solved grid, one of them changed so that two
  clues clash (the same digit twice in a column); soft: the clues in reading order.
- killer: a 9x9 Killer Sudoku (cages of 2 to 4 cells over a solved grid, no givens), one
  cage's sum one too high; soft: the cage sums in reading order of their first cell.
- jobshop: 5 jobs of 4 operations on 4 machines, the due dates too tight; soft: the due
  dates and the jobs' release dates; hard: the operations' order and the machines.
- roster: 6 nurses, 7 days, shifts off/early/late/night; cover, at most 5 working days,
  no early after a night, and the nurses' requests; four nurses ask for Wednesday off,
  which leaves too few for Wednesday's cover. soft: every constraint (`m.conflict()`).

Each builder returns a `Case`: the conundrum model and its soft labels (None: all), and a
function that builds the CPMpy (soft, hard) lists with the soft names, or None when CPMpy
is not installed."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import conundrum as cn


@dataclass
class Case:
    """One bench model: its name, the conundrum model, the soft labels (None: every
    constraint, as `m.conflict()` does) and the CPMpy builder."""

    name: str
    model: cn.Model
    soft: list[str] | None
    cpmpy: Callable[[], tuple[list, list, list[str]]]


def solved_grid() -> list[list[int]]:
    """A solved 9x9 Sudoku (the pattern one, its rows and digits shuffled by a fixed seed)."""
    rnd = random.Random(43)
    digits = list(range(1, 10))
    rnd.shuffle(digits)
    rows = [b * 3 + r for b in rnd.sample(range(3), 3) for r in rnd.sample(range(3), 3)]
    return [[digits[(r * 3 + r // 3 + c) % 9] for c in range(9)] for r in rows]


def _houses() -> list[list[tuple[int, int]]]:
    rows = [[(r, c) for c in range(9)] for r in range(9)]
    cols = [[(r, c) for r in range(9)] for c in range(9)]
    boxes = [[(r, c) for r in range(b // 3 * 3, b // 3 * 3 + 3)
              for c in range(b % 3 * 3, b % 3 * 3 + 3)] for b in range(9)]
    return rows + cols + boxes


def sudoku_clues() -> list[tuple[int, int, int]]:
    """25 clues (row, col, digit) in reading order, two of them clashing: the last clue of
    some column takes the digit of an earlier clue of the same column."""
    grid = solved_grid()
    rnd = random.Random(7)
    cells = sorted(rnd.sample([(r, c) for r in range(9) for c in range(9)], 25))
    clues = [(r, c, grid[r][c]) for r, c in cells]
    by_col: dict[int, list[int]] = {}
    for k, (_, c, _) in enumerate(clues):
        by_col.setdefault(c, []).append(k)
    col = max(by_col, key=lambda c: (len(by_col[c]), c))
    first, last = by_col[col][0], by_col[col][-1]
    r, c, _ = clues[last]
    clues[last] = (r, c, clues[first][2])
    return clues


def sudoku() -> Case:
    clues = sudoku_clues()
    m = cn.Model()
    x = m.int_matrix(9, 9, 1, 9, name="x")
    for k, house in enumerate(_houses()):
        m.add(cn.all_different([x[r][c] for r, c in house]), label=f"house {k}")
    labels = []
    for r, c, v in clues:
        label = f"r{r + 1}c{c + 1} = {v}"
        m.add(x[r][c] == v, label=label)
        labels.append(label)

    def cp():
        import cpmpy as cp
        y = cp.intvar(1, 9, shape=(9, 9), name="y")
        hard = [cp.AllDifferent([y[r, c] for r, c in h]) for h in _houses()]
        soft = [y[r, c] == v for r, c, v in clues]
        return soft, hard, labels
    return Case("sudoku", m, labels, cp)


def killer_cages() -> list[tuple[list[tuple[int, int]], int]]:
    """Cages of 2 to 4 cells (grown from the free cell first in reading order) over the
    solved grid, with their sums; the cage of cell r5c5 has its sum one too high."""
    grid = solved_grid()
    rnd = random.Random(11)
    free = {(r, c) for r in range(9) for c in range(9)}
    cages = []
    while free:
        start = min(free)
        cage = [start]
        free.discard(start)
        size = rnd.choice((2, 3, 3, 4))
        while len(cage) < size:
            near = sorted({(r + dr, c + dc) for r, c in cage
                           for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} & free)
            near = [p for p in near if grid[p[0]][p[1]] not in
                    {grid[a][b] for a, b in cage}]
            if not near:
                break
            p = rnd.choice(near)
            cage.append(p)
            free.discard(p)
        cages.append((cage, sum(grid[r][c] for r, c in cage)))
    wrong = next(k for k, (cells, _) in enumerate(cages) if (4, 4) in cells)
    cells, total = cages[wrong]
    cages[wrong] = (cells, total + 1)
    return cages


def killer() -> Case:
    cages = killer_cages()
    m = cn.Model()
    x = m.int_matrix(9, 9, 1, 9, name="x")
    for k, house in enumerate(_houses()):
        m.add(cn.all_different([x[r][c] for r, c in house]), label=f"house {k}")
    labels = []
    for k, (cells, total) in enumerate(cages):
        m.add(cn.all_different([x[r][c] for r, c in cells]), label=f"cage {k} distinct")
        label = f"cage {k} (sum {total})"
        m.add(cn.sum([x[r][c] for r, c in cells]) == total, label=label)
        labels.append(label)

    def cp():
        import cpmpy as cp
        y = cp.intvar(1, 9, shape=(9, 9), name="y")
        hard = [cp.AllDifferent([y[r, c] for r, c in h]) for h in _houses()]
        hard += [cp.AllDifferent([y[r, c] for r, c in cells]) for cells, _ in cages]
        soft = [cp.sum([y[r, c] for r, c in cells]) == t for cells, t in cages]
        return soft, hard, labels
    return Case("killer", m, labels, cp)


def jobshop_data() -> tuple[list[list[tuple[int, int]]], list[int], list[int]]:
    """Jobs (each a list of (machine, duration)), release dates and due dates: each due
    date the job's own work after its release plus a little, too tight for the machines."""
    rnd = random.Random(5)
    jobs = []
    for _ in range(5):
        machines = rnd.sample(range(4), 4)
        jobs.append([(mc, rnd.randint(2, 6)) for mc in machines])
    release = [rnd.randint(0, 3) for _ in jobs]
    due = [release[j] + sum(d for _, d in jobs[j]) + 3 for j in range(len(jobs))]
    return jobs, release, due


def jobshop() -> Case:
    jobs, release, due = jobshop_data()
    horizon = sum(d for job in jobs for _, d in job) + max(release)
    m = cn.Model()
    start = [[m.int_var(0, horizon, name=f"s{j}_{k}") for k in range(len(job))]
             for j, job in enumerate(jobs)]
    labels = []
    for j, job in enumerate(jobs):
        for k in range(len(job) - 1):
            m.add(start[j][k] + job[k][1] <= start[j][k + 1], label=f"job {j} order")
    for mc in range(4):
        ops = [(j, k) for j, job in enumerate(jobs) for k, (mm, _) in enumerate(job)
               if mm == mc]
        m.add(cn.no_overlap([start[j][k] for j, k in ops], [jobs[j][k][1] for j, k in ops]),
              label=f"machine {mc}")
    for j in range(len(jobs)):
        label = f"job {j} released at {release[j]}"
        m.add(start[j][0] >= release[j], label=label)
        labels.append(label)
    for j, job in enumerate(jobs):
        label = f"job {j} due at {due[j]}"
        m.add(start[j][-1] + job[-1][1] <= due[j], label=label)
        labels.append(label)

    def cp():
        import cpmpy as cp
        s = [[cp.intvar(0, horizon, name=f"s{j}_{k}") for k in range(len(job))]
             for j, job in enumerate(jobs)]
        hard = [s[j][k] + job[k][1] <= s[j][k + 1] for j, job in enumerate(jobs)
                for k in range(len(job) - 1)]
        for mc in range(4):
            ops = [(j, k) for j, job in enumerate(jobs) for k, (mm, _) in enumerate(job)
                   if mm == mc]
            hard.append(cp.NoOverlap([s[j][k] for j, k in ops],
                                     [jobs[j][k][1] for j, k in ops],
                                     [s[j][k] + jobs[j][k][1] for j, k in ops]))
        soft = [s[j][0] >= release[j] for j in range(len(jobs))]
        soft += [s[j][-1] + job[-1][1] <= due[j] for j, job in enumerate(jobs)]
        return soft, hard, labels
    return Case("jobshop", m, labels, cp)


NURSES, DAYS, SHIFTS = 6, 7, 3  # shifts 1..3: early, late, night; 0: off
DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def roster_rules() -> list[tuple[str, str, tuple]]:
    """The roster's constraints as (label, kind, data), in the order they are added:
    cover (one nurse per shift and day), at most 5 working days, no early after a night,
    and the requests (day off, or a shift). Four nurses ask for Wednesday off."""
    rules: list[tuple[str, str, tuple]] = []
    for d in range(DAYS):
        for s in range(1, SHIFTS + 1):
            rules.append((f"cover {DAY_NAMES[d]} shift {s}", "cover", (d, s)))
    for n in range(NURSES):
        rules.append((f"nurse {n} at most 5 days", "days", (n,)))
    for n in range(NURSES):
        for d in range(DAYS - 1):
            rules.append((f"nurse {n} no early after night {DAY_NAMES[d]}", "rest", (n, d)))
    requests = [(0, 0, 0), (1, 5, 0), (0, 2, 0), (2, 2, 0), (3, 1, 3), (4, 2, 0), (5, 6, 0),
                (5, 2, 0), (2, 4, 1)]
    for n, d, s in requests:
        what = "off" if s == 0 else f"shift {s}"
        rules.append((f"nurse {n} asks {what} on {DAY_NAMES[d]}", "request", (n, d, s)))
    return rules


def roster() -> Case:
    rules = roster_rules()
    m = cn.Model()
    x = m.int_matrix(NURSES, DAYS, 0, SHIFTS, name="x")
    for label, kind, data in rules:
        m.add(_roster_constraint(cn, x, kind, data), label=label)
    labels = [label for label, _, _ in rules]

    def cp():
        import cpmpy as cp
        y = cp.intvar(0, SHIFTS, shape=(NURSES, DAYS), name="y")
        soft = [_roster_constraint(cp, y, kind, data, cpmpy=True) for _, kind, data in rules]
        return soft, [], labels
    return Case("roster", m, None, cp)


def _roster_constraint(lib, x, kind: str, data: tuple, cpmpy: bool = False):
    """One roster rule, for conundrum (lib = conundrum) or CPMpy (lib = cpmpy)."""
    cell = (lambda n, d: x[n, d]) if cpmpy else (lambda n, d: x[n][d])
    if kind == "cover":
        d, s = data
        return lib.sum([cell(n, d) == s for n in range(NURSES)]) >= 1
    if kind == "days":
        (n,) = data
        return lib.sum([cell(n, d) != 0 for d in range(DAYS)]) <= 5
    if kind == "rest":
        n, d = data
        return (cell(n, d) != 3) | (cell(n, d + 1) != 1)
    n, d, s = data
    return cell(n, d) == s


CASES: dict[str, Callable[[], Case]] = {"sudoku": sudoku, "killer": killer,
                                        "jobshop": jobshop, "roster": roster}
