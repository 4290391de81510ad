"""Restarts with nogoods (issue 29, slice 1b): the sequences, the nogoods of a search stack,
and searches that restart often giving exactly the classic answers.

The property harness (test_properties_harness.py) also draws `restarts` for every property
test; these tests pin the pieces and the larger models."""

from __future__ import annotations

import itertools

import pytest

import conundrum as cn
from conundrum.engine import Solver
from conundrum.engine import literals as lit
from conundrum.engine.literals import Pred
from conundrum.search import selectors as sel
from conundrum.search.restarts import (
    RestartPolicy,
    decision_preds,
    luby,
    parse_restarts,
    refuted_nogoods,
)


def queens(n: int) -> tuple[cn.Model, list[cn.Var]]:
    m = cn.Model()
    q = [m.int_var(0, n - 1, f"q{i}") for i in range(n)]
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(n)])
    m += cn.all_different([q[i] - i for i in range(n)])
    return m, q


def golomb(n: int, ub: int) -> tuple[cn.Model, list[cn.Var]]:
    m = cn.Model()
    x = [m.int_var(0, ub, f"x{i}") for i in range(n)]
    m += x[0] == 0
    for i in range(n - 1):
        m += x[i] < x[i + 1]
    m += cn.all_different([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
    return m, x


# ------------------------------------------------------------------ the sequences
def test_luby_sequence() -> None:
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    # every block 2^k - 1 ends with 2^(k-1) and repeats the sequence before it twice
    for k in range(2, 9):
        n = (1 << k) - 1
        half = (1 << (k - 1)) - 1
        seq = [luby(i) for i in range(1, n + 1)]
        assert seq[-1] == 1 << (k - 1)
        assert seq[:half] == seq[half:2 * half]
    with pytest.raises(ValueError):
        luby(0)


def test_restart_policy_lengths() -> None:
    policy = RestartPolicy("luby", 10)
    due = [policy.next_at]
    for _ in range(6):
        policy.restarted(policy.next_at)
        due.append(policy.next_at)
    assert due == [10, 20, 40, 50, 60, 80, 120]
    geo = RestartPolicy("geometric", 100)
    lengths = [geo.length()]
    for _ in range(3):
        geo.restarted(0)
        lengths.append(geo.length())
    assert lengths == [100, 150, 225, 337]
    for kind, want in (("linear", [7, 14, 21, 28]), ("constant", [7, 8, 9, 10])):
        policy = RestartPolicy(kind, 7)
        lengths = [policy.length()]
        for _ in range(3):
            policy.restarted(0)
            lengths.append(policy.length())
        assert lengths == want, kind


@pytest.mark.parametrize("spec, parsed", [(None, None), ("luby", ("luby", 100)),
                                          ("Geometric", ("geometric", 100)),
                                          ("luby:7", ("luby", 7)),
                                          ("geometric:1", ("geometric", 1)),
                                          ("linear:3", ("linear", 3)),
                                          ("constant", ("constant", 100))])
def test_parse_restarts(spec: object, parsed: object) -> None:
    assert parse_restarts(spec) == parsed


@pytest.mark.parametrize("spec", ["", "lubi", "luby:0", "luby:-3", "luby:x", 3, True])
def test_parse_restarts_rejects(spec: object) -> None:
    with pytest.raises(ValueError, match="restarts"):
        parse_restarts(spec)


def test_bad_restarts_are_model_errors() -> None:
    m, q = queens(4)
    with pytest.raises(cn.ModelError, match="bad restarts"):
        m.count(restarts="sometimes")
    with pytest.raises(cn.ModelError, match="lds"):
        m.count(restarts="luby", method="lds:2")


# ------------------------------------------------------------ nogoods of a stack
def test_decision_preds() -> None:
    s = Solver()
    x = s.int_var(0, 9)
    wide = s.int_var(0, 9, bitset=False)
    assert decision_preds(x, sel.EQ, 3) == [Pred(x, lit.EQ, 3)]
    assert decision_preds(x, sel.NE, 3) == [Pred(x, lit.NE, 3)]
    assert decision_preds(x, sel.GT, 3) == [Pred(x, lit.GE, 4)]
    # an equality on a bounds-only domain is its two bounds (a hole cannot be made there)
    assert decision_preds(wide, sel.EQ, 5) == [Pred(wide, lit.GE, 5), Pred(wide, lit.LE, 5)]


def test_refuted_nogoods() -> None:
    s = Solver()
    x, y, z = s.int_var(0, 3), s.int_var(0, 3), s.int_var(0, 3)
    eq_ne = ((sel.EQ, 1), (sel.NE, 1))
    # x=1 refuted, searching x!=1 (its last alternative: dropped from the path);
    # y: searching y<=1, nothing refuted; z (the top): z=2 and z!=2 both tried and failed
    stack = [[x, eq_ne, 2, 1], [y, ((sel.LE, 1), (sel.GT, 1)), 1, 1],
             [z, ((sel.EQ, 2), (sel.NE, 2)), 2, 2]]
    assert refuted_nogoods(stack) == [
        [Pred(x, lit.EQ, 1)],
        [Pred(y, lit.LE, 1)],  # the top frame is exhausted: its path is refuted
    ]
    # the top frame has one alternative left: only its tried one is refuted
    stack[2][2] = 1
    assert refuted_nogoods(stack) == [
        [Pred(x, lit.EQ, 1)],
        [Pred(y, lit.LE, 1), Pred(z, lit.EQ, 2)],
    ]
    # a three-way split searching its second alternative, then one more frame
    stack = [[x, ((sel.EQ, 2), (sel.LE, 1), (sel.GT, 2)), 2, 1], [y, eq_ne, 1, 1]]
    assert refuted_nogoods(stack) == [
        [Pred(x, lit.EQ, 2)],
        [Pred(x, lit.LE, 1), Pred(y, lit.EQ, 1)],
    ]
    # the root frame exhausted: the empty nogood (the whole tree is refuted)
    assert refuted_nogoods([[x, eq_ne, 2, 1]]) == [[]]


# ----------------------------------------------------- exact answers with restarts
HEURISTICS = [("dom_wdeg", "auto"), ("input_order", "min"), ("first_fail", "split"),
              ("most_constrained", "random"), ("occurrence", "middle"),
              ("anti_first_fail", "reverse_split")]


@pytest.mark.parametrize("n", [6, 7, 8])
@pytest.mark.parametrize("restarts", ["luby:1", "geometric:2", "linear:1", "constant:1"])
def test_queens_counts_and_solutions(n: int, restarts: str) -> None:
    m, q = queens(n)
    truth = {tuple(s[x] for x in q) for s in m.solutions()}
    assert len(truth) == m.count()
    for var_select, value_select in HEURISTICS:
        opts = {"var_select": var_select, "value_select": value_select,
                "restarts": restarts, "seed": 2}
        got = [tuple(s[x] for x in q) for s in m.solutions(**opts)]
        assert m.stats.complete and m.stats.status == "all_solutions"
        assert len(got) == len(set(got)) and set(got) == truth, opts
        assert m.count(**opts) == len(truth)
    assert m.stats.restarts > 0  # the runs did restart


@pytest.mark.parametrize("restarts", ["luby:1", "luby:4", "geometric:1", "constant:1"])
def test_golomb_optimum(restarts: str) -> None:
    m, x = golomb(6, 25)
    want = m.minimize(x[-1])
    best = m.minimize(x[-1], restarts=restarts)
    assert best is not None and want is not None
    assert best[x[-1]] == want[x[-1]] == 17
    assert m.stats.status == "optimal_solution" and m.stats.restarts > 0


def test_improving_solutions_with_restarts() -> None:
    m, x = golomb(6, 25)
    values = [s[x[-1]] for s in m.improving(x[-1], "min", restarts="luby:1",
                                             var_select="input_order")]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert values[-1] == 17


def test_projection_with_restarts() -> None:
    m = cn.Model()
    a, b, c = (m.int_var(0, 3, n) for n in "abc")
    m += a + b + c == 4
    truth = {(va, vb) for va, vb, vc in itertools.product(range(4), repeat=3)
             if va + vb + vc == 4}
    for restarts in ("luby:1", "geometric:1"):
        got = [(s[a], s[b]) for s in m.solutions(project=[a, b], restarts=restarts)]
        assert len(got) == len(set(got)) and set(got) == truth
        assert m.count(project=[a, b], restarts=restarts) == len(truth)


def test_unsatisfiable_with_restarts() -> None:
    m, q = queens(3)
    assert m.solve(restarts="luby:1") is None
    assert m.stats.status == "unsatisfiable" and m.stats.complete


def test_limits_with_restarts() -> None:
    m, q = queens(8)
    got = list(m.solutions(restarts="luby:1", node_limit=50))
    assert m.stats.stopped_by == "node_limit" and not m.stats.complete
    assert len(got) == len({tuple(s[x] for x in q) for s in got})
    assert m.count(restarts="luby:1", method="bbs:5") <= 92
    assert m.stats.stopped_by == "bbs"


def test_restarts_leave_no_trace_in_the_engine() -> None:
    """The store's watchers are taken away after the search: a classic search on the same
    model explores exactly the same tree before and after one with restarts (the watchers
    would otherwise count in most_constrained's degrees and cost propagations)."""
    m, q = queens(8)
    opts = {"var_select": "most_constrained", "value_select": "min"}
    for _ in range(2):
        assert m.count(**opts) == 92
        before = (m.stats.nodes, m.stats.fails, m.stats.propagations, m.stats.restarts)
        m.count(restarts="luby:1", **opts)
        assert m.stats.restarts > 0
        m.count(**opts)
        assert (m.stats.nodes, m.stats.fails, m.stats.propagations,
                m.stats.restarts) == before


def test_restarts_are_deterministic() -> None:
    m, q = queens(8)
    runs = []
    for _ in range(2):
        sols = [tuple(s[x] for x in q) for s in m.solutions(restarts="luby:2")]
        runs.append((sols, m.stats.nodes, m.stats.fails, m.stats.restarts))
    assert runs[0] == runs[1]


def test_a_search_without_failures_never_restarts() -> None:
    """Restarts are counted in failures. (The order of the solutions may differ from the
    classic search's: under restarts, ties between variables are broken at random.)"""
    m = cn.Model()
    x = [m.int_var(0, 3, f"x{i}") for i in range(3)]
    m += x[0] <= x[1]
    classic = [tuple(s[v] for v in x) for s in m.solutions()]
    got = [tuple(s[v] for v in x) for s in m.solutions(restarts="luby:1")]
    assert len(got) == len(set(got)) and set(got) == set(classic)
    assert m.stats.restarts == 0 and m.stats.fails == 0


def test_cli_restarts(capsys: pytest.CaptureFixture[str]) -> None:
    from conundrum.cli.app import main

    assert main(["queens", "8", "--count", "--restarts", "luby:2"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "92"
    assert main(["queens", "8", "--restarts", "often"]) == 2  # a usage error
    assert "expected luby" in capsys.readouterr().err
