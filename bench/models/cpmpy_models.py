"""CPMpy models with its default solver (OR-Tools CP-SAT), written in CPMpy's numpy style.
Rational division is multiplied out (CPMpy has only integer division)."""

from __future__ import annotations

import time

import cpmpy as cp
import numpy as np

from instances import Instance
from models.common import Report, alpha, announce, eq_leading, eq_parts, golomb_ub, word_terms
from models.common import time_limit as common_limit


def _num(word: str, v: dict):
    return cp.sum([k * v[ch] for k, ch in word_terms(word)])


def build(inst: Instance):
    """(model, canonical variables, objective or None, sense)."""
    p = inst.params
    m = cp.Model()
    if inst.family == "trivial":
        x = cp.intvar(0, 9, name="x")
        m += x == 3
        return m, [x], None, None
    if inst.family == "snake":
        x = cp.intvar(1, 9, shape=9, name="x")
        A, B, C, D, E, F, G, H, I = x
        m += cp.AllDifferent(x)
        if p["integral"]:
            q1, q2 = cp.intvar(0, 117, name="q1"), cp.intvar(0, 81, name="q2")
            m += [q1 * C == 13 * B, q2 * I == G * H]
            m += A + q1 + D + 12 * E - F - 11 + q2 - 10 == 66
        else:
            m += (A + D + 12 * E - F - 87) * C * I + 13 * B * I + G * H * C == 0
        return m, list(x), None, None
    if inst.family == "alphametic":
        a = alpha(inst)
        v = {ch: cp.intvar(1 if ch in a.leading else 0, 9, name=ch) for ch in a.letters}
        m += cp.AllDifferent(list(v.values()))
        m += cp.sum([_num(w, v) for w in a.addends]) == _num(a.result, v)
        obj = _num(p["objective"], v) if "objective" in p else None
        return m, [v[ch] for ch in inst.names], obj, inst.kind
    if inst.family == "eqgrid":
        lead = eq_leading(p["equations"])
        v = {ch: cp.intvar(1 if ch in lead else 0, 9, name=ch) for ch in inst.names}
        for eq in p["equations"]:
            x, op, y, z = eq_parts(eq)
            a, b, c = _num(x, v), _num(y, v), _num(z, v)
            m += {"+": a + b == c, "-": a - b == c, "*": a * b == c}[op] if op != "/" \
                else [b != 0, b * c == a]
        return m, [v[ch] for ch in inst.names], None, None
    if inst.family == "sudoku":
        n = p["n"]
        b = int(round(n ** 0.5))
        g = cp.intvar(1, n, shape=(n, n), name="c")
        givens = np.array(p["givens"])
        m += [cp.AllDifferent(row) for row in g]
        m += [cp.AllDifferent(col) for col in g.T]
        m += [cp.AllDifferent(g[i:i + b, j:j + b]) for i in range(0, n, b)
              for j in range(0, n, b)]
        m += g[givens != 0] == givens[givens != 0]
        m += [g[r1, c1] < g[r2, c2] for r1, c1, r2, c2 in p["lt"]]
        return m, list(g.flatten()), None, None
    if inst.family == "queens":
        n = p["n"]
        q = cp.intvar(0, n - 1, shape=n, name="q")
        m += [cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(n)]),
              cp.AllDifferent([q[i] - i for i in range(n)])]
        return m, list(q), None, None
    if inst.family == "magic":
        n = p["n"]
        s = n * (n * n + 1) // 2
        g = cp.intvar(1, n * n, shape=(n, n), name="x")
        m += cp.AllDifferent(g)
        m += [cp.sum(row) == s for row in g] + [cp.sum(col) == s for col in g.T]
        m += [cp.sum(np.diag(g)) == s, cp.sum(np.diag(np.fliplr(g))) == s]
        return m, list(g.flatten()), None, None
    if inst.family == "golomb":
        n = p["n"]
        x = cp.intvar(0, golomb_ub(n), shape=n, name="m")
        m += x[0] == 0
        m += [x[i] < x[i + 1] for i in range(n - 1)]
        m += cp.AllDifferent([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
        m += x[1] - x[0] < x[n - 1] - x[n - 2]
        return m, list(x), x[-1], "min"
    if inst.family == "jobshop":
        jobs = p["jobs"]
        horizon = sum(d for job in jobs for _, d in job)
        starts = [[cp.intvar(0, horizon - d, name=f"s{j}_{k}") for k, (_, d) in enumerate(job)]
                  for j, job in enumerate(jobs)]
        for j, job in enumerate(jobs):
            m += [starts[j][k] + job[k][1] <= starts[j][k + 1] for k in range(len(job) - 1)]
        for machine in sorted({mach for job in jobs for mach, _ in job}):
            tasks = [(starts[j][k], d) for j, job in enumerate(jobs)
                     for k, (mach, d) in enumerate(job) if mach == machine]
            m += cp.NoOverlap([s for s, _ in tasks], [d for _, d in tasks])
        makespan = cp.max([starts[j][-1] + job[-1][1] for j, job in enumerate(jobs)])
        return m, [s for row in starts for s in row], makespan, "min"
    if inst.family == "tsp":
        dist = cp.cpm_array(p["dist"])
        n = len(dist)
        succ = cp.intvar(0, n - 1, shape=n, name="succ")
        m += cp.Circuit(succ)
        return m, list(succ), cp.sum([dist[i][succ[i]] for i in range(n)]), "min"
    return _build_hard(m, inst)


def _build_hard(m, inst: Instance):
    """The hard section's families (issue 29), in CPMpy's style."""
    p = inst.params
    if inst.family == "rcpsp":
        d, rr, rc = p["d"], p["rr"], p["rc"]
        n, horizon = len(d), sum(d)
        s = [cp.intvar(0, horizon - d[i], name=f"s{i}") for i in range(n)]
        m += [s[i] + d[i] <= s[j - 1] for i, succ in enumerate(p["suc"]) for j in succ]
        for r, cap in enumerate(rc):
            tasks = [i for i in range(n) if rr[r][i] > 0 and d[i] > 0]
            m += cp.Cumulative([s[i] for i in tasks], [d[i] for i in tasks],
                               [s[i] + d[i] for i in tasks], [rr[r][i] for i in tasks], cap)
        return m, s, cp.max([s[i] + d[i] for i in range(n)]), "min"
    if inst.family == "openshop":
        dur = p["dur"]
        jobs, machines = len(dur), len(dur[0])
        horizon = sum(map(sum, dur))
        s = [[cp.intvar(0, horizon - dur[j][k], name=f"s{j}_{k}") for k in range(machines)]
             for j in range(jobs)]
        m += [cp.NoOverlap(s[j], dur[j]) for j in range(jobs)]
        m += [cp.NoOverlap([s[j][k] for j in range(jobs)], [dur[j][k] for j in range(jobs)])
              for k in range(machines)]
        ends = [s[j][k] + dur[j][k] for j in range(jobs) for k in range(machines)]
        return m, [x for row in s for x in row], cp.max(ends), "min"
    if inst.family == "qcp":
        n, g = p["n"], np.array(p["givens"])
        x = cp.intvar(0, n - 1, shape=(n, n), name="c")
        m += x[g >= 0] == g[g >= 0]
        m += [cp.AllDifferent(row) for row in x] + [cp.AllDifferent(col) for col in x.T]
        return m, list(x.flatten()), None, None
    if inst.family == "allinterval":
        n = p["n"]
        x = cp.intvar(0, n - 1, shape=n, name="x")
        m += cp.AllDifferent(x)
        m += cp.AllDifferent([cp.abs(x[i + 1] - x[i]) for i in range(n - 1)])
        return m, list(x), None, None
    if inst.family == "coloring":
        n = p["n"]
        c = cp.intvar(0, n - 1, shape=n, name="c")
        m += [c[u] != c[v] for u, v in p["edges"]]
        return m, list(c), cp.max(c) + 1, "min"
    if inst.family == "binpacking":
        sizes, cap = p["sizes"], p["capacity"]
        n = len(sizes)
        b = cp.intvar(0, n - 1, shape=n, name="b")
        for k in range(n):  # the load of bin k
            m += cp.sum([sizes[i] * (b[i] == k) for i in range(n)]) <= cap
        return m, list(b), cp.max(b) + 1, "min"
    if inst.family == "knapsack":
        x = cp.boolvar(shape=len(p["weights"]), name="x")
        m += cp.sum(np.array(p["weights"]) * x) <= p["capacity"]
        return m, list(x), cp.sum(np.array(p["values"]) * x), "max"
    if inst.family == "facility":
        fixed, capy, dem, cost = p["fixed"], p["capacity"], p["demand"], p["cost"]
        sites, clients = len(fixed), len(dem)
        a = cp.intvar(0, sites - 1, shape=clients, name="a")
        is_open = cp.boolvar(shape=sites, name="open")
        m += [cp.sum([dem[c] * (a[c] == s) for c in range(clients)]) <= capy[s] * is_open[s]
              for s in range(sites)]
        obj = cp.sum(np.array(fixed) * is_open) + cp.sum(
            [cp.cpm_array(cost[c])[a[c]] for c in range(clients)])
        return m, [*a, *is_open], obj, "min"
    if inst.family == "nurse":
        nurses, days, need, cost = p["nurses"], p["days"], p["need"], p["cost"]
        lo, hi = p["work"]
        x = cp.intvar(0, 3, shape=(nurses, days), name="x")
        for d in range(days):
            for s in (1, 2, 3):
                m += cp.sum(x[:, d] == s) >= need[d][s - 1]
        for n in range(nurses):
            m += cp.sum(x[n] != 0) >= lo
            m += cp.sum(x[n] != 0) <= hi
            for d in range(days - 6):
                m += cp.sum(x[n, d:d + 7] != 0) <= 6
            for d in range(days - 1):
                m += (x[n, d] == 3).implies((x[n, d + 1] == 0) | (x[n, d + 1] == 3))
                m += (x[n, d] == 2).implies(x[n, d + 1] != 1)
        obj = cp.sum([cp.cpm_array(cost[n][d])[x[n, d]] for n in range(nurses)
                      for d in range(days)])
        return m, list(x.flatten()), obj, "min"
    raise ValueError(f"no CPMpy model for {inst.family}")


def solve(inst: Instance, solver: str | None = None) -> Report:
    """Solve through the solver object that `Model.solve()` / `solveAll()` create and then
    drop (`SolverLookup.get(None, model)`, the same calls), so that the underlying
    OR-Tools solver's statistics (its branch count) can be read afterwards."""
    m, xs, obj, sense = build(inst)
    rep = Report()
    t = time.perf_counter()
    if obj is not None:
        m.minimize(obj) if sense == "min" else m.maximize(obj)
    s = cp.SolverLookup.get(solver, m)
    hard = inst.group == "hard"
    limit = common_limit() if hard else None
    if hard:
        heard = {}
        if obj is not None and solver == "pumpkin":  # its improving solutions, as found
            target = s.solver_var(s._objective)
            heard["on_solution"] = lambda sol: announce(sol.int_value(target))
        found = s.solve(time_limit=limit, **heard) if limit else s.solve(**heard)
        if found:
            rep.solutions = [tuple(int(x.value()) for x in xs)]
            if obj is not None:
                rep.objective = int(s.objective_value())
        rep.proved = bool(found) and (obj is None or s.status().exitstatus.name == "OPTIMAL")
    elif inst.kind == "count":
        rep.count = s.solveAll(call_from_model=True)
    elif inst.kind == "all":
        s.solveAll(display=lambda: rep.solutions.append(tuple(int(x.value()) for x in xs)),
                   call_from_model=True)
    elif s.solve():
        rep.solutions = [tuple(int(x.value()) for x in xs)]
        if obj is not None:
            rep.objective = int(s.objective_value())
    rep.solver_time = time.perf_counter() - t
    ort = getattr(s, "ort_solver", None)  # OR-Tools: CP-SAT's branch count
    if ort is not None:
        rep.nodes = ort.num_branches
    return rep
