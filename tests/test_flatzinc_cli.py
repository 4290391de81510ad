"""`conundrum fzn`: the reader's errors, the flags and the exact FlatZinc output format,
on committed FlatZinc texts (no MiniZinc needed)."""

from __future__ import annotations

import contextlib
import io
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.cli import main
from conundrum.io.flatzinc.parser import FznError, IntSet, Range, parse

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import hard  # noqa: E402  (bench/hard.py: the Mycielski graphs)

GRID = """\
% a 2x2 Latin square over 1..2 with a Boolean flag
predicate fzn_all_different_int(array [int] of var int: x);
array [1..2] of int: X_INTRODUCED_5_ = [1,-1];
var 1..2: a;
var 1..2: b;
var 1..2: c;
var 1..2: d;
var bool: f :: output_var;
array [1..4] of var int: g :: output_array([1..2, 1..2]) = [a, b, c, d];
constraint fzn_all_different_int([a, b]);
constraint fzn_all_different_int([c, d]);
constraint int_ne(a, c);
constraint int_lin_le_reif(X_INTRODUCED_5_, [a, b], -1, f) :: defines_var(f);
solve :: int_search(g, input_order, indomain_min, complete) satisfy;
"""

OPT = """\
var 0..9: x :: output_var;
var 0..9: y :: output_var;
var 0..30: z :: output_var :: is_defined_var;
constraint int_lin_eq([1,2,-1], [x, y, z], 0) :: defines_var(z);
constraint int_lin_le([-1,-1], [x, y], -5);
solve :: int_search([x, y], input_order, indomain_max, complete) minimize z;
"""

# colouring a Mycielski graph of chromatic number 6 with 5 colours: no solution, and no
# cheap proof of it (pigeons in holes are an all_different, refuted at the root); the
# graph is triangle-free, so its disequalities form no clique (compiler/cliques.py)
_N, _EDGES = hard.mycielski(5)  # bench/hard.py: 47 vertices, chromatic number 6
HARD_UNSAT = "\n".join([*(f"var 1..5: c{i};" for i in range(_N)),
                         *(f"constraint int_ne(c{u}, c{v});" for u, v in _EDGES),
                         "solve satisfy;", ""])


def run(tmp_path, capsys, text, *flags):
    path = tmp_path / "model.fzn"
    path.write_text(text)
    code = main(["fzn", *flags, str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_first_solution_exact_format(tmp_path, capsys):
    code, out, err = run(tmp_path, capsys, GRID)
    assert code == 0 and err == ""
    assert out == ("f = true;\ng = array2d(1..2, 1..2, [1,2,2,1]);\n----------\n")


def test_all_solutions_then_search_complete(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, GRID, "-a")
    assert out.count("----------") == 2
    assert out.endswith("----------\n==========\n")
    assert "g = array2d(1..2, 1..2, [2,1,1,2]);\nf = false;" not in out  # output order kept
    assert "f = false;\ng = array2d(1..2, 1..2, [2,1,1,2]);" in out


def test_solution_limit_is_not_complete(tmp_path, capsys):
    _, out, _ = run(tmp_path, capsys, GRID, "-n", "1")
    assert out.count("----------") == 1 and "==========" not in out


def test_unsatisfiable(tmp_path, capsys):
    text = "var 1..3: x;\nconstraint int_lt(x, 1);\nsolve satisfy;\n"
    code, out, _ = run(tmp_path, capsys, text, "-a")
    assert code == 0 and out == "=====UNSATISFIABLE=====\n"


def test_time_limit_before_any_solution_is_unknown(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, HARD_UNSAT, "-t", "300")
    assert code == 0 and out == "=====UNKNOWN=====\n"


def test_minimize_prints_the_optimum_and_complete(tmp_path, capsys):
    _, out, _ = run(tmp_path, capsys, OPT)
    assert out == "x = 5;\ny = 0;\nz = 5;\n----------\n==========\n"


def test_intermediate_solutions_improve(tmp_path, capsys):
    _, out, _ = run(tmp_path, capsys, OPT, "-i")
    zs = [int(line.split("=")[1].strip(" ;")) for line in out.splitlines()
          if line.startswith("z =")]
    assert len(zs) >= 2 and zs == sorted(zs, reverse=True) and len(set(zs)) == len(zs)
    assert zs[-1] == 5 and out.endswith("==========\n")


def test_statistics_lines(tmp_path, capsys):
    _, out, _ = run(tmp_path, capsys, GRID, "-a", "-s")
    stats = dict(line.removeprefix("%%%mzn-stat: ").split("=")
                 for line in out.splitlines() if line.startswith("%%%mzn-stat: "))
    assert int(stats["solutions"]) == 2 and int(stats["nodes"]) >= 1
    assert float(stats["solveTime"]) >= 0
    assert out.rstrip().endswith("%%%mzn-stat-end")
    assert "objective" not in stats and "objectiveBound" not in stats  # no objective
    _, out, _ = run(tmp_path, capsys, OPT, "-s")
    stats = dict(line.removeprefix("%%%mzn-stat: ").split("=")
                 for line in out.splitlines() if line.startswith("%%%mzn-stat: "))
    assert stats["objective"] == stats["objectiveBound"] == "5"  # proved optimal


def test_free_search_and_seed_give_the_same_solution_set(tmp_path, capsys):
    outs = []
    for flags in ((), ("-f",), ("-r", "7")):
        _, out, _ = run(tmp_path, capsys, GRID, "-a", *flags)
        outs.append(sorted(out.split("----------")))
    assert outs[0] == outs[1] == outs[2]


def test_seq_search_and_unknown_annotation(tmp_path, capsys):
    text = GRID.replace(
        "solve :: int_search(g, input_order, indomain_min, complete) satisfy;",
        "solve :: seq_search([int_search([d], first_fail, indomain_max, complete), "
        "int_search(g, dom_w_deg, indomain_split, complete)]) :: restart_constant(0) satisfy;")
    code, out, err = run(tmp_path, capsys, text)
    assert code == 0 and out == "f = false;\ng = array2d(1..2, 1..2, [2,1,1,2]);\n----------\n"
    assert "restart_constant" in err and "ignored" in err


def test_standard_input(tmp_path, capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(GRID))
    code = main(["fzn", "-"])
    assert code == 0 and capsys.readouterr().out.endswith("----------\n")


@pytest.mark.parametrize(("text", "message"), [
    ("var 0.0..1.0: x;\nsolve satisfy;\n", "line 1, column 5: float"),
    ("var int: x;\nvar float: y;\nsolve satisfy;\n", "line 2, column 5: float variables"),
    ("var set of int: s;\nsolve satisfy;\n", "needs a finite universe"),
    ("var set of set of 1..3: s;\nsolve satisfy;\n", "a set variable holds integers"),
    ("var 1..3: x;\nconstraint float_lin_eq([1.0], [x], 2.0);\nsolve satisfy;\n", "line 2"),
    ("var 1..3: x;\nconstraint set_card(x, 2);\nsolve satisfy;\n", "set_card: argument 1"),
    ("var 1..3: x;\nconstraint frobnicate(x);\nsolve satisfy;\n",
     "line 2, column 1: unsupported constraint frobnicate"),
    ("var 1..3: x;\nconstraint int_eq(x);\nsolve satisfy;\n", "int_eq takes 2 arguments"),
    ("var 1..3: x;\nconstraint int_eq(x, y);\nsolve satisfy;\n", "unknown name y"),
    ("var 1..3: x\nsolve satisfy;\n", "line 2, column 1: expected ';'"),
    ("var 1..3: x;\n", "no solve item"),
    ("var 1..3: x;\nconstraint int_eq(x, 1) $;\nsolve satisfy;\n", "unexpected character"),
    ("var 3..1: x;\nsolve satisfy;\n", "empty domain"),
    ("array [1..2] of var 1..3: a = [1];\nsolve satisfy;\n", "2 elements but its value has 1"),
    ("var 1..3: x;\nsolve satisfy;\nsolve satisfy;\n", "line 3, column 1: a second solve item"),
])
def test_bad_input_is_one_line_and_status_2(tmp_path, capsys, text, message):
    code, out, err = run(tmp_path, capsys, text)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_missing_file(capsys):
    assert main(["fzn", "/nonexistent/model.fzn"]) == 2
    assert "cannot read /nonexistent/model.fzn" in capsys.readouterr().err


HIDDEN = """\
var 0..1: x :: output_var;
var bool: b ::var_is_introduced;
solve satisfy;
"""

GCC_LEX = Path(__file__).resolve().parent / "data" / "flatzinc" / "gcc_lex_std.fzn"


def blocks(out: str) -> list[str]:
    return out.split("----------\n")[:-1]


def test_each_output_assignment_is_printed_once(tmp_path, capsys):
    """A variable that is not output does not multiply the solutions printed (MiniZinc's
    convention): x = 0 and x = 1 once each, whatever b is; the statistics count 2."""
    code, out, _ = run(tmp_path, capsys, HIDDEN, "-a", "-s")
    assert code == 0
    assert blocks(out) == ["x = 0;\n", "x = 1;\n"]
    assert "==========\n" in out and "%%%mzn-stat: solutions=2\n" in out
    assert blocks(run(tmp_path, capsys, HIDDEN, "-n", "2")[1]) == ["x = 0;\n", "x = 1;\n"]
    assert blocks(run(tmp_path, capsys, HIDDEN, "-a", "-p", "2")[1]) in (
        ["x = 0;\n", "x = 1;\n"], ["x = 1;\n", "x = 0;\n"])


def gcc_lex_truth() -> set[tuple[int, ...]]:
    """The distinct x of gcc_lex_std.fzn's model, by brute force (c follows from x)."""
    found = set()
    for x in itertools.product(range(4), repeat=6):
        c = [x.count(v) for v in range(4)]
        if x[:3] < x[3:] and c[0] >= 1 and c[3] <= 1 and sum(x) == 8:
            found.add(x)
    return found


@pytest.mark.parametrize("flags", [["-a"], ["-a", "-p", "2"], ["-a", "-f"]])
def test_decomposed_lex_less_and_counts_print_distinct_solutions(capsys, flags):
    """MiniZinc's own decompositions of lex_less and global_cardinality (Booleans neither
    output nor determined by the outputs): every solution once, as many blocks as the
    model has distinct solutions (the 186 Gecode prints, 358 before)."""
    assert main(["fzn", *flags, str(GCC_LEX)]) == 0
    out = capsys.readouterr().out
    printed = [tuple(int(v) for v in re.search(r"x = array1d\(1..6, \[(.*)\]\)", b)
                     .group(1).split(",")) for b in blocks(out)]
    truth = gcc_lex_truth()
    assert len(printed) == len(set(printed)) == len(truth)
    assert set(printed) == truth and out.endswith("==========\n")


def test_decomposed_lex_less_with_a_solution_limit(capsys):
    assert main(["fzn", "-n", "40", str(GCC_LEX)]) == 0
    found = blocks(capsys.readouterr().out)
    assert len(found) == len(set(found)) == 40


def test_bad_flags(tmp_path, capsys):
    assert run(tmp_path, capsys, GRID, "-n", "0")[0] == 2
    assert run(tmp_path, capsys, GRID, "--bogus")[0] == 2


def test_conundrum_fzn_reads_its_own_arguments_and_nothing_else(tmp_path):
    """conundrum-fzn (MiniZinc starts it afresh for every model) parses `conundrum fzn`'s
    arguments alone: the same output, usage errors named after it, and the puzzle
    families and the parallel machinery never imported (the fixed cost of a run)."""
    import sys

    path = tmp_path / "model.fzn"
    path.write_text(OPT)
    code = ("import sys; from conundrum.cli import fzn_main; status = fzn_main(sys.argv[1:]); "
            "print(sorted(m for m in sys.modules if m.startswith(('conundrum.puzzles', "
            "'conundrum.parallel.coordinator', 'conundrum.explain', 'conundrum.cli.solving'))"
            "), status)")
    out = subprocess.run([sys.executable, "-c", code, "-a", str(path)], capture_output=True,
                         text=True, check=True).stdout
    assert out.splitlines()[-1] == "[] 0"
    assert out == main_output(["fzn", "-a", str(path)]) + "[] 0\n"
    bad = subprocess.run([sys.executable, "-c", code, "--bogus", str(path)],
                         capture_output=True, text=True)
    assert bad.stdout.strip() == "[] 2"
    assert bad.stderr.startswith("conundrum-fzn: unrecognized arguments: --bogus"), bad.stderr


def test_conundrum_fzn_command_parses_only_its_own_arguments(tmp_path):
    """`conundrum fzn ...` builds the fzn command's parser alone, as conundrum-fzn does:
    the same output, usage errors named `conundrum fzn`, no puzzle module imported."""
    import sys

    path = tmp_path / "model.fzn"
    path.write_text(OPT)
    code = ("import sys; from conundrum.cli import main; status = main(sys.argv[1:]); "
            "print(sorted(m for m in sys.modules if m.startswith('conundrum.puzzles')), "
            "status)")
    out = subprocess.run([sys.executable, "-c", code, "fzn", "-a", str(path)],
                         capture_output=True, text=True, check=True).stdout
    assert out == main_output(["fzn", "-a", str(path)]) + "[] 0\n"
    bad = subprocess.run([sys.executable, "-c", code, "fzn", "--bogus", str(path)],
                         capture_output=True, text=True)
    assert bad.stdout.strip() == "[] 2"
    assert bad.stderr.startswith("conundrum fzn: unrecognized arguments: --bogus"), bad.stderr


def main_output(argv: list[str]) -> str:
    """What `conundrum ARGV` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0
    return out.getvalue()


def test_parallel_flag_searches_on_workers(tmp_path, capsys):
    """-p 2 -a: the same solutions as one worker (as a set), then the completion line."""
    code, one, _ = run(tmp_path, capsys, GRID, "-a")
    code2, two, err = run(tmp_path, capsys, GRID, "-a", "-p", "2", "-s")
    assert code == code2 == 0 and err == ""
    solutions = sorted(one.split("----------\n")[:-1])
    assert sorted(two.split("----------\n")[:-1][:len(solutions)]) == solutions
    assert "==========" in two and "%%%mzn-stat: solutions=2" in two


def test_parser_nesting_is_iterative():
    """Annotations nest (read with an explicit stack); values are flat, and a nested one
    is refused at its place."""
    deep = "[" * 5000 + "1" + "]" * 5000
    fzn = parse(f"solve :: seq_search({deep}) satisfy;\n")
    value = fzn.solve.annotations[0].args[0]
    depth = 0
    while isinstance(value, list):
        value, depth = value[0], depth + 1
    assert depth == 5000 and value == 1
    with pytest.raises(FznError, match="line 1, column 27: an array inside an array"):
        parse(f"array [1..1] of int: a = {deep};\nsolve satisfy;\n")


def test_parser_values():
    fzn = parse("set of int: s = {3, 1, 2};\nset of int: r = 1..4;\nint: h = 0x1F;\n"
                "bool: t = true;\nsolve satisfy;\n")
    values = [d.value for d in fzn.declarations]
    assert values == [IntSet(((1, 3),)), Range(1, 4), 31, True]
    with pytest.raises(FznError, match="line 1"):
        parse("int: x = 1.5;\nsolve satisfy;\n")


def test_minizinc_config_prints_and_installs(tmp_path, capsys):
    import json

    assert main(["minizinc-config"]) == 0
    msc = json.loads(capsys.readouterr().out)
    assert msc["id"] == "org.conundrum.conundrum" and msc["supportsFzn"] is True
    assert msc["needsSolns2Out"] is True and {"-a", "-n", "-f", "-t", "-s"} <= set(
        msc["stdFlags"])
    from pathlib import Path

    lib = Path(msc["mznlib"])
    assert (lib / "fzn_all_different_int.mzn").exists() and (lib / "redefinitions.mzn").exists()
    assert Path(msc["executable"]).name == "conundrum-fzn"
    assert main(["minizinc-config", "--install", str(tmp_path / "solvers")]) == 0
    written = json.loads((tmp_path / "solvers" / "conundrum.msc").read_text())
    assert written == msc
    blocked = tmp_path / "file"
    blocked.write_text("")
    assert main(["minizinc-config", "--install", str(blocked)]) == 2
    assert "cannot write" in capsys.readouterr().err


# the reproduction, X_INTRODUCED_ shortened to XI_
WIDE_ALLDIFF = """\
predicate fzn_all_different_int(array [int] of var int: x);
array [1..3] of int: XI_6_ = [1,-1,-1];
var 1..1000000000: a:: output_var;
var 1..5: XI_0_;
var 1..5: XI_1_;
var 1..5: XI_2_;
array [1..3] of var int: y:: output_array([1..3]) = [XI_0_,XI_1_,XI_2_];
array [1..4] of var int: XI_3_ ::var_is_introduced  = [a,XI_0_,XI_1_,XI_2_];
constraint fzn_all_different_int(XI_3_);
constraint int_lin_le(XI_6_,[a,XI_1_,XI_0_],2);
solve :: int_search([XI_0_,XI_1_,XI_2_,a],input_order,indomain_min,complete) satisfy;
"""


def test_all_different_with_a_wide_variable_that_shrinks(tmp_path, capsys):
    """ENGINE-BUGS.md "all_different on a bounds-only variable that shrinks ..." (FIXED):
    `a` (1..10^9) drops to a few values beside three fixed ones; it used to print
    "internal error". Every solution, each once, against brute force (a <= 2 + y2 + y1)."""
    code, out, err = run(tmp_path, capsys, WIDE_ALLDIFF, "-a")
    assert code == 0 and err == "" and out.endswith("==========\n")
    got = []
    for block in out.split("----------\n")[:-1]:
        a = int(block.split("a = ")[1].split(";")[0])
        y = tuple(int(v) for v in block.split("[")[1].split("]")[0].split(","))
        got.append((a, *y))
    truth = [(a, *y) for y0 in range(1, 6) for y1 in range(1, 6) for y2 in range(1, 6)
             for y in [(y0, y1, y2)] for a in range(1, 13)
             if len({a, *y}) == 4 and a - y1 - y0 <= 2]
    assert sorted(got) == sorted(truth) and len(got) == len(set(got))


def knapsack_fzn(n: int = 60, seed: int = 7) -> str:
    """A 0/1 knapsack that depth-first branch and bound does not finish soon: its capacity
    row has a term of negative coefficient (on a variable held at 0), so the fractional
    knapsack bound (propagators/knapsack.py), which would prove it at once, is not used.
    The linear relaxation (compiler/relaxation.py) gives the same bound: the tests that
    need a long search pass --no-lp."""
    import random

    rng = random.Random(seed)
    weight = [rng.randint(20, 90) for _ in range(n)]
    value = [w + rng.randint(-10, 10) for w in weight]
    xs = ", ".join(f"x{i}" for i in range(n))
    return "\n".join([
        *(f"var 0..1: x{i};" for i in range(n)),
        f"array [1..{n}] of var int: take :: output_array([1..{n}]) = [{xs}];",
        f"var 0..{sum(value)}: total :: output_var :: is_defined_var;",
        "var 0..1: spare;",
        "constraint int_le(spare, 0);",
        f"constraint int_lin_le([{', '.join(map(str, weight))}, -1], [{xs}, spare], "
        f"{sum(weight) // 2});",
        f"constraint int_lin_eq([{', '.join(map(str, value))}, -1], [{xs}, total], 0) "
        ":: defines_var(total);",
        "solve maximize total;", ""])


def test_lns_flag_and_time_limit_print_the_best_found(tmp_path, capsys):
    code, out, _ = run(tmp_path, capsys, knapsack_fzn(), "--lns", "-t", "1000", "-s",
                           "--no-lp")
    assert code == 0 and out.count("----------") == 1 and "==========" not in out
    total = int(re.search(r"^total = (\d+);", out, re.M).group(1))
    assert f"%%%mzn-stat: objective={total}" in out
    # a satisfaction model ignores the flag
    code, out, _ = run(tmp_path, capsys, GRID, "--lns")
    assert code == 0 and out.endswith("----------\n")


def test_ctrl_c_prints_the_best_found(tmp_path):
    """SIGINT (MiniZinc's way of stopping a solver at its time limit) while optimising:
    the best solution found is printed, without the line that claims optimality."""
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "knapsack.fzn"
    path.write_text(knapsack_fzn())
    proc = subprocess.Popen([sys.executable, "-m", "conundrum", "fzn", "--no-lp", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)  # imports, reading, and a first solution
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:  # not heard: stop it, not to load the suite
        proc.kill()
        raise
    assert proc.returncode == 0, err
    assert out.count("----------") == 1 and "==========" not in out
    assert re.search(r"^total = \d+;", out, re.M)


@pytest.mark.parametrize("annotation, warning", [
    ("restart_luby(20)", None),
    ("restart_geometric(1.5, 20)", None),
    ("restart_geometric(2.0, 20)", "ratio is 1.5, not 2.0"),
    ("restart_linear(20)", None),
    ("restart_constant(20)", None),
])
def test_restart_annotations(tmp_path, capsys, annotation, warning):
    """MiniZinc's restart annotations become the restarts option (a float argument in an
    annotation is read, where a float value in the model is refused)."""
    text = knapsack_fzn(30).replace("solve maximize", f"solve :: {annotation} maximize")
    code, out, err = run(tmp_path, capsys, text, "-s", "--search", "classic", "-t", "2000")
    assert code == 0
    assert int(re.search(r"restarts=(\d+)", out).group(1)) > 0
    assert (warning is None and err == "") or (warning is not None and warning in err)
    code, out, err = run(tmp_path, capsys, text, "-s", "-f", "--search", "classic",
                         "-n", "3")
    assert re.search(r"restarts=0\b", out)  # free search ignores the annotations


def test_a_restart_annotation_without_a_positive_scale_is_ignored_with_a_warning(
        tmp_path, capsys):
    text = knapsack_fzn(30).replace("solve maximize", "solve :: restart_constant(0) maximize")
    code, out, err = run(tmp_path, capsys, text, "-s", "--search", "classic", "-n", "2")
    assert code == 0 and "restart_constant(" in err and "not supported" in err
    assert re.search(r"restarts=0\b", out)


def test_relax_and_reconstruct_asks_for_lns(tmp_path, capsys):
    text = knapsack_fzn(30).replace(
        "solve maximize", "solve :: relax_and_reconstruct(take, 70) maximize")
    code, out, err = run(tmp_path, capsys, text, "-t", "1500", "--no-lp")
    assert code == 0 and "relax_and_reconstruct" in err and "==========" not in out
    float_value = "var 0..3: x;\nconstraint int_le(x, 2.5);\nsolve satisfy;\n"
    code, _, err = run(tmp_path, capsys, float_value)
    assert code == 2 and "float values are not supported" in err


def test_lns_flags_choose_the_search_of_an_optimisation(tmp_path, monkeypatch):
    """-t alone leaves the choice to the default (lns=None: neighbourhoods under a time
    limit), --lns and --no-lns force it either way; both at once is a usage error."""
    import argparse

    from conundrum.cli import fzn
    from conundrum.io.flatzinc.build import read

    problem = read(knapsack_fzn(10))
    seen = {}
    for flags in ([], ["--lns"], ["--no-lns"]):
        args = argparse.Namespace(**{**vars(fzn_args(["-t", "100", *flags])),
                                     "file": "-"})
        seen[tuple(flags)] = fzn.search_options(problem, args).get("lns")
    assert seen == {(): None, ("--lns",): True, ("--no-lns",): False}
    path = tmp_path / "k.fzn"
    path.write_text(knapsack_fzn(10))
    assert main(["fzn", "--lns", "--no-lns", str(path)]) == 2


def test_the_objective_is_left_to_branch_and_bound():
    """An objective MiniZinc did not introduce, output as well, is neither in the default
    phase nor in the projection (both would branch on it, smallest values first: a proof
    of no solution each, as through the API it is not), while the solutions of an
    enumeration still differ on the output."""
    import argparse

    from conundrum.cli import fzn
    from conundrum.io.flatzinc.build import read

    text = knapsack_fzn(6)
    problem = read(text)
    objective = problem.objective
    assert any(v is objective for v in problem.default_vars)
    assert any(v is objective for v in fzn.output_vars(problem))
    opts = fzn.search_options(problem, argparse.Namespace(**{**vars(fzn_args([])),
                                                             "file": "-"}))
    assert all(v is not objective for xs, _, _ in opts["phases"] for v in xs)
    assert all(v is not objective for v in opts["project"])
    assert len(opts["project"]) == 6
    # the optimum is the one the brute force gives
    best = problem.model.maximize(objective, **opts)
    assert best is not None and best[objective] == brute_knapsack(text)


def brute_knapsack(text: str) -> int:
    """The knapsack_fzn text's optimum, by trying every subset."""
    weight = [int(w) for w in re.search(r"int_lin_le\(\[([^\]]*)\]", text)
              .group(1).split(",")][:-1]
    line = re.search(r"int_lin_eq\(\[([^\]]*)\]", text).group(1)
    value = [int(v) for v in line.split(",")][:len(weight)]
    capacity = int(re.search(r"int_lin_le\(\[[^\]]*\], \[[^\]]*\], (-?\d+)\)", text)
                   .group(1))
    return max(sum(v for v, t in zip(value, take) if t)
               for take in itertools.product((0, 1), repeat=len(weight))
               if sum(w for w, t in zip(weight, take) if t) <= capacity)


def fzn_args(flags):
    """The fzn command's parsed options (its own parser)."""
    from conundrum.cli.parser import build_parser

    return build_parser().parse_args(["fzn", *flags, "x.fzn"])


# ------------------------------------------------------------------ --why (issue 43)

WHY_FORMS = {
    # FlatZinc constraint text, and its meaning on (x, y, z)
    "le": (lambda a, b, c: f"int_le({a}, {b})", lambda a, b, c: lambda v: v[a] <= v[b]),
    "ne": (lambda a, b, c: f"int_ne({a}, {b})", lambda a, b, c: lambda v: v[a] != v[b]),
    "sum": (lambda a, b, c: f"int_lin_le([1,1],[{a},{b}],{c})",
            lambda a, b, c: lambda v: v[a] + v[b] <= c),
    "at_least": (lambda a, b, c: f"int_le({c}, {a})", lambda a, b, c: lambda v: v[a] >= c),
}


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(WHY_FORMS)), st.sampled_from("xyz"),
                          st.sampled_from("xyz"), st.integers(0, 4)),
                min_size=2, max_size=7))
def test_why_names_a_minimal_set_of_lines(tmp_path_factory, constraints):
    """`fzn --why` on an unsatisfiable FlatZinc quotes lines whose constraints clash
    (brute force says so) and each of which is needed (without any one of them, brute
    force finds a solution)."""
    lines = [f"var 0..3: {v} :: output_var;" for v in "xyz"]
    meaning = {}
    for kind, a, b, c in constraints:
        text, holds = WHY_FORMS[kind]
        lines.append(f"constraint {text(a, b, c)};")
        meaning[len(lines)] = holds(a, b, c)
    lines.append("solve satisfy;")

    def solvable(numbers):
        return any(all(meaning[n](dict(zip("xyz", t, strict=True))) for n in numbers)
                   for t in itertools.product(range(4), repeat=3))

    path = tmp_path_factory.mktemp("why") / "model.fzn"
    path.write_text("\n".join(lines) + "\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["fzn", "--why", str(path)]) == 0
    printed = out.getvalue().splitlines()
    if solvable(meaning):
        assert "=====UNSATISFIABLE=====" not in printed and not any(
            p.startswith("% why") for p in printed)
        return
    assert printed[0] == "=====UNSATISFIABLE====="
    assert printed[1].startswith("% why: a minimal set of ")
    blamed = [int(re.match(r"% line (\d+): ", p).group(1)) for p in printed[2:]]
    for n in blamed:
        assert printed[2 + blamed.index(n)].endswith(lines[n - 1])  # the line, quoted
    assert all(n in meaning for n in blamed)  # constraints, not the declarations
    assert not solvable(blamed)
    for n in blamed:
        assert solvable([m for m in blamed if m != n])


def test_why_is_silent_without_the_flag_and_on_a_solution(tmp_path, capsys):
    unsat = "var 0..3: x :: output_var;\nconstraint int_le(5, x);\nsolve satisfy;\n"
    code, out, _ = run(tmp_path, capsys, unsat)
    assert code == 0 and out == "=====UNSATISFIABLE=====\n"
    code, out, _ = run(tmp_path, capsys, unsat, "--why")
    assert out.splitlines() == ["=====UNSATISFIABLE=====",
                                "% why: a minimal set of 1 constraint that cannot hold "
                                "together:", "% line 2: constraint int_le(5, x);"]
    sat = "var 0..3: x :: output_var;\nconstraint int_le(2, x);\nsolve satisfy;\n"
    code, out, _ = run(tmp_path, capsys, sat, "--why")
    assert code == 0 and "why" not in out


def test_why_names_the_minizinc_source_with_the_symbol_table(tmp_path, capsys):
    """--paths (MiniZinc's --output-paths-to-file): each blamed line says which MiniZinc
    line it came from; without --why, or given a file that is not a symbol table, a
    one-line error."""
    mzn = tmp_path / "clash.mzn"
    mzn.write_text("var 1..5: x; var 1..5: y; var 1..9: z;\n"
                   "constraint x + y >= 9;\n"
                   "constraint z > 2;\n"
                   "constraint x + y <= 4;\n"
                   "solve satisfy;\n")
    fzn, paths = tmp_path / "clash.fzn", tmp_path / "clash.paths"
    subprocess.run(["minizinc", "-c", "--solver", "gecode", "--output-paths-to-file",
                    str(paths), "-o", str(fzn), str(mzn)], check=True, capture_output=True)
    assert main(["fzn", "--why", "--paths", str(paths), str(fzn)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "=====UNSATISFIABLE=====" and len(printed) == 4
    sources = sorted(line.rsplit("(from ", 1)[1] for line in printed[2:])
    assert sources == [f"{mzn}:2.12)", f"{mzn}:4.12)"]
    assert main(["fzn", "--paths", str(paths), str(fzn)]) == 2
    assert "add --why" in capsys.readouterr().err
    assert main(["fzn", "--why", "--paths", str(fzn), str(fzn)]) == 2
    assert "not a MiniZinc symbol table line" in capsys.readouterr().err


def test_reading_pauses_the_collector_and_the_run_undoes_the_freeze(tmp_path, capsys):
    """`conundrum fzn` reads with the cyclic collector paused and sets the model aside
    from later collections (gc.freeze): the reader gives the same model, the collector's
    enabled state is what it was, and nothing stays frozen once the command returns."""
    import gc

    from conundrum.cli.fzn import read_paused
    from conundrum.io.flatzinc.build import read

    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            problem = read_paused(GRID, False)
            assert gc.isenabled() is enabled
            assert gc.get_freeze_count() > 0
        finally:
            gc.unfreeze()
            gc.enable()
        plain = read(GRID)
        assert [str(c) for c in problem.model.constraints] == \
            [str(c) for c in plain.model.constraints]
    code, out, _ = run(tmp_path, capsys, GRID)
    assert code == 0 and out.startswith("f = ")
    assert gc.get_freeze_count() == 0
