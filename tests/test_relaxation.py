"""The linear relaxation's cut (compiler/relaxation.py, `lp=True`) and its simplex
(lp/simplex.py): the simplex against HiGHS on random LPs (status, optimum, and duals whose
Lagrangian bound is the optimum); the cut never removes a solution and gives the
optimum under every search against brute force; and it proves a transportation problem
(MiniZinc's shipping example) at its first optimal solution."""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import random

import highspy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.compiler.relaxation import relaxation_cut
from conundrum.engine import Inconsistency
from conundrum.lp import simplex
from conundrum.search.options import SearchOptions
from conundrum.search.stats import SearchStats
from optimisation_cases import brute_optimum, build_linear, linear_models

STATUS = {"Optimal": simplex.OPTIMAL, "Infeasible": simplex.INFEASIBLE,
          "Unbounded": simplex.UNBOUNDED, "Primal infeasible or unbounded": -1}


def highs(c, rows, le, b, lo, hi):
    """HiGHS's status and optimum on the same LP."""
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    n = len(c)
    for j in range(n):
        h.addVar(-inf if lo[j] == -math.inf else lo[j], inf if hi[j] == math.inf else hi[j])
        h.changeColCost(j, c[j])
    for row, is_le, bi in zip(rows, le, b, strict=True):
        idx = [j for j in range(n) if row[j] != 0]
        h.addRow(-inf if is_le else bi, bi, len(idx), idx, [row[j] for j in idx])
    h.run()
    status = STATUS.get(h.modelStatusToString(h.getModelStatus()), -2)
    return status, h.getInfo().objective_function_value


def random_lp(seed):
    rnd = random.Random(seed)
    n, m = rnd.randint(1, 7), rnd.randint(1, 7)
    c = [float(rnd.randint(-5, 5)) for _ in range(n)]
    rows = [[float(rnd.choice([0, 0, rnd.randint(-4, 4)])) for _ in range(n)] for _ in range(m)]
    le = [rnd.random() < 0.7 for _ in range(m)]
    b = [float(rnd.randint(-10, 10)) for _ in range(m)]
    lo = [float(rnd.randint(-5, 2)) if rnd.random() < 0.8 else -math.inf for _ in range(n)]
    hi = [max(lo_j, -5.0) + rnd.randint(0, 6) if rnd.random() < 0.8 else math.inf
          for lo_j in lo]
    return c, rows, le, b, lo, hi


def lagrangian(c, rows, b, lo, hi, duals):
    """min over the box of c.x + sum(duals_i (rows_i.x - b_i)): a lower bound on the LP."""
    total = -sum(w * bi for w, bi in zip(duals, b, strict=True))
    for j in range(len(c)):
        d = c[j] + sum(w * row[j] for w, row in zip(duals, rows, strict=True))
        if abs(d) < 1e-9:
            continue
        v = lo[j] if d > 0 else hi[j]
        if math.isinf(v):
            return -math.inf
        total += d * v
    return total


@pytest.mark.parametrize("block", range(4))
def test_the_simplex_against_highs(block):
    for seed in range(block * 500, block * 500 + 500):
        lp = random_lp(seed)
        ours = simplex.solve(*lp)
        status, value = highs(*lp)
        if status == -1:  # HiGHS leaves it open: one of the two
            assert ours.status in (simplex.INFEASIBLE, simplex.UNBOUNDED), seed
            continue
        assert ours.status == status, seed
        if status != simplex.OPTIMAL:
            continue
        assert ours.objective == pytest.approx(value, abs=1e-6), seed
        c, rows, le, b, lo, hi = lp
        assert all(w >= 0 for w, is_le in zip(ours.duals, le, strict=True) if is_le), seed
        assert lagrangian(c, rows, b, lo, hi, ours.duals) == pytest.approx(value, abs=1e-6)


def test_the_pivot_limit_ends_the_simplex():
    lp = random_lp(7)
    assert simplex.solve(*lp, max_pivots=0).status in (simplex.LIMIT, simplex.OPTIMAL)
    n = 30
    c = [-1.0] * n
    rows = [[float((i * j) % 7 + 1) for j in range(n)] for i in range(n)]
    result = simplex.solve(c, rows, [True] * n, [100.0] * n, [0.0] * n, [10.0] * n,
                           max_pivots=2)
    assert result.status == simplex.LIMIT and result.pivots == 2
    result = simplex.solve(c, rows, [True] * n, [100.0] * n, [0.0] * n, [10.0] * n,
                           max_work=100)
    assert result.status == simplex.LIMIT and 0 < result.pivots < 30


@settings(max_examples=200, deadline=None)
@given(linear_models(max_vars=4), st.sampled_from(["min", "max"]),
       st.sampled_from([{"search": "classic"}, {"search": "learning"},
                        {"search": "portfolio"}, {"search": "auto"}, {"lns": True},
                        {"time_limit": 30.0}]))
def test_the_optimum_under_the_cut_against_brute_force(model, sense, options):
    """Every search (and LNS, and the default under a time limit) ends at the optimum."""
    m, xs, objective = build_linear(model)
    best = (m.minimize if sense == "min" else m.maximize)(objective, lp=True, **options)
    optimum = brute_optimum(model, sense)
    if optimum is None:
        assert best is None and m.stats.status == "unsatisfiable"
        return
    assert best.value(objective) == optimum and m.stats.status == "optimal_solution"


@settings(max_examples=200, deadline=None)
@given(linear_models(max_vars=4), st.sampled_from([-1, 1]))
def test_the_cut_removes_no_solution(model, sense):
    """The cut is a valid inequality: with it posted (and no branch and bound), every
    solution of the model is still found; and the root bound it gives never passes the
    optimum."""
    m, xs, objective = build_linear(model)
    points = [p for p in itertools.product(*(range(lo, hi + 1) for lo, hi in model[0]))
              if all(sum(a * v for a, v in zip(coefs, p, strict=True)) <= c
                     for coefs, c in model[1])]
    compiled = compile_model(m.variables, m.constraints, objective, 0)
    if compiled is None:
        assert not points
        return
    try:
        cut = relaxation_cut(compiled.solver, compiled.obj, sense)
    except Inconsistency:  # the relaxation proves there is no solution
        assert not points
        return
    optimum = brute_optimum(model, "min" if sense < 0 else "max")
    if cut is not None and optimum is not None:
        assert (compiled.obj.lo <= optimum) if sense < 0 else (compiled.obj.hi >= optimum)
    compiled.obj = None  # enumerate every solution under the cut
    found = {tuple(v) for v in compiled.run(SearchOptions(), SearchStats(), 0.0)}
    index = [next(i for i, v in enumerate(m.variables) if v is x) for x in xs]
    assert {tuple(v[i] for i in index) for v in found} == set(points)


def shipping():
    """MiniZinc's shipping example (minizinc-examples, MIT): a transportation problem,
    whose LP optimum 450 is integral."""
    demand, production = [30, 20, 35, 20], [40, 40, 25]
    cost = [[6, 5, 7, 9], [3, 2, 4, 1], [7, 3, 9, 5]]
    m = cn.Model()
    ship = [[m.int_var(0, 1000, f"s{f}{w}") for w in range(4)] for f in range(3)]
    for w in range(4):
        m += cn.sum(ship[f][w] for f in range(3)) >= demand[w]
    for f in range(3):
        m += cn.sum(ship[f]) <= production[f]
    return m, cn.sum(cost[f][w] * ship[f][w] for f in range(3) for w in range(4))


def test_the_cut_proves_the_transportation_problem():
    m, cost = shipping()
    compiled = compile_model(m.variables, m.constraints, cost, -1, relax=True)
    assert compiled.obj.lo == 450  # the LP's bound, at the root
    plain = compile_model(m.variables, m.constraints, cost, -1)
    assert plain.obj.lo < 450
    for search in ("classic", "learning", "auto"):
        best = m.minimize(cost, lp=True, search=search, node_limit=5_000)
        assert best.value(cost) == 450 and m.stats.status == "optimal_solution", search
        assert m.stats.bound == 450
    best = m.minimize(cost, node_limit=5_000)  # the default posts it too
    assert m.stats.status == "optimal_solution"
    best = m.minimize(cost, lp=False, search="classic", node_limit=5_000)
    assert m.stats.status != "optimal_solution" and m.stats.bound < 450


def test_the_command_line_switches_it_off(tmp_path):
    """`conundrum fzn` posts the cut unless --no-lp: shipping's FlatZinc, proved within
    a second by default, is not proved in the same node budget without it."""
    fzn = tmp_path / "shipping.fzn"
    rows = [f"var 0..1000: s{i};" for i in range(12)]
    cost = [6, 5, 7, 9, 3, 2, 4, 1, 7, 3, 9, 5]
    rows.append("var 0..100000: total :: output_var;")
    for w, need in enumerate([30, 20, 35, 20]):
        rows.append(f"constraint int_lin_le([-1,-1,-1],[s{w},s{w + 4},s{w + 8}],{-need});")
    for f, cap in enumerate([40, 40, 25]):
        terms = ",".join(f"s{4 * f + w}" for w in range(4))
        rows.append(f"constraint int_lin_le([1,1,1,1],[{terms}],{cap});")
    terms = ",".join(f"s{i}" for i in range(12))
    rows.append(f"constraint int_lin_eq([{','.join(map(str, cost))},-1],[{terms},total],0);")
    rows.append("solve minimize total;")
    fzn.write_text("\n".join(rows) + "\n")
    from conundrum.cli import main

    def run(*flags):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(["fzn", "-s", "--search", "classic", "--no-lns", "-t", "3000", *flags,
                  str(fzn)])
        return out.getvalue()

    default = run()
    assert "total = 450;" in default and "==========" in default
    assert "==========" not in run("--no-lp")


def test_the_option_is_checked():
    m, cost = shipping()
    with pytest.raises(cn.ModelError, match="lp must be"):
        m.minimize(cost, lp="yes")


@st.composite
def mixed_models(draw):
    """Two to three small variables, a linear row, a reified row b <=> (row <= c) or
    (row == c), and r = array[x0] over constants: what Relaxation linearises beyond the
    linear rows (big-M rows, the element's convex hull)."""
    n = draw(st.integers(2, 3))
    doms = [(draw(st.integers(-2, 1)), draw(st.integers(1, 3))) for _ in range(n)]
    row = ([draw(st.integers(-3, 3)) for _ in range(n)], draw(st.integers(-3, 5)))
    reified = ([draw(st.integers(-3, 3)) for _ in range(n)], draw(st.integers(-3, 5)),
               draw(st.sampled_from(["le", "eq"])))
    array = [draw(st.integers(-6, 6)) for _ in range(draw(st.integers(2, 6)))]
    # literals of x0's values (l <=> x0 == v, or x0 != v), one value possibly without:
    # the direct encoding that ties the element to the literals
    skip = draw(st.integers(doms[0][0] - 1, doms[0][1]))
    lits = [(v, draw(st.booleans())) for v in range(doms[0][0], doms[0][1] + 1) if v != skip]
    objective = [draw(st.integers(-3, 3)) for _ in range(n + 2 + len(lits))]
    return doms, row, reified, array, objective, lits


def build_mixed(spec):
    doms, (coefs, c), (rcoefs, rc, rel), array, objective, lits = spec
    m = cn.Model()
    xs = [m.int_var(lo, hi, f"x{i}") for i, (lo, hi) in enumerate(doms)]
    b = m.bool_var("b")
    r = m.int_var(-10, 10, "r")
    m += cn.sum(a * x for a, x in zip(coefs, xs, strict=True)) <= c
    lhs = cn.sum(a * x for a, x in zip(rcoefs, xs, strict=True))
    m += b == ((lhs <= rc) if rel == "le" else (lhs == rc))
    m += r == cn.element(array, xs[0] - doms[0][0])
    ls = [m.bool_var(f"l{v}") for v, _ in lits]
    for lit, (v, positive) in zip(ls, lits, strict=True):
        m += lit == ((xs[0] == v) if positive else (xs[0] != v))
    terms = [*xs, b, r, *ls]
    return m, terms, cn.sum(a * t for a, t in zip(objective, terms, strict=True))


def mixed_points(spec):
    doms, (coefs, c), (rcoefs, rc, rel), array, _, lits = spec
    for p in itertools.product(*(range(lo, hi + 1) for lo, hi in doms)):
        if sum(a * v for a, v in zip(coefs, p, strict=True)) > c:
            continue
        k = p[0] - doms[0][0]
        if k >= len(array):
            continue
        s = sum(a * v for a, v in zip(rcoefs, p, strict=True))
        yield (*p, int(s <= rc if rel == "le" else s == rc), array[k],
               *(int((p[0] == v) == positive) for v, positive in lits))


@settings(max_examples=300, deadline=None)
@given(mixed_models(), st.sampled_from([-1, 1]),
       st.sampled_from([{"search": "classic"}, {"search": "learning"}, {"search": "auto"},
                        {"lns": True}]))
def test_the_big_m_rows_and_the_element_hull_remove_no_solution(spec, sense, options):
    m, terms, objective = build_mixed(spec)
    points = set(mixed_points(spec))
    compiled = compile_model(m.variables, m.constraints, objective, 0)
    if compiled is None:
        assert not points
        return
    try:
        relaxation_cut(compiled.solver, compiled.obj, sense)
    except Inconsistency:
        assert not points
        return
    compiled.obj = None
    index = [next(i for i, v in enumerate(m.variables) if v is t) for t in terms]
    found = {tuple(v[i] for i in index)
             for v in compiled.run(SearchOptions(), SearchStats(), 0.0)}
    assert found == points
    values = [sum(a * v for a, v in zip(spec[4], p, strict=True)) for p in points]
    best = (m.minimize if sense < 0 else m.maximize)(objective, **options)
    if not values:
        assert best is None
    else:
        assert best.value(objective) == (min(values) if sense < 0 else max(values))
