"""The modelling API surface of SPEC section 3 and notes/API-NOTES.md."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest

import conundrum as cn


def test_variables_domains_and_names():
    m = cn.Model()
    x = m.int_var(1, 9, "x")
    y = m.int_var([1, 3, 5, 7], "y")
    A, B, C = m.int_vars("A B C", 0, 9)
    row = m.int_vars(9, 1, 9, "r")
    b = m.bool_var("b")
    assert [v.name for v in row] == [f"r[{i}]" for i in range(9)]
    m += x + 2 * y != 11
    m += y == 5
    m += A + B + C == 2
    m += b == (x > 8)
    sol = m.solve()
    assert sol is not None
    assert sol[y] == 5 and sol["y"] == 5
    assert sol[x] + 2 * sol[y] != 11
    assert sol.value(x + y) == sol[x] + sol[y]
    assert sol[b] == int(sol[x] > 8)
    assert sol.as_dict()["A"] + sol.as_dict()["B"] + sol.as_dict()["C"] == 2


def test_huge_domains_are_not_enumerated():
    m = cn.Model()
    x = m.int_var(0, 10**18, "x")
    y = m.int_var(-(10**18), 10**18, "y")
    m += x + y == 10**18 + 5
    m += x >= 10**18 - 2
    m += y <= 6  # so x >= 10**18 - 1: two solutions
    assert m.count() == 2
    sol = m.solve(value_select="max")
    assert sol[x] == 10**18 and sol[y] == 5


def test_matrix_rows_columns_slices():
    m = cn.Model()
    g = m.int_matrix(4, 4, 1, 4, "g")
    assert len(g) == 4 and len(g.columns) == 4 and len(g.flat) == 16
    assert g[1][2] is g[1, 2]
    sub = g[0:2, 2:4]
    assert sub.flat == [g[0][2], g[0][3], g[1][2], g[1][3]]
    for r in g.rows:
        m += cn.all_different(r)
    for c in g.columns:
        m += cn.all_different(c)
    for bi in (0, 2):
        for bj in (0, 2):
            m += cn.all_different(g[bi:bi + 2, bj:bj + 2])
    assert m.count() == 288  # 4x4 Sudoku grids


def test_reification_counts_true_constraints():
    m = cn.Model()
    row = m.int_vars(4, 1, 4, "x")
    m += sum(x == 3 for x in row) == 2
    m += cn.all_different(row[:2])
    for s in m.solutions():
        assert [s[x] for x in row].count(3) == 2
    # choose which 2 positions are 3 (6 ways), others in {1,2,4}, first two different
    brute = sum(1 for a in range(1, 5) for b in range(1, 5) for c in range(1, 5)
                for d in range(1, 5) if [a, b, c, d].count(3) == 2 and a != b)
    assert m.count() == brute


def test_logic_connectives_and_implication():
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 3)
    m += (x == 1) | (y == 1)
    m += ~(x == y)
    m += cn.implies(x > 1, y == 0)
    expected = {(a, b) for a in range(4) for b in range(4)
                if (a == 1 or b == 1) and a != b and (not a > 1 or b == 0)}
    assert {(s[x], s[y]) for s in m.solutions()} == expected


def test_rational_division_is_exact():
    m = cn.Model()
    a, b = m.int_vars("a b", 1, 6)
    m += a / b == Fraction(2, 3)
    assert {(s[a], s[b]) for s in m.solutions()} == {(2, 3), (4, 6)}
    s = m.solve()
    assert s.value(a / b) == Fraction(2, 3)


def test_floor_division_and_modulo_follow_python():
    m = cn.Model()
    x = m.int_var(-7, -7, "x")
    q, r = m.int_vars("q r", -10, 10)
    m += q == x // 2
    m += r == x % 2
    s = m.solve()
    assert (s[q], s[r]) == (-4, 1)


def test_division_by_zero_fails_the_assignment():
    m = cn.Model()
    a = m.int_var(0, 2, "a")
    b = m.int_var(-1, 1, "b")
    m += a // b >= -5
    assert {s[b] for s in m.solutions()} == {-1, 1}
    m2 = cn.Model()
    c = m2.int_var(0, 2, "c")
    m2 += 6 / c == 3
    assert [s[c] for s in m2.solutions()] == [2]


def test_globals_through_the_api():
    m = cn.Model()
    xs = m.int_vars(3, 0, 3, "x")
    i = m.int_var(0, 2, "i")
    m += cn.element([5, 7, 9], i) == 7
    m += cn.table(xs[:2], [(0, 1), (2, 3)])
    m += cn.count(xs, 3) == 1
    m += cn.increasing(xs)
    m += cn.lex_less(xs[:2], [2, 3]) | (xs[0] == 2)
    m += cn.max(xs) == 3
    sols = [(s[i], *[s[x] for x in xs]) for s in m.solutions()]
    expected = []
    for a in range(4):
        for b in range(4):
            for c in range(4):
                v = [a, b, c]
                if ((a, b) in [(0, 1), (2, 3)] and v.count(3) == 1 and a <= b <= c
                        and ((a, b) < (2, 3) or a == 2) and max(v) == 3):
                    expected.append((1, a, b, c))
    assert sorted(sols) == sorted(expected) and expected


def test_global_cardinality_and_min():
    m = cn.Model()
    xs = m.int_vars(4, 1, 3, "x")
    m += cn.global_cardinality(xs, [1, 2], [2, 1])
    m += cn.min(xs) == 1
    got = {tuple(s[x] for x in xs) for s in m.solutions()}
    import itertools
    expected = {v for v in itertools.product(range(1, 4), repeat=4)
                if v.count(1) == 2 and v.count(2) == 1}
    assert got == expected


def test_solutions_are_lazy_and_limited():
    m = cn.Model()
    m.int_vars(3, 0, 9, "x")
    gen = m.solutions(limit=5)
    first = next(gen)
    assert first is not None
    assert len(list(m.solutions(limit=5))) == 5
    assert m.stats.complete is False and m.stats.stopped_by == "limit"
    assert m.count() == 1000 and m.stats.complete


def test_every_search_option_gives_the_same_solution_set():
    def build():
        m = cn.Model()
        xs = m.int_vars(4, 1, 5, "x")
        m += cn.all_different(xs)
        m += cn.sum(xs) == 12
        m += xs[0] * xs[1] > xs[2]
        return m, xs
    m, xs = build()
    reference = {tuple(s[x] for x in xs) for s in m.solutions()}
    assert reference
    for vs in ("input_order", "first_fail", "anti_first_fail", "smallest", "largest",
               "occurrence", "most_constrained", "max_regret", "dom_wdeg"):
        for val in ("min", "max", "middle", "median", "split", "reverse_split", "random"):
            m, xs = build()
            got = [tuple(s[x] for x in xs) for s in m.solutions(var_select=vs, value_select=val)]
            assert len(got) == len(set(got)), (vs, val)
            assert set(got) == reference, (vs, val)
    for method in ("lds:50", cn.lds(50), "bbs:100000", cn.bbs(100000), "complete"):
        m, xs = build()
        got = [tuple(s[x] for x in xs) for s in m.solutions(method=method)]
        assert len(got) == len(set(got)) and set(got) == reference, method


def test_order_is_deterministic_for_a_seed():
    def run(seed):
        m = cn.Model()
        xs = m.int_vars(3, 0, 4, "x")
        m += cn.all_different(xs)
        return [tuple(s[x] for x in xs)
                for s in m.solutions(value_select="random", var_select="dom_wdeg", seed=seed)]
    assert run(3) == run(3)
    assert sorted(run(3)) == sorted(run(4))


def test_limits_are_reported_as_incomplete():
    m = cn.Model()
    xs = m.int_vars(12, 0, 11, "q")
    m += cn.all_different(xs)
    assert m.count(node_limit=50) <= 50
    assert m.stats.complete is False and m.stats.stopped_by == "node_limit"
    m.count(method="lds:1")
    assert m.stats.complete is False and m.stats.stopped_by == "lds"
    m2 = cn.Model()  # refuted only by search: the first failure stops bbs:0
    y = m2.int_vars(4, 0, 2, "y")
    m2 += cn.all_different(y, strength="value")
    assert m2.solve(method="bbs:0") is None
    assert m2.stats.complete is False and m2.stats.stopped_by == "bbs"
    m3 = cn.Model()  # pigeonhole: value elimination needs a huge search to refute it
    zs = m3.int_vars(12, 0, 10, "z")
    m3 += cn.all_different(zs, strength="value")
    assert m3.solve(time_limit=0.2) is None
    assert m3.stats.complete is False and m3.stats.stopped_by == "time_limit"


def test_statistics_after_a_run():
    m = cn.Model()
    xs = m.int_vars(5, 0, 4, "x")
    m += cn.all_different(xs)
    assert m.count() == 120
    st = m.stats
    assert st.solutions == 120 and st.nodes >= 120 and st.propagations > 0
    assert st.seconds >= 0 and st.complete and st.stopped_by is None


def test_progress_callback_is_called():
    calls = []
    m = cn.Model()
    xs = m.int_vars(8, 0, 7, "q")
    m += cn.all_different(xs)
    m += cn.all_different([x + i for i, x in enumerate(xs)])
    m.count(on_progress=calls.append)
    # a run of a fraction of a second may legitimately report 0 times; a long one reports
    assert all(c.nodes >= 0 for c in calls)


def test_minimize_with_branch_and_bound():
    m = cn.Model()
    x, y = m.int_vars("x y", -5, 5)
    m += x + 2 * y >= 3
    m += x - y <= 1
    best = m.minimize(abs(x) + abs(y))
    brute = min(abs(a) + abs(b) for a in range(-5, 6) for b in range(-5, 6)
                if a + 2 * b >= 3 and a - b <= 1)
    assert best.value(abs(x) + abs(y)) == brute
    assert m.stats.complete


def test_unsatisfiable_models_give_none_and_zero():
    m = cn.Model()
    x = m.int_var(0, 3, "x")
    m += x > 5
    assert m.solve() is None and m.count() == 0 and m.stats.complete
    m2 = cn.Model()
    m2.int_var(0, 3, "y")
    m2 += False
    assert m2.solve() is None


def test_import_pulls_in_no_heavy_module():
    # Import time is measured by the benchmark (bench/), not asserted here; this checks
    # the structural cause of slow imports: nothing heavy is loaded eagerly.
    heavy = ("rich", "hypothesis", "matplotlib", "numpy", "dataclasses", "random", "argparse",
             "json", "asyncio", "inspect", "conundrum.engine", "conundrum.compiler.compile")
    code = ("import sys; before = set(sys.modules); import conundrum; "
            f"print(sorted(m for m in {heavy!r} if m in set(sys.modules) - before))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"


@pytest.mark.parametrize("build,fragment", [
    (lambda m, x, y: m.int_var(5, 3, "e"), "empty domain"),
    (lambda m, x, y: m.int_var([], "e"), "empty domain"),
    (lambda m, x, y: (x == 1) and (y == 2), "and/or/not"),
    (lambda m, x, y: 1 < x < 3, "a < b < c"),
    (lambda m, x, y: bool(x == y), "bool()"),
    (lambda m, x, y: not (x == y), "and/or/not"),
    # Python's min/max/sorted compare with < and >: the message points at cn.min / cn.max
    (lambda m, x, y: min(x, y), "cn.min"),
    (lambda m, x, y: max([x, y, 2]), "cn.max"),
    (lambda m, x, y: sorted([x, y]), "cn.increasing"),
    (lambda m, x, y: x ** y, "constant"),
    (lambda m, x, y: x ** -1, "negative exponent"),
    (lambda m, x, y: x + 0.5, "float"),
    (lambda m, x, y: m.add(x + y), "not a constraint"),
    (lambda m, x, y: (x + 1) & (y == 2), "not a constraint"),
    (lambda m, x, y: m.solve(var_select="fastest"), "var_select"),
    (lambda m, x, y: m.solve(method="dfs:3"), "method"),
    (lambda m, x, y: m.solve(colour="red"), "unknown search option"),
    (lambda m, x, y: cn.all_different([x, y], strength="strong"), "strength"),
    (lambda m, x, y: cn.table([x, y], [(1, 2, 3)]), "tuple"),
    (lambda m, x, y: cn.Model().add(x == 1), "another model"),
])
def test_python_traps_and_bad_models_raise_model_error(build, fragment):
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 3)
    with pytest.raises(cn.ModelError) as info:
        build(m, x, y)
    assert fragment in str(info.value)


def test_if_on_a_constraint_raises():
    m = cn.Model()
    x = m.int_var(0, 3, "x")
    with pytest.raises(cn.ModelError):
        if x == 1:
            pass


def test_unknown_name_is_a_key_error():
    m = cn.Model()
    m.int_var(0, 3, "x")
    s = m.solve()
    with pytest.raises(KeyError):
        s["nope"]


def test_statistics_are_filled_in_when_the_search_stops_early() -> None:
    """solve(), a limit and an abandoned generator stop the search early; its statistics
    (time, propagations) must still be recorded, by the compiled engine as by the pure one
    (a compiled generator runs its cleanup only when closed)."""
    m = cn.Model()
    xs = m.int_vars(6, 1, 6, "x")
    m += cn.all_different(xs)
    m += xs[0] + xs[1] == 7

    def check(stats) -> None:
        assert stats.propagations > 0 and stats.seconds > 0 and stats.nodes > 0, stats

    m.solve()
    check(m.stats)
    list(m.solutions(limit=1))
    check(m.stats)
    gen = m.solutions()
    next(gen)
    del gen  # dropped mid-search
    check(m.stats)


def test_a_search_stopped_early_is_never_called_complete() -> None:
    """solve() asks for one solution: found, the run ended as asked (complete, stopped by
    nothing, "satisfied"); solutions(limit=1) was cut by its limit; so is a generator the
    caller stops reading. A run read to its end is complete."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 3)
    m += x < y
    assert m.solve() is not None
    assert (m.stats.complete, m.stats.stopped_by, m.stats.status) == (True, None, "satisfied")
    assert len(list(m.solutions(limit=1))) == 1
    assert (m.stats.complete, m.stats.stopped_by, m.stats.status) == (False, "limit",
                                                                       "satisfied")
    gen = m.solutions()
    next(gen)
    gen.close()
    assert (m.stats.complete, m.stats.stopped_by) == (False, "closed")
    for _ in m.solutions():
        break
    assert (m.stats.complete, m.stats.stopped_by) == (False, "closed")
    assert len(list(m.solutions())) == 6
    assert (m.stats.complete, m.stats.stopped_by) == (True, None)
    assert len(list(m.solutions(limit=10))) == 6
    assert (m.stats.complete, m.stats.stopped_by) == (True, None)


def test_statistics_count_the_compilation_too() -> None:
    """stats.seconds covers the whole call: a model refuted while it is compiled (no search
    node at all) still took time, and says so."""
    m = cn.Model()
    xs = m.int_vars(30, 0, 28, "x")
    m += cn.all_different(xs)
    assert m.count() == 0
    assert m.stats.nodes == 0 and m.stats.seconds > 0 and m.stats.complete


def test_each_run_keeps_its_own_statistics() -> None:
    """Two generators of one model read in turn: the first one's limit is recorded on its
    own statistics, not on those of the run started after it (m.stats)."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 3)
    m += x < y
    first = m.solutions(limit=2)
    next(first)
    everything = list(m.solutions())
    assert len(everything) == 6 and m.stats.complete
    assert len(list(first)) == 1  # its limit is reached now, after the other run
    assert (m.stats.complete, m.stats.stopped_by, m.stats.solutions) == (True, None, 6)


def test_search_phases():
    """phases=[(vars, var_select, value_select)] searches those variables first, with their
    own heuristics; the solution set is unchanged and mistakes are ModelErrors."""
    m = cn.Model()
    x, y, z = m.int_vars("x y z", 0, 3)
    m += cn.all_different([x, y, z])
    plain = {tuple(s[v] for v in (x, y, z)) for s in m.solutions()}
    phased = [tuple(s[v] for v in (x, y, z))
              for s in m.solutions(phases=[([z], "input_order", "max"),
                                           ((y,), "first_fail", "min")])]
    assert set(phased) == plain and len(phased) == len(plain) == 24
    assert phased[0] == (1, 0, 3)  # z = 3 first, then y = 0, then x the smallest left
    for bad in ([(x, "nope", "min")], [(x, "input_order")], [(5, "input_order", "min")], 7):
        with pytest.raises(cn.ModelError):
            m.solve(phases=bad)
    other = cn.Model().int_var(0, 1, "w")
    with pytest.raises(cn.ModelError, match="another model"):
        m.solve(phases=[([other], "input_order", "min")])


def test_bool_vars_are_named_as_int_vars_names_them():
    m = cn.Model()
    p, q, r = m.bool_vars("p q r")
    b = m.bool_vars(5, "b")
    anon = m.bool_vars(2)
    listed = m.bool_vars(["u", "v"])
    assert [v.name for v in (p, q, r)] == ["p", "q", "r"]
    assert [v.name for v in b] == [f"b[{i}]" for i in range(5)]
    assert [v.name for v in listed] == ["u", "v"] and [v.name for v in anon] == ["", ""]
    assert all((v.lo, v.hi) == (0, 1) and v.boolean for v in [p, q, r, *b, *anon])
    assert [v.name for v in m.int_vars(3, 1, 9, "x")] == ["x[0]", "x[1]", "x[2]"]
    assert [v.name for v in m.int_vars(2, 0, 9, name="y")] == ["y[0]", "y[1]"]
    m = cn.Model()
    p, q, r = m.bool_vars("p q r")
    b = m.bool_vars(5, "b")
    m += cn.exactly_one(p, q, r)
    m += cn.sum(b) == 2
    assert m.count() == 3 * 10  # one of p q r, two of five b's


def test_int_vars_prefix_keyword_still_works_with_a_deprecation_warning():
    m = cn.Model()
    with pytest.warns(DeprecationWarning, match="name="):
        xs = m.int_vars(3, 0, 9, prefix="r")
    assert [x.name for x in xs] == ["r[0]", "r[1]", "r[2]"]


@pytest.mark.parametrize(("call", "message"), [
    (lambda m: m.int_vars(0, 9, "x y"), "the names or a count first"),
    (lambda m: m.int_vars(3, 5, "x"), "then both bounds"),
    (lambda m: m.bool_vars(3, 1), "a variable name must be a string"),
    (lambda m: m.bool_vars("p", "q"), "a name goes with a count"),
    (lambda m: m.bool_vars(True), "names are a string, a count or a list"),
    (lambda m: m.bool_vars(-1, "b"), "a negative count"),
])
def test_variable_families_refuse_slips(call, message):
    with pytest.raises(cn.ModelError, match=message):
        call(cn.Model())
