"""FlatZinc set variables read directly (`var set of U`, the set builtins, set values
printed as FlatZinc sets), each builtin against a brute force over the subsets."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conundrum.cli import main
from conundrum.io.flatzinc.output import set_text


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
        *flags: str) -> tuple[int, str, str]:
    path = tmp_path / "model.fzn"
    path.write_text(text)
    code = main(["fzn", *flags, str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_set_text() -> None:
    assert set_text([]) == "{}"
    assert set_text([3]) == "{3}"
    assert set_text([3, 1, 2]) == "1..3"
    assert set_text([1, 3, 5]) == "{1,3,5}"
    assert set_text([-1, 0, 2]) == "{-1,0,2}"


def test_one_set_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = """\
var set of 1..3: s :: output_var;
array [1..2] of var set of int: t :: output_array([1..2]) = [s, {2, 4}];
constraint set_card(s, 2);
constraint set_in(3, s);
constraint set_subset(s, {1, 3});
solve satisfy;
"""
    code, out, err = run(tmp_path, capsys, text, "-a")
    assert code == 0, err
    assert out == "s = {1,3};\nt = array1d(1..2, [{1,3},{2,4}]);\n----------\n==========\n"


U = [1, 2, 3]
SUBSETS = [frozenset(c) for r in range(4) for c in itertools.combinations(U, r)]
Sets = tuple[frozenset[int], frozenset[int], frozenset[int]]
# each builtin: its call over a, b, c (sets over U) and its meaning
BUILTINS: dict[str, tuple[str, Callable[[Sets], bool]]] = {
    "set_union": ("set_union(a, b, c)", lambda s: s[2] == s[0] | s[1]),
    "set_intersect": ("set_intersect(a, b, c)", lambda s: s[2] == s[0] & s[1]),
    "set_diff": ("set_diff(a, b, c)", lambda s: s[2] == s[0] - s[1]),
    "set_symdiff": ("set_symdiff(a, b, c)", lambda s: s[2] == s[0] ^ s[1]),
    "set_subset": ("set_subset(a, b)", lambda s: s[0] <= s[1]),
    "set_superset": ("set_superset(a, b)", lambda s: s[0] >= s[1]),
    "set_eq": ("set_eq(a, b)", lambda s: s[0] == s[1]),
    "set_ne": ("set_ne(a, b)", lambda s: s[0] != s[1]),
    "set_subset_reif": ("set_subset_reif(a, b, r)", lambda s: (s[0] <= s[1]) == (2 in s[2])),
    "set_eq_reif": ("set_eq_reif(a, {1, 2}, r)", lambda s: (s[0] == {1, 2}) == (2 in s[2])),
    "set_le": ("set_le(a, b)", lambda s: sorted(s[0]) <= sorted(s[1])),
    "set_lt": ("set_lt(a, b)", lambda s: sorted(s[0]) < sorted(s[1])),
    "set_le_reif": ("set_le_reif(a, b, r)",
                    lambda s: (sorted(s[0]) <= sorted(s[1])) == (2 in s[2])),
    "set_lt_reif": ("set_lt_reif(a, {2}, r)",
                    lambda s: (sorted(s[0]) < [2]) == (2 in s[2])),
    "set_card": ("set_card(a, 2)", lambda s: len(s[0]) == 2),
    "set_in_var": ("set_in(x, a)", lambda s: min(s[2] | {9}) in s[0]),
    "set_in_reif": ("set_in_reif(2, a, r)", lambda s: (2 in s[0]) == (2 in s[2])),
    "array_var_set_element": ("array_var_set_element(i, [a, b], c)",
                              lambda s: s[2] == (s[0] if 1 in s[2] else s[1])),
    "array_set_element": ("array_set_element(i, [{1}, {2, 3}], b)",
                          lambda s: s[1] == ({1} if 1 in s[2] else {2, 3})),
}


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_set_builtins_against_brute_force(name: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """All solutions over three sets a, b, c of 1..3 (with r the truth of `2 in c`, x the
    least element of c or 9 when c is empty, i 1 when 1 in c, else 2): exactly those the
    meaning allows."""
    call, meaning = BUILTINS[name]
    text = f"""\
var set of 1..3: a :: output_var;
var set of 1..3: b :: output_var;
var set of 1..3: c :: output_var;
var bool: r;
var 1..9: x;
var 1..2: i;
constraint set_in_reif(2, c, r);
constraint array_int_minimum(x, [9, y1, y2, y3]);
var {{1, 9}}: y1;
var {{2, 9}}: y2;
var {{3, 9}}: y3;
constraint set_in_reif(1, c, e1);
constraint set_in_reif(2, c, e2);
constraint set_in_reif(3, c, e3);
var bool: e1;
var bool: e2;
var bool: e3;
constraint int_eq_reif(y1, 1, e1);
constraint int_eq_reif(y2, 2, e2);
constraint int_eq_reif(y3, 3, e3);
constraint int_eq_reif(i, 1, e1);
constraint {call};
solve satisfy;
"""
    # the FlatZinc reader wants declarations first: move them up
    lines = text.splitlines()
    text = "\n".join([*(ln for ln in lines if ln.startswith("var")),
                      *(ln for ln in lines if not ln.startswith("var"))]) + "\n"
    code, out, err = run(tmp_path, capsys, text, "-a")
    assert code == 0, err
    got = sorted(block for block in out.split("----------\n")[:-1])
    want = sorted(f"a = {set_text(a)};\nb = {set_text(b)};\nc = {set_text(c)};\n"
                  for a, b, c in itertools.product(SUBSETS, repeat=3)
                  if meaning((a, b, c)))
    assert got == want


# ---------------------------------------------------------------- set_search (issue 41)

def set_search_model(var_choice: str, value_choice: str) -> str:
    """Two sets over 1..4 of two elements each, sharing at most one: set_search over both."""
    return ("var set of 1..4: S :: output_var;\nvar set of 1..4: T :: output_var;\n"
            "var set of 1..4: ST;\nvar 0..4: n;\n"
            "constraint set_card(S, 2);\nconstraint set_card(T, 2);\n"
            "constraint set_intersect(S, T, ST);\n"
            "constraint set_card(ST, n);\nconstraint int_le(n, 1);\n"
            f"solve :: set_search([S, T], {var_choice}, {value_choice}, complete) satisfy;\n")


def solutions_printed(path: Path, *args: str, program: str = "conundrum") -> list[str]:
    """The solutions of a FlatZinc file as printed (each solution's lines joined), in order;
    program "gecode" runs Debian's fzn-gecode."""
    if program == "gecode":
        out = subprocess.run(["fzn-gecode", *args, str(path)], capture_output=True,
                             text=True, check=True, timeout=120).stdout
    else:
        out = subprocess.run([sys.executable, "-m", "conundrum", "fzn", *args, str(path)],
                             capture_output=True, text=True, check=True,
                             timeout=120).stdout
    chunks = out.replace(" ", "").split("----------")
    return [c.strip() for c in chunks[:-1]]


@pytest.mark.parametrize("value_choice", ["indomain_min", "indomain_max", "outdomain_min",
                                          "outdomain_max"])
def test_set_search_follows_gecode_order(tmp_path, value_choice):
    """set_search with input_order: the first undecided set, its smallest (largest)
    undecided element, included (excluded) first, as Gecode's FlatZinc reads it: every
    solution in Gecode's order."""
    assert shutil.which("fzn-gecode"), "Gecode is required: apt-get install flatzinc"
    path = tmp_path / "sets.fzn"
    path.write_text(set_search_model("input_order", value_choice))
    ours = solutions_printed(path, "-a")
    theirs = solutions_printed(path, "-a", program="gecode")
    assert len(ours) == 30 and ours == theirs


@pytest.mark.parametrize(("var_choice", "value_choice"), [
    ("smallest", "indomain_min"), ("smallest", "outdomain_min"),
    ("largest", "indomain_max"), ("largest", "outdomain_max")])
def test_set_search_by_element_follows_gecode_order(tmp_path, var_choice, value_choice):
    """set_search with smallest (Gecode's SET_VAR_MIN_MIN: the set with the smallest
    undecided element) or largest (SET_VAR_MAX_MAX), and a value choice from the same
    end: every solution in Gecode's order, which is not input_order's, and no warning."""
    assert shutil.which("fzn-gecode"), "Gecode is required: apt-get install flatzinc"
    path = tmp_path / "sets.fzn"
    path.write_text(set_search_model(var_choice, value_choice))
    ours = solutions_printed(path, "-a")
    theirs = solutions_printed(path, "-a", program="gecode")
    assert len(ours) == 30 and ours == theirs
    path.write_text(set_search_model("input_order", value_choice))
    assert solutions_printed(path, "-a") != ours
    p = subprocess.run([sys.executable, "-m", "conundrum", "fzn", str(path)],
                       capture_output=True, text=True, check=True, timeout=120)
    assert "set_search" not in p.stderr


def test_set_search_other_variable_choices_are_said(tmp_path):
    path = tmp_path / "sets.fzn"
    path.write_text(set_search_model("first_fail", "indomain_min"))
    p = subprocess.run([sys.executable, "-m", "conundrum", "fzn", str(path)],
                       capture_output=True, text=True, check=True, timeout=120)
    assert "set_search: variable choice first_fail is followed as input_order" in p.stderr
    assert "not supported" not in p.stderr
    path.write_text(set_search_model("smallest", "indomain_max"))  # not a fixed order
    p = subprocess.run([sys.executable, "-m", "conundrum", "fzn", str(path)],
                       capture_output=True, text=True, check=True, timeout=120)
    assert "set_search: variable choice smallest is followed as input_order" in p.stderr
