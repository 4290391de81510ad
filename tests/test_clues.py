"""Issue 43, item 5, for every family with clues: a puzzle with a deliberate clash makes
the command exit 1 and print `no solution` then the clashing clues; the conflict is
checked here by another route (the puzzle parsed afresh, every other clue dropped: no
solution; each clashing clue dropped too: a solution, checked by conundrum.check); the
JSON modes carry it; the picture marks it; --explain's steps end in a contradiction and
pass the explanations' brute-force checker (conundrum.explain.verify)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from importlib import import_module

import pytest

from conundrum.check import check_solution
from conundrum.explain.verify import ExplanationError, verify_clash
from conundrum.model.neighbourhood import drop_constraints

# family -> (puzzle text, a clash it holds: each family's puzzle was made around it; the
# command may name another minimal one, checked by another route below)
CASES = {
    # the down runs force r3c2 = 3, r3c3 = 5 and r2c2 = r2c3 = 1 in one across run
    "kakuro": ("X  4\\  6\\\n\\3  .  .\n\\8  .  .\n",
               ["down run at r1c2 (sum 4)", "down run at r1c3 (sum 6)",
                "across run at r3c1 (sum 8)"]),
    # an empty middle row, and a column with a block of two
    "nonogram": ("3\n0\n1\n\n1\n1\n2\n", ["row 2 (0)", "column 3 (2)"]),
    # three 1s in a row of four
    "takuzu": ("1.11\n....\n....\n....\n", ["r1c1 = 1", "r1c3 = 1", "r1c4 = 1"]),
    # 1 and 2 in opposite corners
    "hidato": ("1 . .\n. . .\n. . 2\n", ["r1c1 = 1", "r3c3 = 2"]),
    # an even number in the middle of a 3x3 (the odd numbers need the corners and middle)
    "numbrix": ("1 . .\n. 2 .\n. . .\n", ["r2c2 = 2"]),
    # r1c1 = 2 leaves 2 + 4 for column 2's sum of 6, and no 2 to spare
    "survo": ("2 . 3\n. . 7\n4 6\n", ["r1c1 = 2", "column 2 (sum 6)"]),
    # a one-cell region touching a two-cell region's cells
    "starbattle": ("ddddd\nddddd\nadddd\naaeec\naaabb\n", ["region c", "region b"]),
    # a row of three seen whole from both ends
    "skyscrapers": ("  3 . .\n. . . . .\n. . . . .\n. . . . .\n  3 . .\n",
                    ["3 seen from above column 1", "3 seen from below column 1"]),
    "sudoku": ("1 2 . .\n. . . .\n. . 3 .\n. . 4 .\n",
               ["r1c1 = 1", "r1c2 = 2", "r3c3 = 3", "r4c3 = 4"]),
}


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "NO_COLOR": "1"})


def parse(family: str, text: str):
    return import_module(f"conundrum.puzzles.{family}").parse(text)


def solvable_with(family: str, text: str, kept: list[str]) -> bool:
    """Whether the puzzle, parsed afresh, has a solution with only the clues `kept` (its
    rules all kept); a solution found is checked against every constraint left."""
    puzzle = parse(family, text)
    m = puzzle.model
    drop_constraints(m, {k for k, label in m.labels.items()
                         if label in puzzle.clues and label not in kept})
    sol = m.solve()
    if sol is not None:
        check_solution(m.variables, m.constraints, {v.index: sol[v] for v in m.variables})
    return sol is not None


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request, tmp_path_factory):
    family = request.param
    text, clash = CASES[family]
    path = tmp_path_factory.mktemp(family) / f"{family}-clash.txt"
    path.write_text(text)
    return family, text, clash, str(path)


def printed_clash(family: str, path: str) -> list[str]:
    """The clash the command prints after `no solution` (exit status 1)."""
    p = run_cli(family, path)
    assert p.returncode == 1, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == "no solution"
    head = "these clues cannot all hold: "
    assert lines[1].startswith(head) and lines[2].startswith("without ")
    return lines[1][len(head):].split(", ")


def test_the_command_names_a_minimal_clash(case) -> None:
    family, text, clash, path = case
    for labels in (clash, printed_clash(family, path)):
        # by another route: only these clues have no solution; without any one, a solution
        assert not solvable_with(family, text, labels)
        for label in labels:
            assert solvable_with(family, text, [c for c in labels if c != label]), label


def test_the_json_modes_carry_the_clash(case) -> None:
    family, _, _, path = case
    clash = printed_clash(family, path)
    j = run_cli(family, "--json", path)
    assert j.returncode == 1
    data = json.loads(j.stdout.splitlines()[-1])
    assert data["conflict"] == clash and data["minimal"]
    assert data["correction"] and data["solutions_without"] > 0
    s = run_cli(family, "--json-stream", path)
    assert s.returncode == 1
    assert json.loads(s.stdout.splitlines()[-1])["conflict"] == clash


def test_the_picture_marks_the_clash(case) -> None:
    family, text, _, path = case
    clash = printed_clash(family, path)
    found = parse(family, text).clash()
    assert found is not None and found.labels == clash
    svg = found.display().svg()
    assert svg is not None and found.cells
    for cell in found.cells:
        assert f'class="clash" data-cell="{cell}"' in svg
    assert svg.count('class="clash"') == len(found.cells)
    # a clue written outside the cells (a sum, a line's clue, a count) is written in red
    outside = [label for label in clash if label in found.puzzle.layout.clue_at]
    assert svg.count(' clash"') == len(outside)
    assert "<svg" in found._repr_html_() and found._repr_svg_() == svg
    assert "clash" not in (parse(family, text).display().svg() or "")


def test_explain_leads_to_a_contradiction_the_checker_accepts(case) -> None:
    family, text, _, path = case
    found = parse(family, text).clash()
    assert found is not None
    clash = found.labels
    steps = found.explain(time_limit=60)
    assert steps.reached and steps and steps[-1].contradiction
    model = found.restricted()
    assert {model.labels[k] for k in model.labels} >= set(clash)
    assert not set(found.puzzle.clues) - set(clash) & set(model.labels.values())
    verify_clash(model, steps)
    # the checker is not a rubber stamp: a step dropped, or the contradiction cut off
    if len(steps) > 1:
        with pytest.raises(ExplanationError):
            verify_clash(model, steps[1:])
        with pytest.raises(ExplanationError):
            verify_clash(model, steps[:-1])
    with pytest.raises(ExplanationError):
        verify_clash(model, [dataclasses.replace(steps[-1], facts=steps[-1].facts[:-1])]
                     if steps[-1].facts else [])
    p = run_cli(family, "--explain", path)
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert lines[:2] == ["no solution", "these clues cannot all hold: " + ", ".join(clash)]
    assert lines[3] == "why:"
    shown = [line.split(". ", 1)[1] for line in lines[4:]]
    assert shown == [s.text for s in steps] and shown[-1].startswith("contradiction: ")
    s = run_cli(family, "--explain", "--json-stream", path)
    data = json.loads(s.stdout.splitlines()[-1])
    assert data["conflict"] == clash and data["contradiction"]
    assert [r["text"] for r in data["steps"]] == shown


def test_an_alphametic_blames_its_fix_values_and_nothing_else() -> None:
    p = run_cli("alphametic", "SEND + MORE = MONEY", "--fix", "S=1")
    assert p.returncode == 1
    assert p.stdout.splitlines()[:2] == ["no solution", "these clues cannot all hold: S = 1"]
    # without --fix there is no clue to blame: the rules clash, said as before
    bare = run_cli("alphametic", "A + A = A, A = 1")
    assert bare.returncode == 1 and bare.stdout.splitlines() == ["no solution"]
    queens = run_cli("queens", "3")
    assert queens.returncode == 1 and queens.stdout.splitlines() == ["no solution"]


def test_a_clue_that_empties_a_cell_needs_no_step(tmp_path) -> None:
    # a one-cell Kakuro run of sum 12: the clue alone leaves r2c3 without a value
    text = "X  X  4\\\nX  \\12  .\n"
    path = tmp_path / "kakuro.txt"
    path.write_text(text)
    found = parse("kakuro", text).clash()
    assert found.labels == ["across run at r2c2 (sum 12)"]
    steps = found.explain()
    assert steps.reached and not steps and steps.empty
    verify_clash(found.restricted(), steps)
    p = run_cli("kakuro", "--explain", str(path))
    assert p.returncode == 1
    assert p.stdout.splitlines()[-2:] == [
        "why:", "1. r2c3 has no possible value: by across run at r2c2 (sum 12)"]
