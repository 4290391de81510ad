"""Prolog programs for SWI-Prolog (library(clpfd)) and GNU Prolog (its built-in FD solver).

Each program is what a user of that system writes: domains, #= constraints, the system's
all-different, labeling (first-fail for grids and queens), findall/aggregate_all to count,
labeling([max(..)]) in clpfd and fd_maximize/fd_minimize in GNU Prolog.  Instance data is
written into the program text.  Output follows the bench protocol (SOL/COUNT/OBJ/TIME).
"""

from __future__ import annotations

from instances import Instance
from models.common import alpha, boxes, eq_leading, eq_parts, eq_words, golomb_ub, word_terms


def pv(name: str) -> str:
    """A Prolog variable for a canonical variable name."""
    return "V" + name.replace("[", "_").replace("]", "")


def plist(names) -> str:
    return "[" + ",".join(pv(n) for n in names) + "]"


def lin(word: str) -> str:
    return " + ".join(f"{k}*{pv(ch)}" if k != 1 else pv(ch) for k, ch in word_terms(word))


class Dialect:
    """Spelling of the few things that differ between clpfd and GNU Prolog."""

    def __init__(self, gnu: bool) -> None:
        self.gnu = gnu

    def header(self) -> str:
        if self.gnu:
            return (":- initialization(main).\n"
                    "now(T) :- statistics(real_time, [Ms, _]), T is Ms / 1000.0.\n"
                    "finish :- halt.\n")
        return (":- use_module(library(clpfd)).\n:- initialization(main, main).\n"
                "now(T) :- get_time(T).\nfinish.\n")

    def common(self) -> str:
        return (
            "out_sol(Vs) :- write('SOL'), out_vals(Vs), nl.\n"
            "out_vals([]).\nout_vals([V|Vs]) :- write(' '), write(V), out_vals(Vs).\n"
            "timed(G) :- now(T0), call(G), now(T1), T is T1 - T0,"
            " format('TIME ~6f~n', [T]).\n")

    def domain(self, vs: str, lo: int | str, hi: int | str) -> str:
        return f"fd_domain({vs}, {lo}, {hi})" if self.gnu else f"{vs} ins {lo}..{hi}"

    def alldiff(self, vs: str, strong: bool = False) -> str:
        if self.gnu:
            return f"fd_all_different({vs})"
        return f"all_distinct({vs})" if strong else f"all_different({vs})"

    def label(self, vs: str, ff: bool = False) -> str:
        if self.gnu:
            return f"fd_labelingff({vs})" if ff else f"fd_labeling({vs})"
        return f"labeling([ff], {vs})" if ff else f"label({vs})"

    def count(self, goal: str) -> str:
        if self.gnu:
            return f"findall(x, ({goal}), L), length(L, N), format('COUNT ~d~n', [N])"
        return f"aggregate_all(count, ({goal}), N), format('COUNT ~d~n', [N])"

    def optimise(self, vs: str, obj: str, sense: str) -> str:
        """Label vs optimising obj (a variable), then print OBJ and SOL."""
        if self.gnu:
            fn = "fd_minimize" if sense == "min" else "fd_maximize"
            goal = f"{fn}(fd_labeling({vs}), {obj})"
        else:
            goal = f"once(labeling([{sense}({obj})], {vs}))"
        return f"{goal}, format('OBJ ~d~n', [{obj}]), out_sol({vs})"


def all_solutions(d: Dialect) -> str:
    """A failure-driven loop printing every solution (forall/2 is not in GNU Prolog)."""
    return f"(model(Vs), {d.label('Vs')}, out_sol(Vs), fail ; true)"


def _model(inst: Instance, d: Dialect) -> tuple[str, str]:
    """(constraint posting goal over `Vs`, the search/output goal)."""
    p = inst.params
    vs = plist(inst.names)
    if inst.family == "trivial":
        post = f"Vs = {vs}, {d.domain('Vs', 0, 9)}, {pv('x')} #= 3"
        return post, f"model(Vs), {d.label('Vs')}, out_sol(Vs)"
    if inst.family == "snake":
        A, B, C, D, E, F, G, H, I = (pv(ch) for ch in inst.names)
        if p["integral"]:  # (GNU Prolog needs the quotients' domains: overflow otherwise)
            eq = (f"{d.domain('[Q1, Q2]', 0, 117)}, Q1*{C} #= 13*{B}, Q2*{I} #= {G}*{H}, "
                  f"{A} + Q1 + {D} + 12*{E} - {F} - 11 + Q2 - 10 #= 66")
        else:
            eq = f"({A} + {D} + 12*{E} - {F} - 87)*{C}*{I} + 13*{B}*{I} + {G}*{H}*{C} #= 0"
        post = f"Vs = {vs}, {d.domain('Vs', 1, 9)}, {d.alldiff('Vs')}, {eq}"
        return post, d.count(f"model(Vs), {d.label('Vs')}")
    if inst.family == "alphametic":
        a = alpha(inst)
        lhs = " + ".join(lin(w) for w in a.addends)
        lead = "".join(f", {pv(ch)} #\\= 0" for ch in sorted(a.leading))
        post = (f"Vs = {vs}, {d.domain('Vs', 0, 9)}, {d.alldiff('Vs')}{lead}, "
                f"{lhs} #= {lin(a.result)}")
        if inst.kind == "max":
            obj = f"Obj #= {lin(p['objective'])}"
            return post, f"model(Vs), Vs = {vs}, {obj}, {d.optimise('Vs', 'Obj', 'max')}"
        return post, all_solutions(d)
    if inst.family == "eqgrid":
        # one variable per number, as in the seed's Prolog program (GNU Prolog 1.4.5 also
        # fails `P * (100*X + 10*Y + Z) #= 1323` for P=7, X=1, Y=8, Z=9 without it)
        lead = "".join(f", {pv(ch)} #\\= 0" for ch in sorted(eq_leading(p["equations"])))
        words = eq_words(p["equations"])
        nums = [f"N{w} #= {lin(w)}" for w in words]
        rels = []
        for eq in p["equations"]:
            x, op, y, z = eq_parts(eq)
            if op == "/":
                rels += [f"N{y} #\\= 0", f"N{x} #= N{y}*N{z}"]
            else:
                rels.append(f"N{x} {op} N{y} #= N{z}")
        post = f"Vs = {vs}, {d.domain('Vs', 0, 9)}{lead}, " + ", ".join(nums + rels)
        return post, all_solutions(d)
    if inst.family == "sudoku":
        n = p["n"]
        rows = [[f"c{r}_{c}" for c in range(n)] for r in range(n)]
        groups = rows + [list(col) for col in zip(*rows, strict=True)]
        groups += [[f"c{r}_{c}" for r, c in box] for box in boxes(n)]
        parts = [f"Vs = {vs}", d.domain("Vs", 1, n)]
        parts += [f"{pv(f'c{r}_{c}')} = {val}" for r, row in enumerate(p["givens"])
                  for c, val in enumerate(row) if val]
        parts += [d.alldiff(plist(g), strong=True) for g in groups]
        parts += [f"{pv(f'c{r1}_{c1}')} #< {pv(f'c{r2}_{c2}')}" for r1, c1, r2, c2 in p["lt"]]
        return ",\n    ".join(parts), f"model(Vs), {d.label('Vs', ff=True)}, out_sol(Vs)"
    if inst.family == "queens":
        n = p["n"]
        post = f"length(Vs, {n}), {d.domain('Vs', 1, n)}, safe_queens(Vs)"
        return post, d.count(f"model(Vs), {d.label('Vs', ff=True)}")
    if inst.family == "magic":
        n = p["n"]
        s = n * (n * n + 1) // 2
        cells = [[f"x{r}_{c}" for c in range(n)] for r in range(n)]
        flat = [x for row in cells for x in row]
        lines = cells + [list(col) for col in zip(*cells, strict=True)]
        lines += [[cells[i][i] for i in range(n)], [cells[i][n - 1 - i] for i in range(n)]]
        sums = [" + ".join(pv(x) for x in line) + f" #= {s}" for line in lines]
        post = (f"Vs = {plist(flat)}, {d.domain('Vs', 1, n * n)}, {d.alldiff('Vs')}, "
                + ", ".join(sums))
        return post, d.count(f"model(Vs), {d.label('Vs')}")
    if inst.family == "golomb":
        n = p["n"]
        ms = [pv(x) for x in inst.names]
        diffs = [f"{ms[j]} - {ms[i]}" for i in range(n) for j in range(i + 1, n)]
        dvars = [f"D{i}" for i in range(len(diffs))]
        parts = [f"Vs = {vs}", d.domain("Vs", 0, golomb_ub(n)), f"{ms[0]} = 0"]
        parts += [f"{a} #< {b}" for a, b in zip(ms, ms[1:], strict=False)]
        parts += [f"{dv} #= {df}" for dv, df in zip(dvars, diffs, strict=True)]
        parts += [d.alldiff("[" + ",".join(dvars) + "]"),
                  f"{ms[1]} - {ms[0]} #< {ms[-1]} - {ms[-2]}"]
        return ",\n    ".join(parts), (f"model(Vs), Vs = {vs}, "
                                       + d.optimise("Vs", ms[-1], "min"))
    raise ValueError(f"no Prolog model for {inst.family}")


QUEENS = """
safe_queens([]).
safe_queens([Q|Qs]) :- safe_queens(Qs, Q, 1), safe_queens(Qs).
safe_queens([], _, _).
safe_queens([Q|Qs], Q0, D0) :-
    Q0 #\\= Q, Q0 #\\= Q + D0, Q0 #\\= Q - D0,
    D1 is D0 + 1, safe_queens(Qs, Q0, D1).
"""


def program(inst: Instance, gnu: bool) -> str:
    d = Dialect(gnu)
    post, run = _model(inst, d)
    return (d.header() + d.common() + (QUEENS if inst.family == "queens" else "")
            + f"model(Vs) :-\n    {post}.\n"
            + f"main :- timed(({run})), finish.\n")
