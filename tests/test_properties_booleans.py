"""Property tests: Booleans as first-class (cn.any, cn.all, cn.xor, cn.at_most_one,
cn.exactly_one, sums of Booleans and of constraints), posted and reified, against brute
force.

The operands are drawn from 0/1 variables, comparisons of integer variables with
constants, their negations, Python bools, the constants 0 and 1, and (one level down) the
connectives themselves; the truth of each is written here in plain Python, independently
of conundrum.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.compile import Compiler
from conundrum.engine import Inconsistency
from test_properties_harness import RELATIONS, Dom, check, doms, scaled

Truth = Callable[[tuple[int, ...]], bool]
Item = tuple[str, Truth]  # (source, truth on an assignment)

# the meaning of each builder on the truth values of its operands
MEANING: dict[str, Callable[[list[bool]], bool]] = {
    "any": lambda ts: any(ts),
    "all": lambda ts: all(ts),
    "xor": lambda ts: sum(ts) % 2 == 1,
    "at_most_one": lambda ts: sum(ts) <= 1,
    "exactly_one": lambda ts: sum(ts) == 1,
}
BUILDERS = st.sampled_from(sorted(MEANING))
N_BOOL, N_INT = 3, 2  # x0..x2 are 0/1, x3 and x4 small integers


def domains(draw: st.DrawFn) -> list[Dom]:
    return [Dom((0, 1), True)] * N_BOOL + draw(doms(N_INT, max_size=3, lo=-2, hi=2))


@st.composite
def item(draw: st.DrawFn, depth: int = 1) -> Item:
    """One Boolean operand."""
    kind = draw(st.sampled_from(["var", "var", "rel", "not", "const", "element"]
                                + (["nested"] if depth > 0 else [])))
    if kind == "element":  # an array of 0/1 items indexed by a variable is a Boolean
        picks = draw(st.lists(st.sampled_from(["x0", "x1", "x2", "0", "1"]), min_size=1,
                              max_size=3))
        at = draw(st.integers(N_BOOL, N_BOOL + N_INT - 1))
        k = len(picks)  # the index taken modulo k: always inside the array

        def value(t: tuple[int, ...], name: str) -> int:
            return t[int(name[1:])] if name.startswith("x") else int(name)
        return (f"cn.array([{', '.join(picks)}])[x{at} % {k}]",
                lambda t: value(t, picks[t[at] % k]) == 1)
    if kind == "var":
        i = draw(st.integers(0, N_BOOL - 1))
        return f"x{i}", lambda t: t[i] == 1
    if kind in ("rel", "not"):
        i = draw(st.integers(0, N_BOOL + N_INT - 1))
        op = draw(st.sampled_from(list(RELATIONS)))
        c = draw(st.integers(-2, 2))
        r = RELATIONS[op]
        if kind == "rel":
            return f"(x{i} {op} {c})", lambda t: bool(r(t[i], c))
        return f"~(x{i} {op} {c})", lambda t: not r(t[i], c)
    if kind == "const":
        b = draw(st.booleans())
        return draw(st.sampled_from([str(b), str(int(b))])), lambda t: b  # True or 1
    return draw(builder(depth - 1))


@st.composite
def builder(draw: st.DrawFn, depth: int = 1, min_size: int = 0) -> Item:
    """cn.F([operands]) or cn.F(a, b, ...) for one of the five builders."""
    name = draw(BUILDERS)
    items = draw(st.lists(item(depth), min_size=min_size, max_size=4))
    srcs = ", ".join(s for s, _ in items)
    src = f"cn.{name}({srcs})" if len(items) > 1 and draw(st.booleans()) \
        else f"cn.{name}([{srcs}])"
    fns = [f for _, f in items]
    meaning = MEANING[name]
    return src, lambda t: meaning([f(t) for f in fns])


@settings(max_examples=scaled(2))
@given(data=st.data())
def test_builders_posted(data: st.DataObject) -> None:
    """m += cn.F(items): each of the five at the top level, over mixed operands."""
    src, fn = data.draw(builder(min_size=0), label="constraint")
    check(data, domains(data.draw), f"m += {src}", fn, runs=1,
          exprs=[(src, lambda t: int(fn(t)))])


@settings(max_examples=scaled(2))
@given(data=st.data(), form=st.sampled_from(["eq_rel", "ne", "not", "implies", "or", "sum"]))
def test_builders_reified(data: st.DataObject, form: str) -> None:
    """The builders used as 0/1 values: equated with a comparison, negated, implied, in a
    disjunction, and summed with another."""
    f_src, f = data.draw(builder(min_size=1), label="f")
    g_src, g = data.draw(builder(min_size=1), label="g")
    c_src, c = data.draw(item(0), label="c")
    k = data.draw(st.integers(0, 2), label="k")
    src = {"eq_rel": f"({f_src}) == {c_src}", "ne": f"({f_src}) != ({g_src})",
           "not": f"~({f_src})", "implies": f"cn.implies({c_src}, {f_src})",
           "or": f"({f_src}) | ({g_src})", "sum": f"({f_src}) + 2 * ({g_src}) == {k}"}[form]

    def pred(t: tuple[int, ...]) -> bool:
        a, b, z = f(t), g(t), c(t)
        return {"eq_rel": a == z, "ne": a != b, "not": not a, "implies": (not z) or a,
                "or": a or b, "sum": a + 2 * b == k}[form]

    check(data, domains(data.draw), f"m += {src}", pred, runs=1,
          exprs=[(f_src, lambda t: int(f(t))), (f"{f_src} + {g_src}",
                                                lambda t: int(f(t)) + int(g(t)))])


@settings(max_examples=scaled(1))
@given(data=st.data(), rel=st.sampled_from(list(RELATIONS)), k=st.integers(0, 3),
       form=st.sampled_from(["cn.sum", "sum"]))
def test_sum_of_booleans_and_constraints(data: st.DataObject, rel: str, k: int,
                                         form: str) -> None:
    """cn.sum (and the builtin sum) of 0/1 variables and constraints OP k: how many hold."""
    items: list[Item] = data.draw(st.lists(item(0), min_size=1, max_size=4), label="items")
    srcs = ", ".join(s for s, _ in items)
    r = RELATIONS[rel]

    def count(t: tuple[int, ...]) -> int:
        return sum(int(f(t)) for _, f in items)

    check(data, domains(data.draw), f"m += {form}([{srcs}]) {rel} {k}",
          lambda t: bool(r(count(t), k)), runs=1,
          exprs=[(f"cn.sum([{srcs}])", count)])


@settings(max_examples=scaled(1))
@given(data=st.data(), n=st.integers(0, N_BOOL), name=BUILDERS)
def test_builders_over_bool_vars(data: st.DataObject, n: int, name: str) -> None:
    """The builders over m.bool_vars(n, "b") (tied to x0..), reified: x3 == cn.F(b)."""
    src = (f'b = m.bool_vars({n}, "b")\nm += [p == q for p, q in zip(b, xs)]\n'
           f"m += x3 == cn.{name}(b)")
    meaning = MEANING[name]
    check(data, domains(data.draw), src,
          lambda t: t[3] == int(meaning([v == 1 for v in t[:n]])), runs=1)


@pytest.mark.parametrize("name", sorted(MEANING))
def test_posted_builders_propagate_at_the_root(name: str) -> None:
    """Posted or reified, each builder fixes what the others leave open at the root: the
    last of five Booleans (any, all, xor, exactly_one), the rest once one holds
    (at_most_one, exactly_one), the truth value of a reified one once its operands are
    fixed."""
    meaning = MEANING[name]
    for fixed in ([0, 0, 0, 0], [1, 0, 1, 0], [1, 1, 1, 1], [0, 1, 0, 0]):
        m = cn.Model()
        b = m.bool_vars(5, "b")
        m += getattr(cn, name)(b)
        m += [x == v for x, v in zip(b, fixed)]
        ok = [v for v in (0, 1) if meaning([*map(bool, fixed), bool(v)])]
        if not ok:
            with pytest.raises(Inconsistency):
                Compiler(m.variables, m.constraints).solver.fix_point()
            continue
        cx = Compiler(m.variables, m.constraints)
        cx.solver.fix_point()
        last = cx.engine_vars[4]
        assert (last.lo, last.hi) == (ok[0], ok[-1]), (name, fixed, last.lo, last.hi)
        # reified: r == F(b) with every b fixed gives r at once
        m = cn.Model()
        b = m.bool_vars(5, "b")
        r = m.bool_var("r")
        m += r == getattr(cn, name)(b)
        m += [x == v for x, v in zip(b, [*fixed, 1])]
        cx = Compiler(m.variables, m.constraints)
        cx.solver.fix_point()
        want = int(meaning([*map(bool, fixed), True]))
        assert (cx.engine_vars[5].lo, cx.engine_vars[5].hi) == (want, want), (name, fixed)


def test_at_most_one_clears_the_others_once_one_holds() -> None:
    for name in ("at_most_one", "exactly_one"):
        m = cn.Model()
        b = m.bool_vars(6, "b")
        m += getattr(cn, name)(b)
        m += b[2] == 1
        cx = Compiler(m.variables, m.constraints)
        cx.solver.fix_point()
        assert [(v.lo, v.hi) for v in cx.engine_vars] == [(0, 0)] * 2 + [(1, 1)] + [(0, 0)] * 3


def operands_errors() -> list[tuple[Callable[[], object], str]]:
    m = cn.Model()
    x = m.int_var(0, 5, "x")
    return [(lambda: cn.any([x]), "any: x is not a Boolean"),
            (lambda: cn.xor(3), "xor needs Booleans"),
            (lambda: cn.exactly_one("abc"), "exactly_one needs Booleans"),
            (lambda: cn.all([x + 1 > 2, 2]), "all: 2 is not a Boolean"),
            (lambda: cn.at_most_one([[x == 1, x]]), "at_most_one: x is not a Boolean")]


@pytest.mark.parametrize("k", range(5))
def test_non_boolean_operands_are_a_model_error(k: int) -> None:
    call, message = operands_errors()[k]
    with pytest.raises(cn.ModelError, match=message):
        call()


def test_top_level_clauses_and_parities_need_no_truth_variables() -> None:
    """m += a | ~b | (x > 2) is one linear propagator over the literals (the nested `or`
    of `|` flattened), a ^ b ^ c ^ d and cn.xor one parity equation with one auxiliary."""
    m = cn.Model()
    a, b, c, d = m.bool_vars("a b c d")
    m += a | ~b | c
    m += cn.any(b, ~c, d) | a
    cx = Compiler(m.variables, m.constraints)
    assert len(cx.solver.vars) == 4 and len(cx.solver.propagators) == 2
    for parity in (a ^ b ^ c ^ d, cn.xor(a, b, c, d)):
        cx = Compiler([a, b, c, d], [parity])
        assert len(cx.solver.vars) == 5 and len(cx.solver.propagators) == 1


@pytest.mark.parametrize("search", ["classic", "learning", "auto"])
@pytest.mark.parametrize("equal,truth", [(True, False), (False, True), (True, True),
                                         (False, False)])
@pytest.mark.parametrize("v", [3, 4, 5, 7, 8])
def test_value_literal_on_a_bounds_only_domain(v: int, equal: bool, truth: bool,
                                               search: str) -> None:
    """c <=> x == v (or x != v) with x bounds-only (a range too wide for a bit set): when c
    says x != v while v is interior, the removal cannot be made yet; it must still hold
    when a bound reaches v later (x <= 7 posted after it, y chosen by the search)."""
    m = cn.Model()
    x = m.int_var(0, 10**6, "x")
    y = m.int_var(0, 3, "y")
    c = m.bool_var("c")
    m += c == ((x == v) if equal else (x != v))
    m += c == int(truth)
    m += x <= 7
    m += x >= 4 + y
    expected = sorted((a, b) for a in range(8) for b in range(4)
                      if a >= 4 + b and ((a == v) == equal) == truth)
    assert sorted((s[x], s[y]) for s in m.solutions(search=search)) == expected


@settings(max_examples=scaled(4), deadline=None)
@given(data=st.data(), search=st.sampled_from(["classic", "learning", "auto"]))
def test_bound_literals_against_brute_force(data: st.DataObject, search: str) -> None:
    """b <=> (a x + c <= 0) for one term (ReifiedBound: MiniZinc's `int_le_reif(1, x, b)`)
    with either sign of a and the sum of such literals constrained, so that the search
    decides some literals and the bounds decide others: every solution, none missing,
    under each search (the learning search explains with these propagators)."""
    from conundrum.propagators.reified import ReifiedBound

    m = cn.Model()
    xs = m.int_vars(3, -5, 5, "x")
    terms = []
    for _ in xs:
        a = data.draw(st.sampled_from([-3, -2, -1, 1, 2, 3]))
        c = data.draw(st.integers(-12, 12))
        terms.append((a, c))
    bs = [m.bool_var(f"b{i}") for i in range(3)]
    for b, x, (a, c) in zip(bs, xs, terms):
        m += b == (a * x + c <= 0)
    k = data.draw(st.integers(0, 3))
    m += cn.sum(bs) == k
    bound = data.draw(st.integers(-6, 6))
    m += xs[0] + xs[1] - xs[2] >= bound
    try:
        compiled = Compiler(list(m.variables), list(m.constraints))
        assert sum(isinstance(p, ReifiedBound) for p in compiled.solver.propagators) == 3
    except Inconsistency:
        pass  # failed at the root: the brute force below must agree
    expected = sorted(
        v for v in ((x0, x1, x2) for x0 in range(-5, 6) for x1 in range(-5, 6)
                    for x2 in range(-5, 6))
        if sum(a * x + c <= 0 for x, (a, c) in zip(v, terms)) == k
        and v[0] + v[1] - v[2] >= bound)
    got = sorted(tuple(s[x] for x in xs) for s in m.solutions(search=search))
    assert got == expected
