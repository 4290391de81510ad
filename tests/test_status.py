"""What a run established, in MiniZinc's words (SearchStats.status), the limit that cut it
short (stopped_by, None when it ended as asked), count(limit=N), and the refusal of two
variables with the same name (issue 27, items 8, 10, 11)."""

from __future__ import annotations

import json

import pytest

import conundrum as cn
from conundrum.search import stats as status_words


def pairs() -> tuple[cn.Model, list]:
    """x < y on 0..3: six solutions, found only by search."""
    m = cn.Model()
    xs = m.int_vars("x y", 0, 3)
    m += xs[0] < xs[1]
    return m, xs


def pigeonhole() -> cn.Model:
    """Unsatisfiable, but refuted only by a long search (value elimination)."""
    m = cn.Model()
    zs = m.int_vars(9, 0, 7, "z")
    m += cn.all_different(zs, strength="value")
    return m


def state(m: cn.Model) -> tuple[str, object, bool]:
    return m.stats.status, m.stats.stopped_by, m.stats.complete


def test_the_status_words_are_minizincs() -> None:
    assert status_words.STATUSES == ("satisfied", "all_solutions", "optimal_solution",
                                     "unsatisfiable", "unknown")
    assert cn.SearchStats().status == "unknown"  # nothing established yet
    assert "status" in cn.SearchStats().as_dict()


def test_solve_that_found_its_solution_was_not_stopped_by_a_limit() -> None:
    m, _ = pairs()
    assert m.solve() is not None
    assert state(m) == ("satisfied", None, True)
    assert m.stats.solutions == 1


def test_solve_proves_unsatisfiable_or_says_unknown() -> None:
    m, (x, y) = pairs()
    m += x > 5  # refuted at the root
    assert m.solve() is None and state(m) == ("unsatisfiable", None, True)
    m = pigeonhole()
    assert m.solve() is None and state(m) == ("unsatisfiable", None, True)
    assert m.solve(node_limit=5) is None
    assert state(m) == ("unknown", "node_limit", False)
    assert m.solve(time_limit=0.05) is None  # refuted in time, or not:
    assert m.stats.status in ("unknown", "unsatisfiable")
    assert (m.stats.status == "unknown") == (m.stats.stopped_by == "time_limit")


def test_solutions_exhausted_limited_stopped_and_closed() -> None:
    m, _ = pairs()
    assert len(list(m.solutions())) == 6 and state(m) == ("all_solutions", None, True)
    assert len(list(m.solutions(limit=10))) == 6 and state(m) == ("all_solutions", None, True)
    assert len(list(m.solutions(limit=2))) == 2 and state(m) == ("satisfied", "limit", False)
    assert list(m.solutions(limit=0)) == [] and state(m) == ("unknown", "limit", False)
    found = list(m.solutions(node_limit=4))
    assert 0 < len(found) < 6 and state(m) == ("satisfied", "node_limit", False)
    gen = m.solutions()
    next(gen)
    gen.close()
    assert state(m) == ("satisfied", "closed", False)
    m += m.variable("x") > 3
    assert list(m.solutions()) == [] and state(m) == ("unsatisfiable", None, True)
    assert list(pigeonhole().solutions(node_limit=5)) == []


def test_a_limit_on_a_solution_taken_is_said_before_it_is_handed_over() -> None:
    """The last solution a limit allows comes with the final statistics: a caller that
    takes it and reads no further sees what the run established."""
    m, _ = pairs()
    gen = m.solutions(limit=1)
    next(gen)
    assert state(m) == ("satisfied", "limit", False) and m.stats.seconds > 0


def test_count_takes_a_limit() -> None:
    m, _ = pairs()
    assert m.count(limit=2) == 2 and state(m) == ("satisfied", "limit", False)
    assert m.count(limit=6) == 6 and m.stats.stopped_by == "limit"
    assert m.count(limit=7) == 6 and state(m) == ("all_solutions", None, True)
    assert m.count(limit=0) == 0 and state(m) == ("unknown", "limit", False)
    assert m.count() == 6 and state(m) == ("all_solutions", None, True)
    for wrong in (-1, 1.5, "2", True):
        with pytest.raises(cn.ModelError, match="limit"):
            m.count(limit=wrong)  # type: ignore[arg-type]


def test_count_statuses() -> None:
    m = pigeonhole()
    assert m.count() == 0 and state(m) == ("unsatisfiable", None, True)
    assert m.count(node_limit=5) == 0 and state(m) == ("unknown", "node_limit", False)
    m, _ = pairs()
    n = m.count(node_limit=4)
    assert 0 < n < 6 and state(m) == ("satisfied", "node_limit", False)
    assert m.count(method="lds:0") == m.stats.solutions
    assert m.stats.status in ("satisfied", "all_solutions")


def test_optimisation_statuses() -> None:
    m, (x, y) = pairs()
    best = m.maximize(x + y)
    assert best is not None and best.value(x + y) == 5
    assert state(m) == ("optimal_solution", None, True)
    assert m.minimize(x * y, node_limit=0) is None
    assert state(m) == ("unknown", "node_limit", False)
    m = pigeonhole()
    assert m.minimize(m.variable("z[0]")) is None
    assert state(m) == ("unsatisfiable", None, True)
    # a limit after a solution, before the proof: satisfied, the best so far returned
    m = cn.Model()
    xs = m.int_vars(8, 0, 7, "q")
    m += cn.all_different(xs)
    m += cn.all_different([q + i for i, q in enumerate(xs)])
    m += cn.all_different([q - i for i, q in enumerate(xs)])
    objective = cn.sum(i * q for i, q in enumerate(xs))
    optimum = m.maximize(objective)
    assert optimum is not None and m.stats.status == "optimal_solution"
    seen = set()
    for nodes in range(1, 400, 7):
        sol = m.maximize(objective, node_limit=nodes)
        if m.stats.complete:
            break
        seen.add(m.stats.status)
        assert m.stats.stopped_by == "node_limit"
        assert (sol is None) == (m.stats.status == "unknown")
    assert "satisfied" in seen


def test_a_constant_objective_is_optimal_at_its_first_solution() -> None:
    m, _ = pairs()
    assert m.minimize(3) is not None and state(m) == ("optimal_solution", None, True)


def test_str_and_repr_say_the_status() -> None:
    m, _ = pairs()
    m.count(limit=1)
    assert "satisfied (stopped by limit)" in str(m.stats)
    assert "status='satisfied'" in repr(m.stats)


# ------------------------------------------------------------------ names

@pytest.mark.parametrize("make", [
    lambda m: m.int_var(0, 3, "x"),
    lambda m: m.int_var([1, 2], "x"),
    lambda m: m.bool_var("x"),
    lambda m: m.int_vars("y x", 0, 3),
    lambda m: m.int_vars(["x"], 0, 3),
])
def test_a_second_variable_of_the_same_name_is_refused(make) -> None:
    m = cn.Model()
    m.int_var(0, 9, "x")
    before = len(m.variables)
    with pytest.raises(cn.ModelError, match="two variables are named 'x'"):
        make(m)
    assert len(m.variables) == before  # none of them was made
    assert m.solve().as_dict() == {"x": 0}


def test_names_repeated_within_one_call_or_grid_are_refused() -> None:
    m = cn.Model()
    with pytest.raises(cn.ModelError, match="two variables are named 'a'"):
        m.int_vars("a b a", 0, 3)
    assert m.variables == []
    m.int_matrix(2, 2, 0, 1, "g")
    with pytest.raises(cn.ModelError, match=r"'g\[0\]\[0\]'"):
        m.int_matrix(1, 1, 0, 1, "g")
    q = m.int_vars(3, 0, 1, "q")
    with pytest.raises(cn.ModelError, match=r"'q\[1\]'"):
        m.int_var(0, 1, "q[1]")
    assert len(m.variables) == 7 and m.variable("q[1]") is q[1]


def test_unnamed_variables_are_never_a_clash_and_every_name_is_kept() -> None:
    m = cn.Model()
    m.int_vars(3, 0, 1)
    m.int_var(0, 1)
    xs = m.int_vars("a b c", 1, 1)
    sol = m.solve()
    assert sol is not None and sol.as_dict() == {"a": 1, "b": 1, "c": 1}
    assert [sol[name] for name in "abc"] == [1, 1, 1] and m.variable("b") is xs[1]
    with pytest.raises(KeyError):
        m.variable("d")


# ------------------------------------------------------------------ the command line

def run(capsys: pytest.CaptureFixture, *argv: str) -> tuple[int, str, str]:
    from conundrum.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_says_the_status(capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(capsys, "queens", "6", "--stats")
    assert code == 0 and err.startswith("stats: ") and "satisfied" in err
    assert "stopped by" not in err  # the first solution, as asked
    code, out, err = run(capsys, "queens", "6", "--count", "--stats")
    assert code == 0 and out.strip() == "4" and "all_solutions" in err
    code, out, _ = run(capsys, "queens", "6", "--count", "--json-stream")
    summary = json.loads(out.splitlines()[-1])
    assert (summary["status"], summary["result"], summary["solutions"]) == (
        "complete", "all_solutions", 4)
    code, out, _ = run(capsys, "queens", "6", "--json-stream")
    summary = json.loads(out.splitlines()[-1])
    assert code == 0 and (summary["status"], summary["result"]) == ("complete", "satisfied")
    assert "stopped_by" not in summary
    code, out, _ = run(capsys, "queens", "3", "--json-stream")
    summary = json.loads(out.splitlines()[-1])
    assert code == 1 and summary["result"] == "unsatisfiable"
    code, out, err = run(capsys, "queens", "9", "--count", "--limit", "5", "--stats")
    assert code == 0 and out.strip() == "5" and "satisfied, stopped by limit" in err
    code, out, err = run(capsys, "queens", "12", "--count", "--node-limit", "30",
                         "--json-stream")
    summary = json.loads(out.splitlines()[-1])
    assert code == 3 and summary["status"] == "incomplete"
    assert summary["stopped_by"] == "node_limit" and summary["result"] in ("satisfied",
                                                                           "unknown")
    assert (summary["result"] == "unknown") == (summary["solutions"] == 0)


def test_unique_says_all_solutions_when_it_proved_uniqueness(capsys) -> None:
    code, out, _ = run(capsys, "alphametic", "SEND + MORE = MONEY", "--unique",
                       "--json-stream")
    summary = json.loads(out.splitlines()[-1])
    assert code == 0 and summary["unique"] is True and summary["result"] == "all_solutions"
    code, out, _ = run(capsys, "queens", "6", "--unique", "--json-stream")
    summary = json.loads(out.splitlines()[-1])
    assert summary["unique"] is False and summary["result"] == "satisfied"
