"""Check a system's report against the instance's known answer, with an independent
evaluator per family (exact integer and Fraction arithmetic; no solver code)."""

from __future__ import annotations

from fractions import Fraction

from instances import Instance
from models.common import Report, alpha, boxes, eq_parts, word_terms


def _value(word: str, env: dict[str, int]) -> int:
    return sum(k * env[ch] for k, ch in word_terms(word))


def valid(inst: Instance, sol: tuple[int, ...]) -> str | None:
    """None when `sol` satisfies the instance's constraints, else what is wrong."""
    p = inst.params
    if len(sol) != len(inst.names):
        return f"solution has {len(sol)} values, expected {len(inst.names)}"
    env = dict(zip(inst.names, sol, strict=True))
    if inst.family == "trivial":
        return None if sol == (3,) else "x != 3"
    if inst.family == "alphametic":
        a = alpha(inst)
        if any(not 0 <= v <= 9 for v in sol) or len(set(sol)) != len(sol):
            return "letters not distinct digits"
        if any(env[ch] == 0 for ch in a.leading):
            return "leading zero"
        if sum(_value(w, env) for w in a.addends) != _value(a.result, env):
            return "equation false"
        return None
    if inst.family == "eqgrid":
        if any(not 0 <= v <= 9 for v in sol):
            return "not digits"
        for eq in p["equations"]:
            x, op, y, z = eq_parts(eq)
            a, b, c = (Fraction(_value(w, env)) for w in (x, y, z))
            if len(x) > 1 and env[x[0]] == 0 or len(y) > 1 and env[y[0]] == 0 \
                    or len(z) > 1 and env[z[0]] == 0:
                return f"leading zero in {eq}"
            if op == "/" and b == 0:
                return f"division by zero in {eq}"
            got = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else None}[op]
            if got != c:
                return f"{eq} false"
        return None
    if inst.family == "sudoku":
        n = p["n"]
        g = [list(sol[r * n:(r + 1) * n]) for r in range(n)]
        full = set(range(1, n + 1))
        groups = g + [list(col) for col in zip(*g, strict=True)]
        groups += [[g[r][c] for r, c in box] for box in boxes(n)]
        if any(set(grp) != full for grp in groups):
            return "a row, column or box is not a permutation"
        if any(val and g[r][c] != val for r, row in enumerate(p["givens"])
               for c, val in enumerate(row)):
            return "a given is changed"
        if any(g[r1][c1] >= g[r2][c2] for r1, c1, r2, c2 in p["lt"]):
            return "a greater-than relation is violated"
        return None
    if inst.family == "jobshop":
        return _schedule_error(p["jobs"], sol)
    if inst.family == "tsp":
        return _tour_error(sol)
    if inst.family in HARD_FAMILIES:
        return _hard_error(inst, sol)
    if inst.family == "golomb":
        if sol[0] != 0 or any(a >= b for a, b in zip(sol, sol[1:], strict=False)):
            return "marks not 0 < ... increasing"
        d = [b - a for i, a in enumerate(sol) for b in sol[i + 1:]]
        return None if len(set(d)) == len(d) else "differences not distinct"
    return None


HARD_FAMILIES = ("rcpsp", "openshop", "qcp", "allinterval", "coloring", "binpacking",
                 "knapsack", "facility", "nurse")


def _hard_error(inst: Instance, sol: tuple[int, ...]) -> str | None:
    """The hard section's families (issue 29): feasibility checked from the data alone."""
    p = inst.params
    if inst.family == "rcpsp":
        d, rr, rc = p["d"], p["rr"], p["rc"]
        if any(s < 0 for s in sol):
            return "a task starts before time 0"
        for i, succ in enumerate(p["suc"]):
            for j in succ:
                if sol[i] + d[i] > sol[j - 1]:
                    return f"task {j} starts before its predecessor {i + 1} ends"
        for t in sorted(set(sol)):  # resource use only rises at a start
            for r, cap in enumerate(rc):
                use = sum(rr[r][i] for i in range(len(d)) if sol[i] <= t < sol[i] + d[i])
                if use > cap:
                    return f"resource {r + 1} over capacity at time {t}: {use} > {cap}"
        return None
    if inst.family == "openshop":
        dur = p["dur"]
        k = len(dur[0])
        if any(s < 0 for s in sol):
            return "a task starts before time 0"
        spans = [[(sol[j * k + t], sol[j * k + t] + dur[j][t]) for t in range(k)]
                 for j in range(len(dur))]
        groups = spans + [list(col) for col in zip(*spans, strict=True)]
        for g, group in enumerate(groups):
            group = sorted(group)
            if any(b[0] < a[1] for a, b in zip(group, group[1:])):
                return f"two tasks of {'job' if g < len(dur) else 'machine'} overlap"
        return None
    if inst.family == "qcp":
        n = p["n"]
        g = [sol[r * n:(r + 1) * n] for r in range(n)]
        full = set(range(n))
        if any(set(row) != full for row in g) or any(set(c) != full for c in zip(*g)):
            return "a row or column is not a permutation of 0..n-1"
        if any(v >= 0 and g[r][c] != v for r, row in enumerate(p["givens"])
               for c, v in enumerate(row)):
            return "a given is changed"
        return None
    if inst.family == "allinterval":
        n = p["n"]
        if sorted(sol) != list(range(n)):
            return "not a permutation of 0..n-1"
        if sorted(abs(b - a) for a, b in zip(sol, sol[1:])) != list(range(1, n)):
            return "the intervals are not 1..n-1"
        return None
    if inst.family == "coloring":
        if any(c < 0 for c in sol):
            return "a negative colour"
        bad = next(((u, v) for u, v in p["edges"] if sol[u] == sol[v]), None)
        return None if bad is None else f"vertices {bad[0]} and {bad[1]} share a colour"
    if inst.family == "binpacking":
        load: dict[int, int] = {}
        for b, size in zip(sol, p["sizes"], strict=True):
            load[b] = load.get(b, 0) + size
        if any(b < 0 for b in load):
            return "a negative bin"
        over = [b for b, w in load.items() if w > p["capacity"]]
        return f"bin {over[0]} over capacity" if over else None
    if inst.family == "knapsack":
        if any(v not in (0, 1) for v in sol):
            return "not 0/1"
        weight = sum(w * x for w, x in zip(p["weights"], sol, strict=True))
        return None if weight <= p["capacity"] else f"weight {weight} > {p['capacity']}"
    if inst.family == "facility":
        sites, clients = len(p["fixed"]), len(p["demand"])
        assign, is_open = sol[:clients], sol[clients:]
        if len(is_open) != sites or any(v not in (0, 1) for v in is_open):
            return "the open flags are not 0/1 per site"
        if any(not 0 <= a < sites or not is_open[a] for a in assign):
            return "a client is assigned to a closed or unknown site"
        for s in range(sites):
            use = sum(d for d, a in zip(p["demand"], assign, strict=True) if a == s)
            if use > p["capacity"][s]:
                return f"site {s} over capacity: {use} > {p['capacity'][s]}"
        return None
    if inst.family == "nurse":
        return _roster_error(p, sol)
    raise ValueError(inst.family)


def _roster_error(p: dict, sol: tuple[int, ...]) -> str | None:
    """The nurse rostering rules (hard.py nurse_data), read from the data alone."""
    nurses, days = p["nurses"], p["days"]
    if len(sol) != nurses * days or any(v not in (0, 1, 2, 3) for v in sol):
        return "not one shift 0..3 per nurse and day"
    rows = [sol[n * days:(n + 1) * days] for n in range(nurses)]
    for d in range(days):
        for s in (1, 2, 3):
            have = sum(row[d] == s for row in rows)
            if have < p["need"][d][s - 1]:
                return f"day {d}: {have} nurses on shift {s}, {p['need'][d][s - 1]} needed"
    lo, hi = p["work"]
    for n, row in enumerate(rows):
        worked = sum(v != 0 for v in row)
        if not lo <= worked <= hi:
            return f"nurse {n} works {worked} shifts, not {lo}..{hi}"
        if any(sum(v != 0 for v in row[d:d + 7]) > 6 for d in range(days - 6)):
            return f"nurse {n} works 7 days in a row"
        for a, b in zip(row, row[1:]):
            if (a == 3 and b not in (0, 3)) or (a == 2 and b == 1):
                return f"nurse {n}: shift {b} right after shift {a}"
    return None


def _hard_objective(inst: Instance, sol: tuple[int, ...]) -> int:
    p = inst.params
    if inst.family == "rcpsp":
        return max(s + d for s, d in zip(sol, p["d"], strict=True))
    if inst.family == "openshop":
        durs = [d for row in p["dur"] for d in row]
        return max(s + d for s, d in zip(sol, durs, strict=True))
    if inst.family in ("coloring", "binpacking"):
        return max(sol) + 1  # colours / bins numbered from 0
    if inst.family == "knapsack":
        return sum(v * x for v, x in zip(p["values"], sol, strict=True))
    if inst.family == "facility":
        clients = len(p["demand"])
        assign, is_open = sol[:clients], sol[clients:]
        return sum(f * o for f, o in zip(p["fixed"], is_open, strict=True)) + sum(
            p["cost"][c][a] for c, a in enumerate(assign))
    if inst.family == "nurse":
        days = p["days"]
        return sum(p["cost"][k // days][k % days][v] for k, v in enumerate(sol))
    raise ValueError(inst.family)


def _schedule_error(jobs: list[list[tuple[int, int]]], starts: tuple[int, ...]) -> str | None:
    """None when `starts` (every task's start, job by job) is a feasible job-shop schedule:
    no negative start, each job's tasks in order, one task at a time on every machine."""
    if any(s < 0 for s in starts):
        return "a task starts before time 0"
    busy: dict[int, list[tuple[int, int, str]]] = {}
    k = 0
    for j, job in enumerate(jobs):
        end = 0
        for t, (machine, d) in enumerate(job):
            if starts[k] < end:
                return f"task {t} of job {j} starts before the previous one ends"
            end = starts[k] + d
            busy.setdefault(machine, []).append((starts[k], end, f"job {j} task {t}"))
            k += 1
    for machine, spans in busy.items():
        spans.sort()
        for (_, end, who), (start, _, other) in zip(spans, spans[1:]):
            if start < end:
                return f"machine {machine}: {who} and {other} overlap"
    return None


def _tour_error(succ: tuple[int, ...]) -> str | None:
    """None when the successors form one cycle through every city."""
    n = len(succ)
    if sorted(succ) != list(range(n)):
        return "the successors are not a permutation of the cities"
    city, seen = 0, 0
    while True:
        city, seen = succ[city], seen + 1
        if city == 0:
            break
    return None if seen == n else f"a subtour of {seen} cities through city 0"


def objective(inst: Instance, sol: tuple[int, ...]) -> int:
    if inst.family in HARD_FAMILIES:
        return _hard_objective(inst, sol)
    if inst.family == "golomb":
        return sol[-1]
    if inst.family == "jobshop":
        durations = [d for job in inst.params["jobs"] for _, d in job]
        return max(s + d for s, d in zip(sol, durations))
    if inst.family == "tsp":
        return sum(inst.params["dist"][i][j] for i, j in enumerate(sol))
    env = dict(zip(inst.names, sol, strict=True))
    return _value(inst.params["objective"], env)


NO_SOLUTION = "no solution reported"


def verify(inst: Instance, rep: Report) -> str | None:
    """None when the report is the known answer, else a description of the discrepancy."""
    exp = inst.expected
    if inst.kind == "count":
        got = rep.count if rep.count is not None else (len(rep.solutions) or None)
        return None if got == exp else f"count {got}, expected {exp}"
    if inst.kind == "all":
        for s in rep.solutions:
            if (bad := valid(inst, s)) is not None:
                return f"invalid solution {s}: {bad}"
        if len(set(rep.solutions)) != len(rep.solutions):
            return "a solution is reported twice"
        if sorted(rep.solutions) != sorted(exp):
            return f"{len(rep.solutions)} solutions, expected {len(exp)} (sets differ)"
        return None
    if not rep.solutions:
        return NO_SOLUTION
    sol = rep.solutions[-1]
    if (bad := valid(inst, sol)) is not None:
        return f"invalid solution: {bad}"
    if inst.kind == "one":
        return None if not exp or sol in exp else "a valid solution, but not the known one"
    obj = objective(inst, sol)
    if rep.objective is not None and rep.objective != obj:
        return f"reported objective {rep.objective} but the solution's is {obj}"
    if inst.group == "hard":  # a solution short of the optimum is an answer, not a wrong one
        better = obj < exp if inst.kind == "min" else obj > exp
        if better:
            return f"objective {obj} is better than the known optimum {exp}"
        if rep.proved and obj != exp:
            return f"objective {obj} claimed optimal, but the optimum is {exp}"
        return None
    return None if obj == exp else f"objective {obj}, expected {exp}"

