"""python-constraint2 models (import `constraint`), in the style of its documentation:
variables with domains, AllDifferentConstraint, ExactSumConstraint with multipliers for
linear equations, and functions (lambdas) for everything else.  It has no optimisation:
a user enumerates (SEND+MOST) or tightens a bound and re-solves (Golomb)."""

from __future__ import annotations

import time

import constraint as pc

from instances import Instance
from models.common import Report, alpha, boxes, eq_leading, eq_parts, word_terms


def _snake(p: pc.Problem, integral: bool) -> None:
    if integral:
        def ok(a, b, c, d, e, f, g, h, i):
            if 13 * b % c or g * h % i:
                return False
            return a + 13 * b // c + d + 12 * e - f - 11 + g * h // i - 10 == 66
    else:
        def ok(a, b, c, d, e, f, g, h, i):  # exact: the equation multiplied by c*i
            return (a + d + 12 * e - f - 87) * c * i + 13 * b * i + g * h * c == 0
    p.addConstraint(ok, list("ABCDEFGHI"))


def _eqgrid(p: pc.Problem, equations: list[str]) -> None:
    def value(word: str, env: dict) -> int:
        return sum(k * env[ch] for k, ch in word_terms(word))

    for eq in equations:
        x, op, y, z = eq_parts(eq)
        letters = sorted(set(x + y + z))

        def ok(*vals, x=x, op=op, y=y, z=z, letters=letters):
            env = dict(zip(letters, vals, strict=True))
            a, b, c = value(x, env), value(y, env), value(z, env)
            if op == "+":
                return a + b == c
            if op == "-":
                return a - b == c
            if op == "*":
                return a * b == c
            return b != 0 and a == b * c

        p.addConstraint(ok, letters)


def _golomb(n: int, deadline: float) -> tuple[int, tuple[int, ...]] | None:
    """Smallest length L with a ruler, trying L = n(n-1)/2, ... in turn."""
    names = [f"m{i}" for i in range(n)]
    length = n * (n - 1) // 2
    while time.perf_counter() < deadline:
        p = pc.Problem()
        p.addVariable(names[0], [0])
        p.addVariables(names[1:-1], range(1, length))
        p.addVariable(names[-1], [length])
        for a, b in zip(names, names[1:], strict=False):
            p.addConstraint(lambda x, y: x < y, [a, b])
        p.addConstraint(lambda a, b, y, z: b - a < z - y, [names[0], names[1], *names[-2:]])

        def distinct(*ms):
            d = [ms[j] - ms[i] for i in range(len(ms)) for j in range(i + 1, len(ms))]
            return len(set(d)) == len(d)

        p.addConstraint(distinct, names)
        sol = p.getSolution()
        if sol:
            return length, tuple(sol[k] for k in names)
        length += 1
    return None


def solve(inst: Instance) -> Report:
    rep = Report()
    par = inst.params
    t0 = time.perf_counter()
    if inst.family == "golomb":
        found = _golomb(par["n"], t0 + 3600)
        if found:
            rep.objective, sol = found
            rep.solutions = [sol]
        rep.solver_time = time.perf_counter() - t0
        return rep
    p = pc.Problem()
    names = list(inst.names)
    if inst.family == "trivial":
        p.addVariable("x", range(10))
        p.addConstraint(lambda x: x == 3, ["x"])
    elif inst.family == "snake":
        p.addVariables(names, range(1, 10))
        p.addConstraint(pc.AllDifferentConstraint())
        _snake(p, par["integral"])
    elif inst.family == "alphametic":
        a = alpha(inst)
        for ch in a.letters:
            p.addVariable(ch, range(1 if ch in a.leading else 0, 10))
        p.addConstraint(pc.AllDifferentConstraint())
        coef = a.coefficients()
        p.addConstraint(pc.ExactSumConstraint(0, [coef[ch] for ch in a.letters]),
                        list(a.letters))
    elif inst.family == "eqgrid":
        lead = eq_leading(par["equations"])
        for ch in names:
            p.addVariable(ch, range(1 if ch in lead else 0, 10))
        _eqgrid(p, par["equations"])
    elif inst.family == "sudoku":
        n = par["n"]
        for r, row in enumerate(par["givens"]):
            for c, val in enumerate(row):
                p.addVariable(f"c{r}_{c}", [val] if val else range(1, n + 1))
        for i in range(n):
            p.addConstraint(pc.AllDifferentConstraint(), [f"c{i}_{c}" for c in range(n)])
            p.addConstraint(pc.AllDifferentConstraint(), [f"c{r}_{i}" for r in range(n)])
        for box in boxes(n):
            p.addConstraint(pc.AllDifferentConstraint(), [f"c{r}_{c}" for r, c in box])
        for r1, c1, r2, c2 in par["lt"]:
            p.addConstraint(lambda x, y: x < y, [f"c{r1}_{c1}", f"c{r2}_{c2}"])
    elif inst.family == "queens":
        n = par["n"]
        cols = range(n)
        p.addVariables(cols, range(n))
        for c1 in cols:
            for c2 in cols:
                if c1 < c2:
                    p.addConstraint(lambda r1, r2, d=c2 - c1: r1 != r2 and abs(r1 - r2) != d,
                                    (c1, c2))
    elif inst.family == "magic":
        n = par["n"]
        s = n * (n * n + 1) // 2
        cells = [[f"x{r}_{c}" for c in range(n)] for r in range(n)]
        p.addVariables([x for row in cells for x in row], range(1, n * n + 1))
        p.addConstraint(pc.AllDifferentConstraint())
        lines = cells + [list(col) for col in zip(*cells, strict=True)]
        lines += [[cells[i][i] for i in range(n)], [cells[i][n - 1 - i] for i in range(n)]]
        for line in lines:
            p.addConstraint(pc.ExactSumConstraint(s), line)
    else:
        raise ValueError(f"no python-constraint model for {inst.family}")

    if inst.kind == "count":
        rep.count = len(p.getSolutions())
    elif inst.kind == "all":
        rep.solutions = [tuple(s[k] for k in names) for s in p.getSolutions()]
    elif inst.kind == "one":
        s = p.getSolution()
        rep.solutions = [tuple(s[k] for k in names)] if s else []
    else:  # maximise by enumeration
        obj = par["objective"]
        best = max(p.getSolutions(), key=lambda s: sum(k * s[ch] for k, ch in word_terms(obj)))
        rep.objective = sum(k * best[ch] for k, ch in word_terms(obj))
        rep.solutions = [tuple(best[k] for k in names)]
    rep.solver_time = time.perf_counter() - t0
    return rep
