"""search="auto", the default (search/auto.py): on the benchmark's optimisation rows it
keeps the classic search's tree node for node (they have an all_different, or finish before
the switch), and on a hard row it goes on learning."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import instances  # noqa: E402
from models import cn_models  # noqa: E402

ROWS = ["golomb-6", "golomb-8", "send-most-money-max", "jobshop-ft06", "tsp-10"]


def optimise(name: str, **options: object) -> tuple[int, int, str, str]:
    inst = instances.by_name()[name]
    m, _, obj = cn_models.build(inst)
    solve = m.minimize if inst.kind == "min" else m.maximize
    best = solve(obj, **options)
    assert best is not None
    return best.value(obj), m.stats.nodes, m.stats.search, m.stats.status


@pytest.mark.parametrize("name", ROWS)
def test_auto_keeps_the_classic_tree_on_the_benchmark_rows(name: str) -> None:
    classic = optimise(name, search="classic")
    assert classic[3] == "optimal_solution"
    assert optimise(name, search="auto") == classic
    assert optimise(name) == classic  # auto is the default


def test_a_hard_row_goes_on_learning() -> None:
    # a budget of 1,000 failures instead of the default 10,000 keeps the test short
    value, _, search, _ = optimise("hard-jobshop-la01", search="auto:1000",
                                   node_limit=20_000)
    assert search == "learning" and value >= 666


def test_a_learning_heuristic_asks_for_learning() -> None:
    """var_select="activity" without a search named: the default auto learns from the
    start rather than dropping the heuristic."""
    _, _, search, status = optimise("jobshop-ft06", var_select="activity")
    assert (search, status) == ("learning", "optimal_solution")
