"""Distributed search on a real Dask cluster (a LocalCluster of two worker processes on
loopback): the same counts, solution sets and optima as the sequential search, from the
API and from the command line."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
import oracle
from conundrum.cli import main
from test_parallel import queens, sequential_options
from test_properties_harness import as_tuple, build, doms, names_for, scaled
from test_properties_models import constraint


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      host="127.0.0.1", dashboard_address=None) as local, \
            Client(local) as client:
        yield client


def test_counts_and_solutions_on_the_cluster(cluster: Any) -> None:
    m, q = queens(8)
    assert m.count(scheduler=cluster) == 92
    stats = m.stats
    assert stats.complete and stats.workers == 2 and stats.subproblems >= 30
    assert len(stats.worker_seconds) == 2  # both Dask workers searched
    seq = sorted(tuple(s[x] for x in q) for s in m.solutions())
    got = [tuple(s[x] for x in q) for s in m.solutions(scheduler=cluster)]
    assert sorted(got) == seq


def test_a_scheduler_address_works_like_a_client(cluster: Any) -> None:
    m, _ = queens(7)
    assert m.count(scheduler=cluster.scheduler.address) == 40


def test_ordered_solutions_are_those_of_local_workers(cluster: Any) -> None:
    """The same subproblems in the same order, each searched afresh: the ordered
    solutions of the cluster and of two local worker processes are one list."""
    m, q = queens(7)
    local = [tuple(s[x] for x in q) for s in m.solutions(workers=2, ordered=True)]
    remote = [tuple(s[x] for x in q) for s in m.solutions(scheduler=cluster, ordered=True)]
    assert remote == local and len(local) == 40


def test_optimum_on_the_cluster(cluster: Any) -> None:
    m = cn.Model()
    x = m.int_vars(6, 0, 20, "m")
    m += x[0] == 0
    m += cn.increasing(x, strict=True)
    m += cn.all_different([x[j] - x[i] for i in range(6) for j in range(i + 1, 6)])
    sol = m.minimize(x[-1], scheduler=cluster)
    assert sol is not None and sol[x[-1]] == 17 and m.stats.complete  # Golomb ruler, 6 marks


def test_lns_on_the_cluster(cluster: Any) -> None:
    """Neighbourhoods on the Dask workers, then the proof: the knapsack's optimum."""
    from optimisation_cases import knapsack

    m, total, optimum = knapsack(22, 1, spare=True)
    best = m.maximize(total, lns=True, scheduler=cluster)
    assert best is not None and best.value(total) == optimum
    assert m.stats.status == "optimal_solution"


@settings(max_examples=scaled(0.2))
@given(data=st.data())
def test_random_models_count_the_same_on_the_cluster(cluster: Any,
                                                     data: st.DataObject) -> None:
    n = data.draw(st.integers(3, 5), label="n")
    cs = data.draw(st.lists(constraint(n), min_size=1, max_size=3), label="constraints")
    domains = data.draw(doms(n, max_size=5, lo=-3, hi=3), label="domains")
    opts = data.draw(sequential_options(), label="options")
    b = build(domains, names_for(n), "\n".join(f"m += {c.src}" for c in cs))
    truth = sorted(oracle.solutions([d.values for d in domains],
                                    lambda t: all(bool(c.fn(t)) for c in cs)))
    assert b.m.count(scheduler=cluster, **opts) == len(truth)
    got = sorted(as_tuple(s, b.xs) for s in b.m.solutions(scheduler=cluster, **opts))
    assert got == truth


def test_the_command_line_searches_on_the_cluster(cluster: Any,
                                                  capsys: pytest.CaptureFixture) -> None:
    address = cluster.scheduler.address
    assert main(["queens", "8", "--count", "--scheduler", address]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "92"
    assert main(["queens", "6", "--all", "--json", "--scheduler", address, "--ordered"]) == 0
    assert len(capsys.readouterr().out.strip().splitlines()) == 4


def test_an_unreachable_scheduler_is_a_model_error() -> None:
    m, _ = queens(5)
    with pytest.raises(cn.ModelError, match="cannot reach the Dask scheduler"):
        m.count(scheduler="tcp://127.0.0.1:9")


def test_without_dask_the_scheduler_option_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    m, _ = queens(5)
    with pytest.raises(cn.ModelError, match=r"dask\[distributed\]"):
        m.count(scheduler="tcp://127.0.0.1:8786")
