"""Explanations (Model.explain, --explain, --hint), ratings (Model.difficulty, --rate,
``conundrum rate``): every explanation is replayed by the independent brute-force checker
(conundrum.explain.verify), which shares no code with propagation or search."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
import oracle
from conundrum.explain import ExplainError, explain
from conundrum.explain.facts import CASE_SPLIT, Fact
from conundrum.explain.verify import ExplanationError, exists, verify
from conundrum.puzzles import futoshiki, kenken, skyscrapers, sudoku
from test_properties_harness import build, doms, names_for, scaled
from test_properties_models import constraint

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EASY = "530070000600195000098000060800060003400803001700020006060000280000419005000080079"


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                          text=True, input=stdin, timeout=600)


# ------------------------------------------------------------------ random models

@settings(max_examples=scaled(0.5), deadline=None)
@given(data=st.data())
def test_random_models_are_explained_to_their_unique_solution(data: st.DataObject) -> None:
    """Random models of mixed constraints: with exactly one solution (brute force), the
    explanation replays (each step follows from what it cites and is minimal) and ends at
    that solution; otherwise explain refuses, saying whether there is none or several."""
    n = data.draw(st.integers(2, 4), label="n")
    cs = data.draw(st.lists(constraint(n), min_size=1, max_size=4), label="constraints")
    domains = data.draw(doms(n, max_size=4, lo=-3, hi=3), label="domains")
    b = build(domains, names_for(n), "\n".join(f"m += {c.src}" for c in cs))
    truth = oracle.solutions([d.values for d in domains],
                             lambda t: all(bool(c.fn(t)) for c in cs))
    if len(truth) != 1:
        with pytest.raises(ExplainError) as err:
            explain(b.m)
        assert err.value.solutions == min(len(truth), 2)
        assert b.m.difficulty().unique is False
        return
    steps = explain(b.m)
    verify(b.m, steps)
    domain = {x.index: set(d.values) for x, d in zip(b.xs, domains)}
    for step in steps:
        for f in step.removed:
            domain[f.var].discard(f.value)
    assert tuple(next(iter(domain[x.index])) for x in b.xs) == truth[0]
    rating = b.m.difficulty()
    assert rating.unique and rating.steps == len(steps)


# --------------------------------------------------------------------- puzzles

PUZZLES = [
    ("sudoku", sudoku, "sudoku.txt"),
    ("sudoku", sudoku, "sudoku-4x4.txt"),
    ("sudoku", sudoku, "greater-than-sudoku.txt"),
    ("futoshiki", futoshiki, "futoshiki.txt"),
    ("kenken", kenken, "kenken.txt"),
    ("skyscrapers", skyscrapers, "skyscrapers.txt"),
]


@pytest.mark.parametrize(("family", "module", "name"), PUZZLES)
def test_puzzle_explanations_replay_and_reach_the_solution(family, module, name) -> None:
    puzzle = module.parse((EXAMPLES / name).read_text(), name)
    steps = puzzle.model.explain()
    verify(puzzle.model, steps)
    assert steps and all(s.text for s in steps)
    # simplest first: a step on one constraint is never followed by a cheaper kind of
    # step that was available before it (the greedy choice), and the first is basic
    assert steps[0].rank == 1


def test_the_greater_than_sudoku_uses_sudoku_words() -> None:
    puzzle = sudoku.parse((EXAMPLES / "greater-than-sudoku.txt").read_text())
    from conundrum.explain.wording import Wording, describe_all

    steps = explain(puzzle.model)
    describe_all(steps, Wording(puzzle.model, puzzle.names))
    texts = [s.text for s in steps]
    assert any("rules" in t and " out of box " in t for t in texts)
    assert any("the only place left for" in t for t in texts)
    assert any(" < " in t for t in texts)  # the relations are cited by their cells
    assert all("cell[" not in t for t in texts)  # cells are named r1c1 ... r9c9


def test_case_splits_are_chains_ending_in_a_contradiction() -> None:
    puzzle = futoshiki.parse((EXAMPLES / "futoshiki.txt").read_text())
    steps = puzzle.model.explain()
    splits = [s for s in steps if s.kind == CASE_SPLIT]
    assert splits, "the example Futoshiki needs case splits"
    for s in splits:
        assert s.chain[-1].contradiction and s.removed == (s.assumption.negation(),)
        assert s.text.startswith("no simpler step is left; suppose ")
    verify(puzzle.model, steps)


def test_a_naked_pair_is_named() -> None:
    """In a row of four cells where a and b can only be 1 or 2, the naked pair rules 1 and
    2 out of c and d: the step passes the checker and reads as a solver says it. (On one
    all_different a hidden pair is the naked pair of the other cells, so both read alike;
    the Greater-Than Sudoku above has a hidden triple among placed values.)"""
    from conundrum.explain.facts import Step
    from conundrum.explain.verify import Replay
    from conundrum.explain.wording import Wording

    m = cn.Model()
    a, b, c, d = m.int_vars("a b c d", 1, 4)
    m.add(cn.all_different([a, b, c, d]), label="row 1")
    facts = tuple(Fact(v.index, w, False) for v in (a, b) for w in (3, 4))
    removed = tuple(Fact(v.index, w, False) for v in (c, d) for w in (1, 2))
    naked = Step(removed=removed, derived=removed, constraints=(0,), facts=facts)
    assert Wording(m).step(naked) == ("a, b hold {1, 2}: naked pair in row 1, so 1 and 2 are "
                                      "ruled out of c, d")
    known = {a.index: {1, 2}, b.index: {1, 2}, c.index: {1, 2, 3}, d.index: {1, 2, 3, 4}}
    Replay(m).check_step(naked, "the pair", known)
    with pytest.raises(ExplanationError, match="not minimal"):
        Replay(m).check_step(dataclasses.replace(naked, facts=(*facts, Fact(c.index, 4, False))),
                             "the pair", known)


def test_search_steps_are_refutation_trees_the_checker_replays() -> None:
    """Supposing y = 0 makes three x != x' constraints over {1, 2} active: no single
    constraint deduces anything, so the refutation splits on x1, and each branch ends in a
    contradiction. The step is built at the start (as if nothing simpler were left)."""
    from conundrum.explain.explainer import Explainer
    from conundrum.explain.facts import SEARCH
    from conundrum.explain.verify import Replay
    from conundrum.explain.wording import Wording

    m = cn.Model()
    y = m.int_var(0, 1, "y")
    x = m.int_vars("x1 x2 x3", 1, 2)
    m.add(cn.implies(y == 0, x[0] != x[1]), label="c12")
    m.add(cn.implies(y == 0, x[1] != x[2]), label="c23")
    m.add(cn.implies(y == 0, x[0] != x[2]), label="c13")
    m.add(cn.implies(y == 1, (x[0] == 1) & (x[1] == 2) & (x[2] == 1)), label="pick")
    step = Explainer(m).search_step()
    assert step.kind == SEARCH and step.assumption == Fact(y.index, 0, True)
    assert not step.chain and [b.assumption for b in step.branches] == [
        Fact(x[0].index, 1, True), Fact(x[0].index, 2, True)]
    assert step.nodes == 3 and all(b.chain[-1].contradiction for b in step.branches)
    Replay(m).check_search(step, "the tree")
    text = Wording(m).step(step)
    assert text.startswith("no case split on one supposition is left; suppose y = 0: x1 is 1 "
                           "or 2: [if x1 = 1: ") and text.endswith("; so y ≠ 0")
    with pytest.raises(ExplanationError, match="do not cover"):
        Replay(m).check_search(dataclasses.replace(step, branches=step.branches[:1]), "cut")


# ------------------------------------------------------------ the checker fails

def test_the_checker_rejects_wrong_and_non_minimal_steps() -> None:
    puzzle = sudoku.parse(EASY)
    m = puzzle.model
    steps = explain(m)
    verify(m, steps)
    first = steps[0]
    other = next(k for k in range(81) if k != first.facts[0].var)
    bad = {
        "an extra fact": dataclasses.replace(first, facts=(*first.facts, Fact(other, 9, False))),
        "a missing fact": dataclasses.replace(first, facts=()),
        "a value that does not follow": dataclasses.replace(
            first, removed=(*first.removed, Fact(other, 1, False))),
        "an extra constraint": dataclasses.replace(
            first, constraints=(*first.constraints, (first.constraints[0] + 1) % 27)),
    }
    for what, step in bad.items():
        with pytest.raises(ExplanationError):
            verify(m, [step, *steps[1:]])
        assert what
    with pytest.raises(ExplanationError, match="candidates"):
        verify(m, steps[:-1])  # stops short of the solution


def test_brute_force_exists_on_a_pigeonhole() -> None:
    m = cn.Model()
    xs = m.int_vars(9, 1, 9)
    alldiff = cn.all_different(xs)
    doms_ = {x.index: [v for v in range(1, 10) if v != 5] for x in xs}
    assert not exists([alldiff], doms_)
    doms_[xs[3].index] = [5]
    assert exists([alldiff], doms_)


# ------------------------------------------------------------------------- API

def test_explain_refuses_models_without_exactly_one_solution() -> None:
    m = cn.Model()
    x, y = m.int_vars("x y", 1, 3)
    m += x < y
    with pytest.raises(ExplainError, match="more than one solution") as err:
        m.explain()
    assert err.value.solutions == 2
    assert str(m.difficulty()) == "more than one solution"
    m += x > y
    with pytest.raises(ExplainError, match="no solution"):
        m.explain()
    assert m.difficulty().solutions == 0 and m.difficulty().grade is None


def test_labels_and_names_appear_in_the_steps() -> None:
    m = cn.Model()
    x, y = m.int_vars("x y", 1, 2)
    m.add(x < y, label="x before y")
    steps = m.explain(names={x: "first", y: "second"})
    assert [s.text for s in steps] == ["first = 1; second = 2: by x before y"]
    with pytest.raises(cn.ModelError, match="label"):
        m.add(x != y, label=3)


def test_wide_domains_are_refused_with_a_clear_message() -> None:
    m = cn.Model()
    x = m.int_var(0, 10**6, "x")
    m += x == 5
    with pytest.raises(cn.ModelError, match="at most"):
        m.explain()


def test_difficulty_grades_an_easy_and_a_fiendish_puzzle() -> None:
    easy = sudoku.parse(EASY).model.difficulty()
    assert (easy.grade, easy.hardest, easy.unique) == ("easy", "basic", True)
    hard = futoshiki.parse((EXAMPLES / "futoshiki.txt").read_text()).model.difficulty()
    assert hard.grade == "fiendish" and hard.techniques["case split"] >= 1
    assert hard.score > hard.steps


# ------------------------------------------------------------------------- CLI

def test_cli_explain_prints_numbered_steps_then_the_solution() -> None:
    r = run_cli("sudoku", str(EXAMPLES / "sudoku.txt"), "--explain")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("  1. ") and "rules" in lines[0]
    solved = run_cli("sudoku", str(EXAMPLES / "sudoku.txt"))
    assert r.stdout.endswith(solved.stdout)


def test_cli_hint_prints_the_first_step_only() -> None:
    r = run_cli("sudoku", str(EXAMPLES / "sudoku.txt"), "--hint")
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 1
    j = run_cli("sudoku", str(EXAMPLES / "sudoku.txt"), "--hint", "--json")
    step = json.loads(j.stdout)
    assert step["step"] == 1 and step["technique"] == "basic"
    j = run_cli("sudoku", str(EXAMPLES / "sudoku.txt"), "--hint", "--json-stream")
    first, summary = (json.loads(line) for line in j.stdout.splitlines())
    assert first == step
    assert summary["status"] == "complete" and summary["shown"] == 1 and summary["steps"] > 1
    assert step["constraints"][0].split()[0] in ("row", "column", "box")


def test_cli_rate_and_the_rate_command(tmp_path: Path) -> None:
    r = run_cli("futoshiki", str(EXAMPLES / "futoshiki.txt"), "--rate")
    assert r.returncode == 0 and r.stdout.splitlines()[:2] == ["grade: fiendish", "unique: yes"]
    many = tmp_path / "two.txt"
    many.write_text(f"# two one-line Sudokus\neasy {EASY}\n{EASY}\n")
    r = run_cli("rate", str(many), "--json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["puzzle"] for row in rows] == ["easy", "line 3"]
    assert all(row["grade"] == "easy" and row["unique"] for row in rows)
    r = run_cli("rate", "--as", "kenken", str(EXAMPLES / "kenken.txt"))
    assert r.returncode == 0 and r.stdout.startswith("grade: ")


def test_cli_explain_of_a_puzzle_without_a_unique_solution() -> None:
    empty = "." * 16
    r = run_cli("sudoku", "-", "--explain", stdin=empty)
    assert r.returncode == 1 and "more than one solution" in r.stderr
    r = run_cli("rate", "-", stdin=empty)
    assert r.returncode == 1 and r.stdout.strip() == "not unique: more than one solution"
    r = run_cli("sudoku", "-", "--explain", "--json-stream", stdin=empty)
    assert r.returncode == 1 and json.loads(r.stdout) == {
        "status": "complete", "unique": False, "solutions": "several"}


def test_cli_explain_json_stream_ends_with_a_summary() -> None:
    plain = run_cli("sudoku", str(EXAMPLES / "sudoku-4x4.txt"), "--explain", "--json")
    r = run_cli("sudoku", str(EXAMPLES / "sudoku-4x4.txt"), "--explain", "--json-stream")
    *steps, solution, summary = (json.loads(line) for line in r.stdout.splitlines())
    assert r.returncode == 0 and [s["step"] for s in steps] == list(range(1, len(steps) + 1))
    assert "grid" in solution
    assert summary == {"status": "complete", "unique": True, "steps": len(steps)}
    assert r.stdout.splitlines()[:-1] == plain.stdout.splitlines()  # --json: no summary
    r = run_cli("sudoku", str(EXAMPLES / "sudoku-4x4.txt"), "--rate", "--json")
    rating = json.loads(r.stdout)
    assert "status" not in rating and rating["grade"] == "easy" and rating["unique"]
    r = run_cli("sudoku", str(EXAMPLES / "sudoku-4x4.txt"), "--rate", "--json-stream")
    assert json.loads(r.stdout) == {"status": "complete", **rating}
    r = run_cli("sudoku", "-", "--hint", stdin="11" + "." * 14)
    assert r.returncode == 2  # a clash of givens is bad input, as without --hint
    r = run_cli("rate", "/no/such/file")
    assert r.returncode == 2 and "no such file" in r.stderr
