"""Benchmark instances: what each one is and the answer it must produce.

An instance is pure data (a family name plus parameters) with its known result.  Every
system (conundrum and each peer) receives the same instance and reports in one format:
a count, the list of all solutions, one solution, or an optimum and its solution.
Solutions are tuples of integers in the instance's canonical variable order (``names``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from math import isqrt
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"

# kinds of result
COUNT, ALL, ONE, MIN, MAX = "count", "all", "one", "min", "max"


@dataclass(frozen=True)
class Instance:
    """One benchmark problem and its known answer."""

    name: str
    family: str  # snake | alphametic | eqgrid | sudoku | queens | magic | golomb | jobshop | tsp
    kind: str  # count | all | one | min | max
    params: dict[str, Any] = field(hash=False)
    expected: Any = field(hash=False)  # int (count, optimum) or list of solution tuples
    names: tuple[str, ...] = ()  # canonical variable order of a reported solution
    quick: bool = False  # part of the quick (CI) selection
    seed: bool = False  # one of the seed puzzles (targets in the issue)
    group: str = ""


# ---------------------------------------------------------------- alphametics

def words_of(equation: str) -> tuple[list[str], str]:
    """Split 'A+B+C=D' into (['A', 'B', 'C'], 'D')."""
    lhs, rhs = equation.replace(" ", "").split("=")
    return lhs.split("+"), rhs


def letters_of(equation: str) -> tuple[str, ...]:
    """Letters in order of first appearance."""
    seen: list[str] = []
    for ch in equation:
        if ch.isalpha() and ch not in seen:
            seen.append(ch)
    return tuple(seen)


def alpha_solution(equation: str, digits: str) -> tuple[int, ...]:
    """The solution tuple of an additive alphametic given one instance of it, e.g.
    alpha_solution('SEND+MORE=MONEY', '9567+1085=10652')."""
    values: dict[str, int] = {}
    for word, num in zip(re.findall(r"[A-Z]+", equation), re.findall(r"\d+", digits),
                         strict=True):
        for ch, d in zip(word, num, strict=True):
            assert values.setdefault(ch, int(d)) == int(d), (equation, ch)
    return tuple(values[ch] for ch in letters_of(equation))


def alphametic(name: str, equation: str, answers: list[str], **kw: Any) -> Instance:
    return Instance(name, "alphametic", ALL, {"equation": equation},
                    [alpha_solution(equation, a) for a in answers], letters_of(equation), **kw)


SO_MANY = ("SO+MANY+MORE+MEN+SEEM+TO+SAY+THAT+THEY+MAY+SOON+TRY+TO+STAY+AT+HOME+SO+AS+TO+SEE"
           "+OR+HEAR+THE+SAME+ONE+MAN+TRY+TO+MEET+THE+TEAM+ON+THE+MOON+AS+HE+HAS+AT+THE+OTHER"
           "+TEN=TESTS")

LARGE_ALPHAMETICS = [
    # (name, equation, known answer(s)); each verified by bench/tools/make_data.py
    ("alpha-so-many-men", SO_MANY, None),
    ("alpha-planets", "SATURN+URANUS+NEPTUNE+PLUTO=PLANETS",
     ["127503+502351+3947539+46578=4623971"]),
    ("alpha-nature", "EARTH+AIR+FIRE+WATER=NATURE", ["67432+704+8046+97364=173546"]),
    ("alpha-twenty", "SIX+SEVEN+SEVEN=TWENTY", ["650+68782+68782=138214"]),
    ("alpha-danger", "CROSS+ROADS=DANGER", ["96233+62513=158746"]),
    ("alpha-sixty", "TEN+TEN+FORTY=SIXTY", ["850+850+29786=31486"]),
    ("alpha-presto", "HOCUS+POCUS=PRESTO", ["92836+12836=105672"]),
]
SO_MANY_ANSWER = {"S": 3, "O": 1, "M": 2, "A": 7, "N": 6, "Y": 4, "R": 8, "E": 0, "T": 9,
                  "H": 5}


def _large_alphametics() -> list[Instance]:
    out = []
    for i, (name, eq, answers) in enumerate(LARGE_ALPHAMETICS):
        if answers is None:
            sol = [tuple(SO_MANY_ANSWER[c] for c in letters_of(eq))]
            out.append(Instance(name, "alphametic", ALL, {"equation": eq}, sol,
                                letters_of(eq), group="alphametic"))
        else:
            out.append(alphametic(name, eq, answers, quick=(i == 4), group="alphametic"))
    return out


# ---------------------------------------------------------------- seed puzzles

SNAKE_NAMES = tuple("ABCDEFGHI")

EQGRID = ["P*XYZ = XUTU", "RSU + Z = RQT", "RQO + TX = RPX", "P + RSU = RQO", "XYZ / Z = TX",
          "XUTU - RQT = RPX"]
EQGRID_NAMES = ("O", "P", "Q", "R", "S", "T", "U", "X", "Y", "Z")
EQGRID_ANSWER = dict(P=7, X=1, Y=8, Z=9, U=3, T=2, R=6, S=4, Q=5, O=0)

# Seed 004 (Greater-Than Sudoku), rows of the ECLiPSe `problem/1` array, verbatim.
GT_PROBLEM = [
    "><><<>", "^v^vv^^^^", "><<<>>", "v^^^^v^v^", "<><>><", "><><<<", "v^^v^v^vv",
    "<<<>><", "vvv^v^v^^", ">>><<>", ">><>><", "v^v^^^v^v", "<><><>", "^^^vv^vvv", "<>><<>",
]
GT_ANSWER = ["834967251", "915238764", "276451839", "657329148", "489175623", "321846597",
             "743582916", "162793485", "598614372"]


def gt_pairs() -> list[tuple[int, int, int, int]]:
    """Decode GT_PROBLEM into (r1, c1, r2, c2) meaning cell(r1,c1) < cell(r2,c2), 0-based.

    Index arithmetic as in the seed's ECLiPSe program (1-based there)."""
    pairs = []
    for i in range(1, 10):
        a = 5 * ((i - 1) // 3) + 2 * ((i - 1) % 3) + 1
        for b in range(1, 7):
            j = 3 * ((b - 1) // 2) + (b - 1) % 2 + 1
            rel = GT_PROBLEM[a - 1][b - 1]
            left, right = (i - 1, j - 1), (i - 1, j)
            pairs.append((*left, *right) if rel == "<" else (*right, *left))
    for j in range(1, 10):
        for t in range(1, 7):
            a = 5 * ((t - 1) // 2) + 2 * ((t - 1) % 2 + 1)
            i = 3 * ((t - 1) // 2) + (t - 1) % 2 + 1
            rel = GT_PROBLEM[a - 1][j - 1]
            up, down = (i - 1, j - 1), (i, j - 1)
            pairs.append((*up, *down) if rel == "^" else (*down, *up))
    return pairs


def grid_tuple(rows: list[list[int]]) -> tuple[int, ...]:
    return tuple(v for row in rows for v in row)


def cell_names(n: int) -> tuple[str, ...]:
    return tuple(f"c{r}_{c}" for r in range(n) for c in range(n))


def sudoku(name: str, givens: list[list[int]], solution: list[list[int]] | None,
           lt: list[tuple[int, int, int, int]] | None = None, **kw: Any) -> Instance:
    n = len(givens)
    return Instance(name, "sudoku", ONE, {"n": n, "givens": givens, "lt": lt or []},
                    [grid_tuple(solution)] if solution else [], cell_names(n), **kw)


# ---------------------------------------------------------------- data files

def parse_grid_line(line: str) -> list[list[int]]:
    """81 characters ('.' or '0' blank) -> 9x9 list."""
    vals = [0 if ch in ".0" else int(ch) for ch in line.strip()]
    assert len(vals) == 81, line
    return [vals[9 * r: 9 * r + 9] for r in range(9)]


def read_hard9() -> list[Instance]:
    """bench/data/hard9.txt: `name puzzle solution` per line (see README for sources)."""
    out = []
    for line in (DATA / "hard9.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, puzzle, solution = line.split()
        out.append(sudoku(f"sudoku9-{name}", parse_grid_line(puzzle), parse_grid_line(solution),
                          quick=name in ("escargot", "top95-01"), group="sudoku9"))
    return out


def read_big(n: int) -> Instance:
    """bench/data/sudoku{n}.txt: header comments, n lines of givens, a blank line, n lines of
    the solution (space-separated numbers, 0 blank)."""
    lines = [ln for ln in (DATA / f"sudoku{n}.txt").read_text().splitlines()
             if not ln.startswith("#")]
    rows = [[int(v) for v in ln.split()] for ln in lines if ln.strip()]
    return sudoku(f"sudoku{n}", rows[:n], rows[n:2 * n], group="sudoku-big")


# ---------------------------------------------------------------- globals (issue 9)

# ft06 (H. Fisher, G. L. Thompson, "Probabilistic learning combinations of local job-shop
# scheduling rules", Industrial Scheduling, Prentice Hall, 1963), as in J. E. Beasley's
# OR-Library file jobshop1.txt: per job, (machine, duration) of each task in order, machines
# from 0. Optimal makespan 55. The same data as examples/jobshop.py.
FT06 = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
]

# Ten cities drawn once with random.Random(10).randint(0, 99) and written out (the same as
# examples/tsp.py); distances Euclidean, rounded to the nearest integer. The shortest tour,
# 271, is Held-Karp's (bench/tools/make_data.py --check).
TSP10_CITIES = [(73, 4), (54, 61), (73, 1), (26, 59), (62, 35), (83, 20), (4, 66), (62, 41),
                (9, 31), (95, 46)]


def rounded_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Euclidean distance rounded to the nearest integer, exactly (sqrt of an integer is
    never k + 1/2, so there is no tie to break)."""
    n = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    k = isqrt(n)
    return k + 1 if n - k * k > k else k


def distance_matrix(cities: list[tuple[int, int]]) -> list[list[int]]:
    return [[rounded_distance(a, b) for b in cities] for a in cities]


def jobshop(name: str, jobs: list[list[tuple[int, int]]], optimum: int, **kw: Any) -> Instance:
    """Minimise the makespan; a solution is every task's start, job by job, in task order."""
    names = tuple(f"s{j}_{k}" for j, job in enumerate(jobs) for k in range(len(job)))
    return Instance(name, "jobshop", MIN, {"jobs": jobs}, optimum, names, **kw)


def tsp(name: str, cities: list[tuple[int, int]], optimum: int, **kw: Any) -> Instance:
    """Minimise the tour length; a solution is each city's successor (0-based)."""
    names = tuple(f"succ{i}" for i in range(len(cities)))
    return Instance(name, "tsp", MIN, {"dist": distance_matrix(cities)}, optimum, names, **kw)


# ---------------------------------------------------------------- registry

# The number of ways to place n non-attacking queens (OEIS A000170).
QUEENS_COUNTS = {8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712}

# The families of the scaling table and chart, each in size order.  The 9x9 is one of the
# hard ones (Golden Nugget): a Sudoku's cost depends on the puzzle as much as on its size.
SCALING = {
    "queens": [f"queens-{n}" for n in range(8, 14)],
    "sudoku": ["sudoku9-golden-nugget", "sudoku16", "sudoku25"],
    "golomb": ["golomb-8", "golomb-9", "golomb-10"],
}

def all_instances() -> list[Instance]:
    """Every instance, in report order."""
    s = "seed"
    out = [
        Instance("startup-x=3", "trivial", ONE, {}, [(3,)], ("x",), quick=True,
                 group="startup"),
        Instance("snake-rational", "snake", COUNT, {"integral": False}, 136, SNAKE_NAMES,
                 quick=True, seed=True, group=s),
        Instance("snake-integral", "snake", COUNT, {"integral": True}, 20, SNAKE_NAMES,
                 quick=True, seed=True, group=s),
        alphametic("donald-gerald", "DONALD+GERALD=ROBERT", ["526485+197485=723970"],
                   quick=True, seed=True, group=s),
        alphametic("send-more-money", "SEND+MORE=MONEY", ["9567+1085=10652"], quick=True,
                   seed=True, group=s),
        Instance("equation-grid", "eqgrid", ALL, {"equations": EQGRID},
                 [tuple(EQGRID_ANSWER[k] for k in EQGRID_NAMES)], EQGRID_NAMES, quick=True,
                 seed=True, group=s),
        sudoku("greater-than-sudoku", [[0] * 9 for _ in range(9)],
               [[int(ch) for ch in row] for row in GT_ANSWER], gt_pairs(), quick=True,
               seed=True, group=s),
        Instance("queens-8", "queens", COUNT, {"n": 8}, 92, quick=True, group="queens"),
        *(Instance(f"queens-{n}", "queens", COUNT, {"n": n}, QUEENS_COUNTS[n], group="queens")
          for n in range(9, 14)),
        Instance("magic-4x4", "magic", COUNT, {"n": 4}, 7040, group="magic"),
        Instance("send-most-money-max", "alphametic", MAX,
                 {"equation": "SEND+MOST=MONEY", "objective": "MONEY"}, 10876,
                 letters_of("SEND+MOST=MONEY"), quick=True, group="optimisation"),
        Instance("golomb-6", "golomb", MIN, {"n": 6}, 17, tuple(f"m{i}" for i in range(6)),
                 quick=True, group="optimisation"),
        Instance("golomb-8", "golomb", MIN, {"n": 8}, 34, tuple(f"m{i}" for i in range(8)),
                 group="optimisation"),
        Instance("golomb-9", "golomb", MIN, {"n": 9}, 44, tuple(f"m{i}" for i in range(9)),
                 group="optimisation"),
        Instance("golomb-10", "golomb", MIN, {"n": 10}, 55, tuple(f"m{i}" for i in range(10)),
                 group="optimisation"),
    ]
    out += [jobshop("jobshop-ft06", FT06, 55, group="globals"),
            tsp("tsp-10", TSP10_CITIES, 271, group="globals")]
    out += _large_alphametics()
    out += read_hard9()
    out += [read_big(16), read_big(25)]
    from hard import hard_instances  # (imports this module)
    out += hard_instances()
    return out


def by_name() -> dict[str, Instance]:
    return {inst.name: inst for inst in all_instances()}
