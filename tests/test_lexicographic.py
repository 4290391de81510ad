"""Lexicographic objectives (`m.minimize([a, b, ...])`, model/lexicographic.py) against
brute force: the answer is the lexicographic optimum, proved; limits count over every
stage; the model is left as it was."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn


@st.composite
def models(draw):
    n = draw(st.integers(2, 4))
    doms = [(draw(st.integers(-2, 1)), draw(st.integers(1, 3))) for _ in range(n)]
    rows = [([draw(st.integers(-3, 3)) for _ in range(n)], draw(st.integers(-3, 5)))
            for _ in range(draw(st.integers(1, 2)))]
    objectives = [[draw(st.integers(-3, 3)) for _ in range(n)]
                  for _ in range(draw(st.integers(1, 3)))]
    return doms, rows, objectives


@settings(max_examples=80, deadline=None)
@given(models(), st.sampled_from(["min", "max"]),
       st.sampled_from(["classic", "learning", "auto"]))
def test_the_lexicographic_optimum(model, sense, search):
    doms, rows, objectives = model
    m = cn.Model()
    xs = [m.int_var(lo, hi, f"x{i}") for i, (lo, hi) in enumerate(doms)]
    for coefs, c in rows:
        m += cn.sum(a * x for a, x in zip(coefs, xs, strict=True)) <= c
    exprs = [cn.sum(a * x for a, x in zip(coefs, xs, strict=True)) for coefs in objectives]
    keys = [tuple(sum(a * v for a, v in zip(coefs, p, strict=True)) for coefs in objectives)
            for p in itertools.product(*(range(lo, hi + 1) for lo, hi in doms))
            if all(sum(a * v for a, v in zip(coefs, p, strict=True)) <= c
                   for coefs, c in rows)]
    solve = m.minimize if sense == "min" else m.maximize
    best = solve(exprs, search=search)
    if not keys:
        assert best is None and m.stats.status == "unsatisfiable"
        return
    expected = min(keys) if sense == "min" else max(keys)
    assert best is not None and tuple(best.value(e) for e in exprs) == expected
    assert m.stats.status == "optimal_solution"
    assert len(m.constraints) == len(rows)  # the stages' fixes were for their runs only


def jobs() -> tuple[cn.Model, cn.Expr, cn.Expr]:
    """Three jobs on one machine: the makespan first, then the sum of the end times."""
    m = cn.Model()
    duration = [3, 1, 2]
    start = m.int_vars(3, 0, 10, "s")
    m += cn.no_overlap(start, duration)
    m += start[0] >= 1  # job 0 waits for a delivery
    ends = [s + d for s, d in zip(start, duration, strict=True)]
    return m, cn.max(ends), cn.sum(ends)


def test_a_schedule_by_makespan_then_total_end():
    m, makespan, total = jobs()
    best = m.minimize([makespan, total])
    # makespan 6 with job 1, then 0, then 2 ends at 1, 4, 6; with job 2 before job 0, at
    # 1, 3, 6: the second objective picks that one
    assert (best.value(makespan), best.value(total)) == (6, 10)
    assert m.stats.status == "optimal_solution" and m.stats.objective == 10
    assert m.stats.solutions >= 2  # both stages' solutions are counted


def test_limits_count_over_every_stage():
    m, makespan, total = jobs()
    best = m.minimize([makespan, total], node_limit=3)
    assert m.stats.nodes <= 3 + 1
    assert m.stats.status in ("satisfied", "unknown")
    if best is not None:
        assert best.value(makespan) >= 6


def test_errors():
    m, makespan, total = jobs()
    with pytest.raises(cn.ModelError, match="empty"):
        m.minimize([])
    with pytest.raises(cn.ModelError, match="objective"):
        m.maximize([makespan, "cost"])
