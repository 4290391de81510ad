"""`conundrum fzn` on malformed or huge FlatZinc: exit status 2 and one line naming the line
and column (never a traceback or "internal error"), and sizes refused before they are
allocated or kept as ranges (issue 27, item 6)."""

from __future__ import annotations

import inspect
import resource
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.cli import main
from conundrum.cli.fzn import MAX_WORKERS
from conundrum.io.flatzinc import builtins
from conundrum.io.flatzinc.build import read
from conundrum.io.flatzinc.parser import MAX_ARRAY, MAX_DIGITS, FznError

HEAD = "var 1..3: x;\nvar bool: a;\nvar bool: b;\nset of int: s = {1, 3};\n"  # 4 lines
DEEP = "[" * 500 + "1" + "]" * 500

# (FlatZinc text, line, column, a piece of the message)
MALFORMED = [
    # the issue's cases
    (HEAD + "constraint int_lin_eq(5, [x], 3);\nsolve satisfy;\n", 5, 23, "argument 1"),
    (HEAD + "constraint set_in(x, 5);\nsolve satisfy;\n", 5, 22, "not the constant 5"),
    (HEAD + "constraint bool_clause(a, b);\nsolve satisfy;\n", 5, 24, "argument 1"),
    (HEAD + "solve minimize {1, 2};\n", 5, 16, "objective"),
    ("var 1..3: x :: output_array([1..1]);\nsolve satisfy;\n", 1, 1, "not an array"),
    ("array [1..2] of var 1..3: a :: output_var;\nsolve satisfy;\n", 1, 1, "output_var"),
    ('var 1..3: x :: f("\\N{nope}");\nsolve satisfy;\n', 1, 19, "escape"),
    (f"array [1..1] of int: a = {DEEP};\nsolve satisfy;\n", 1, 27, "flat"),
    ("var 1..３: x;\nsolve satisfy;\n", 1, 8, "unexpected character"),
    ("var 1..٣: x;\nsolve satisfy;\n", 1, 8, "unexpected character"),
    ("var 1..3: x;\nconstraint int_le(x, ３);\nsolve satisfy;\n", 2, 22, "character"),
    ("array [1..-5] of var 1..3: a;\nsolve satisfy;\n", 1, 11, "0 or more"),
    ("array [1..2] of int: a = [1, 2, 3];\nsolve satisfy;\n", 1, 26, "has 3"),
    ("array [1..2] of int: a = [1];\nsolve satisfy;\n", 1, 26, "has 1"),
    ("array [1..2] of var 1..3: a = [];\nsolve satisfy;\n", 1, 31, "has 0"),
    ("array [1..2] of int: a = [[1], [2]];\nsolve satisfy;\n", 1, 27, "flat"),
    ("array [1..1000000000] of var 1..2: a;\nsolve satisfy;\n", 1, 11, f"{MAX_ARRAY:,}"),
    ("int: n = " + "9" * (MAX_DIGITS + 1) + ";\nsolve satisfy;\n", 1, 10, "digits"),
    # siblings: argument counts and types, checked from the signature table
    (HEAD + "constraint int_eq(x);\nsolve satisfy;\n", 5, 1, "takes 2 arguments"),
    (HEAD + "constraint int_eq_reif(x, x);\nsolve satisfy;\n", 5, 1, "takes 3 arguments"),
    (HEAD + "constraint int_lin_eq([x], [x], 3);\nsolve satisfy;\n", 5, 23, "constants"),
    (HEAD + "constraint int_lin_eq([1, 2], [x], 3);\nsolve satisfy;\n", 5, 31, "2 coeff"),
    (HEAD + "constraint int_plus(x, [x], x);\nsolve satisfy;\n", 5, 24, "argument 2"),
    (HEAD + "constraint int_le(x, s);\nsolve satisfy;\n", 5, 22, "not a set"),
    (HEAD + "constraint set_in(x, [1]);\nsolve satisfy;\n", 5, 22, "must be a set, not an array"),
    (HEAD + "constraint bool_clause([a], [s]);\nsolve satisfy;\n", 5, 29, "argument 2"),
    (HEAD + "constraint fzn_all_different_int(x);\nsolve satisfy;\n", 5, 34, "array"),
    (HEAD + "constraint conundrum_circuit([x], x);\nsolve satisfy;\n", 5, 35, "constant"),
    (HEAD + "constraint conundrum_table_int([x], [1, 2, 3, x]);\nsolve satisfy;\n", 5, 37,
     "constants"),
    (HEAD + "constraint conundrum_table_int([x, x], [1, 2, 3]);\nsolve satisfy;\n", 5, 40,
     "rows"),
    (HEAD + "constraint conundrum_regular([x], 2, [1], [1], 1, 3);\nsolve satisfy;\n", 5, 51,
     "argument 6"),
    (HEAD + "constraint conundrum_regular([x], 2, [1], [1], 1, s);\nsolve satisfy;\n", 5, 43,
     "transitions"),
    (HEAD + "constraint bool_and(a, b, [a]);\nsolve satisfy;\n", 5, 27, "argument 3"),
    (HEAD + "constraint int_eq(x, y);\nsolve satisfy;\n", 5, 22, "unknown name y"),
    (HEAD + 'constraint int_eq(x, "3");\nsolve satisfy;\n', 5, 22, "string"),
    (HEAD + "constraint int_eq(x, f(3));\nsolve satisfy;\n", 5, 22, "annotation"),
    ("array [1..2] of var 1..3: q;\nconstraint int_eq(q[3], 1);\nsolve satisfy;\n", 2, 19,
     "out of its range"),
    # siblings: declarations
    ("set of int: t = {[1]};\nsolve satisfy;\n", 1, 18, "set literal"),
    ("set of int: t = {true};\nsolve satisfy;\n", 1, 18, "set literal"),
    ("set of int: t = {1..2, {3}};\nsolve satisfy;\n", 1, 24, "set literal"),
    ("solve :: f({[1]}) satisfy;\n", 1, 13, "set literal"),
    ("int: n = {1};\nsolve satisfy;\n", 1, 10, "type int"),
    ("bool: p = 3;\nsolve satisfy;\n", 1, 11, "bool"),
    ("set of int: t = 3;\nsolve satisfy;\n", 1, 17, "set of int"),
    ("array [1..2] of int: a = 5;\nsolve satisfy;\n", 1, 26, "not one"),
    ("int: n = [1];\nsolve satisfy;\n", 1, 10, "array literal"),
    ("array [0..3] of int: a = [1, 2, 3, 4];\nsolve satisfy;\n", 1, 8, "start at 1"),
    ("set of int: t = {1};\nvar 1..3: x = t;\nsolve satisfy;\n", 2, 15, "a set"),
    ("var 1..3: x :: output_var;\nvar 1..3: y = [x];\nsolve satisfy;\n", 2, 15, "array"),
    ("array [1..2] of var 1..3: a :: output_array([1..3]);\nsolve satisfy;\n", 1, 1,
     "3 elements"),
    ("var {}: x;\nsolve satisfy;\n", 1, 1, "empty domain"),
    ("array [1..3000000] of var 1..2: a;\narray [1..3000000] of var 1..2: b;\n", 2, 1,
     f"{MAX_ARRAY:,}"),
    ("var 1..: x;\nsolve satisfy;\n", 1, 8, "expected an integer"),
    ("solve minimize [1];\n", 1, 16, "objective"),
    ("var 1..3: x;\n", 2, 1, "no solve item"),
    ("", 1, 1, "no solve item"),
]


@pytest.mark.parametrize(("text", "line", "column", "piece"), MALFORMED,
                         ids=[f"{k}:{t[:30]}" for k, (t, *_) in enumerate(MALFORMED)])
def test_malformed_flatzinc(tmp_path, capsys, text, line, column, piece):
    path = tmp_path / "bad.fzn"
    path.write_text(text, encoding="utf-8")
    code = main(["fzn", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "", err
    assert err.count("\n") == 1, err
    assert err.startswith(f"conundrum fzn: {path}: line {line}, column {column}: "), err
    assert piece in err, err
    assert "Traceback" not in err and "internal error" not in err, err


def test_the_table_covers_the_issue():
    assert len(MALFORMED) >= 40
    assert len({t for t, *_ in MALFORMED}) == len(MALFORMED)


# -------------------------------------------------------------- every builtin, every argument

GOOD = {"v": "x", "p": "1", "V": "[x, x]", "P": "[1, 2]", "s": "s", "S": "s",
        "Q": "[s, s]"}
WRONG = {"v": "[x]", "p": "x", "V": "x", "P": "[x]", "s": "1", "S": "1", "Q": "[x]"}


def _cases() -> list[tuple[str, int]]:
    return [(name, k) for name, kinds in builtins.SIGNATURES.items()
            for k in range(len(kinds))]


def test_signatures_match_the_builtins():
    """One signature per builtin, as long as the function's own parameter list."""
    plain = builtins.PLAIN | builtins.TRUTH_LAST
    assert set(builtins.SIGNATURES) == set(plain) | set(builtins.WITH_CONTEXT)
    for name, kinds in builtins.SIGNATURES.items():
        f = plain.get(name) or builtins.WITH_CONTEXT[name]
        extra = 1 if name in builtins.WITH_CONTEXT else 0
        assert len(inspect.signature(f).parameters) == len(kinds) + extra, name


@pytest.mark.parametrize(("name", "k"), _cases())
def test_every_builtin_argument_of_the_wrong_kind_is_placed(name, k):
    kinds = builtins.SIGNATURES[name]
    if name in builtins.TRUTH_LAST:
        kinds += "v"
    args = [WRONG[kind] if j == k else GOOD[kind] for j, kind in enumerate(kinds)]
    prefix = f"constraint {name}("
    column = len(prefix) + 1 + sum(len(a) + 2 for a in args[:k])
    text = (f"var 1..3: x;\nset of int: s = {{1, 2}};\n{prefix}{', '.join(args)});\n"
            "solve satisfy;\n")
    with pytest.raises(FznError) as info:
        read(text)
    assert (info.value.line, info.value.column) == (3, column), str(info.value)
    assert f"argument {k + 1}" in info.value.message


# ------------------------------------------------------------------------ random texts

TOKENS = ["var", "array", "[", "]", "1..3", "..", "of", "int", "bool", "set", ":", ";", "=",
          "x", "y", "::", "output_var", "output_array([1..2])", "{", "}", "(", ")", ",",
          "constraint", "int_le", "set_in", "bool_clause", "solve", "satisfy", "minimize",
          "1", "-2", "true", '"s"', "1.5", "\n", "３", "%c\n"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=25))
def test_any_token_soup_reads_or_gives_a_placed_error(words):
    import conundrum as cn

    try:
        read(" ".join(words))
    except FznError as e:
        assert e.line is not None and e.column is not None, str(e)
    except cn.ModelError:
        pass


# ------------------------------------------------------------------------ huge sizes

LIMIT = 1 << 30  # address space of the child: far less than any value-by-value expansion


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def run_limited(tmp_path, text, *flags):
    path = tmp_path / "huge.fzn"
    path.write_text(text)
    return subprocess.run([sys.executable, "-m", "conundrum", "fzn", *flags, str(path)],
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=_limited)


@pytest.mark.parametrize(("text", "expected"), [
    ("var {1..1000000000}: x :: output_var;\nconstraint int_le(999999999, x);\n"
     "solve satisfy;\n", "x = 999999999;"),
    ("var 1..1000000000: x :: output_var;\nconstraint set_in(x, {1..100000000});\n"
     "constraint int_le(99999999, x);\nsolve maximize x;\n", "x = 100000000;"),
    ("var {1..5, 10..100000000}: x :: output_var;\nconstraint int_le(6, x);\n"
     "solve minimize x;\n", "x = 10;"),
    ("var 1..1000000000: x :: output_var;\n"
     "constraint set_in_reif(x, {1..100000000, 300000000..900000000}, true);\n"
     "constraint int_le(100000001, x);\nsolve minimize x;\n", "x = 300000000;"),
], ids=["interval", "set_in", "holes", "set_in_holes"])
def test_huge_sets_stay_ranges(tmp_path, text, expected):
    r = run_limited(tmp_path, text)
    assert r.returncode == 0, r.stderr
    assert expected in r.stdout.splitlines()


@pytest.mark.parametrize("text", [
    "array [1..1000000000] of var 1..2: a;\nsolve satisfy;\n",
    "array [1..4000000] of var 1..2: a;\narray [1..1] of var 1..2: b;\nsolve satisfy;\n",
])
def test_huge_arrays_are_refused_before_allocating(tmp_path, text):
    r = run_limited(tmp_path, text)
    assert r.returncode == 2 and r.stdout == ""
    assert f"at most {MAX_ARRAY:,} are supported" in r.stderr
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr


def test_huge_integers_are_exact(tmp_path, capsys):
    big = "9" * 5000  # 10^5000 - 1: over Python's own str <-> int limit of 4300 digits
    twice = "1" + "9" * 4999 + "8"  # 2 * big
    text = (f"var 0..{big}: x :: output_var;\nconstraint int_lin_eq([2], [x], {twice});\n"
            "solve satisfy;\n")
    path = tmp_path / "big.fzn"
    path.write_text(text)
    assert main(["fzn", str(path)]) == 0
    out = capsys.readouterr().out
    assert out == f"x = {'9' * 5000};\n----------\n"


def test_absurd_worker_count_is_refused(tmp_path):
    r = run_limited(tmp_path, "var 1..3: x;\nsolve satisfy;\n", "-p", "1000000")
    assert r.returncode == 2 and r.stdout == ""
    assert f"-p needs a number of workers from 1 to {MAX_WORKERS}" in r.stderr
