"""Small optimisation models shared by the optimisation tests (test_anytime, test_lns,
test_bisection, test_knapsack_bound): random linear models with their brute-force
objective values, and random 0/1 knapsacks with their optimum by dynamic programming."""

from __future__ import annotations

import itertools
import random

from hypothesis import strategies as st

import conundrum as cn

# (domains [(lo, hi)], rows [(coefficients, c)]: sum <= c, objective coefficients)
LinearModel = tuple[list[tuple[int, int]], list[tuple[list[int], int]], list[int]]


@st.composite
def linear_models(draw, max_vars: int = 4, wide: bool = False) -> LinearModel:
    """Up to `max_vars` variables over small domains, one to three `<=` rows; with `wide`
    the first objective coefficient is large (the objective spans far more than
    bisection.WIDE values) and the others small (its values dense)."""
    n = draw(st.integers(2, max_vars))
    doms = [(draw(st.integers(-3, 1 if not wide else 0)), draw(st.integers(1, 4)))
            for _ in range(n)]
    rows = [([draw(st.integers(-3, 3)) for _ in range(n)], draw(st.integers(-4, 6)))
            for _ in range(draw(st.integers(1, 3)))]
    if wide:
        objective = [draw(st.integers(10**5, 10**6)) * draw(st.sampled_from([-1, 1]))]
        objective += [draw(st.integers(-3, 3)) for _ in range(n - 1)]
    else:
        objective = [draw(st.integers(-4, 4)) for _ in range(n)]
    return doms, rows, objective


def build_linear(model: LinearModel) -> tuple[cn.Model, list[cn.Var], cn.Expr]:
    """The model, its variables and its objective."""
    doms, rows, objective = model
    m = cn.Model()
    xs = [m.int_var(lo, hi, f"x{i}") for i, (lo, hi) in enumerate(doms)]
    for coefs, c in rows:
        m += cn.sum(a * x for a, x in zip(coefs, xs, strict=True)) <= c
    return m, xs, cn.sum(a * x for a, x in zip(objective, xs, strict=True))


def objective_values(model: LinearModel) -> list[int]:
    """The objective's value in every solution, by brute force."""
    doms, rows, objective = model
    return [sum(a * v for a, v in zip(objective, p, strict=True))
            for p in itertools.product(*(range(lo, hi + 1) for lo, hi in doms))
            if all(sum(a * v for a, v in zip(coefs, p, strict=True)) <= c
                   for coefs, c in rows)]


def brute_optimum(model: LinearModel, sense: str) -> int | None:
    """The optimum ("min" or "max") by brute force; None without solutions."""
    values = objective_values(model)
    return (min if sense == "min" else max)(values) if values else None


def knapsack(n: int, seed: int, spare: bool = False) -> tuple[cn.Model, cn.Expr, int]:
    """A random 0/1 knapsack (half the weight fits), its value to maximise, and its optimum
    by dynamic programming. With `spare` the capacity row also has a term of negative
    coefficient (on a variable held at 0), which keeps the fractional knapsack bound
    (propagators/knapsack.py) off: plain branch and bound then takes long."""
    rng = random.Random(seed)
    weight = [rng.randint(10, 60) for _ in range(n)]
    value = [rng.randint(10, 60) for _ in range(n)]
    capacity = sum(weight) // 2
    m = cn.Model()
    take = m.int_vars(n, 0, 1, "t")
    used = cn.sum(w * t for w, t in zip(weight, take, strict=True))
    if spare:
        held = m.int_var(0, 1, "spare")
        m += held == 0
        m += used - held <= capacity
    else:
        m += used <= capacity
    best = [0] * (capacity + 1)
    for w, v in zip(weight, value, strict=True):
        for c in range(capacity, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return m, cn.sum(v * t for v, t in zip(value, take, strict=True)), best[capacity]
