"""The hard section of the benchmark (issue 29): instances that need search.

Vendored public instances (``data/hard/``, see its SOURCES.md) read by a small ``.dzn``
reader, and generated families from fixed seeds.  Each instance carries its expected answer
and where that answer comes from (``params["provenance"]``).  Optimisation instances
expect the optimum; satisfaction instances (all-interval, quasigroup completion) accept any
solution that the verifier checks.  None of them is in ``--quick``.

    python bench/hard.py            # list the hard instances with their expected answers
    python bench/hard.py --check [S] # recompute the generated expectations (knapsack DP,
                                    # CP-SAT with one worker for the certified ones)
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from instances import MAX, MIN, ONE, Instance, jobshop  # noqa: E402

HARD = HERE / "data" / "hard"
GROUP = "hard"

# ---------------------------------------------------------------- the .dzn reader

_ASSIGN = re.compile(r"(\w+)\s*=\s*(.*?);", re.S)


def _values(text: str) -> Any:
    """A .dzn right-hand side: an int, a 1-d array (of ints or of sets `{...}`), an
    `array2d(..., ..., [...])` (returned flat) or a 2-d literal `[| ... | ... |]`."""
    text = text.strip()
    if text.startswith("array2d"):
        return _values(text[text.index("["):text.rindex("]") + 1])
    if text.startswith("[|"):
        rows = [r for r in text[2:-2].split("|") if r.strip()]
        return [[int(v) for v in re.findall(r"-?\d+", r)] for r in rows]
    if text.startswith("["):
        if "{" in text:
            return [[int(v) for v in re.findall(r"-?\d+", s)]
                    for s in re.findall(r"\{([^}]*)\}", text)]
        return [int(v) for v in re.findall(r"-?\d+", text)]
    return int(text)


def read_dzn(path: Path) -> dict[str, Any]:
    """name -> value for every assignment of a .dzn file (comments dropped)."""
    text = re.sub(r"%[^\n]*", "", path.read_text())
    return {name: _values(rhs) for name, rhs in _ASSIGN.findall(text)}


# ---------------------------------------------------------------- vendored families

# published optima (OR-Library; Applegate & Cook 1991 for ft10; Lawrence 1984 la01-la10,
# whose la06-la10 optima equal their machine lower bounds)
JOBSHOP_OPTIMA = {"ft06": 55, "ft10": 930, "la01": 666, "la02": 655, "la03": 597,
                  "la04": 590, "la05": 593, "la06": 926, "la07": 890, "la08": 863,
                  "la09": 951, "la10": 958}


def _jobshop(name: str) -> Instance:
    d = read_dzn(HARD / "jobshop" / f"jobshop_{name}.dzn")
    n, k = d["n_jobs"], d["n_machines"]
    mach, dur = d["job_task_machine"], d["job_task_duration"]
    jobs = [[(mach[j * k + t], dur[j * k + t]) for t in range(k)] for j in range(n)]
    inst = jobshop(f"hard-jobshop-{name}", jobs, JOBSHOP_OPTIMA[name], group=GROUP)
    inst.params["provenance"] = "published optimum (OR-Library)"
    return inst


# optimal makespans proved by CP-SAT with one worker (`python bench/hard.py --check 60`:
# 0.0, 0.0, 0.1, 25.3 and 0.0 s on 2026-11-26); not yet cross-checked against PSPLIB's
# j30opt.sm, which was not at hand
RCPSP_OPTIMA = {"J30_1_1": 43, "J30_5_1": 53, "J30_9_1": 83, "J30_13_1": 58, "J30_17_1": 64}


def _rcpsp(name: str) -> Instance:
    d = read_dzn(HARD / "rcpsp" / f"{name}.dzn")
    rr = d["rr"]
    params = {"d": d["d"], "rr": rr, "rc": d["rc"], "suc": d["suc"],
              "provenance": "CP-SAT (1 worker) proved"}
    names = tuple(f"s{i}" for i in range(d["n_tasks"]))
    return Instance(f"hard-rcpsp-{name}", "rcpsp", MIN, params, RCPSP_OPTIMA[name], names,
                    group=GROUP)


# proved by CP-SAT with one worker in 6 s; j8per0-2 (vendored) is left out: CP-SAT with one
# worker reached 1055 in 60 s without a proof, so its optimum is not certified here
OPENSHOP_OPTIMA = {"j7per10-1": 1000}


def _openshop(name: str) -> Instance:
    d = read_dzn(HARD / "openshop" / f"{name}.dzn")
    n, k = d["n_jobs"], d["n_machines"]
    dur = d["job_task_duration"]
    rows = [dur[j * k:(j + 1) * k] for j in range(n)]
    names = tuple(f"s{j}_{t}" for j in range(n) for t in range(k))
    return Instance(f"hard-openshop-{name}", "openshop", MIN,
                    {"dur": rows, "provenance": "CP-SAT (1 worker) proved"},
                    OPENSHOP_OPTIMA[name], names, group=GROUP)


def _qcp(name: str) -> Instance:
    """A quasigroup completion file: `var a..b: v_i;` per cell (a == b: a given), rows and
    columns all different (the file's constraints; checked here by their count)."""
    text = (HARD / "qcp" / f"{name}_ext.mzn").read_text()
    cells = [(int(a), int(b)) for a, b in re.findall(r"var\s+(\d+)\s*\.\.\s*(\d+)\s*:\s*v_",
                                                     text)]
    n = round(len(cells) ** 0.5)
    assert n * n == len(cells) and text.count("all_different(") == 2 * n, name
    givens = [[a if a == b else -1 for a, b in cells[r * n:(r + 1) * n]] for r in range(n)]
    names = tuple(f"c{r}_{c}" for r in range(n) for c in range(n))
    return Instance(f"hard-{name}", "qcp", ONE,
                    {"n": n, "givens": givens, "provenance": "satisfiable (verified solution)"},
                    [], names, group=GROUP)


# ---------------------------------------------------------------- generated families

def mycielski(k: int) -> tuple[int, list[tuple[int, int]]]:
    """DIMACS mycielK: the Mycielski construction applied k - 1 times to K2 (myciel3 has 11
    vertices, myciel5 47 and 236 edges, myciel6 95 and 755); chromatic number k + 1."""
    n, edges = 2, [(0, 1)]
    for _ in range(k - 1):
        new = list(edges)
        for u, v in edges:
            new += [(u, n + v), (v, n + u)]
        new += [(n + i, 2 * n) for i in range(n)]
        n, edges = 2 * n + 1, new
    return n, edges


def binpacking_sizes(seed: int, items: int = 120) -> list[int]:
    """Falkenauer u120 style: sizes uniform in 20..100 (capacity 150), sorted decreasing."""
    rng = random.Random(seed)
    return sorted((rng.randint(20, 100) for _ in range(items)), reverse=True)


def knapsack_data(seed: int, items: int = 50) -> dict[str, Any]:
    """Weakly correlated 0/1 knapsack: weights 10..100, values weight +- 10, capacity half
    the total weight."""
    rng = random.Random(seed)
    w = [rng.randint(10, 100) for _ in range(items)]
    v = [max(1, wi + rng.randint(-10, 10)) for wi in w]
    return {"weights": w, "values": v, "capacity": sum(w) // 2}


def knapsack_dp(data: dict[str, Any]) -> int:
    """The exact optimum by dynamic programming over capacities."""
    best = [0] * (data["capacity"] + 1)
    for w, v in zip(data["weights"], data["values"], strict=True):
        for c in range(data["capacity"], w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[-1]


def facility_data(seed: int, sites: int = 10, clients: int = 40) -> dict[str, Any]:
    """Capacitated facility location: sites and clients in a 100 x 100 square, opening cost
    200..400 per site, assignment cost the rounded distance times the client's demand
    (1..5) // 2 + 1, site capacity 20..40 (the total exceeds the demand)."""
    rng = random.Random(seed)
    sp = [(rng.randint(0, 99), rng.randint(0, 99)) for _ in range(sites)]
    cp = [(rng.randint(0, 99), rng.randint(0, 99)) for _ in range(clients)]
    demand = [rng.randint(1, 5) for _ in range(clients)]
    fixed = [rng.randint(200, 400) for _ in range(sites)]
    capacity = [rng.randint(20, 40) for _ in range(sites)]
    cost = [[round(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5) * (demand[c] // 2 + 1)
             for b in sp] for c, a in enumerate(cp)]
    return {"fixed": fixed, "capacity": capacity, "demand": demand, "cost": cost}


def nurse_data(seed: int, nurses: int = 12, days: int = 14) -> dict[str, Any]:
    """Nurse rostering: each nurse works one shift a day (0 off, 1 day, 2 evening, 3
    night); each day needs at least `need[d][s - 1]` nurses on shift s (fewer at the
    weekend); a nurse works `work` = (lo, hi) shifts in all and at most 6 days in any 7;
    a night is followed by a night or a day off, an evening never by a day shift. Each
    nurse's cost of each shift on each day is 0..9 (her wishes); the roster's cost, to
    minimise, is their sum."""
    rng = random.Random(seed)
    need = [[2, 2, 1] if d % 7 in (5, 6) else [3, 2, 2] for d in range(days)]
    cost = [[[rng.randint(0, 9) for _ in range(4)] for _ in range(days)]
            for _ in range(nurses)]
    return {"nurses": nurses, "days": days, "need": need, "work": (7, 10), "cost": cost}


# CP-SAT (1 worker) proved these optima; `python bench/hard.py --check` recomputes them
# (2026-11-26): the bin packing's 51 is also the lower bound ceil(7573 / 150), so exact
CERTIFIED = {"hard-binpacking-u120-1": 51, "hard-facility-10x40-1": 3363,
             "hard-nurse-12x14-1": 349}


def generated() -> list[Instance]:
    out = []
    for n, opt in ((9, 44), (10, 55), (11, 72)):
        out.append(Instance(f"hard-golomb-{n}", "golomb", MIN,
                            {"n": n, "provenance": "published optimum (OEIS A003022)"}, opt,
                            tuple(f"m{i}" for i in range(n)), group=GROUP))
    for n in (16, 20, 24):
        out.append(Instance(f"hard-allinterval-{n}", "allinterval", ONE,
                            {"n": n, "provenance": "satisfiable (verified solution)"}, [],
                            tuple(f"x{i}" for i in range(n)), group=GROUP))
    for k in (5, 6):
        n, edges = mycielski(k)
        out.append(Instance(f"hard-coloring-myciel{k}", "coloring", MIN,
                            {"n": n, "edges": edges,
                             "provenance": "chromatic number of the Mycielski graph (k+1)"},
                            k + 1, tuple(f"c{i}" for i in range(n)), group=GROUP))
    sizes = binpacking_sizes(1)
    out.append(Instance("hard-binpacking-u120-1", "binpacking", MIN,
                        {"sizes": sizes, "capacity": 150,
                         "provenance": "ceil(total size / capacity) = 51, reached by CP-SAT"},
                        CERTIFIED["hard-binpacking-u120-1"],
                        tuple(f"b{i}" for i in range(len(sizes))), group=GROUP))
    data = knapsack_data(1)
    out.append(Instance("hard-knapsack-50-1", "knapsack", MAX,
                        {**data, "provenance": "dynamic programming (exact)"},
                        knapsack_dp(data), tuple(f"x{i}" for i in range(50)), group=GROUP))
    data = knapsack_data(1, items=100)
    out.append(Instance("hard-knapsack-100-1", "knapsack", MAX,
                        {**data, "provenance": "dynamic programming (exact)"},
                        knapsack_dp(data), tuple(f"x{i}" for i in range(100)), group=GROUP))
    data = nurse_data(1)
    out.append(Instance("hard-nurse-12x14-1", "nurse", MIN,
                        {**data, "provenance": "CP-SAT (1 worker) proved"},
                        CERTIFIED["hard-nurse-12x14-1"],
                        tuple(f"x{n}_{d}" for n in range(12) for d in range(14)),
                        group=GROUP))
    data = facility_data(1)
    names = tuple(f"a{c}" for c in range(40)) + tuple(f"open{s}" for s in range(10))
    out.append(Instance("hard-facility-10x40-1", "facility", MIN,
                        {**data, "provenance": "CP-SAT (1 worker) proved"},
                        CERTIFIED["hard-facility-10x40-1"], names, group=GROUP))
    return out


def hard_instances() -> list[Instance]:
    """Every instance of the hard section, in report order."""
    return [*(_jobshop(n) for n in JOBSHOP_OPTIMA), *(_rcpsp(n) for n in RCPSP_OPTIMA),
            *(_openshop(n) for n in OPENSHOP_OPTIMA),
            *(_qcp(n) for n in ("qcp-15-120-0", "qcp-20-187-0", "qcp-25-264-0")),
            *generated()]


def check() -> int:
    """Recompute the expectations that are not published: CP-SAT with one worker must prove
    each certified optimum (and the PSPLIB ones), and the knapsack DP is rerun."""
    from models import cpsat_models
    bad = 0
    for inst in hard_instances():
        if inst.family in ("qcp", "allinterval", "golomb", "coloring", "jobshop"):
            continue
        limit = float(sys.argv[2]) if len(sys.argv) > 2 else 600.0
        rep = cpsat_models.solve(inst, workers=1, time_limit=limit)
        ok = rep.proved and rep.objective == inst.expected
        bad += not ok
        print(f"{inst.name:28s} expected {inst.expected}  CP-SAT {rep.objective} "
              f"proved={rep.proved} {rep.solver_time:.1f} s {'ok' if ok else 'DIFFERS'}")
    return 1 if bad else 0


if __name__ == "__main__":
    if "--check" in sys.argv:
        sys.exit(check())
    for i in hard_instances():
        print(f"{i.name:28s} {i.family:12s} {i.kind:4s} {str(i.expected)[:12]:12s} "
              f"{i.params['provenance']}")
