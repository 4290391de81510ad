"""Model.improving: the public generator of improving solutions (branch and bound).

On small random models, checked against brute force: every solution it yields satisfies
the model, each is strictly better than the one before, the last is the optimum (proved),
and minimize/maximize return that last one after the same search. Then: with two workers,
with node, time and solution limits (what it yields is a valid prefix), closed early, on
an unsatisfiable model, and the errors. Last, no module outside model/ reaches into the
private parts of Model or Solution (FlatZinc streams this generator instead).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import conundrum as cn
import oracle
from test_parallel import children
from test_properties_harness import (
    VALUE_SELECTS,
    VAR_SELECTS,
    Dom,
    Expr,
    as_tuple,
    binop,
    build,
    doms,
    int_expr,
    linear_expr,
    names_for,
    repro,
    scaled,
)
from test_properties_models import constraint

# objectives defined on every assignment (no division): the brute-force optimum is the
# best value over the solutions, with no undefined case to argue about
TOTAL_OPS = ["+", "-", "*", "neg", "abs", "min", "max", "pow"]


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[Dom], list[Expr], Expr]:
    """A few variables with small domains, a few random constraints, a random objective."""
    n = draw(st.integers(2, 4), label="variables")
    domains = draw(doms(n, max_size=4, lo=-3, hi=3), label="domains")
    cs = draw(st.lists(constraint(n), min_size=0, max_size=2), label="constraints")
    # a nonlinear part and a linear one: with a single variable as objective, the first
    # solution would often be the optimum already (value_select "min" or "max")
    objective = binop("+", draw(int_expr(n, 2, TOTAL_OPS), label="objective"),
                      draw(linear_expr(n, 2), label="linear part"))
    return domains, cs, objective


@st.composite
def options(draw: st.DrawFn) -> dict[str, Any]:
    """Search options of the complete method (lds and bbs do not prove an optimum)."""
    return {"var_select": draw(st.sampled_from(VAR_SELECTS)),
            "value_select": draw(st.sampled_from(VALUE_SELECTS)),
            "seed": draw(st.integers(0, 3))}


def better(a: Any, b: Any, sense: str) -> bool:
    return b < a if sense == "min" else b > a


def assert_improving_and_valid(values: list[Any], tuples: list[tuple[int, ...]],
                               domains: list[Dom], cs: list[Expr], sense: str) -> None:
    """Every tuple is a solution of the model (brute-force meaning, not the library's
    checker) and each objective value strictly improves on the one before."""
    for t in tuples:
        assert all(v in d.values for v, d in zip(t, domains, strict=True)), f"{t} off domain"
        assert oracle.holds(lambda a: all(bool(c.fn(a)) for c in cs), t), f"{t} violates"
    for a, b in itertools.pairwise(values):
        assert better(a, b, sense), f"not strictly improving ({sense}): {values}"


def setup(domains: list[Dom], cs: list[Expr], objective: Expr) -> Any:
    src = "\n".join(f"m += {c.src}" for c in cs) + f"\nobjective = {objective.src}"
    note("model:\n" + repro(domains, names_for(len(domains)), src))
    return build(domains, names_for(len(domains)), src)


@given(problems(), st.sampled_from(["min", "max"]), options())
def test_each_solution_improves_and_the_last_is_the_brute_force_optimum(
        problem: tuple[list[Dom], list[Expr], Expr], sense: str, opts: dict[str, Any],
) -> None:
    domains, cs, objective = problem
    b = setup(domains, cs, objective)
    obj = b.env["objective"]
    sols = list(b.m.improving(obj, sense, **opts))
    stats = b.m.stats
    tuples = [as_tuple(s, b.xs) for s in sols]
    values = [objective.fn(t) for t in tuples]
    assert [s.value(obj) for s in sols] == values  # the library reads them the same way
    assert_improving_and_valid(values, tuples, domains, cs, sense)
    assert stats.solutions == len(sols) and stats.complete

    truth = oracle.solutions([d.values for d in domains],
                             lambda t: all(bool(c.fn(t)) for c in cs))
    want = oracle.optimum(truth, objective.fn, sense)
    if want is None:
        assert sols == [] and stats.status == "unsatisfiable"
    else:
        assert values[-1] == want and stats.status == "optimal_solution"

    # minimize/maximize: the same search, ending on the same solution
    best = (b.m.minimize if sense == "min" else b.m.maximize)(obj, **opts)
    assert best == (sols[-1] if sols else None)
    again = b.m.stats
    assert (again.nodes, again.fails, again.solutions, again.status) == (
        stats.nodes, stats.fails, stats.solutions, stats.status)


@settings(max_examples=scaled(0.1))
@given(problems(), st.sampled_from(["min", "max"]))
def test_two_workers_improve_and_end_on_the_optimum(
        problem: tuple[list[Dom], list[Expr], Expr], sense: str) -> None:
    domains, cs, objective = problem
    b = setup(domains, cs, objective)
    sols = list(b.m.improving(b.env["objective"], sense, workers=2))
    tuples = [as_tuple(s, b.xs) for s in sols]
    values = [objective.fn(t) for t in tuples]
    assert_improving_and_valid(values, tuples, domains, cs, sense)
    truth = oracle.solutions([d.values for d in domains],
                             lambda t: all(bool(c.fn(t)) for c in cs))
    want = oracle.optimum(truth, objective.fn, sense)
    assert b.m.stats.complete
    assert (values[-1] if values else None) == want
    assert children() == []


# ----------------------------------------------------- a knapsack: many improvements

def knapsack(n: int) -> tuple[cn.Model, list[cn.Var], cn.Expr, list[int], list[int], int]:
    """A 0/1 knapsack of n items (weights 5..30, values near them, half the weight fits):
    branch and bound improves many times on it, and the parallel search's workers find
    some of the improvements (the coordinator's probe alone does not finish it)."""
    w = [5 + (7 * i * i + 3 * i) % 26 for i in range(n)]
    v = [x + (5 * i) % 7 - 3 for i, x in enumerate(w)]
    cap = sum(w) // 2
    m = cn.Model()
    take = [m.bool_var(f"take{i}") for i in range(n)]
    # the capacity as an equation with a slack: the knapsack bound (propagators/knapsack.py)
    # reads `<=` rows and would cut the long branch and bound these tests need short
    m += cn.sum(a * t for a, t in zip(w, take)) + m.int_var(0, cap, "slack") == cap
    return m, take, cn.sum(a * t for a, t in zip(v, take)), w, v, cap


def best_value(w: list[int], v: list[int], cap: int) -> int:
    """The knapsack optimum by dynamic programming over capacities (no search)."""
    best = [0] * (cap + 1)
    for wi, vi in zip(w, v):
        for c in range(cap, wi - 1, -1):
            best[c] = max(best[c], best[c - wi] + vi)
    return best[cap]


def knapsack_values(sols: list[cn.Solution], take: list[cn.Var], w: list[int], v: list[int],
                    cap: int) -> list[int]:
    """The value of each solution, each checked to fit (independently of the library)."""
    values = []
    for s in sols:
        chosen = [s[t] for t in take]
        assert sum(a * c for a, c in zip(w, chosen)) <= cap
        values.append(sum(a * c for a, c in zip(v, chosen)))
    return values


def test_knapsack_sequence_with_and_without_workers() -> None:
    m, take, value, w, v, cap = knapsack(18)
    optimum = best_value(w, v, cap)
    # (lp=False: the relaxation's fractional bound would end the run in a few steps)
    sols = list(m.improving(value, "max", lp=False))
    values = knapsack_values(sols, take, w, v, cap)
    assert len(values) > 10 and values == sorted(set(values))
    assert values[-1] == optimum and m.stats.status == "optimal_solution"

    par = list(m.improving(value, "max", workers=2, lp=False))
    stats = m.stats
    par_values = knapsack_values(par, take, w, v, cap)
    assert par_values == sorted(set(par_values)) and par_values[-1] == optimum
    assert stats.status == "optimal_solution" and stats.workers == 2 and stats.subproblems
    assert children() == []
    assert m.maximize(value, workers=2).value(value) == optimum
    first = list(m.improving(value, "max", workers=2, limit=3, lp=False))
    assert len(first) == 3 and m.stats.stopped_by == "limit" and children() == []
    knapsack_values(first, take, w, v, cap)


@pytest.mark.parametrize("limit", [{"node_limit": 40}, {"node_limit": 400}, {"limit": 1},
                                   {"limit": 5}])
def test_a_limit_gives_a_prefix_of_the_sequence(limit: dict[str, int]) -> None:
    """Stopped early, it yields the first solutions of the whole run (the search is the
    same until the limit), each valid, and says it did not finish."""
    m, take, value, w, v, cap = knapsack(14)
    whole = list(m.improving(value, "max", lp=False))  # (a long run: no relaxation)
    part = list(m.improving(value, "max", lp=False, **limit))  # type: ignore[arg-type]
    stats = m.stats
    # (a node limit may come after the last improvement, before the proof)
    assert 0 < len(part) <= len(whole) and part == whole[:len(part)]
    knapsack_values(part, take, w, v, cap)
    assert stats.stopped_by == next(iter(limit)) and not stats.complete
    assert stats.status == "satisfied" and stats.solutions == len(part)


def test_a_time_limit_stops_it_and_what_it_gave_is_valid() -> None:
    m, take, value, w, v, cap = knapsack(26)  # minutes of search without the limit
    sols = list(m.improving(value, "max", time_limit=0.3, lp=False))
    stats = m.stats
    values = knapsack_values(sols, take, w, v, cap)
    assert values and values == sorted(set(values))
    assert stats.stopped_by == "time_limit" and stats.status == "satisfied"
    assert stats.seconds < 5


def test_limit_0_and_a_limit_beyond_the_end() -> None:
    m, _, value, *_ = knapsack(8)
    assert list(m.improving(value, "max", limit=0)) == []
    assert m.stats.stopped_by == "limit" and m.stats.status == "unknown"
    whole = list(m.improving(value, "max"))
    assert list(m.improving(value, "max", limit=len(whole) + 1)) == whole
    assert m.stats.status == "optimal_solution"


def test_it_is_lazy_and_closing_it_stops_the_search() -> None:
    m, _, value, *_ = knapsack(14)
    before = m.stats
    run = m.improving(value, "max")
    assert m.stats is before  # nothing runs until the first solution is asked for
    first = next(run)
    assert m.stats is not before and m.stats.solutions == 1
    run.close()
    assert m.stats.stopped_by == "closed" and m.stats.status == "satisfied"
    assert first.value(value) == 0  # the first branch takes nothing

    run = m.improving(value, "max", workers=2)
    next(run)
    run.close()
    assert m.stats.stopped_by == "closed" and children() == []


@pytest.mark.parametrize("workers", [1, 2])
def test_an_unsatisfiable_model_yields_nothing(workers: int) -> None:
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 5)
    m += x + y == 7
    m += x == y
    assert list(m.improving(x - y, "min", workers=workers)) == []
    assert m.stats.status == "unsatisfiable" and m.stats.complete
    assert m.minimize(x - y, workers=workers) is None


def test_a_constant_objective_gives_one_solution_proved_optimal() -> None:
    m = cn.Model()
    x = m.int_var(0, 3, "x")
    m += x >= 2
    for objective in (5, True, x - x):
        assert [s[x] for s in m.improving(objective, "max")] == [2]
        assert m.stats.status == "optimal_solution"


# ------------------------------------------------------------------------------ errors

@pytest.mark.parametrize(("call", "message"), [
    (lambda m, x: m.improving(x, "minimize"), "sense must be 'min' or 'max', not 'minimize'"),
    (lambda m, x: m.improving(x, -1), "sense must be 'min' or 'max', not -1"),
    (lambda m, x: m.improving(x, sense=None), "sense must be 'min' or 'max', not None"),
    (lambda m, x: m.improving("x"), "'x' (str) cannot be used in an objective"),
    (lambda m, x: m.improving([x, x]), "(list) cannot be used in an objective"),
    (lambda m, x: m.improving(0.5), "float 0.5 in an objective"),
    (lambda m, x: m.improving(x, limit=-1), "limit must be >= 0, not -1"),
    (lambda m, x: m.improving(x, limit=True), "limit must be an integer, not True"),
    (lambda m, x: m.improving(x, limt=3), "unknown search option(s): limt"),
    (lambda m, x: m.improving(x, var_select="first-fail"), "first-fail"),
    (lambda m, x: m.improving(x, workers=0), "workers must be an integer >= 1"),
    (lambda m, x: m.minimize(x, limit=3), "unknown search option(s): limit"),
])
def test_mistakes_are_model_errors_raised_at_the_call(call: Any, message: str) -> None:
    m = cn.Model()
    x = m.int_var(0, 3, "x")
    with pytest.raises(cn.ModelError) as e:
        call(m, x)  # not iterated: the arguments are checked before any search
    assert message in str(e.value)


@pytest.mark.parametrize("optimise", [
    lambda m, y: m.improving(y + 1, "max"),
    lambda m, y: m.minimize(y),
    lambda m, y: m.maximize(2 * y),
])
def test_an_objective_over_another_models_variables_is_refused(optimise: Any) -> None:
    # it used to optimise whichever variable of this model shared the other's number
    m, other = cn.Model(), cn.Model()
    m.int_var(0, 3, "x")
    y = other.int_var(0, 3, "y")
    with pytest.raises(cn.ModelError, match="'y' in .* belongs to another model"):
        optimise(m, y)


def test_a_fractional_objective_is_refused_when_the_search_starts() -> None:
    m = cn.Model()
    x = m.int_var(0, 3, "x")
    with pytest.raises(cn.ModelError, match="objective must be integer-valued"):
        list(m.improving(x / 2))


# ------------------------------------------------------ the front door's private parts

SRC = Path(cn.__file__).parent


def private_names() -> set[str]:
    """The private attributes of Model and Solution (methods and instance attributes), but
    IPython's display protocol (`_repr_html_`), which notebooks call from outside."""
    m = cn.Model()
    x = m.int_var(0, 1, "x")
    sol = m.solve()
    assert sol is not None
    names = set(dir(cn.Model)) | set(vars(m)) | set(dir(cn.Solution)) | set(vars(sol))
    del x
    return {n for n in names if n.startswith("_") and not n.startswith(("__", "_repr_"))}


def test_no_module_outside_model_uses_a_private_part_of_model_or_solution() -> None:
    """Only `self.` and `cls.` may name them, and only inside model/: FlatZinc, parallel
    search and the rest go through the public API (Model.improving and the others)."""
    private = private_names()
    assert {"_run", "_snapshot", "_solution", "_values"} <= private
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path.parent.name == "model" and path.parent.parent == SRC:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr in private
                    and not (isinstance(node.value, ast.Name)
                             and node.value.id in ("self", "cls"))):
                found.append(f"{path.relative_to(SRC)}:{node.lineno} .{node.attr}")
    assert not found, "\n".join(found)
