"""The learning search (issue 29 slice 5, search/learning.py): the same answers as the
depth-first search, and the behaviour learning is for (a failure found once is not
searched again). The property harness also draws search="learning" for every property
test; tests/test_conflict.py checks the analysis itself."""

from __future__ import annotations

import itertools
import random

import pytest

import conundrum as cn


def queens(n: int) -> tuple[cn.Model, list[cn.Var]]:
    m = cn.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(n)])
    m += cn.all_different([q[i] - i for i in range(n)])
    return m, q


def golomb(n: int) -> tuple[cn.Model, list[cn.Var]]:
    m = cn.Model()
    x = m.int_vars(n, 0, n * n, "m")
    m += x[0] == 0
    m += cn.increasing(x, strict=True)
    m += cn.all_different([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
    return m, x


HEURISTICS = [{}, {"var_select": "activity"}, {"var_select": "input_order"},
              {"var_select": "first_fail", "value_select": "split"},
              {"var_select": "most_constrained", "value_select": "max"},
              {"restarts": "luby:1"}, {"restarts": "geometric:2", "value_select": "random",
                                       "seed": 3}]


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_queens_all_solutions(n: int) -> None:
    m, q = queens(n)
    truth = {tuple(s[x] for x in q) for s in m.solutions()}
    for opts in HEURISTICS:
        got = [tuple(s[x] for x in q) for s in m.solutions(search="learning", **opts)]
        assert len(got) == len(set(got)) and set(got) == truth, opts
        assert m.stats.status == "all_solutions" and m.stats.complete
        assert m.count(search="learning", **opts) == len(truth)


def test_magic_square_count() -> None:
    m = cn.Model()
    g = m.int_matrix(3, 3, 1, 9, "x")
    m += cn.all_different(g.flat)
    m += [cn.sum(r) == 15 for r in g.rows] + [cn.sum(c) == 15 for c in g.columns]
    m += cn.sum(g[i][i] for i in range(3)) == 15
    m += cn.sum(g[i][2 - i] for i in range(3)) == 15
    assert m.count(search="learning") == m.count() == 8


@pytest.mark.parametrize("n, optimum", [(5, 11), (6, 17), (7, 25)])
def test_golomb_optimum(n: int, optimum: int) -> None:
    m, x = golomb(n)
    for opts in ({}, {"restarts": "luby:2"}, {"var_select": "input_order"},
                 {"var_select": "activity"}):
        best = m.minimize(x[-1], search="learning", **opts)
        assert best is not None and best[x[-1]] == optimum
        assert m.stats.status == "optimal_solution"
        marks = [best[v] for v in x]
        diffs = [b - a for a, b in itertools.combinations(marks, 2)]
        assert len(set(diffs)) == len(diffs)


def scheduling(seed: int) -> tuple[cn.Model, cn.Var]:
    """A small random job shop (4 jobs of 3 tasks on 3 machines) whose jobs also draw on
    a cumulative resource, and a pair of rectangles: every scheduling propagator explains
    its inferences to the learning search (scheduling_explain.py and beside it)."""
    rng = random.Random(seed)
    m = cn.Model()
    horizon = 30
    makespan = m.int_var(0, horizon, "makespan")
    starts: list[cn.Var] = []
    durations: list[int] = []
    machines: dict[int, list[int]] = {}
    for j in range(4):
        order = rng.sample(range(3), 3)
        prev: cn.Var | None = None
        last = 0
        for k in range(3):
            d = rng.randint(1, 4)
            s = m.int_var(0, horizon, f"s{j}{k}")
            if prev is not None:
                m += prev + last <= s
            machines.setdefault(order[k], []).append(len(starts))
            starts.append(s)
            durations.append(d)
            prev, last = s, d
        assert prev is not None
        m += prev + last <= makespan
    for tasks in machines.values():
        m += cn.no_overlap([starts[t] for t in tasks], [durations[t] for t in tasks])
    m += cn.cumulative(starts, durations, [rng.randint(1, 2) for _ in starts], 3)
    w = m.int_var(1, 3, "w")
    m += cn.no_overlap_2d([starts[0], starts[4]], [0, w - 1], [durations[0], durations[4]],
                          [2, 2])
    return m, makespan


@pytest.mark.parametrize("seed", range(4))
def test_scheduling_optimum(seed: int) -> None:
    m, makespan = scheduling(seed)
    best = m.minimize(makespan)
    assert best is not None
    for opts in ({}, {"var_select": "activity"}, {"restarts": "luby:1"}):
        got = m.minimize(makespan, search="learning", **opts)
        assert got is not None and got[makespan] == best[makespan], opts
        assert m.stats.status == "optimal_solution"


def test_knapsack_optimum_against_dynamic_programming() -> None:
    rng = random.Random(5)
    w = [rng.randint(5, 40) for _ in range(18)]
    v = [rng.randint(5, 60) for _ in range(18)]
    cap = sum(w) // 3
    best = [0] * (cap + 1)
    for wi, vi in zip(w, v, strict=True):
        for c in range(cap, wi - 1, -1):
            best[c] = max(best[c], best[c - wi] + vi)
    m = cn.Model()
    x = m.int_vars(len(w), 0, 1, "x")
    m += cn.sum(wi * xi for wi, xi in zip(w, x, strict=True)) <= cap
    value = cn.sum(vi * xi for vi, xi in zip(v, x, strict=True))
    sol = m.maximize(value, search="learning")
    assert sol is not None and sol.value(value) == best[cap]
    sol = m.maximize(value, search="learning", var_select="activity")
    assert sol is not None and sol.value(value) == best[cap]
    assert m.stats.status == "optimal_solution"
    values = [s.value(value) for s in m.improving(value, "max", search="learning")]
    assert values == sorted(values) and values[-1] == best[cap]


def test_projection() -> None:
    m = cn.Model()
    a, b, c = (m.int_var(0, 3, n) for n in "abc")
    m += a + b + c == 4
    truth = {(va, vb) for va, vb, vc in itertools.product(range(4), repeat=3)
             if va + vb + vc == 4}
    got = [(s[a], s[b]) for s in m.solutions(project=[a, b], search="learning")]
    assert len(got) == len(set(got)) and set(got) == truth
    assert m.count(project=[a, b], search="learning") == len(truth)


def test_unsatisfiable_core_behind_irrelevant_choices() -> None:
    """Three 0/1 variables pairwise summing to 1 (impossible: an odd cycle) behind twenty
    free ones, the free ones decided first: depth-first search refutes the core once per
    assignment of the twenty (about a million times); learning finds that the core alone
    fails and stops after a handful of conflicts. (Pairwise disequalities would be one
    all_different, refuted at the root: compiler/cliques.py.)"""
    m = cn.Model()
    free = m.int_vars(20, 0, 1, "b")
    x, y, z = m.int_vars("x y z", 0, 1)
    m += [x + y == 1, y + z == 1, x + z == 1]
    m += cn.sum(free) >= 0  # the free variables are part of the model
    order = {"var_select": "input_order"}
    assert m.solve(search="learning", **order) is None
    assert m.stats.status == "unsatisfiable"
    assert m.stats.fails <= 5 and m.stats.nodes <= 30, m.stats
    m.solve(node_limit=20_000, **order)
    assert m.stats.stopped_by == "node_limit"  # the classic search is still at it


def test_limits() -> None:
    m, q = queens(10)
    got = list(m.solutions(search="learning", node_limit=40))
    assert m.stats.stopped_by == "node_limit" and not m.stats.complete
    assert len(got) == len({tuple(s[x] for x in q) for s in got})
    m.count(search="learning", method="bbs:3")
    assert m.stats.stopped_by == "bbs" and m.stats.fails == 4
    with pytest.raises(cn.ModelError, match="lds"):
        m.count(search="learning", method="lds:2")
    with pytest.raises(cn.ModelError, match="unknown search"):
        m.count(search="clever")


def test_deterministic() -> None:
    runs = []
    for _ in range(2):
        m, q = queens(8)
        sols = [tuple(s[x] for x in q) for s in m.solutions(search="learning")]
        runs.append((sols, m.stats.nodes, m.stats.fails, m.stats.restarts))
    assert runs[0] == runs[1]


def test_restarts_happen_and_keep_what_was_learned() -> None:
    m, q = queens(9)
    assert m.count(search="learning", restarts="luby:1") == 352
    assert m.stats.restarts > 10


def test_the_engine_is_left_as_it_was() -> None:
    """No journal, no watcher stays attached: the classic search afterwards explores the
    same tree as before."""
    m, q = queens(8)
    opts = {"var_select": "most_constrained"}
    m.count(**opts)
    before = (m.stats.nodes, m.stats.fails, m.stats.propagations)
    m.count(search="learning")
    m.count(**opts)
    assert (m.stats.nodes, m.stats.fails, m.stats.propagations) == before


def test_activity_is_the_learning_search_s() -> None:
    m, q = queens(6)
    with pytest.raises(cn.ModelError, match="learning"):
        m.count(var_select="activity", search="classic")
    # under auto (the default) a learning heuristic asks for the learning search
    assert m.count(var_select="activity") == 4 and m.stats.search == "learning"
    with pytest.raises(cn.ModelError, match="unknown var_select"):
        m.count(var_select="activity_x", search="learning")
    assert m.count(var_select="activity", search="learning") == 4


def test_activity_follows_conflicts() -> None:
    """Branching on the variables that took part in recent conflicts: on the core behind
    free choices, in input order the learning search first decides the free variables;
    by activity it goes to the core as soon as it has failed there once."""
    m = cn.Model()
    free = m.int_vars(30, 0, 1, "b")
    core = m.int_vars(4, 0, 2, "c")
    m += cn.all_different(core, strength="value")  # four values in three: impossible
    m += cn.sum(free) >= 0
    m.solve(search="learning", var_select="input_order")
    input_order = m.stats.nodes
    assert m.solve(search="learning", var_select="activity") is None
    assert m.stats.nodes < input_order, (m.stats.nodes, input_order)


def test_activity_scores_and_phases() -> None:
    from conundrum.engine import Solver
    from conundrum.search.activity import RESCALE, Activity
    from conundrum.search.selectors import EQ, NE, Random32, min_value

    s = Solver()
    xs = [s.int_var(0, 5) for _ in range(4)]
    act = Activity(len(xs))
    assert act.select(xs) is xs[0]  # all zero: the first
    act.bump(2)
    act.decay()
    act.bump(1)  # later bumps weigh more
    assert act.score[1] > act.score[2] > 0 and act.select(xs) is xs[1]
    xs[1].assign(3)
    assert act.select(xs) is xs[2]  # fixed variables are skipped
    for _ in range(5000):  # past RESCALE: scores shrink together, the order stays
        act.decay()
    act.bump(3)
    assert max(act.score) < RESCALE and act.select(xs) is xs[3]
    # ties at random, with a stream
    ties = {Activity(4, Random32(seed)).select(xs) for seed in range(40)}
    assert ties == {xs[0], xs[2], xs[3]}
    # phases: the saved value first while the domain holds it, else the fallback
    act.save(xs)
    choose = act.chooser(min_value)
    assert act.phase[1] == 3
    assert choose(xs[0]) == ((EQ, 0), (NE, 0))  # never fixed: min_value's choice
    y = s.int_var(0, 5)
    act2 = Activity(len(s.vars))
    act2.phase[y.index] = 4
    choose = act2.chooser(min_value)
    assert choose(y) == ((EQ, 4), (NE, 4))
    y.remove(4)
    assert choose(y) == ((EQ, 0), (NE, 0))


def test_cli_search(capsys: pytest.CaptureFixture[str]) -> None:
    from conundrum.cli.app import main

    assert main(["queens", "8", "--count", "--search", "learning"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "92"
    assert main(["queens", "8", "--search", "clever"]) == 2
    assert "unknown search 'clever'" in capsys.readouterr().err
    assert main(["queens", "8", "--count", "--search", "auto:5"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "92"


def test_forgetting_nogoods_keeps_answers_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the store halved at every root (no tier kept), counts and optima stay those of
    the classic search: a forgotten nogood only costs search, never a solution."""
    import conundrum.search.learning as learning

    monkeypatch.setattr(learning, "KEEP_LBD", 0)
    monkeypatch.setattr(learning, "MAX_LEARNED", 2)
    m, q = queens(7)
    truth = {tuple(s[x] for x in q) for s in m.solutions()}
    for opts in ({"restarts": "luby:1"}, {"var_select": "activity", "restarts": "luby:2"}):
        got = [tuple(s[x] for x in q) for s in m.solutions(search="learning", **opts)]
        assert len(got) == len(set(got)) and set(got) == truth
    g, x = golomb(6)
    best = g.minimize(x[-1], search="learning", restarts="luby:1")
    assert best is not None and best[x[-1]] == 17 and g.stats.status == "optimal_solution"


def knapsack(n: int, seed: int = 5) -> tuple[cn.Model, cn.Expr, int]:
    """A 0/1 knapsack and its optimum by dynamic programming."""
    rng = random.Random(seed)
    w = [rng.randint(5, 40) for _ in range(n)]
    v = [rng.randint(5, 60) for _ in range(n)]
    cap = sum(w) // 3
    best = [0] * (cap + 1)
    for wi, vi in zip(w, v, strict=True):
        for c in range(cap, wi - 1, -1):
            best[c] = max(best[c], best[c - wi] + vi)
    m = cn.Model()
    x = m.int_vars(n, 0, 1, "x")
    m += cn.sum(wi * xi for wi, xi in zip(w, x, strict=True)) <= cap
    return m, cn.sum(vi * xi for vi, xi in zip(v, x, strict=True)), best[cap]


def test_auto_switches_an_optimisation_after_its_budget() -> None:
    """search="auto": an optimisation is the portfolio (compiler/portfolio.py), the
    depth-first search alone until the failure budget, then the depth-first and the
    learning search in turns; the same optimum either way. Under the budget, or for
    anything but an optimisation, it is the classic search, node for node (search/auto.py);
    a learning heuristic asks for the learning search from the start."""
    m, value, optimum = knapsack(18)
    classic = m.maximize(value)
    nodes = m.stats.nodes
    assert classic is not None and classic.value(value) == optimum
    assert m.stats.search == "classic" and m.stats.fails > 20
    switched = m.maximize(value, search="auto:20")
    assert switched is not None and switched.value(value) == optimum
    assert m.stats.search in ("classic", "learning") and m.stats.status == "optimal_solution"
    m.maximize(value, search="auto:20", var_select="activity")
    assert m.stats.search == "learning" and m.stats.objective == optimum
    m.maximize(value, search=f"auto:{m.stats.fails + nodes}")  # a budget it never reaches
    assert m.stats.search == "classic" and m.stats.nodes == nodes
    g, x = golomb(7)  # an all_different too: the portfolio proves the same optimum
    g.minimize(x[-1])
    nodes = g.stats.nodes
    assert g.minimize(x[-1], search="auto:1")[x[-1]] == 25
    assert g.stats.status == "optimal_solution"
    q, _ = queens(6)
    q.count()
    nodes = q.stats.nodes
    assert q.count(search="auto:1") == 4 and q.stats.nodes == nodes  # not an optimisation
    assert q.stats.search == "classic"


def test_search_names_are_checked() -> None:
    m, x = golomb(4)
    for bad in ("auto:0", "auto:x", "learn", "auto:"):
        with pytest.raises(cn.ModelError, match="unknown search"):
            m.minimize(x[-1], search=bad)
    with pytest.raises(cn.ModelError, match="learning search"):
        m.minimize(x[-1], var_select="activity", search="classic")


@pytest.mark.parametrize("given", ["phases", "project"])
def test_a_phase_or_projection_under_the_defaults_searches_as_the_defaults(given):
    """A phase over every variable with conundrum's default choices (what the FlatZinc
    reader gives MiniZinc's own variables), or a projection on them, is the default
    search: the learning search saves phases there too (it did not, and all-interval 16
    of a FlatZinc found nothing in 20 s where the same model without them took 10 s)."""
    def all_interval():
        m = cn.Model()
        x = m.int_vars(10, 0, 9, "x")
        m += cn.all_different(x)
        m += cn.all_different([abs(x[i + 1] - x[i]) for i in range(9)])
        return m, x

    m, x = all_interval()
    plain = m.solve(search="learning", restarts="luby")
    assert plain is not None
    values, nodes = [plain[v] for v in x], m.stats.nodes
    m, x = all_interval()
    extra = {"phases": [(x, "dom_wdeg", "auto")]} if given == "phases" else {"project": x}
    same = m.solve(search="learning", restarts="luby", **extra)
    assert same is not None and [same[v] for v in x] == values
    assert m.stats.nodes == nodes
