"""Introduced variables inlined into the one constraint that uses them (io/flatzinc/inline.py,
issue 41 item 6): which are inlined and which are kept, checked on hand-written FlatZinc;
the solutions of inlined models checked against brute force and against Gecode through
the real `minizinc` driver (required, as for every MiniZinc test: never skipped)."""

from __future__ import annotations

import itertools
import subprocess

import pytest

from conundrum.io.flatzinc.build import HARMLESS, read
from conundrum.io.flatzinc.inline import plan
from conundrum.io.flatzinc.parser import FznError, parse
from test_flatzinc_minizinc import env, minizinc, solutions  # noqa: F401 (env: fixture)

INTRODUCED = ":: var_is_introduced :: is_defined_var"

# x[1..3] all different, their absolute differences all different (all-interval, n = 3):
# the differences d and their absolute values a are introduced, a in an array used once
ALL_INTERVAL = f"""\
var 0..2: x1 :: output_var;
var 0..2: x2 :: output_var;
var 0..2: x3 :: output_var;
var -2..2: d1 {INTRODUCED};
var -2..2: d2 {INTRODUCED};
var 0..2: a1 {INTRODUCED};
var 0..2: a2 {INTRODUCED};
array [1..3] of var int: xs = [x1, x2, x3];
array [1..2] of var int: as = [a1, a2];
constraint fzn_all_different_int(xs);
constraint int_lin_eq([1, -1, -1], [x2, x1, d1], 0) :: defines_var(d1);
constraint int_lin_eq([-1, 1, 1], [x3, x2, d2], 0) :: defines_var(d2);
constraint int_abs(d1, a1) :: defines_var(a1);
constraint int_abs(d2, a2) :: defines_var(a2);
constraint fzn_all_different_int(as);
solve satisfy;
"""


def chain(domain: str = "0..729", extra: str = "", consumer: str = "") -> str:
    """y = x*x*x as a chain of two products into a linear equation, y + z = 100."""
    return f"""\
var 0..9: x :: output_var;
var 0..100: z :: output_var;
var 0..81: p {INTRODUCED};
var {domain}: y {INTRODUCED}{extra};
constraint int_times(x, x, p) :: defines_var(p);
constraint int_times(p, x, y) :: defines_var(y);
constraint int_lin_eq([1, 1], [y, z], 100){consumer};
solve satisfy;
"""


def inlined(text: str) -> set[str]:
    return set(plan(parse(text), HARMLESS).defining)


SEARCHES = ("classic", "learning", "auto")


def all_solutions(text: str, names: list[str], search: str = "auto") -> set[tuple[int, ...]]:
    problem = read(text)
    by_name = {v.name: v for v in problem.model.variables}
    xs = [by_name[n] for n in names]
    found = [tuple(s[x] for x in xs)
             for s in problem.model.solutions(project=xs, search=search)]
    assert len(found) == len(set(found)), "a solution given twice"
    return set(found)


@pytest.mark.parametrize("search", SEARCHES)
def test_differences_and_absolute_values_become_one_all_different(search):
    assert inlined(ALL_INTERVAL) == {"d1", "d2", "a1", "a2"}
    problem = read(ALL_INTERVAL)
    assert [v.name for v in problem.model.variables] == ["x1", "x2", "x3"]
    assert len(problem.model.constraints) == 2
    brute = {t for t in itertools.product(range(3), repeat=3) if len(set(t)) == 3
             and abs(t[1] - t[0]) != abs(t[2] - t[1])}
    assert all_solutions(ALL_INTERVAL, ["x1", "x2", "x3"], search) == brute


@pytest.mark.parametrize("search", SEARCHES)
def test_a_chain_of_products_nests(search):
    assert inlined(chain()) == {"p", "y"}
    assert all_solutions(chain(), ["x", "z"], search) == {(x, 100 - x ** 3)
                                                          for x in range(5)}


def test_a_variable_declared_twice_is_left_to_the_builders_error():
    text = chain().replace("var 0..729: y", "var 0..729: y :: var_is_introduced;\n"
                           "var 0..729: y", 1)
    assert inlined(text) == {"p"}
    with pytest.raises(FznError, match="y is declared twice"):
        read(text)


@pytest.mark.parametrize("text, kept", [
    # the declared domain cuts the expression's values: a constraint, kept
    (chain(domain="0..50"), {"y"}),
    (chain(domain="{0, 1, 8, 27, 64, 125, 216, 343, 512, 729}"), {"y"}),
    # output, or asked for a strength
    (chain(extra=" :: output_var"), {"y"}),
    (chain(consumer=" :: domain"), {"y"}),
])
def test_what_is_kept(text, kept):
    assert not kept & inlined(text)
    assert all_solutions(text, ["x", "z"]) == {(x, 100 - x ** 3) for x in range(5)
                                               if x ** 3 <= 50 or "0..50" not in text}


def test_a_variable_used_twice_or_in_the_objective_is_kept():
    twice = chain().replace("solve satisfy;", "constraint int_le(y, 90);\nsolve satisfy;")
    assert inlined(twice) == {"p"}
    assert all_solutions(twice, ["x", "z"]) == {(x, 100 - x ** 3) for x in range(5)}
    objective = chain().replace("solve satisfy;", "solve maximize y;")
    assert inlined(objective) == {"p"}
    runs: list[dict] = [{"search": search} for search in SEARCHES]
    runs.append({"lns": True, "time_limit": 0.5})  # neighbourhoods end at the limit only
    for options in runs:
        problem = read(objective)
        best = problem.model.maximize(problem.objective, **options)
        assert best is not None and best[problem.objective] == 64, options


MINIZINC_MODEL = """\
include "globals.mzn";
array[1..5] of var 0..4: x;
constraint all_different(x);
constraint all_different([abs(x[i + 1] - x[i]) | i in 1..4]);
var int: s = sum(i in 1..5)(x[i] * x[i] * x[i]);
constraint s mod 3 = 1 \\/ x[1] < x[5];
solve satisfy;
"""


def test_inlined_models_give_gecodes_solutions(env, tmp_path):  # noqa: F811
    """All-interval over 5 with a sum of cubes: MiniZinc's differences, absolute values
    and products are inlined, and every solution is Gecode's."""
    model = tmp_path / "model.mzn"
    model.write_text(MINIZINC_MODEL)
    fzn = tmp_path / "model.fzn"
    subprocess.run(["minizinc", "-c", "--solver", "conundrum", str(model), "-o", str(fzn)],
                   check=True, env=env, capture_output=True)
    names = inlined(fzn.read_text())
    assert len(names) >= 8, names  # 4 differences, 4 absolute values, the products
    ours = solutions(minizinc(env, "conundrum", [str(model)], "-a"))
    theirs = solutions(minizinc(env, "gecode", [str(model)], "-a"))
    assert len(ours) == len(set(ours)) == len(theirs) > 0 and sorted(ours) == sorted(theirs)
