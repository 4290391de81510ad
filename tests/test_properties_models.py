"""Property tests: random small models combining several constraint kinds, determinism of
the solution order, and every search option combination on one model."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
import oracle
from test_properties_harness import (
    METHODS,
    RELATIONS,
    VALUE_SELECTS,
    VAR_SELECTS,
    Dom,
    Expr,
    as_tuple,
    assert_same_set,
    build,
    check,
    check_exhaustive_options,
    doms,
    int_expr,
    linear_expr,
    names_for,
    rational_expr,
    relation,
    scaled,
    search_options,
    solve_all,
)

REL = st.sampled_from(list(RELATIONS))


@st.composite
def subset(draw: st.DrawFn, n: int, min_size: int = 2) -> list[int]:
    """Distinct variable indices (in a drawn order)."""
    return draw(st.lists(st.integers(0, n - 1), min_size=min(min_size, n), max_size=n,
                         unique=True))


def listsrc(idx: list[int]) -> str:
    """Source of a list of variables."""
    return "[" + ", ".join(f"x{i}" for i in idx) + "]"


@st.composite
def constraint(draw: st.DrawFn, n: int, globals_only: bool = False) -> Expr:
    """One random constraint over x0..x{n-1} from every family the engine must support."""
    kinds = ["all_different", "element", "table", "count", "lex", "order", "gcc"]
    if not globals_only:
        kinds = ["linear", "nonlinear", "rational", "integral", "reified", *kinds]
    kind = draw(st.sampled_from(kinds))
    if kind == "linear":
        return relation(draw(REL), draw(linear_expr(n, 2)), draw(linear_expr(n, 1)))
    if kind == "nonlinear":
        return relation(draw(REL), draw(int_expr(n, 2)), draw(linear_expr(n, 1)))
    if kind in ("rational", "integral"):
        c = relation(draw(REL), draw(rational_expr(n, 2)), draw(linear_expr(n, 1)))
        if kind == "integral":
            return Expr(f"cn.integral({c.src})", c.ifn, c.ifn)
        return c
    if kind == "reified":
        terms = [relation(draw(REL), draw(linear_expr(n, 1)), draw(linear_expr(n, 1)))
                 for _ in range(draw(st.integers(2, 3)))]
        k = draw(st.integers(0, len(terms)))
        rel = draw(REL)
        r = RELATIONS[rel]
        src = f"({' + '.join(t.src for t in terms)} {rel} {k})"
        return Expr(src, lambda t: r(sum(bool(x.fn(t)) for x in terms), k),
                    lambda t: r(sum(bool(x.ifn(t)) for x in terms), k))
    idx = draw(subset(n))
    if kind == "all_different":
        strength = draw(st.sampled_from(["value", "bounds", "domain"]))
        src = f'cn.all_different({listsrc(idx)}, strength="{strength}")'
        fn: Any = lambda t: oracle.all_different([t[i] for i in idx])  # noqa: E731
    elif kind == "element":
        arr = draw(st.lists(st.integers(-3, 3), min_size=1, max_size=4))
        i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        src = f"(cn.element({arr}, x{i}) == x{j})"
        fn = lambda t: oracle.element(arr, t[i]) == t[j]  # noqa: E731
    elif kind == "table":
        tuples = draw(st.lists(st.tuples(*[st.integers(-2, 2)] * len(idx)), max_size=10))
        src = f"cn.table({listsrc(idx)}, {[list(x) for x in tuples]})"
        fn = lambda t: oracle.table([t[i] for i in idx], tuples)  # noqa: E731
    elif kind == "count":
        v, rel, k = draw(st.integers(-2, 2)), draw(REL), draw(st.integers(0, 2))
        r = RELATIONS[rel]
        src = f"(cn.count({listsrc(idx)}, {v}) {rel} {k})"
        fn = lambda t: r(oracle.count([t[i] for i in idx], v), k)  # noqa: E731
    elif kind == "lex":
        h = len(idx) // 2
        fname = draw(st.sampled_from(["lex_less", "lex_lesseq"]))
        f = getattr(oracle, fname)
        src = f"cn.{fname}({listsrc(idx[:h])}, {listsrc(idx[h:2 * h])})"
        fn = lambda t: f([t[i] for i in idx[:h]], [t[i] for i in idx[h:2 * h]])  # noqa: E731
    elif kind == "order":
        fname, strict = draw(st.sampled_from(["increasing", "decreasing"])), draw(st.booleans())
        f = getattr(oracle, fname)
        src = f"cn.{fname}({listsrc(idx)}, strict={strict})"
        fn = lambda t: f([t[i] for i in idx], strict=strict)  # noqa: E731
    else:
        values = draw(st.lists(st.integers(-2, 2), min_size=1, max_size=2, unique=True))
        counts = draw(st.lists(st.integers(0, 2), min_size=len(values), max_size=len(values)))
        src = f"cn.global_cardinality({listsrc(idx)}, {values}, {counts})"
        fn = lambda t: oracle.global_cardinality([t[i] for i in idx], values, counts)  # noqa
    return Expr(src, fn, fn)


@settings(max_examples=scaled(4))
@given(data=st.data())
def test_random_models_of_several_constraints(data: st.DataObject) -> None:
    """2-4 random constraints of mixed families over 3-4 variables, all posted together."""
    n = data.draw(st.integers(3, 4), label="n")
    cs = data.draw(st.lists(constraint(n), min_size=2, max_size=4), label="constraints")
    domains = data.draw(doms(n, max_size=4 if n == 3 else 3, lo=-3, hi=3), label="domains")
    src = "\n".join(f"m += {c.src}" for c in cs)
    check(data, domains, src, lambda t: all(bool(c.fn(t)) for c in cs), runs=2)


@settings(max_examples=scaled(1))
@given(data=st.data())
def test_model_with_constraints_added_in_one_call(data: st.DataObject) -> None:
    """m.add(c1, c2, [c3, ...]) and a generator of constraints mean the same as m += each."""
    n = 3
    cs = data.draw(st.lists(constraint(n), min_size=3, max_size=4), label="constraints")
    domains = data.draw(doms(n, max_size=4, lo=-3, hi=3), label="domains")
    rest = ", ".join(c.src for c in cs[2:])
    src = f"m.add({cs[0].src}, {cs[1].src}, [{rest}])"
    check(data, domains, src, lambda t: all(bool(c.fn(t)) for c in cs), runs=1)


QUEENS = """
m += cn.all_different(xs)
m += cn.all_different([x + i for i, x in enumerate(xs)])
m += cn.all_different([x - i for i, x in enumerate(xs)])
"""


def queens_pred(t: tuple[int, ...]) -> bool:
    """Brute-force meaning of N-queens (one queen per column, value = row)."""
    n = len(t)
    return all(t[i] != t[j] and abs(t[i] - t[j]) != j - i
               for i in range(n) for j in range(i + 1, n))


@settings(max_examples=scaled(0.4))
@given(opts=search_options())
def test_solution_order_is_deterministic(opts: dict[str, Any]) -> None:
    """Same model, options and seed: the same solution order, on the same and a new model."""
    domains = [Dom(tuple(range(6)), True)] * 6
    names = names_for(6)
    b = build(domains, names, QUEENS)
    first, _ = solve_all(b, opts)
    again, _ = solve_all(b, opts)
    fresh, _ = solve_all(build(domains, names, QUEENS), opts)
    assert first == again == fresh, f"order differs for {opts}"
    truth = oracle.solutions([d.values for d in domains], queens_pred)
    assert_same_set(first, truth, f"6-queens under {opts}")
    assert len(first) == 4


def test_every_option_combination_on_a_mixed_model() -> None:
    """All 9 x 7 x 3 option combinations on a model with holes, negatives and globals."""
    domains = [Dom((-2, -1, 0, 1, 2), True), Dom((-3, 0, 2, 5), False),
               Dom((1, 2, 3), True), Dom((-1, 1, 4), False)]
    src = ("m += cn.all_different(xs)\n"
           "m += x0 * x2 + x3 >= x1\n"
           "m += (x0 < 0) + (x3 > 0) >= 1")
    check_exhaustive_options(
        domains, src,
        lambda t: oracle.all_different(t) and t[0] * t[2] + t[3] >= t[1]
        and (t[0] < 0) + (t[3] > 0) >= 1)


def test_solutions_generator_is_lazy_and_limit_counts() -> None:
    """solutions(limit=k) yields min(k, total) distinct solutions; the generator is lazy."""
    domains = [Dom(tuple(range(5)), True)] * 5
    b = build(domains, names_for(5), QUEENS)
    gen = b.m.solutions()
    first = next(gen)
    assert queens_pred(as_tuple(first, b.xs))
    for k in (1, 3, 10, 11, 100):
        got = [as_tuple(s, b.xs) for s in b.m.solutions(limit=k)]
        assert len(got) == min(k, 10) and len(set(got)) == len(got)


def test_methods_are_complete_when_large_enough() -> None:
    """lds:1000 and bbs:100000 find all 10 solutions of 5-queens (complete search)."""
    domains = [Dom(tuple(range(5)), True)] * 5
    truth = oracle.solutions([d.values for d in domains], queens_pred)
    b = build(domains, names_for(5), QUEENS)
    for method in METHODS:
        for var_select in VAR_SELECTS:
            got, _ = solve_all(b, {"method": method, "var_select": var_select})
            assert_same_set(got, truth, f"{method} {var_select}")
        for value_select in VALUE_SELECTS:
            got, _ = solve_all(b, {"method": method, "value_select": value_select, "seed": 7})
            assert_same_set(got, truth, f"{method} {value_select}")


def test_interleaved_generators_on_one_model() -> None:
    """Two solutions() generators of one model, advanced in turn, plus count() and solve()
    in between: each generator still yields every solution exactly once."""
    domains = [Dom(tuple(range(5)), True)] * 5
    truth = oracle.solutions([d.values for d in domains], queens_pred)
    b = build(domains, names_for(5), QUEENS)
    g1 = b.m.solutions(var_select="first_fail")
    g2 = b.m.solutions(value_select="max")
    got1 = [as_tuple(next(g1), b.xs)]
    got2 = [as_tuple(next(g2), b.xs), as_tuple(next(g2), b.xs)]
    assert b.m.count() == 10
    assert b.m.solve() is not None
    got1 += [as_tuple(s, b.xs) for s in g1]
    got2 += [as_tuple(s, b.xs) for s in g2]
    assert_same_set(got1, truth, "first generator")
    assert_same_set(got2, truth, "second generator")


def test_constraint_added_while_a_generator_is_suspended() -> None:
    """A generator started before m += c is unaffected or sees c (or stops with a
    ModelError), but never gives a non-solution of the model it started with or an internal
    error; a new run sees c."""
    domains = [Dom(tuple(range(5)), True)] * 5
    truth = oracle.solutions([d.values for d in domains], queens_pred)
    b = build(domains, names_for(5), QUEENS)
    gen = b.m.solutions()
    first = as_tuple(next(gen), b.xs)
    b.m += b.xs[0] == 0
    try:
        rest = [as_tuple(s, b.xs) for s in gen]
    except cn.ModelError:
        rest = []
    assert set([first, *rest]) <= set(truth)
    now = [as_tuple(s, b.xs) for s in b.m.solutions()]
    assert_same_set(now, [t for t in truth if t[0] == 0], "after m += x0 == 0")


@pytest.mark.parametrize("limit", [{"time_limit": 0.05}, {"node_limit": 50},
                                   {"method": "lds:1"}, {"method": "bbs:2"}])
def test_limit_is_reported_never_as_no_more_solutions(limit: dict[str, Any]) -> None:
    """10-queens (724 solutions) under a small limit: an incomplete run says so
    (complete False, stopped_by set) and its count is below 724; a complete one is 724."""
    domains = [Dom(tuple(range(10)), True)] * 10
    b = build(domains, names_for(10), QUEENS)
    n = b.m.count(**limit)
    stats = b.m.stats
    assert stats.complete == (stats.stopped_by is None), stats
    if stats.complete:
        assert n == 724
    else:
        assert n < 724
        want = {"time_limit": "time_limit", "node_limit": "node_limit"}.get(next(iter(limit)))
        assert stats.stopped_by == (want or limit["method"].split(":")[0]), stats
    got = [as_tuple(s, b.xs) for s in b.m.solutions(**limit)]
    assert len(got) == len(set(got)) and all(queens_pred(t) for t in got)
    if b.m.solve(**limit) is None:  # there are solutions: None must not claim completeness
        assert not b.m.stats.complete and b.m.stats.stopped_by is not None, b.m.stats
