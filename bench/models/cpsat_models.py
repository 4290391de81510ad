"""OR-Tools CP-SAT models, as its users write them (snake_case API of ortools >= 9.8).

Non-linear terms become auxiliary variables with add_multiplication_equality; rational
division is multiplied out (CP-SAT has only integer division)."""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from instances import Instance
from models.common import (
    Report,
    alpha,
    announce,
    boxes,
    eq_leading,
    eq_parts,
    golomb_ub,
    word_terms,
)
from models.common import time_limit as common_limit


def _num(word: str, v: dict):
    return sum(k * v[ch] for k, ch in word_terms(word))


def _product(m: cp_model.CpModel, a, b, lo: int, hi: int, name: str):
    """A new variable equal to a * b (a, b variables or linear expressions)."""
    t = m.new_int_var(lo, hi, name)
    args = []
    for i, e in enumerate((a, b)):
        if isinstance(e, cp_model.IntVar):
            args.append(e)
        else:
            aux = m.new_int_var(-10**6, 10**6, f"{name}_{i}")
            m.add(aux == e)
            args.append(aux)
    m.add_multiplication_equality(t, args)
    return t


def build(inst: Instance):
    """(model, canonical variables, objective or None, sense)."""
    m = cp_model.CpModel()
    p = inst.params
    if inst.family == "trivial":
        x = m.new_int_var(0, 9, "x")
        m.add(x == 3)
        return m, [x], None, None
    if inst.family == "snake":
        A, B, C, D, E, F, G, H, I = [m.new_int_var(1, 9, ch) for ch in "ABCDEFGHI"]
        xs = [A, B, C, D, E, F, G, H, I]
        m.add_all_different(xs)
        if p["integral"]:
            q1, q2 = m.new_int_var(0, 117, "q1"), m.new_int_var(0, 81, "q2")
            m.add_multiplication_equality(13 * B, [q1, C])
            gh = _product(m, G, H, 1, 81, "gh")
            m.add_multiplication_equality(gh, [q2, I])
            m.add(A + q1 + D + 12 * E - F - 11 + q2 - 10 == 66)
        else:
            # A + 13B/C + D + 12E - F - 11 + GH/I - 10 = 66, times C*I
            ci = _product(m, C, I, 1, 81, "ci")
            rest = _product(m, A + D + 12 * E - F - 87, ci, -10**5, 10**5, "rest")
            bi = _product(m, B, I, 1, 81, "bi")
            gh = _product(m, G, H, 1, 81, "gh")
            ghc = _product(m, gh, C, 1, 729, "ghc")
            m.add(rest + 13 * bi + ghc == 0)
        return m, xs, None, None
    if inst.family == "alphametic":
        a = alpha(inst)
        v = {ch: m.new_int_var(1 if ch in a.leading else 0, 9, ch) for ch in a.letters}
        m.add_all_different(list(v.values()))
        m.add(sum(_num(w, v) for w in a.addends) == _num(a.result, v))
        obj = _num(p["objective"], v) if "objective" in p else None
        return m, [v[ch] for ch in inst.names], obj, inst.kind
    if inst.family == "eqgrid":
        lead = eq_leading(p["equations"])
        v = {ch: m.new_int_var(1 if ch in lead else 0, 9, ch) for ch in inst.names}
        for k, eq in enumerate(p["equations"]):
            x, op, y, z = eq_parts(eq)
            a, b, c = _num(x, v), _num(y, v), _num(z, v)
            if op == "+":
                m.add(a + b == c)
            elif op == "-":
                m.add(a - b == c)
            elif op == "*":
                m.add(_product(m, a, b, 0, 10**6, f"p{k}") == c)
            else:  # a / b == c  <=>  a == b * c, b != 0
                m.add(b != 0)
                m.add(_product(m, b, c, 0, 10**6, f"p{k}") == a)
        return m, [v[ch] for ch in inst.names], None, None
    if inst.family == "sudoku":
        n = p["n"]
        g = [[m.new_int_var(1, n, f"c{r}_{c}") for c in range(n)] for r in range(n)]
        for i in range(n):
            m.add_all_different(g[i])
            m.add_all_different([g[r][i] for r in range(n)])
        for box in boxes(n):
            m.add_all_different([g[r][c] for r, c in box])
        for r, row in enumerate(p["givens"]):
            for c, val in enumerate(row):
                if val:
                    m.add(g[r][c] == val)
        for r1, c1, r2, c2 in p["lt"]:
            m.add(g[r1][c1] < g[r2][c2])
        return m, [x for row in g for x in row], None, None
    if inst.family == "queens":
        n = p["n"]
        q = [m.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
        m.add_all_different(q)
        m.add_all_different([q[i] + i for i in range(n)])
        m.add_all_different([q[i] - i for i in range(n)])
        return m, q, None, None
    if inst.family == "magic":
        n = p["n"]
        s = n * (n * n + 1) // 2
        g = [[m.new_int_var(1, n * n, f"x{r}_{c}") for c in range(n)] for r in range(n)]
        flat = [x for row in g for x in row]
        m.add_all_different(flat)
        for i in range(n):
            m.add(sum(g[i]) == s)
            m.add(sum(g[r][i] for r in range(n)) == s)
        m.add(sum(g[i][i] for i in range(n)) == s)
        m.add(sum(g[i][n - 1 - i] for i in range(n)) == s)
        return m, flat, None, None
    if inst.family == "golomb":
        n = p["n"]
        x = [m.new_int_var(0, golomb_ub(n), f"m{i}") for i in range(n)]
        m.add(x[0] == 0)
        for i in range(n - 1):
            m.add(x[i] < x[i + 1])
        m.add_all_different([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
        m.add(x[1] - x[0] < x[n - 1] - x[n - 2])
        return m, x, x[-1], "min"
    if inst.family == "jobshop":
        jobs = p["jobs"]
        horizon = sum(d for job in jobs for _, d in job)
        starts, ends, per_machine = [], [], {}
        for j, job in enumerate(jobs):
            for k, (machine, d) in enumerate(job):
                s = m.new_int_var(0, horizon - d, f"s{j}_{k}")
                e = m.new_int_var(d, horizon, f"e{j}_{k}")
                per_machine.setdefault(machine, []).append(
                    m.new_interval_var(s, d, e, f"t{j}_{k}"))
                if k:
                    m.add(ends[-1] <= s)
                starts.append(s)
                ends.append(e)
        for intervals in per_machine.values():
            m.add_no_overlap(intervals)
        makespan = m.new_int_var(0, horizon, "makespan")
        m.add_max_equality(makespan, ends)
        return m, starts, makespan, "min"
    if inst.family == "tsp":
        dist = p["dist"]
        n = len(dist)
        # a Boolean per arc i -> j, as CP-SAT's own TSP example; succ[i] read off the arcs
        succ = [m.new_int_var(0, n - 1, f"succ{i}") for i in range(n)]
        arcs, cost = [], []
        for i in range(n):
            for j in range(n):
                if i != j:
                    lit = m.new_bool_var(f"a{i}_{j}")
                    arcs.append((i, j, lit))
                    cost.append(dist[i][j] * lit)
                    m.add(succ[i] == j).only_enforce_if(lit)
        m.add_circuit(arcs)
        return m, succ, sum(cost), "min"
    return _build_hard(m, inst)


def first_fit_decreasing(sizes: list[int], cap: int) -> int:
    """The number of bins first fit decreasing needs: an upper bound on the optimum."""
    loads: list[int] = []
    for size in sorted(sizes, reverse=True):
        b = next((k for k, load in enumerate(loads) if load + size <= cap), None)
        if b is None:
            loads.append(size)
        else:
            loads[b] += size
    return len(loads)


def _build_hard(m: cp_model.CpModel, inst: Instance):
    """The hard section's families (issue 29), as CP-SAT's own examples write them."""
    p = inst.params
    if inst.family == "rcpsp":
        d, rr, rc = p["d"], p["rr"], p["rc"]
        n, horizon = len(d), sum(p["d"])
        s = [m.new_int_var(0, horizon - d[i], f"s{i}") for i in range(n)]
        iv = [m.new_fixed_size_interval_var(s[i], d[i], f"t{i}") for i in range(n)]
        for i, succ in enumerate(p["suc"]):
            for j in succ:
                m.add(s[i] + d[i] <= s[j - 1])
        for r, cap in enumerate(rc):
            tasks = [i for i in range(n) if rr[r][i] > 0 and d[i] > 0]
            m.add_cumulative([iv[i] for i in tasks], [rr[r][i] for i in tasks], cap)
        makespan = m.new_int_var(0, horizon, "makespan")
        m.add_max_equality(makespan, [s[i] + d[i] for i in range(n)])
        return m, s, makespan, "min"
    if inst.family == "openshop":
        dur = p["dur"]
        jobs, machines = len(dur), len(dur[0])
        horizon = sum(map(sum, dur))
        s = [[m.new_int_var(0, horizon - dur[j][k], f"s{j}_{k}") for k in range(machines)]
             for j in range(jobs)]
        iv = [[m.new_fixed_size_interval_var(s[j][k], dur[j][k], f"t{j}_{k}")
               for k in range(machines)] for j in range(jobs)]
        for j in range(jobs):
            m.add_no_overlap(iv[j])
        for k in range(machines):
            m.add_no_overlap([iv[j][k] for j in range(jobs)])
        makespan = m.new_int_var(0, horizon, "makespan")
        m.add_max_equality(makespan, [s[j][k] + dur[j][k] for j in range(jobs)
                                      for k in range(machines)])
        return m, [x for row in s for x in row], makespan, "min"
    if inst.family == "qcp":
        n, g = p["n"], p["givens"]
        x = [[m.new_int_var(g[r][c], g[r][c], f"c{r}_{c}") if g[r][c] >= 0
              else m.new_int_var(0, n - 1, f"c{r}_{c}") for c in range(n)] for r in range(n)]
        for i in range(n):
            m.add_all_different(x[i])
            m.add_all_different([x[r][i] for r in range(n)])
        return m, [v for row in x for v in row], None, None
    if inst.family == "allinterval":
        n = p["n"]
        x = [m.new_int_var(0, n - 1, f"x{i}") for i in range(n)]
        diffs = [m.new_int_var(1, n - 1, f"d{i}") for i in range(n - 1)]
        for i in range(n - 1):
            m.add_abs_equality(diffs[i], x[i + 1] - x[i])
        m.add_all_different(x)
        m.add_all_different(diffs)
        return m, x, None, None
    if inst.family == "coloring":
        n = p["n"]
        c = [m.new_int_var(0, n - 1, f"c{i}") for i in range(n)]
        for u, v in p["edges"]:
            m.add(c[u] != c[v])
        colours = m.new_int_var(1, n, "colours")
        m.add_max_equality(colours, [x + 1 for x in c])
        return m, c, colours, "min"
    if inst.family == "binpacking":
        sizes, cap = p["sizes"], p["capacity"]  # sizes sorted decreasing
        items, bins = len(sizes), first_fit_decreasing(sizes, cap)
        x = [[m.new_bool_var(f"x{i}_{b}") for b in range(bins)] for i in range(items)]
        used = [m.new_bool_var(f"u{b}") for b in range(bins)]
        for i in range(items):
            m.add_exactly_one(x[i])
            for b in range(i + 1, bins):  # item i in one of the first i + 1 bins
                m.add(x[i][b] == 0)
        for b in range(bins):
            m.add(sum(sizes[i] * x[i][b] for i in range(items)) <= cap * used[b])
            m.add(used[b] <= sum(x[i][b] for i in range(items)))  # used: not empty
        for b in range(bins - 1):
            m.add(used[b] >= used[b + 1])  # bins used from the first
        bin_of = [m.new_int_var(0, bins - 1, f"b{i}") for i in range(items)]
        for i in range(items):
            m.add(bin_of[i] == sum(b * x[i][b] for b in range(bins)))
        return m, bin_of, sum(used), "min"
    if inst.family == "knapsack":
        w, v = p["weights"], p["values"]
        x = [m.new_bool_var(f"x{i}") for i in range(len(w))]
        m.add(sum(wi * xi for wi, xi in zip(w, x, strict=True)) <= p["capacity"])
        return m, x, sum(vi * xi for vi, xi in zip(v, x, strict=True)), "max"
    if inst.family == "facility":
        fixed, capy, dem, cost = p["fixed"], p["capacity"], p["demand"], p["cost"]
        sites, clients = len(fixed), len(dem)
        y = [m.new_bool_var(f"open{s}") for s in range(sites)]
        x = [[m.new_bool_var(f"x{c}_{s}") for s in range(sites)] for c in range(clients)]
        a = [m.new_int_var(0, sites - 1, f"a{c}") for c in range(clients)]
        for c in range(clients):
            m.add_exactly_one(x[c])
            m.add(a[c] == sum(s * x[c][s] for s in range(sites)))
            for s in range(sites):
                m.add_implication(x[c][s], y[s])
        for s in range(sites):
            m.add(sum(dem[c] * x[c][s] for c in range(clients)) <= capy[s] * y[s])
        obj = sum(fixed[s] * y[s] for s in range(sites)) + sum(
            cost[c][s] * x[c][s] for c in range(clients) for s in range(sites))
        return m, a + y, obj, "min"
    if inst.family == "nurse":
        nurses, days, need, cost = p["nurses"], p["days"], p["need"], p["cost"]
        lo, hi = p["work"]
        w = [[[m.new_bool_var(f"w{n}_{d}_{s}") for s in range(4)] for d in range(days)]
             for n in range(nurses)]
        x = [[m.new_int_var(0, 3, f"x{n}_{d}") for d in range(days)] for n in range(nurses)]
        for n in range(nurses):
            for d in range(days):
                m.add_exactly_one(w[n][d])
                m.add(x[n][d] == sum(s * w[n][d][s] for s in range(4)))
            worked = [w[n][d][0].Not() for d in range(days)]
            m.add(sum(worked) >= lo)
            m.add(sum(worked) <= hi)
            for d in range(days - 6):
                m.add(sum(worked[d:d + 7]) <= 6)
            for d in range(days - 1):
                m.add_bool_or([w[n][d][3].Not(), w[n][d + 1][0], w[n][d + 1][3]])
                m.add_bool_or([w[n][d][2].Not(), w[n][d + 1][1].Not()])
        for d in range(days):
            for s in (1, 2, 3):
                m.add(sum(w[n][d][s] for n in range(nurses)) >= need[d][s - 1])
        obj = sum(cost[n][d][s] * w[n][d][s] for n in range(nurses) for d in range(days)
                  for s in range(4))
        return m, [v for row in x for v in row], obj, "min"
    raise ValueError(f"no CP-SAT model for {inst.family}")


class _Collect(cp_model.CpSolverSolutionCallback):
    def __init__(self, xs, keep: bool) -> None:
        super().__init__()
        self.xs, self.keep, self.n, self.sols = xs, keep, 0, []

    def on_solution_callback(self) -> None:
        self.n += 1
        if self.keep:
            self.sols.append(tuple(self.value(x) for x in self.xs))


class _Announce(cp_model.CpSolverSolutionCallback):
    """Prints each improving solution's objective as CP-SAT finds it."""

    def on_solution_callback(self) -> None:
        announce(int(self.objective_value))


def solve(inst: Instance, workers: int | None, time_limit: float | None = None) -> Report:
    m, xs, obj, sense = build(inst)
    solver = cp_model.CpSolver()
    if workers:
        solver.parameters.num_workers = workers
    hard = inst.group == "hard"
    time_limit = time_limit or (common_limit() if hard else None)
    if time_limit:
        solver.parameters.max_time_in_seconds = time_limit
    rep = Report()
    t = time.perf_counter()
    if inst.kind in ("count", "all"):
        solver.parameters.enumerate_all_solutions = True
        cb = _Collect(xs, keep=inst.kind == "all")
        status = solver.solve(m, cb)
        assert status == cp_model.OPTIMAL, solver.status_name(status)
        rep.count, rep.solutions = (cb.n, []) if inst.kind == "count" else (None, cb.sols)
    else:
        if obj is not None:
            m.minimize(obj) if sense == "min" else m.maximize(obj)
        status = solver.solve(m, _Announce() if obj is not None else None)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            rep.solutions = [tuple(solver.value(x) for x in xs)]
            if obj is not None:
                assert hard or status == cp_model.OPTIMAL
                rep.objective = int(solver.objective_value)
        if hard:
            rep.proved = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    rep.solver_time = time.perf_counter() - t
    # CP-SAT counts branches (decisions); with several workers, those of the first subsolver
    # only (cp_model.proto, CpSolverResponse statistics)
    rep.nodes = solver.num_branches
    return rep
