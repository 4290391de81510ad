"""Why no solution (issue 43): Model.conflict and Model.correction against brute force on
small random models, the places that name unlabelled constraints, and the errors."""

from __future__ import annotations

import importlib
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.check import holds
from conundrum.lang.errors import ModelError
from conundrum.model.neighbourhood import drop_constraints

DOMAIN = (0, 3)


@st.composite
def models(draw: st.DrawFn) -> tuple[cn.Model, list[cn.Var], list[list[int]], set[int]]:
    """A model of 2-3 variables over 0..3 and 2-7 constraints (comparisons, sums,
    all_different, products), some labelled into shared groups, some hard. Returns the
    model, its variables, its soft groups (positions of constraints) and the hard ones."""
    n = draw(st.integers(2, 3))
    m = cn.Model()
    xs = m.int_vars(n, *DOMAIN, "x")
    var = st.sampled_from(range(n))
    kinds = st.sampled_from(["eq", "ne", "le", "sum", "alldiff", "times"])
    count = draw(st.integers(2, 7))
    labels = draw(st.lists(st.sampled_from([None, None, "A", "B"]), min_size=count,
                           max_size=count))
    for label in labels:
        kind = draw(kinds)
        i, j, v = draw(var), draw(var), draw(st.integers(-1, 4))
        if kind == "eq":
            c = xs[i] == v
        elif kind == "ne":
            c = xs[i] != xs[j]
        elif kind == "le":
            c = xs[i] + 1 <= xs[j]
        elif kind == "sum":
            c = cn.sum(xs) == draw(st.integers(0, 3 * n))
        elif kind == "alldiff":
            c = cn.all_different(xs)
        else:
            c = xs[i] * xs[j] >= v
        m.add(c, label=label)
    hard_count = draw(st.integers(0, 1))
    hard: set[int] = set()
    if hard_count:
        # an unlabelled constraint made hard
        free = [k for k in range(len(m.constraints)) if k not in m.labels]
        if free:
            hard.add(draw(st.sampled_from(free)))
    groups: dict[object, list[int]] = {}
    for k in range(len(m.constraints)):
        if k in hard:
            continue
        groups.setdefault(m.labels.get(k, ("own", k)), []).append(k)
    return m, list(xs), list(groups.values()), hard


def solutions(m: cn.Model, xs: list[cn.Var], keep: set[int]) -> list[dict[int, int]]:
    """Every assignment of xs satisfying the constraints at `keep` (brute force)."""
    out = []
    for values in itertools.product(range(DOMAIN[0], DOMAIN[1] + 1), repeat=len(xs)):
        a = {x.index: v for x, v in zip(xs, values, strict=True)}
        if all(holds(m.constraints[k], a) for k in keep):
            out.append(a)
    return out


def soft_arg(m: cn.Model, hard: set[int]) -> list[object] | None:
    """The soft constraints as Model.conflict takes them (None when none is hard)."""
    if not hard:
        return None
    return [c for k, c in enumerate(m.constraints) if k not in hard]


def state(m: cn.Model) -> tuple:
    return (len(m.variables), [id(c) for c in m.constraints], dict(m.labels),
            dict(m.places))


@settings(max_examples=120, deadline=None)
@given(models())
def test_conflict_is_a_minimal_clash_among_the_soft_groups(case) -> None:
    m, xs, groups, hard = case
    before = state(m)
    conflict = m.conflict(soft=soft_arg(m, hard))
    assert state(m) == before  # the model is as it was
    everything = set(range(len(m.constraints)))
    if solutions(m, xs, everything):
        assert conflict is None
        return
    if not solutions(m, xs, hard):
        # the hard constraints clash alone: the conflict is empty of soft groups
        assert conflict is not None and conflict.labels == [] and conflict.minimal
        return
    assert conflict is not None and conflict.minimal
    chosen = [g for g in groups if any(m.constraints[k] is c for k in g
                                       for c in conflict.constraints)]
    assert len(chosen) == len(conflict.labels)
    kept = hard | {k for g in chosen for k in g}
    assert not solutions(m, xs, kept)  # a clash
    for g in chosen:  # minimal: each group is needed
        assert solutions(m, xs, kept - set(g))
    assert all(k not in hard for g in chosen for k in g)


@settings(max_examples=120, deadline=None)
@given(models())
def test_correction_is_a_smallest_set_to_drop(case) -> None:
    m, xs, groups, hard = case
    before = state(m)
    everything = set(range(len(m.constraints)))
    if not solutions(m, xs, hard):
        if solutions(m, xs, everything):  # cannot happen: hard is a subset
            raise AssertionError
        with pytest.raises(ModelError, match="hard constraints alone"):
            m.correction(soft=soft_arg(m, hard))
        assert state(m) == before
        return
    correction = m.correction(soft=soft_arg(m, hard))
    assert state(m) == before
    if solutions(m, xs, everything):
        assert correction is None
        return
    assert correction is not None and correction.optimal
    dropped = [g for g in groups if any(m.constraints[k] is c for k in g
                                        for c in correction.constraints)]
    assert len(dropped) == len(correction.labels)
    rest = everything - {k for g in dropped for k in g}
    sol = correction.solution
    assert all(holds(m.constraints[k], {x.index: sol[x] for x in xs}) for k in rest)
    smallest = next(size for size in range(len(groups) + 1)
                    for drop in itertools.combinations(groups, size)
                    if solutions(m, xs, everything - {k for g in drop for k in g}))
    assert len(dropped) == smallest


def test_places_name_the_line_that_added_the_constraint() -> None:
    m = cn.Model()
    x = m.int_var(0, 3, "x")
    line = sys._getframe().f_lineno + 1
    m += x >= 2
    m.add(x <= 1, label="upper")
    assert m.places[0] == f"test_diagnosis.py:{line}"
    assert m.places[1] == f"test_diagnosis.py:{line + 1}"
    conflict = m.conflict()
    assert conflict.labels == [f"test_diagnosis.py:{line}", "upper"]
    text = str(conflict)
    assert "a minimal conflict" in text and "upper" in text and "x >= 2" in text
    assert "<table>" in conflict._repr_html_()


def test_a_label_groups_its_constraints_and_soft_takes_labels() -> None:
    m = cn.Model()
    x = m.int_vars(3, 1, 3, "x")
    m.add(cn.all_different(x), label="rule")
    m.add(x[0] == 1, x[1] == 2, label="clues")
    m.add(x[2] == 1, label="clue c")
    conflict = m.conflict(soft=["clues", "clue c"])
    # x[2] == 1 clashes with x[0] == 1 under the rule; the group "clues" comes whole
    assert conflict.labels == ["clues", "clue c"]
    assert len(conflict.constraints) == 3
    correction = m.correction(soft=["clues", "clue c"])
    assert len(correction.labels) == 1  # either group will do
    sol = correction.solution
    assert sorted(sol[v] for v in x) == [1, 2, 3]


def test_fix_and_relax_keep_places_in_step() -> None:
    m = cn.Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    m.add(x < y, label="order")
    m += x + y == 3
    with m.fix({x: 0}):
        assert len(m.places) == 3
    assert m.labels == {0: "order"} and set(m.places) == {0, 1}
    assert m.places[1].startswith("test_diagnosis.py:")


def test_errors_are_clear() -> None:
    m = cn.Model()
    x = m.int_var(0, 1, "x")
    m += x == 2
    with pytest.raises(ModelError, match="no constraint is labelled"):
        m.conflict(soft=["nothing"])
    other = cn.Model()
    y = other.int_var(0, 1, "y")
    with pytest.raises(ModelError, match="not one of this model's"):
        m.conflict(soft=[y == 1])
    with pytest.raises(ModelError, match="neither a label nor a constraint"):
        m.conflict(soft=[3])
    with pytest.raises(ModelError, match="time_limit"):
        m.conflict(time_limit=-1)
    assert m.conflict(soft=[]).labels == []  # everything hard: the clash is all hard


def test_a_sudoku_with_a_wrong_clue_blames_the_clues_that_clash() -> None:
    """A 4x4 Sudoku whose clues clash: the conflict names clues only (rules hard), each
    needed; the correction drops one clue and the rest has a solution."""
    m = cn.Model()
    g = [[m.int_var(1, 4, f"r{r + 1}c{c + 1}") for c in range(4)] for r in range(4)]
    for r in range(4):
        m.add(cn.all_different(g[r]), label=f"row {r + 1}")
    for c in range(4):
        m.add(cn.all_different([g[r][c] for r in range(4)]), label=f"column {c + 1}")
    for br in (0, 2):
        for bc in (0, 2):
            m.add(cn.all_different([g[br + i][bc + j] for i in (0, 1) for j in (0, 1)]),
                  label=f"box {br + 1}{bc + 1}")
    clues = {(0, 0): 1, (0, 3): 4, (1, 1): 1, (2, 2): 3, (3, 3): 2}  # r1c1, r2c2: one box
    for (r, c), v in clues.items():
        m.add(g[r][c] == v, label=f"r{r + 1}c{c + 1} = {v}")
    soft = [f"r{r + 1}c{c + 1} = {v}" for (r, c), v in clues.items()]
    conflict = m.conflict(soft=soft)
    assert conflict is not None and conflict.minimal
    assert conflict.labels == ["r1c1 = 1", "r2c2 = 1"]
    correction = m.correction(soft=soft)
    assert correction is not None and len(correction.labels) == 1
    assert correction.labels[0] in conflict.labels
    sol = correction.solution
    assert all(len({sol[v] for v in row}) == 4 for row in g)


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})


def test_a_puzzle_without_a_solution_names_its_clashing_givens(tmp_path) -> None:
    # no two givens clash directly (the reader would refuse that): row 1 needs 3 and 4 in
    # columns 3-4, and column 3 has them already
    grid = tmp_path / "bad.txt"
    grid.write_text("1 2 . .\n. . . .\n. . 3 .\n. . 4 .\n")
    p = run_cli("sudoku", str(grid))
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert lines[0] == "no solution"
    assert lines[1] == "these clues cannot all hold: r1c1 = 1, r1c2 = 2, r3c3 = 3, r4c3 = 4"
    dropped = lines[2].removeprefix("without ").split(":")[0]
    assert dropped in lines[1]
    # the count printed is the puzzle's without that given, counted here on its own
    from conundrum.puzzles.sudoku import parse
    m = parse(grid.read_text()).model
    drop_constraints(m, {k for k, label in m.labels.items() if label == dropped})
    expected = m.count()
    assert expected > 0 and lines[2] == f"without {dropped}: {expected} solutions"
    j = run_cli("sudoku", "--json", str(grid))
    assert j.returncode == 1
    data = json.loads(j.stdout.splitlines()[-1])
    assert data["conflict"] == ["r1c1 = 1", "r1c2 = 2", "r3c3 = 3", "r4c3 = 4"]
    assert data["minimal"] and data["fewest"] and len(data["correction"]) == 1
    assert data["correction"] == [dropped] and data["solutions_without"] == expected
    s = run_cli("sudoku", "--json-stream", str(grid))
    assert s.returncode == 1
    assert json.loads(s.stdout.splitlines()[-1])["conflict"] == data["conflict"]


KILLER = (Path(__file__).resolve().parent.parent / "examples" / "killer-4x4.txt").read_text()


@pytest.mark.parametrize(("command", "text", "clash"), [
    # a single-cell cage of 5 in a 4x4 Killer
    ("killer", KILLER.replace("d=2", "d=5"), ["cage d (sum 5)"]),
    # a strictly increasing row, with its first column's 1 given below
    ("futoshiki", ".<.<.\n     \n1 . .\n     \n. . .\n",
     ["r2c1 = 1", "r1c1 < r1c2", "r1c2 < r1c3"]),
    # all three seen from above and from below the same column
    ("skyscrapers", "  3 . .\n. . . . .\n. . . . .\n. . . . .\n  3 . .\n",
     ["3 seen from above column 1", "3 seen from below column 1"]),
])
def test_each_family_blames_its_clues(tmp_path, command, text, clash) -> None:
    """The clash names the family's clues (givens, relations, cage targets, skyline
    counts), never its rules; the correction drops one of them and the count printed is
    the puzzle's without it."""
    path = tmp_path / "puzzle.txt"
    path.write_text(text)
    p = run_cli(command, "--json", str(path))
    assert p.returncode == 1, p.stderr
    data = json.loads(p.stdout.splitlines()[-1])
    assert data["conflict"] == clash and data["minimal"]
    assert len(data["correction"]) == 1 and data["correction"][0] in clash
    m = importlib.import_module(f"conundrum.puzzles.{command}").parse(text).model
    drop_constraints(m, {k for k, label in m.labels.items() if label in data["correction"]})
    assert data["solutions_without"] == m.count() > 0
