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
    if inst.family == "golomb":
        if sol[0] != 0 or any(a >= b for a, b in zip(sol, sol[1:], strict=False)):
            return "marks not 0 < ... increasing"
        d = [b - a for i, a in enumerate(sol) for b in sol[i + 1:]]
        return None if len(set(d)) == len(d) else "differences not distinct"
    return None


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
    if inst.family == "golomb":
        return sol[-1]
    if inst.family == "jobshop":
        durations = [d for job in inst.params["jobs"] for _, d in job]
        return max(s + d for s, d in zip(sol, durations))
    if inst.family == "tsp":
        return sum(inst.params["dist"][i][j] for i, j in enumerate(sol))
    env = dict(zip(inst.names, sol, strict=True))
    return _value(inst.params["objective"], env)


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
        return "no solution reported"
    sol = rep.solutions[-1]
    if (bad := valid(inst, sol)) is not None:
        return f"invalid solution: {bad}"
    if inst.kind == "one":
        return None if not exp or sol in exp else "a valid solution, but not the known one"
    obj = objective(inst, sol)
    if rep.objective is not None and rep.objective != obj:
        return f"reported objective {rep.objective} but the solution's is {obj}"
    return None if obj == exp else f"objective {obj}, expected {exp}"

