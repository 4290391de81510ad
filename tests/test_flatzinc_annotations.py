"""Constraint annotations in FlatZinc: `:: domain`, `:: bounds` and `:: value` choose the
propagator of linear equations and all_different, are met already by element and the other
domain-consistent constraints, and every annotation still ignored is reported once (no
MiniZinc needed; the MiniZinc round trip is in test_flatzinc_minizinc.py)."""

from __future__ import annotations

import itertools

import pytest

from conundrum.cli import main
from conundrum.io.flatzinc.build import read


def coins(n: int, total: int, annotation: str) -> str:
    """n coins of 0, 6, 10 or 15 adding up to total: a linear equation whose domains have
    holes, which only domain consistency sees."""
    names = [f"x{i}" for i in range(n)]
    return "".join([*(f"var {{0,6,10,15}}: {x} :: output_var;\n" for x in names),
                    f"constraint int_lin_eq([{','.join(['1'] * n)}], [{','.join(names)}], "
                    f"{total}){annotation};\n", "solve satisfy;\n"])


def run(text: str) -> tuple[int, object]:
    """(number of solutions, stats) of a FlatZinc text, every solution."""
    problem = read(text)
    found = sum(1 for _ in problem.model.solutions())
    return found, problem.model.stats


def test_domain_on_int_lin_eq_searches_without_failing():
    """With `:: domain` the search never fails (one domain-consistent constraint is
    backtrack-free); bounds consistency alone fails hundreds of times. Same solutions."""
    truth = sum(1 for t in itertools.product([0, 6, 10, 15], repeat=8) if sum(t) == 60)
    found, stats = run(coins(8, 60, " :: domain"))
    assert found == truth and stats.fails == 0
    found, plain = run(coins(8, 60, ""))
    assert found == truth and plain.fails > 100
    assert plain.nodes > 2 * stats.nodes


def test_domain_on_int_lin_eq_fails_an_unreachable_sum_at_once():
    """29 is no sum of 6, 10 and 15: `:: domain` says so before any branch."""
    found, stats = run(coins(10, 29, " :: domain"))
    assert found == 0 and stats.nodes == 0
    found, plain = run(coins(10, 29, ""))
    assert found == 0 and plain.nodes > 100


def test_bounds_and_value_on_int_lin_eq_keep_bounds_consistency():
    for annotation in (" :: bounds", " :: value_propagation", ""):
        found, stats = run(coins(10, 29, annotation))
        assert found == 0 and stats.nodes > 100


def test_domain_on_bool_lin_eq_with_a_variable_total():
    """2 * (b0 + b1 + b2 + b3) == t, t in {0, 4, 5}: t = 0 once, t = 4 in six ways, and t = 5
    is removed before the search, so it never fails."""
    text = "".join([*(f"var bool: b{i} :: output_var;\n" for i in range(4)),
                    "var {0, 4, 5}: t :: output_var;\n",
                    "constraint bool_lin_eq([2,2,2,2], [b0,b1,b2,b3], t) :: domain;\n",
                    "solve satisfy;\n"])
    found, stats = run(text)
    assert found == 7 and stats.fails == 0


def pigeons(annotation: str) -> str:
    """Three variables over {1, 3}, all different: no solution, which only the matching
    (domain) strength sees without a search; bounds sees three values in 1..3."""
    return ("var {1,3}: a :: output_var;\nvar {1,3}: b :: output_var;\n"
            "var {1,3}: c :: output_var;\n"
            f"constraint fzn_all_different_int([a, b, c]){annotation};\nsolve satisfy;\n")


@pytest.mark.parametrize(("annotation", "branches"), [
    (" :: domain", False), (" :: domain_propagation", False), ("", False),
    (" :: bounds", True), (" :: bounds_propagation", True),
    (" :: value", True), (" :: value_propagation", True),
])
def test_all_different_strength_follows_the_annotation(annotation, branches):
    found, stats = run(pigeons(annotation))
    assert found == 0
    assert (stats.nodes > 0) == branches


HONOURED = """array [1..3] of int: c = [1, 1, 1];
var 0..5: x :: output_var;
var 0..5: y :: output_var;
var 0..5: z :: output_var :: is_defined_var;
var 1..3: i :: output_var;
var 0..9: e :: var_is_introduced :: is_defined_var;
var 0..5: w :: output_var;
var bool: b :: output_var;
constraint int_lin_eq(c, [x, y, z], 7) :: domain :: defines_var(z) :: ctx_pos;
constraint int_lin_ne([1, -1], [x, y], 0) :: domain;
constraint int_lin_le([1, 1], [x, y], 8) :: bounds;
constraint fzn_all_different_int([x, y, z]) :: value_propagation;
constraint array_var_int_element(i, [x, y, z], w) :: domain;
constraint array_int_element(i, [5, 4, 2], e) :: domain :: defines_var(e);
constraint int_plus(x, y, e) :: domain;
constraint bool_clause([b], []) :: mzn_constraint_name("empty") :: promise_total;
solve satisfy;
"""


def test_honoured_and_harmless_annotations_say_nothing(tmp_path, capsys):
    path = tmp_path / "model.fzn"
    path.write_text(HONOURED)
    assert main(["fzn", "-a", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out.count("----------") > 0 and out.endswith("==========\n")


IGNORED = """var 0..5: x :: output_var;
var 0..5: y :: output_var;
var 0..30: p :: output_var :: is_defined_var;
var 0..30: q :: output_var;
constraint int_times(x, y, p) :: domain :: defines_var(p);
constraint int_times(y, x, q) :: domain;
constraint int_max(x, y, q) :: bounds :: my_hint;
constraint int_lin_le_reif([1, 1], [x, y], 3, true) :: my_hint :: my_other_hint(1, 2);
constraint int_lin_eq([1, 1], [x, y], 5) :: domain;
solve satisfy;
"""


def test_each_ignored_annotation_is_reported_once(tmp_path, capsys):
    path = tmp_path / "model.fzn"
    path.write_text(IGNORED)
    assert main(["fzn", "-a", str(path)]) == 0
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert all(line.startswith("conundrum fzn: warning: ") for line in lines), err
    # domain on int_times (twice, once reported), bounds on int_max, my_hint (twice),
    # my_other_hint; domain on int_lin_eq is honoured and says nothing more
    assert len(lines) == 4, err
    assert sum("annotation domain " in line and "int_times" in line for line in lines) == 1
    assert sum("annotation bounds " in line and "int_max" in line for line in lines) == 1
    assert sum("my_hint" in line for line in lines) == 1
    assert sum("my_other_hint(...)" in line for line in lines) == 1
    assert not any(name in err for name in ("defines_var", "is_defined_var", "output_var"))
    assert out.count("----------") == 0 and "UNSATISFIABLE" in out  # x*y with x+y=5 vs q


def test_a_sum_too_wide_for_domain_consistency_is_reported(tmp_path, capsys):
    path = tmp_path / "model.fzn"
    path.write_text("var 0..100000: x :: output_var;\nvar 0..3: y :: output_var;\n"
                    "constraint int_lin_eq([1, 2], [x, y], 5) :: domain;\n"
                    "constraint int_lin_eq([1, 1], [x, y], 3) :: domain;\nsolve satisfy;\n")
    assert main(["fzn", "-a", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err.count("warning") == 1 and "bounds consistency instead" in err
    assert out.count("----------") == 1  # x = 1, y = 2
