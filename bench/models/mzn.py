"""MiniZinc models (solved with Gecode), as MiniZinc users write them: globals from
globals.mzn, `div`/`mod` for integer division, `solve satisfy` with -a to enumerate,
`solve minimize/maximize` to optimise.  The output item prints bench protocol lines."""

from __future__ import annotations

from instances import Instance
from models.common import alpha, eq_leading, eq_parts, golomb_ub, word_terms


def lin(word: str) -> str:
    return " + ".join(f"{k}*{ch}" if k != 1 else ch for k, ch in word_terms(word))


def _sol(names, prefix: str = "") -> str:
    vals = 'concat([" \\(v)" | v in [' + ", ".join(names) + ']])'
    return f'output [{prefix}"SOL" ++ {vals} ++ "\\n"];\n'


def _vars(names, lo: int, hi: int, lead=frozenset()) -> str:
    return "".join(f"var {1 if n in lead else lo}..{hi}: {n};\n" for n in names)


def model(inst: Instance) -> str:
    p = inst.params
    # Only the globals used: Debian's Gecode 6.2 library clashes with MiniZinc 2.6's
    # globals.mzn (an `inverse` signature error), so include "globals.mzn" fails there.
    head = 'include "alldifferent.mzn";\n'
    if inst.family == "trivial":
        return "var 0..9: x;\nconstraint x = 3;\nsolve satisfy;\n" + _sol(["x"])
    if inst.family == "snake":
        names = list(inst.names)
        A, B, C, D, E, F, G, H, I = names
        if p["integral"]:
            eq = (f"13*{B} mod {C} = 0 /\\ {G}*{H} mod {I} = 0 /\\ "
                  f"{A} + 13*{B} div {C} + {D} + 12*{E} - {F} - 11 + {G}*{H} div {I} - 10 = 66")
        else:
            eq = f"({A} + {D} + 12*{E} - {F} - 87)*{C}*{I} + 13*{B}*{I} + {G}*{H}*{C} = 0"
        return (head + _vars(names, 1, 9) + f"constraint alldifferent([{', '.join(names)}]);\n"
                + f"constraint {eq};\nsolve satisfy;\n" + _sol(names))
    if inst.family == "alphametic":
        a = alpha(inst)
        lhs = " + ".join(lin(w) for w in a.addends)
        out = (head + _vars(a.letters, 0, 9, a.leading)
               + f"constraint alldifferent([{', '.join(a.letters)}]);\n"
               + f"constraint {lhs} = {lin(a.result)};\n")
        if inst.kind == "max":
            out += f"var int: obj = {lin(p['objective'])};\nsolve maximize obj;\n"
            return out + _sol(inst.names, prefix='"OBJ \\(obj)\\n" ++ ')
        return out + "solve satisfy;\n" + _sol(inst.names)
    if inst.family == "eqgrid":
        rels = []
        for eq in p["equations"]:
            x, op, y, z = eq_parts(eq)
            a, b, c = f"({lin(x)})", f"({lin(y)})", f"({lin(z)})"
            rels.append(f"{b} != 0 /\\ {a} = {b} * {c}" if op == "/" else f"{a} {op} {b} = {c}")
        return (head + _vars(inst.names, 0, 9, eq_leading(p["equations"]))
                + "".join(f"constraint {r};\n" for r in rels) + "solve satisfy;\n"
                + _sol(inst.names))
    if inst.family == "sudoku":
        n = p["n"]
        b = int(round(n ** 0.5))
        givens = ",\n".join("|" + ", ".join(map(str, row)) for row in p["givens"])
        lt = "".join(f"constraint x[{r1 + 1},{c1 + 1}] < x[{r2 + 1},{c2 + 1}];\n"
                     for r1, c1, r2, c2 in p["lt"])
        return (head + f"int: n = {n};\nint: b = {b};\n"
                + f"array[1..n, 1..n] of int: g = [{givens}|];\n"
                + "array[1..n, 1..n] of var 1..n: x;\n"
                + "constraint forall(i, j in 1..n where g[i,j] > 0)(x[i,j] = g[i,j]);\n"
                + "constraint forall(i in 1..n)(alldifferent(row(x, i)));\n"
                + "constraint forall(j in 1..n)(alldifferent(col(x, j)));\n"
                + "constraint forall(bi, bj in 0..b-1)(alldifferent("
                + "[x[bi*b+i, bj*b+j] | i, j in 1..b]));\n"
                + lt + "solve satisfy;\n"
                + 'output ["SOL" ++ concat([" \\(x[i,j])" | i, j in 1..n]) ++ "\\n"];\n')
    if inst.family == "queens":
        return (head + f"int: n = {p['n']};\narray[1..n] of var 1..n: q;\n"
                + "constraint alldifferent(q);\n"
                + "constraint alldifferent(i in 1..n)(q[i] + i);\n"
                + "constraint alldifferent(i in 1..n)(q[i] - i);\n"
                + "solve satisfy;\n" + 'output ["SOL" ++ concat([" \\(v)" | v in q]) ++ "\\n"];\n')
    if inst.family == "magic":
        n = p["n"]
        return (head + f"int: n = {n};\nint: s = n * (n*n + 1) div 2;\n"
                + "array[1..n, 1..n] of var 1..n*n: x;\n"
                + "constraint alldifferent(x);\n"
                + "constraint forall(i in 1..n)(sum(row(x, i)) = s /\\ sum(col(x, i)) = s);\n"
                + "constraint sum(i in 1..n)(x[i,i]) = s;\n"
                + "constraint sum(i in 1..n)(x[i,n+1-i]) = s;\n"
                + "solve satisfy;\n"
                + 'output ["SOL" ++ concat([" \\(x[i,j])" | i, j in 1..n]) ++ "\\n"];\n')
    if inst.family == "golomb":
        n = p["n"]
        return (head + f"int: m = {n};\narray[1..m] of var 0..{golomb_ub(n)}: mark;\n"
                + "constraint mark[1] = 0;\n"
                + "constraint forall(i in 1..m-1)(mark[i] < mark[i+1]);\n"
                + "constraint alldifferent([mark[j] - mark[i] | i in 1..m, j in i+1..m]);\n"
                + "constraint mark[2] - mark[1] < mark[m] - mark[m-1];\n"
                + "solve minimize mark[m];\n"
                + 'output ["OBJ \\(mark[m])\\nSOL" ++ concat([" \\(v)" | v in mark])'
                + ' ++ "\\n"];\n')
    if inst.family == "jobshop":
        jobs = p["jobs"]
        tasks = len(jobs[0])
        assert all(len(job) == tasks for job in jobs), "rectangular job shops only"
        machines = sorted({mach for job in jobs for mach, _ in job})

        def matrix(col: int) -> str:
            return "[" + "\n".join("|" + ", ".join(str(t[col]) for t in job)
                                    for job in jobs) + "|]"
        # only disjunctive.mzn, not globals.mzn (see above): with Gecode's own library it
        # becomes Gecode's native unary resource, no -G std needed
        return ('include "disjunctive.mzn";\n'
                + f"int: J = {len(jobs)};\nint: T = {tasks};\n"
                + f"array[1..J, 1..T] of int: machine = {matrix(0)};\n"
                + f"array[1..J, 1..T] of int: dur = {matrix(1)};\n"
                + "int: horizon = sum(dur);\n"
                + "array[1..J, 1..T] of var 0..horizon: s;\n"
                + "var 0..horizon: makespan;\n"
                + "constraint forall(j in 1..J, k in 1..T-1)(s[j,k] + dur[j,k] <= s[j,k+1]);\n"
                + "constraint forall(j in 1..J)(s[j,T] + dur[j,T] <= makespan);\n"
                + f"constraint forall(mc in {machines[0]}..{machines[-1]})(disjunctive(\n"
                + "  [s[j,k] | j in 1..J, k in 1..T where machine[j,k] = mc],\n"
                + "  [dur[j,k] | j in 1..J, k in 1..T where machine[j,k] = mc]));\n"
                + "solve minimize makespan;\n"
                + 'output ["OBJ \\(makespan)\\nSOL" ++ concat([" \\(s[j,k])" | j in 1..J, '
                + 'k in 1..T]) ++ "\\n"];\n')
    if inst.family == "tsp":
        dist = p["dist"]
        rows = "\n".join("|" + ", ".join(map(str, row)) for row in dist)
        # circuit.mzn alone: Gecode's native circuit; successors 1-based in MiniZinc
        return ('include "circuit.mzn";\n'
                + f"int: n = {len(dist)};\narray[1..n, 1..n] of int: dist = [{rows}|];\n"
                + "array[1..n] of var 1..n: succ;\n"
                + "constraint circuit(succ);\n"
                + "var int: length = sum(i in 1..n)(dist[i, succ[i]]);\n"
                + "solve minimize length;\n"
                + 'output ["OBJ \\(length)\\nSOL" ++ concat([" \\(succ[i] - 1)" | '
                + 'i in 1..n]) ++ "\\n"];\n')
    return _hard_model(inst)


def _arr(xs) -> str:
    return "[" + ", ".join(map(str, xs)) + "]"


def _arr2(rows) -> str:
    return "[" + "".join("|" + ", ".join(map(str, r)) for r in rows) + "|]"


def _out(var: str, obj: str | None) -> str:
    pre = f'"OBJ \\({obj})\\n" ++ ' if obj else ""
    return f'output [{pre}"SOL" ++ concat([" \\(v)" | v in {var}]) ++ "\\n"];\n'


def _hard_model(inst: Instance) -> str:
    """The hard section's families (issue 29): only the globals each needs is included
    (see the globals.mzn clash above)."""
    p = inst.params
    if inst.family == "rcpsp":
        d, rr, rc = p["d"], p["rr"], p["rc"]
        n = len(d)
        prec = "".join(f"constraint s[{i + 1}] + {d[i]} <= s[{j}];\n"
                       for i, succ in enumerate(p["suc"]) for j in succ)
        return ('include "cumulative.mzn";\n'
                + f"int: n = {n};\narray[1..n] of int: d = {_arr(d)};\n"
                + f"array[1..{len(rc)}, 1..n] of int: rr = {_arr2(rr)};\n"
                + f"array[1..{len(rc)}] of int: rc = {_arr(rc)};\n"
                + "int: horizon = sum(d);\narray[1..n] of var 0..horizon: s;\n"
                + "var 0..horizon: makespan;\n" + prec
                + "constraint forall(i in 1..n)(s[i] + d[i] <= makespan);\n"
                + f"constraint forall(r in 1..{len(rc)})(cumulative(s, d, "
                + "[rr[r, i] | i in 1..n], rc[r]));\n"
                + "solve minimize makespan;\n" + _out("s", "makespan"))
    if inst.family == "openshop":
        dur = p["dur"]
        return ('include "disjunctive.mzn";\n'
                + f"int: J = {len(dur)};\nint: M = {len(dur[0])};\n"
                + f"array[1..J, 1..M] of int: dur = {_arr2(dur)};\n"
                + "int: horizon = sum(dur);\narray[1..J, 1..M] of var 0..horizon: s;\n"
                + "var 0..horizon: makespan;\n"
                + "constraint forall(j in 1..J, k in 1..M)(s[j,k] + dur[j,k] <= makespan);\n"
                + "constraint forall(j in 1..J)(disjunctive(row(s, j), row(dur, j)));\n"
                + "constraint forall(k in 1..M)(disjunctive(col(s, k), col(dur, k)));\n"
                + "solve minimize makespan;\n"
                + 'output ["OBJ \\(makespan)\\nSOL" ++ concat([" \\(s[j,k])" | j in 1..J, '
                + 'k in 1..M]) ++ "\\n"];\n')
    if inst.family == "qcp":
        return ('include "alldifferent.mzn";\n'
                + f"int: n = {p['n']};\narray[1..n, 1..n] of int: g = {_arr2(p['givens'])};\n"
                + "array[1..n, 1..n] of var 0..n-1: x;\n"
                + "constraint forall(i, j in 1..n where g[i,j] >= 0)(x[i,j] = g[i,j]);\n"
                + "constraint forall(i in 1..n)(alldifferent(row(x, i)) /\\ "
                + "alldifferent(col(x, i)));\n"
                + "solve satisfy;\n"
                + 'output ["SOL" ++ concat([" \\(x[i,j])" | i, j in 1..n]) ++ "\\n"];\n')
    if inst.family == "allinterval":
        return ('include "alldifferent.mzn";\n'
                + f"int: n = {p['n']};\narray[1..n] of var 0..n-1: x;\n"
                + "constraint alldifferent(x);\n"
                + "constraint alldifferent([abs(x[i+1] - x[i]) | i in 1..n-1]);\n"
                + "solve satisfy;\n" + _out("x", None))
    if inst.family == "coloring":
        edges = "".join(f"constraint c[{u + 1}] != c[{v + 1}];\n" for u, v in p["edges"])
        return (f"int: n = {p['n']};\narray[1..n] of var 0..n-1: c;\n" + edges
                + "var 1..n: colours = max(c) + 1;\nsolve minimize colours;\n"
                + _out("c", "colours"))
    if inst.family == "binpacking":
        sizes = p["sizes"]
        # the API's model (bench/models/cn_models.py): loads by bin_packing_load
        return ('include "globals.mzn";\n'
                + f"int: n = {len(sizes)};\narray[1..n] of int: size = {_arr(sizes)};\n"
                + "array[1..n] of var 0..n-1: b;\n"
                + f"array[0..n-1] of var 0..{p['capacity']}: load;\n"
                + "constraint bin_packing_load(load, b, size);\n"
                + "var 1..n: bins;\nconstraint forall(i in 1..n)(b[i] < bins);\n"
                + "solve minimize bins;\n" + _out("b", "bins"))
    if inst.family == "knapsack":
        return (f"int: n = {len(p['weights'])};\narray[1..n] of int: w = {_arr(p['weights'])};\n"
                + f"array[1..n] of int: v = {_arr(p['values'])};\n"
                + "array[1..n] of var 0..1: x;\n"
                + f"constraint sum(i in 1..n)(w[i] * x[i]) <= {p['capacity']};\n"
                + "var int: value = sum(i in 1..n)(v[i] * x[i]);\nsolve maximize value;\n"
                + _out("x", "value"))
    if inst.family == "facility":
        fixed, dem = p["fixed"], p["demand"]
        return ('include "globals.mzn";\n'
                + f"int: S = {len(fixed)};\nint: C = {len(dem)};\n"
                + f"array[1..S] of int: fixed = {_arr(fixed)};\n"
                + f"array[1..S] of int: cap = {_arr(p['capacity'])};\n"
                + f"array[1..C] of int: dem = {_arr(dem)};\n"
                + f"array[1..C, 1..S] of int: cost = {_arr2(p['cost'])};\n"
                + "array[1..C] of var 1..S: a;\narray[1..S] of var 0..1: open;\n"
                + "constraint forall(c in 1..C)(open[a[c]] = 1);\n"
                # the API's model (bench/models/cn_models.py): loads by bin_packing_load
                + "array[1..S] of var 0..max(cap): load;\n"
                + "constraint forall(s in 1..S)(load[s] <= cap[s]);\n"
                + "constraint bin_packing_load(load, a, dem);\n"
                + "var int: total = sum(s in 1..S)(fixed[s] * open[s]) + "
                + "sum(c in 1..C)(cost[c, a[c]]);\nsolve minimize total;\n"
                + 'output ["OBJ \\(total)\\nSOL" ++ concat([" \\(a[c] - 1)" | c in 1..C]) '
                + '++ concat([" \\(o)" | o in open]) ++ "\\n"];\n')
    if inst.family == "nurse":
        nurses, days, (lo, hi) = p["nurses"], p["days"], p["work"]
        flat = [c for row in p["cost"] for day in row for c in day]
        return (f"int: N = {nurses};\nint: D = {days};\n"
                + f"array[1..D, 1..3] of int: need = {_arr2(p['need'])};\n"
                + "array[1..N, 1..D, 0..3] of int: cost = array3d(1..N, 1..D, 0..3, "
                + f"{_arr(flat)});\n"
                + "array[1..N, 1..D] of var 0..3: x;\n"
                + "constraint forall(d in 1..D, s in 1..3)"
                + "(sum(n in 1..N)(bool2int(x[n, d] = s)) >= need[d, s]);\n"
                + "constraint forall(n in 1..N)(let { var int: w = "
                + "sum(d in 1..D)(bool2int(x[n, d] != 0)) } in "
                + f"w >= {lo} /\\ w <= {hi});\n"
                + "constraint forall(n in 1..N, d in 1..D - 6)"
                + "(sum(k in d..d + 6)(bool2int(x[n, k] != 0)) <= 6);\n"
                + "constraint forall(n in 1..N, d in 1..D - 1)((x[n, d] = 3 -> "
                + "(x[n, d + 1] = 0 \\/ x[n, d + 1] = 3)) /\\ "
                + "(x[n, d] = 2 -> x[n, d + 1] != 1));\n"
                + "var int: total = sum(n in 1..N, d in 1..D)(cost[n, d, x[n, d]]);\n"
                + "solve minimize total;\n"
                + 'output ["OBJ \\(total)\\nSOL" ++ concat([" \\(x[n, d])" | n in 1..N, '
                + 'd in 1..D]) ++ "\\n"];\n')
    raise ValueError(f"no MiniZinc model for {inst.family}")
