"""The collector's thresholds during a search (compiler/collector.py): raised for the older
generations inside, the caller's back after, whatever the order contexts end in."""

from __future__ import annotations

import gc

import pytest

import conundrum as cn
from conundrum.compiler.collector import OLDER_THRESHOLD, RelaxedCollector


@pytest.fixture
def default_thresholds():
    found = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*found)


def test_raised_inside_and_restored_after(default_thresholds) -> None:
    with RelaxedCollector():
        assert gc.get_threshold() == (700, OLDER_THRESHOLD, OLDER_THRESHOLD)
    assert gc.get_threshold() == (700, 10, 10)


def test_overlapping_contexts_leave_the_callers_thresholds(default_thresholds) -> None:
    first, second = RelaxedCollector(), RelaxedCollector()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the outer one ends first (portfolio arms)
    second.__exit__(None, None, None)
    assert gc.get_threshold() == (700, 10, 10)


def test_thresholds_changed_inside_are_kept(default_thresholds) -> None:
    with RelaxedCollector():
        gc.set_threshold(500, 20, 30)
    assert gc.get_threshold() == (500, 20, 30)


def test_higher_thresholds_are_left_alone(default_thresholds) -> None:
    gc.set_threshold(1000, 500, 200)
    with RelaxedCollector():
        assert gc.get_threshold() == (1000, 500, 200)
    assert gc.get_threshold() == (1000, 500, 200)


@pytest.mark.parametrize("search", ["classic", "learning", "portfolio"])
def test_a_solve_restores_the_thresholds(default_thresholds, search) -> None:
    m = cn.Model()
    x = m.int_vars(6, 0, 5, "x")
    m += cn.all_different(x)
    seen: list[tuple[int, int, int]] = []
    count = 0
    for _ in m.solutions(search=search):
        seen.append(gc.get_threshold())
        count += 1
    assert count == 720
    assert all(t == (700, OLDER_THRESHOLD, OLDER_THRESHOLD) for t in seen)
    assert gc.get_threshold() == (700, 10, 10)
    m.minimize(x[0] + 2 * x[1], search=search)
    assert gc.get_threshold() == (700, 10, 10)
