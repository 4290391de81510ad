"""conundrum models, written against the public API (SPEC section 3, notes/API-NOTES.md)."""

from __future__ import annotations

import time

import conundrum as cn
from instances import Instance
from models.common import (
    Report,
    alpha,
    announce,
    boxes,
    eq_leading,
    eq_parts,
    extra_options,
    golomb_ub,
    word_terms,
)
from models.common import time_limit as common_limit


def _num(word: str, v: dict) -> object:
    return cn.sum(k * v[ch] for k, ch in word_terms(word))


def _timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def build(inst: Instance) -> tuple[cn.Model, list, object]:
    """The model, its variables in the instance's canonical order, and the objective."""
    m = cn.Model()
    p = inst.params
    if inst.family == "trivial":  # start-up floor: one variable, one constraint
        x = m.int_var(0, 9, "x")
        m += x == 3
        return m, [x], None
    if inst.family == "snake":
        A, B, C, D, E, F, G, H, I = m.int_vars("A B C D E F G H I", 1, 9)
        m += cn.all_different([A, B, C, D, E, F, G, H, I])
        eq = A + 13 * B / C + D + 12 * E - F - 11 + G * H / I - 10 == 66
        m += cn.integral(eq) if p["integral"] else eq
        return m, [A, B, C, D, E, F, G, H, I], None
    if inst.family == "alphametic":
        a = alpha(inst)
        v = dict(zip(a.letters, m.int_vars(" ".join(a.letters), 0, 9), strict=True))
        m += cn.all_different(list(v.values()))
        m += [v[ch] != 0 for ch in sorted(a.leading)]
        m += cn.sum(_num(w, v) for w in a.addends) == _num(a.result, v)
        obj = _num(p["objective"], v) if "objective" in p else None
        return m, [v[ch] for ch in inst.names], obj
    if inst.family == "eqgrid":
        v = dict(zip(inst.names, m.int_vars(" ".join(inst.names), 0, 9), strict=True))
        m += [v[ch] != 0 for ch in sorted(eq_leading(p["equations"]))]
        for eq in p["equations"]:
            x, op, y, z = eq_parts(eq)
            a, b, c = _num(x, v), _num(y, v), _num(z, v)
            rel = {"+": a + b == c, "-": a - b == c, "*": a * b == c, "/": a / b == c}[op]
            m += rel
        return m, [v[ch] for ch in inst.names], None
    if inst.family == "sudoku":
        n = p["n"]
        g = m.int_matrix(n, n, 1, n, "c")
        for i in range(n):
            m += cn.all_different(g.rows[i])
            m += cn.all_different(g.columns[i])
        for box in boxes(n):
            m += cn.all_different([g[r][c] for r, c in box])
        m += [g[r][c] == val for r, row in enumerate(p["givens"])
              for c, val in enumerate(row) if val]
        m += [g[r1][c1] < g[r2][c2] for r1, c1, r2, c2 in p["lt"]]
        return m, g.flat, None
    if inst.family == "queens":
        n = p["n"]
        q = m.int_vars(n, 0, n - 1, "q")
        m += cn.all_different(q)
        m += cn.all_different([q[i] + i for i in range(n)])
        m += cn.all_different([q[i] - i for i in range(n)])
        return m, q, None
    if inst.family == "magic":
        n = p["n"]
        s = n * (n * n + 1) // 2
        g = m.int_matrix(n, n, 1, n * n, "x")
        m += cn.all_different(g.flat)
        m += [cn.sum(row) == s for row in g.rows]
        m += [cn.sum(col) == s for col in g.columns]
        m += cn.sum(g[i][i] for i in range(n)) == s
        m += cn.sum(g[i][n - 1 - i] for i in range(n)) == s
        return m, g.flat, None
    if inst.family == "golomb":
        n = p["n"]
        x = m.int_vars(n, 0, golomb_ub(n), "m")
        m += x[0] == 0
        m += cn.increasing(x, strict=True)
        m += cn.all_different([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
        m += x[1] - x[0] < x[n - 1] - x[n - 2]  # symmetry breaking (CSPLib prob006)
        return m, x, x[-1]
    if inst.family == "jobshop":
        jobs = p["jobs"]
        horizon = sum(d for job in jobs for _, d in job)
        starts = [[m.int_var(0, horizon - d, f"s{j}_{k}") for k, (_, d) in enumerate(job)]
                  for j, job in enumerate(jobs)]
        makespan = m.int_var(0, horizon, "makespan")
        for j, job in enumerate(jobs):
            m += [starts[j][k] + job[k][1] <= starts[j][k + 1] for k in range(len(job) - 1)]
            m += starts[j][-1] + job[-1][1] <= makespan
        for machine in sorted({mach for job in jobs for mach, _ in job}):
            tasks = [(starts[j][k], d) for j, job in enumerate(jobs)
                     for k, (mach, d) in enumerate(job) if mach == machine]
            m += cn.no_overlap([s for s, _ in tasks], [d for _, d in tasks])
        return m, [s for row in starts for s in row], makespan
    if inst.family == "tsp":
        dist = p["dist"]
        n = len(dist)
        succ = m.int_vars(n, 0, n - 1, "succ")
        m += cn.circuit(succ)
        return m, succ, cn.sum(cn.element(dist[i], succ[i]) for i in range(n))
    return _build_hard(m, inst)


def _build_hard(m: cn.Model, inst: Instance) -> tuple[cn.Model, list, object]:
    """The hard section's families (issue 29), written as a new user would."""
    p = inst.params
    if inst.family == "rcpsp":
        d, rr, rc = p["d"], p["rr"], p["rc"]
        n, horizon = len(d), sum(d)
        s = [m.int_var(0, horizon - d[i], f"s{i}") for i in range(n)]
        makespan = m.int_var(0, horizon, "makespan")
        for i, succ in enumerate(p["suc"]):
            m += [s[i] + d[i] <= s[j - 1] for j in succ]
            m += s[i] + d[i] <= makespan
        for r, cap in enumerate(rc):
            tasks = [i for i in range(n) if rr[r][i] > 0 and d[i] > 0]
            m += cn.cumulative([s[i] for i in tasks], [d[i] for i in tasks],
                               [rr[r][i] for i in tasks], cap)
        return m, s, makespan
    if inst.family == "openshop":
        dur = p["dur"]
        jobs, machines = len(dur), len(dur[0])
        horizon = sum(map(sum, dur))
        s = [[m.int_var(0, horizon - dur[j][k], f"s{j}_{k}") for k in range(machines)]
             for j in range(jobs)]
        makespan = m.int_var(0, horizon, "makespan")
        for j in range(jobs):
            m += cn.no_overlap(s[j], dur[j])
            m += [s[j][k] + dur[j][k] <= makespan for k in range(machines)]
        for k in range(machines):
            m += cn.no_overlap([s[j][k] for j in range(jobs)], [dur[j][k] for j in range(jobs)])
        return m, [x for row in s for x in row], makespan
    if inst.family == "qcp":
        n, g = p["n"], p["givens"]
        x = m.int_matrix(n, n, 0, n - 1, "c")
        m += [x[r][c] == v for r, row in enumerate(g) for c, v in enumerate(row) if v >= 0]
        for i in range(n):
            m += cn.all_different(x.rows[i])
            m += cn.all_different(x.columns[i])
        return m, x.flat, None
    if inst.family == "allinterval":
        n = p["n"]
        x = m.int_vars(n, 0, n - 1, "x")
        m += cn.all_different(x)
        m += cn.all_different([abs(x[i + 1] - x[i]) for i in range(n - 1)])
        return m, x, None
    if inst.family == "coloring":
        n = p["n"]
        c = m.int_vars(n, 0, n - 1, "c")
        colours = m.int_var(1, n, "colours")
        m += [c[u] != c[v] for u, v in p["edges"]]
        m += [x < colours for x in c]
        return m, c, colours
    if inst.family == "binpacking":
        sizes, cap = p["sizes"], p["capacity"]
        n = len(sizes)
        bins = m.int_vars(n, 0, n - 1, "b")
        loads = m.int_vars(n, 0, cap, "load")
        nbins = m.int_var(1, n, "nbins")
        m += cn.bin_packing(loads, bins, sizes)
        m += [b < nbins for b in bins]
        return m, bins, nbins
    if inst.family == "knapsack":
        w, v = p["weights"], p["values"]
        x = m.int_vars(len(w), 0, 1, "x")
        m += cn.sum(wi * xi for wi, xi in zip(w, x, strict=True)) <= p["capacity"]
        return m, x, cn.sum(vi * xi for vi, xi in zip(v, x, strict=True))
    if inst.family == "facility":
        fixed, capy, dem, cost = p["fixed"], p["capacity"], p["demand"], p["cost"]
        sites, clients = len(fixed), len(dem)
        a = m.int_vars(clients, 0, sites - 1, "a")
        is_open = m.int_vars(sites, 0, 1, "open")
        loads = [m.int_var(0, capy[s], f"load{s}") for s in range(sites)]
        m += cn.bin_packing(loads, a, dem)
        m += [cn.element(is_open, a[c]) == 1 for c in range(clients)]
        obj = cn.sum(f * o for f, o in zip(fixed, is_open, strict=True)) + cn.sum(
            cn.element(cost[c], a[c]) for c in range(clients))
        return m, [*a, *is_open], obj
    if inst.family == "nurse":
        nurses, days, need, cost = p["nurses"], p["days"], p["need"], p["cost"]
        lo, hi = p["work"]
        x = [m.int_vars(days, 0, 3, f"x{n}") for n in range(nurses)]
        for d in range(days):
            for s in (1, 2, 3):
                m += cn.sum(x[n][d] == s for n in range(nurses)) >= need[d][s - 1]
        for row in x:
            m += cn.sum(v != 0 for v in row) >= lo
            m += cn.sum(v != 0 for v in row) <= hi
            for d in range(days - 6):
                m += cn.sum(v != 0 for v in row[d:d + 7]) <= 6
            for a, b in zip(row, row[1:]):
                m += (a != 3) | (b == 0) | (b == 3)  # a night: then a night or a day off
                m += (a != 2) | (b != 1)  # an evening: never a day shift next
        obj = cn.sum(cn.element(cost[n][d], x[n][d]) for n in range(nurses)
                     for d in range(days))
        return m, [v for row in x for v in row], obj
    raise ValueError(f"no conundrum model for {inst.family}")


def solve(inst: Instance, time_limit: float | None = None) -> Report:
    """Solve as a new user would, with default search options; `time_limit` (for --profile
    on slow instances) stops early."""
    m, xs, obj = build(inst)
    hard = inst.group == "hard"
    time_limit = time_limit or (common_limit() if hard else None)
    opts = {"time_limit": time_limit} if time_limit else {}
    opts.update(extra_options())
    rep = Report()
    if inst.kind == "count":
        rep.count, rep.solver_time = _timed(lambda: m.count(**opts))
    elif inst.kind == "all":
        sols, rep.solver_time = _timed(lambda: list(m.solutions(**opts)))
        rep.solutions = [tuple(s[x] for x in xs) for s in sols]
    elif inst.kind == "one":
        sol, rep.solver_time = _timed(lambda: m.solve(**opts))
        rep.solutions = [tuple(sol[x] for x in xs)] if sol is not None else []
    else:
        fn = m.minimize if inst.kind == "min" else m.maximize
        def heard(s: cn.Solution) -> None:
            announce(int(s.value(obj)))
        sol, rep.solver_time = _timed(lambda: fn(obj, on_solution=heard, **opts))
        if sol is not None:
            rep.objective = int(sol.value(obj))
            rep.solutions = [tuple(sol[x] for x in xs)]
    stats = getattr(m, "stats", None)
    if stats is not None and getattr(stats, "nodes", None) is not None:
        rep.nodes = stats.nodes  # decisions tried (each branch taken, failed or not)
    if hard:
        rep.proved = bool(rep.solutions) and (
            inst.kind == "one" or getattr(stats, "status", "") == "optimal_solution")
    if stats is not None and getattr(stats, "complete", True) is False:
        rep.notes.append(f"incomplete: stopped by {stats.stopped_by}")
    return rep
