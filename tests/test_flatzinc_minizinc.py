"""conundrum as a MiniZinc solver, end to end: the collection in tests/data/minizinc (MiniZinc
models from public repositories, their licences in its README) run through the real
`minizinc` driver with `--solver conundrum`, compared with Gecode.

- "count" models: the solutions conundrum prints (MiniZinc's dzn output of each) are exactly
  the ones Gecode prints, none twice, as many as the manifest records, and the search says
  it is complete; both run with `--non-unique`, so that MiniZinc's own filter of repeated
  solutions does not hide a solution printed twice (each output assignment is printed once:
  the blocks are counted, not only the distinct ones);
- "optimum" models: the proven optimum equals Gecode's, and the optimal solution, fixed into
  the model, is accepted by Gecode;
- "satisfy" models: satisfiable or not as Gecode says; a solution, fixed into the model, is
  accepted by Gecode.

MiniZinc and Gecode are required (`.ci/run` installs Debian's minizinc and flatzinc): a
missing driver fails these tests, it never skips them. The committed FlatZinc files of the
same models (tests/data/minizinc/fzn, compiled with conundrum's mznlib) are checked without
the driver by `test_committed_flatzinc`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import conundrum
from conundrum.io.flatzinc import config
from conundrum.io.flatzinc.build import read

ROOT = Path(__file__).resolve().parent / "data" / "minizinc"
MANIFEST = json.loads((ROOT / "manifest.json").read_text())
TIMEOUT = 300


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """The environment in which `minizinc --solver conundrum` finds this conundrum."""
    assert shutil.which("minizinc"), "MiniZinc is required: apt-get install minizinc flatzinc"
    exe = config.executable_path()
    assert exe, "the conundrum-fzn command is not installed (pip install .)"
    folder = tmp_path_factory.mktemp("solvers")
    msc = config.solver_config(exe, conundrum.__version__)
    (folder / "conundrum.msc").write_text(config.render(msc))
    environment = dict(os.environ, MZN_SOLVER_PATH=str(folder))
    solvers = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True,
                             env=environment).stdout
    assert config.SOLVER_ID in solvers and "org.gecode.gecode" in solvers, solvers
    return environment


def files(entry: dict) -> list[str]:
    found = [str(ROOT / entry["model"])]
    if entry.get("data"):
        found.append(str(ROOT / entry["data"]))
    return found


def minizinc(env: dict, solver: str, paths: list[str], *flags: str) -> str:
    # Gecode with MiniZinc's own standard library (-G std): Debian pairs MiniZinc 2.6.4 with
    # Gecode 6.2.0's older library, with which `include "globals.mzn"` does not compile
    library = ["-G", "std"] if solver == "gecode" else []
    cmd = ["minizinc", "--solver", solver, *library, "--output-mode", "dzn",
           "--output-objective", *flags, *paths]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stdout[-2000:]}\n{r.stderr[-2000:]}"
    return r.stdout


def solutions(out: str) -> list[str]:
    """The solution blocks of a dzn-mode output, each normalised: one assignment a line
    (a value printed over several lines, a 2-d array say, is joined), sorted."""
    blocks = out.split("----------")[:-1]
    normal = []
    for block in blocks:
        assignments = (" ".join(a.split()) for a in re.split(r";\s*(?:\n|$)", block.strip()))
        normal.append("\n".join(sorted(f"{a};" for a in assignments if a)))
    return normal


def objective(block: str) -> int:
    m = re.search(r"^_objective = (-?\d+);", block, re.M)
    assert m, block
    return int(m.group(1))


def accepted_by_gecode(env: dict, entry: dict, block: str, tmp_path: Path) -> bool:
    """Gecode finds a solution of the model with every printed variable fixed to the block's
    value (an independent check of a conundrum solution)."""
    fixes = [f"constraint {line.rstrip(';')};" for line in block.splitlines()
             if not line.startswith("_objective")]
    check = tmp_path / "check.mzn"
    check.write_text(f'include "{ROOT / entry["model"]}";\n' + "\n".join(fixes) + "\n")
    paths = [str(check)] + files(entry)[1:]
    out = minizinc(env, "gecode", paths)
    return "----------" in out and "UNSATISFIABLE" not in out


@pytest.mark.parametrize("entry", MANIFEST, ids=[e["name"] for e in MANIFEST])
def test_against_gecode(entry, env, tmp_path):
    kind, expected = entry["kind"], entry["expected"]
    if kind == "count":
        ours = minizinc(env, "conundrum", files(entry), "-a", "--non-unique")
        assert "==========" in ours, "the search did not complete"
        mine = solutions(ours)
        assert len(mine) == len(set(mine)), "a solution was printed twice"
        theirs = solutions(minizinc(env, "gecode", files(entry), "-a", "--non-unique"))
        assert len(mine) == len(theirs) == expected
        assert sorted(mine) == sorted(theirs)
    elif kind == "optimum":
        ours = minizinc(env, "conundrum", files(entry))
        assert "==========" in ours, "optimality was not proven"
        best = solutions(ours)[-1]
        assert objective(best) == expected
        assert accepted_by_gecode(env, entry, best, tmp_path)
    else:
        ours = minizinc(env, "conundrum", files(entry))
        if expected == "unsat":
            assert "=====UNSATISFIABLE=====" in ours
        else:
            found = solutions(ours)
            assert found, ours
            assert accepted_by_gecode(env, entry, found[0], tmp_path)


def fzn_entries() -> list[dict]:
    return [e for e in MANIFEST if (ROOT / "fzn" / f"{e['name']}.fzn").exists()]


@pytest.mark.parametrize("entry", fzn_entries(), ids=[e["name"] for e in fzn_entries()])
def test_committed_flatzinc(entry, capsys):
    """The reader alone, on the committed FlatZinc of each model: the same count, optimum or
    status as Gecode's, through `conundrum fzn` (no MiniZinc needed)."""
    from conundrum.cli import main

    path = str(ROOT / "fzn" / f"{entry['name']}.fzn")
    kind, expected = entry["kind"], entry["expected"]
    flags = ["-a"] if kind == "count" else []
    assert main(["fzn", *flags, path]) == 0
    out = capsys.readouterr().out
    if kind == "count":
        assert out.count("----------") == expected and out.endswith("==========\n")
    elif kind == "optimum":
        assert out.endswith("==========\n")
        problem = read(Path(path).read_text())  # the objective's value, through the API
        optimise = problem.model.minimize if problem.kind == "minimize" else \
            problem.model.maximize
        best = optimise(problem.objective)
        assert best is not None and problem.model.stats.complete
        assert best.value(problem.objective) == expected
    elif expected == "unsat":
        assert out == "=====UNSATISFIABLE=====\n"
    else:
        assert "----------" in out


OPTIMA = [e for e in fzn_entries() if e["kind"] == "optimum"]


def _objective_is_wide(path: str) -> bool:
    """Whether the compiled objective spans more than bisection's WIDE values."""
    from conundrum.compiler.bisection import is_wide
    from conundrum.compiler.compiled import compile_model
    from conundrum.io.flatzinc.build import read

    problem = read(Path(path).read_text(encoding="utf-8"))
    sense = -1 if problem.kind == "minimize" else 1
    compiled = compile_model(list(problem.model.variables), list(problem.model.constraints),
                             problem.objective, sense)
    return compiled is not None and is_wide(compiled)


@pytest.mark.parametrize("entry", OPTIMA, ids=[e["name"] for e in OPTIMA])
def test_the_default_search_keeps_the_classic_tree(entry, capsys):
    """search="auto" became the default on the promise that no optimisation of this row set
    gets slower (docs/search.md): each is solved before auto's switch to learning, so the
    default searches exactly the depth-first tree, failure for failure. On a wide
    objective the two differ by design (compiler/portfolio.py, GRACE_MIN): the default's
    first turn goes on past its first solution before the probes, search="classic" probes
    at once; then the same optimum and failures, and at most GRACE_MIN more nodes."""
    from conundrum.cli import main
    from conundrum.compiler.portfolio import GRACE_MIN

    path = str(ROOT / "fzn" / f"{entry['name']}.fzn")
    runs = []
    for flags in ([], ["--search", "classic"]):
        assert main(["fzn", "-s", *flags, path]) == 0
        out = capsys.readouterr().out
        runs.append(dict(line.removeprefix("%%%mzn-stat: ").split("=") for line in
                         out.splitlines() if line.startswith(("%%%mzn-stat: failures=",
                                                              "%%%mzn-stat: nodes=",
                                                              "%%%mzn-stat: objective="))))
    default, classic = runs
    assert len(default) == 3
    if default != classic:
        assert _objective_is_wide(path)
        assert default["objective"] == classic["objective"]
        assert default["failures"] == classic["failures"]
        assert int(default["nodes"]) <= int(classic["nodes"]) + GRACE_MIN


def test_variables_left_out_of_the_output_do_not_repeat_solutions(env, tmp_path):
    """y (a local variable) is searched but not printed: each x is printed once, as Gecode
    does (before, x = 1 twice and x = 2 three times); also with -n and on two workers."""
    model = tmp_path / "hidden.mzn"
    model.write_text("var 0..2: x;\nconstraint let { var 0..2: y } in y <= x;\n"
                     "solve satisfy;\n")
    theirs = solutions(minizinc(env, "gecode", [str(model)], "-a", "--non-unique"))
    assert len(theirs) == 3
    for flags in (["-a"], ["-a", "-p", "2"], ["-n", "5"]):
        ours = solutions(minizinc(env, "conundrum", [str(model)], *flags, "--non-unique"))
        assert len(ours) == len(set(ours)) == 3 and sorted(ours) == sorted(theirs)


def test_restarts_flag_passes_through(env, tmp_path):
    """`minizinc --solver conundrum --restarts luby:1` (an extra flag of the solver
    configuration) reaches the search: the same solutions as without it, and the
    statistics count the restarts."""
    model = tmp_path / "queens.mzn"
    model.write_text("include \"globals.mzn\";\nint: n = 6;\narray[1..n] of var 1..n: q;\n"
                     "constraint all_different(q);\n"
                     "constraint all_different([q[i] + i | i in 1..n]);\n"
                     "constraint all_different([q[i] - i | i in 1..n]);\nsolve satisfy;\n")
    plain = solutions(minizinc(env, "conundrum", [str(model)], "-a"))
    out = minizinc(env, "conundrum", [str(model)], "-a", "-s", "--restarts", "luby:1")
    ours = [line for line in out.splitlines() if line.startswith("q = ")]
    assert len(plain) == 4 and sorted(ours) == sorted(plain)
    restarts = [int(line.split("=")[1]) for line in out.splitlines()
                if line.startswith("%%%mzn-stat: restarts=")]
    assert restarts and restarts[-1] > 0, out


def test_no_lns_flag_passes_through(env):
    """`minizinc --solver conundrum -t T --no-lns` and `--lns` (extra flags of the solver
    configuration) pass through: under a time limit the default portfolio's first turn
    (the classic search's first 10,000 failures) holds golomb6, so with or without
    `--no-lns` the tree is the one without a time limit, failure for failure, and `--lns`
    (large neighbourhood search alone) searches another."""
    entry = next(e for e in MANIFEST if e["name"] == "golomb6")

    def tree(*flags: str) -> list[str]:
        out = minizinc(env, "conundrum", files(entry), "-s", *flags)
        return [line for line in out.splitlines()
                if line.startswith(("%%%mzn-stat: nodes=", "%%%mzn-stat: failures="))]

    exact = tree()
    assert len(exact) == 2 and tree("-t", "60000", "--no-lns") == exact
    assert tree("-t", "60000") == exact
    assert tree("-t", "60000", "--lns") != exact


def test_why_flag_passes_through(env, tmp_path):
    """`minizinc --solver conundrum --why` on an unsatisfiable model: the FlatZinc
    constraints that clash come back as comments after =====UNSATISFIABLE=====."""
    model = tmp_path / "clash.mzn"
    model.write_text("var 0..9: x;\nvar 0..9: y;\nconstraint x + y <= 5;\n"
                     "constraint x >= 3;\nconstraint y >= 3;\nsolve satisfy;\n")
    out = minizinc(env, "conundrum", [str(model)], "--why")
    lines = out.splitlines()
    assert "=====UNSATISFIABLE=====" in lines
    assert any(line.startswith("% why: a minimal set of ") for line in lines), out
    assert not any("why" in line for line in minizinc(env, "conundrum", [str(model)]).splitlines())


def test_json_stream_gives_objective_and_bound_with_every_solution(env, tmp_path):
    """`minizinc --json-stream -i -s`: each improving solution is followed by a statistics
    object with its objective and the bound proved so far; the objectives improve, every
    bound is a true bound on the optimum (found by Gecode), and the last equals it."""
    model = tmp_path / "knapsack.mzn"
    model.write_text("array[1..8] of int: w = [12, 33, 41, 17, 25, 36, 29, 11];\n"
                     "array[1..8] of int: v = [14, 30, 45, 20, 22, 39, 31, 12];\n"
                     "array[1..8] of var 0..1: x;\n"
                     "constraint sum(i in 1..8)(w[i] * x[i]) <= 100;\n"
                     "var int: total = sum(i in 1..8)(v[i] * x[i]);\n"
                     "solve maximize total;\n")
    best = int(re.findall(r"_objective = (\d+);", minizinc(env, "gecode", [str(model)]))[-1])
    out = minizinc(env, "conundrum", [str(model)], "--json-stream", "-i", "-s",
                   "--search", "classic")
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    seen = []
    for k, item in enumerate(lines):
        if item["type"] == "solution":
            stats = lines[k + 1]
            assert stats["type"] == "statistics", lines[k + 1]
            value = int(re.search(r"_objective = (\d+);", item["output"]["dzn"]).group(1))
            assert stats["statistics"]["objective"] == value
            assert stats["statistics"]["objectiveBound"] >= best
            seen.append(value)
    assert len(seen) >= 2 and seen == sorted(set(seen)) and seen[-1] == best


def test_set_variables_become_booleans(env, tmp_path):
    """A model with a set variable runs: the mznlib includes MiniZinc's nosets library."""
    model = tmp_path / "subsets.mzn"
    model.write_text("var set of 1..5: s;\nconstraint card(s) = 2;\n"
                     "constraint not (1 in s);\nsolve satisfy;\n")
    ours = solutions(minizinc(env, "conundrum", [str(model)], "-a"))
    theirs = solutions(minizinc(env, "gecode", [str(model)], "-a"))
    assert len(ours) == 6 and sorted(ours) == sorted(theirs)


def test_regular_passed_through(env, tmp_path):
    """MiniZinc's regular reaches conundrum's own propagator (conundrum_regular in the
    FlatZinc) and gives Gecode's solutions (MiniZinc 2.6's library aborts on a reified
    regular, so only the posted form is compared)."""
    model = tmp_path / "words.mzn"
    model.write_text(
        'include "regular.mzn";\n'
        "array[1..6] of var 1..3: x;\n"
        "array[1..3, 1..3] of int: d = [| 1, 2, 3 | 1, 0, 3 | 1, 2, 0 |];\n"
        "constraint regular(x, 3, 3, d, 1, 1..3);\n"
        "constraint regular([x[4], x[5], x[6]], 3, 3, d, 2, {1});\n"
        "solve satisfy;\n")
    fzn = tmp_path / "words.fzn"
    subprocess.run(["minizinc", "-c", "--solver", "conundrum", str(model), "-o", str(fzn)],
                   check=True, env=env, capture_output=True)
    assert "conundrum_regular(" in fzn.read_text()
    ours = solutions(minizinc(env, "conundrum", [str(model)], "-a"))
    theirs = solutions(minizinc(env, "gecode", [str(model)], "-a"))
    assert len(ours) == len(set(ours)) == len(theirs) > 0 and sorted(ours) == sorted(theirs)


PASSED_THROUGH = {
    # the global's name in the FlatZinc (and what is called): a model with a manageable
    # number of solutions
    "conundrum_circuit": "array[1..5] of var 1..5: x;\nconstraint circuit(x);\n",
    "conundrum_subcircuit": "array[0..3] of var 0..4: x;\nconstraint subcircuit(x);\n",
    "fzn_disjunctive": "array[1..4] of var 0..6: x;\n"
                       "constraint disjunctive(x, [2, 0, 3, 1]);\n",
    "fzn_disjunctive_strict": "array[1..3] of var 0..4: x;\narray[1..3] of var 0..2: d;\n"
                              "constraint disjunctive_strict(x, d);\n",
    "fzn_cumulative": "array[1..3] of var 0..4: x;\nvar 0..4: b;\n"
                      "constraint cumulative(x, [2, 3, 1], [1, 2, 2], b);\n",
    "fzn_diffn": "array[1..3] of var 0..2: x;\narray[1..3] of var 0..1: y;\n"
                 "constraint diffn(x, y, [1, 2, 1], [1, 1, 2]);\n",
    "conundrum_arg_max": "array[2..5] of var -1..2: x;\nvar int: i = arg_max(x);\n",
    "conundrum_arg_min": "array[1..4] of var -1..2: x;\nvar int: i = arg_min(x);\n",
    # bins numbered from the loads' first index; bin values outside it have no solution
    "conundrum_bin_packing_load": "array[2..4] of var 0..4: load;\n"
                                  "array[1..4] of var 1..5: bin;\n"
                                  "constraint bin_packing_load(load, bin, [2, 1, 3, 1]);\n",
    "conundrum_bin_packing_load (bin_packing)": "array[1..4] of var 0..2: bin;\n"
                                                "constraint bin_packing(3, bin, [2, 1, 2, 1]);\n",
    "conundrum_bin_packing_load (bin_packing_capa)":
        "array[1..4] of var 0..3: bin;\n"
        "constraint bin_packing_capa([3, 2, 4], bin, [2, 1, 2, 1]);\n",
}


@pytest.mark.parametrize("name", sorted(PASSED_THROUGH))
def test_globals_passed_through(env, tmp_path, name):
    """circuit, subcircuit, disjunctive(_strict), cumulative, diffn, arg_max/arg_min and
    the three bin packings reach conundrum's propagators (their name in the FlatZinc) and
    give exactly Gecode's solutions, under the default and the learning search."""
    model = tmp_path / "model.mzn"
    model.write_text('include "globals.mzn";\n' + PASSED_THROUGH[name] + "solve satisfy;\n")
    fzn = tmp_path / "model.fzn"
    subprocess.run(["minizinc", "-c", "--solver", "conundrum", str(model), "-o", str(fzn)],
                   check=True, env=env, capture_output=True)
    assert f"constraint {name.split()[0]}(" in fzn.read_text()
    theirs = solutions(minizinc(env, "gecode", [str(model)], "-a"))
    for flags in ([], ["--search", "learning"]):
        ours = solutions(minizinc(env, "conundrum", [str(model)], "-a", *flags))
        assert len(ours) == len(set(ours)) == len(theirs) > 0
        assert sorted(ours) == sorted(theirs), flags


# small optimisations through the propagators that issues 41 and 42 reworked for speed:
# no_overlap's edge-finding and pair precedences, cumulative's energetic check,
# bin_packing's kept sums with min and max of plain variables over bit sets, |e| of a
# signed expression (int_mod's decomposition), products proved by relation proofs
REWORKED = {
    "jobshop": (
        "include \"globals.mzn\";\n"
        "array[1..4, 1..4] of int: d =\n"
        "    [| 5, 3, 2, 4 | 2, 4, 4, 3 | 3, 2, 5, 2 | 4, 4, 1, 3 |];\n"
        "array[1..4, 1..4] of int: mach =\n"
        "    [| 1, 2, 3, 4 | 2, 1, 4, 3 | 3, 4, 1, 2 | 4, 3, 2, 1 |];\n"
        "array[1..4, 1..4] of var 0..40: s;\n"
        "var 0..40: makespan;\n"
        "constraint forall(j in 1..4, k in 1..3)(s[j, k] + d[j, k] <= s[j, k + 1]);\n"
        "constraint forall(j in 1..4)(s[j, 4] + d[j, 4] <= makespan);\n"
        "constraint forall(m in 1..4)(disjunctive(\n"
        "    [s[j, k] | j, k in 1..4 where mach[j, k] = m],\n"
        "    [d[j, k] | j, k in 1..4 where mach[j, k] = m]));\n"
        "solve minimize makespan;\n"),
    "rcpsp": (
        "include \"globals.mzn\";\n"
        "array[1..8] of int: d = [3, 2, 4, 2, 3, 5, 1, 2];\n"
        "array[1..8] of int: r = [2, 1, 2, 3, 1, 2, 3, 2];\n"
        "array[1..8] of var 0..30: s;\n"
        "var 0..30: makespan;\n"
        "constraint cumulative(s, d, r, 4);\n"
        "constraint s[1] + d[1] <= s[4] /\\ s[2] + d[2] <= s[6] /\\ s[3] + d[3] <= s[7];\n"
        "constraint forall(i in 1..8)(s[i] + d[i] <= makespan);\n"
        "solve minimize makespan;\n"),
    "packing": (
        "include \"globals.mzn\";\n"
        "array[1..7] of int: w = [4, 3, 3, 2, 2, 2, 1];\n"
        "array[1..7] of var 1..3: bin;\n"
        "array[1..3] of var 0..17: load;\n"
        "constraint bin_packing_load(load, bin, w);\n"
        "constraint bin[1] != bin[2];\n"
        "solve minimize max(load) - min(load) + 3 * max(bin);\n"),
    "signs": (
        "array[1..5] of var 0..9: x;\n"
        "constraint forall(i in 1..4)(x[i] != x[i + 1] /\\ (x[i] + x[i + 1]) mod 3 = 1);\n"
        "constraint sum(x) >= 17;\n"
        "solve minimize sum(i in 1..4)(abs(x[i] - x[i + 1]))\n"
        "    + sum(i in 1..5)(abs(x[i] + 2)) - 2 * max(x);\n"),
    "products": (
        "var 20..70: x; var 20..70: y; var 20..70: z; var 20..70: w;\n"
        "constraint x * y = z * w + 1;\n"
        "constraint x < z;\n"
        "solve minimize x + 2 * y + z;\n"),
}
FLATZINC_SEARCHES = {
    "classic": ["--search", "classic"], "learning": ["--search", "learning"],
    "portfolio": ["--search", "portfolio"], "lns": ["--lns"], "time-limit": ["-t", "60000"],
}


@pytest.mark.parametrize("name", sorted(REWORKED))
def test_reworked_propagators_agree_through_flatzinc_under_every_search(env, tmp_path, name):
    """Each model through `minizinc --solver conundrum` under the classic, learning and
    portfolio searches, LNS and a time limit: Gecode's optimum, proved, and the last
    solution accepted by Gecode with every printed variable fixed to its value."""
    model = tmp_path / "model.mzn"
    model.write_text(REWORKED[name])
    best = objective(minizinc(env, "gecode", [str(model)]).split("----------")[-2])
    for search, flags in FLATZINC_SEARCHES.items():
        out = minizinc(env, "conundrum", [str(model)], *flags)
        assert "==========" in out, f"{search}: optimality not proved"
        last = solutions(out)[-1]
        assert objective(last) == best, search
        fixes = [f"constraint {line.rstrip(';')};" for line in last.splitlines()
                 if not line.startswith("_objective")]
        check = tmp_path / f"check_{search}.mzn"
        check.write_text(REWORKED[name] + "\n".join(fixes) + "\n")
        accepted = minizinc(env, "gecode", [str(check)])
        assert "----------" in accepted and "UNSATISFIABLE" not in accepted, search


STRENGTH_MODEL = """\
include "alldifferent.mzn";
array[1..6] of var {0, 6, 10, 15}: coin;
constraint (sum(i in 1..6)(coin[i]) = 46) :: domain;
array[1..4] of var 1..5: y;
constraint all_different(y) :: bounds;
constraint (sum(i in 1..4)(i * y[i]) = 30) :: domain;
constraint all_different([coin[1], coin[2], coin[3]]) :: domain;
solve satisfy;
"""


def test_strength_annotations_pass_through(env, tmp_path):
    """`:: domain` on linear equations and `:: bounds` / `:: domain` on all_different reach
    conundrum's FlatZinc (which honours them, silently) and give exactly Gecode's
    solutions."""
    model = tmp_path / "strength.mzn"
    model.write_text(STRENGTH_MODEL)
    fzn = tmp_path / "strength.fzn"
    subprocess.run(["minizinc", "-c", "--solver", "conundrum", str(model), "-o", str(fzn)],
                   check=True, env=env, capture_output=True)
    text = fzn.read_text()
    assert text.count(":: domain") == 3 and ":: bounds" in text
    r = subprocess.run(["conundrum-fzn", "-a", str(fzn)], capture_output=True, text=True,
                       env=env, check=True)
    assert r.stderr == ""  # every annotation honoured: no warning
    ours = solutions(minizinc(env, "conundrum", [str(model)], "-a"))
    theirs = solutions(minizinc(env, "gecode", [str(model)], "-a"))
    assert len(ours) == len(set(ours)) == len(theirs) > 0 and sorted(ours) == sorted(theirs)
