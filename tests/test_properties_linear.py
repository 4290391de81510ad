"""Property tests: linear sums with every relation, random coefficients (negative, zero)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from test_properties_harness import (
    RELATIONS,
    Dom,
    assert_same_set,
    build,
    check,
    check_exhaustive_options,
    doms,
    has_var,
    linear_expr,
    names_for,
    relation,
    scaled,
    solve_all,
)

REL = st.sampled_from(list(RELATIONS))


@settings(max_examples=scaled(1.5))
@given(data=st.data(), n=st.integers(1, 4), op=REL, rhs=st.integers(-8, 8),
       form=st.sampled_from(["expanded", "cn.sum", "sum", "constant_left"]))
def test_linear_sum_with_each_relation(
    data: st.DataObject, n: int, op: str, rhs: int, form: str
) -> None:
    """sum(c_i * x_i) OP k, written out, with cn.sum, with builtin sum, or as k OP sum."""
    domains = data.draw(doms(n, max_size=4 if n < 4 else 3), label="domains")
    coefs = data.draw(st.lists(st.integers(-3, 3), min_size=n, max_size=n), label="coefs")
    terms = [f"({c})*x{i}" for i, c in enumerate(coefs)]
    if form == "expanded":
        src = f"m += {' + '.join(terms)} {op} {rhs}"
    elif form == "cn.sum":
        src = f"m += cn.sum([{', '.join(terms)}]) {op} {rhs}"
    elif form == "sum":
        src = f"m += sum(c * x for c, x in zip({coefs}, xs)) {op} {rhs}"
    else:
        flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        src = f"m += ({rhs}) {flipped} {' + '.join(terms)}"
    rel = RELATIONS[op]

    def pred(t: tuple[int, ...]) -> bool:
        return rel(sum(c * x for c, x in zip(coefs, t, strict=True)), rhs)

    lhs = " + ".join(terms)
    check(data, domains, src, pred,
          exprs=[(lhs, lambda t: sum(c * x for c, x in zip(coefs, t, strict=True)))])


@given(data=st.data(), op=REL)
def test_linear_variables_on_both_sides(data: st.DataObject, op: str) -> None:
    """a*x0 + b*x1 + k OP c*x2 - d*x0 (a variable on both sides), via random linear trees."""
    lhs = data.draw(linear_expr(3).filter(has_var), label="lhs")
    rhs = data.draw(linear_expr(3), label="rhs")
    domains = data.draw(doms(3, max_size=4), label="domains")
    c = relation(op, lhs, rhs)
    check(data, domains, f"m += {c.src}", c.fn,
          exprs=[(lhs.src, lhs.fn), (f"{lhs.src} - {rhs.src}", lambda t: lhs.fn(t) - rhs.fn(t))])


@given(data=st.data(), op=REL, k=st.integers(-6, 6))
def test_linear_repeated_and_cancelling_variables(data: st.DataObject, op: str, k: int) -> None:
    """Terms that repeat a variable (x0 + x0 + 2*x0) or cancel (x1 - x1) are summed right."""
    n = 2
    idx = data.draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=5), label="term vars")
    coefs = data.draw(st.lists(st.integers(-2, 2), min_size=len(idx), max_size=len(idx)),
                      label="term coefs")
    domains = data.draw(doms(n, max_size=5), label="domains")
    terms = " + ".join(f"({c})*x{i}" for c, i in zip(coefs, idx, strict=True))
    rel = RELATIONS[op]

    def lin(t: tuple[int, ...]) -> int:
        return sum(c * t[i] for c, i in zip(coefs, idx, strict=True))

    check(data, domains, f"m += {terms} {op} {k}", lambda t: rel(lin(t), k),
          exprs=[(terms, lin)])


@settings(max_examples=scaled(0.5))
@given(data=st.data(), k=st.integers(-3, 3))
def test_linear_all_constant_after_cancellation(data: st.DataObject, k: int) -> None:
    """x0 - x0 == k is constant: every assignment (k == 0) or none; never an exception."""
    domains = data.draw(doms(2, max_size=3), label="domains")
    check(data, domains, f"m += x0 - x0 == {k}", lambda t: k == 0, optimize=False)


@settings(max_examples=scaled(0.6))
@given(data=st.data(), n=st.integers(3, 5), op=REL)
def test_linear_larger_sums(data: st.DataObject, n: int, op: str) -> None:
    """Longer sums with wider coefficients, fewer values per variable."""
    domains = data.draw(doms(n, max_size=3, lo=-3, hi=3), label="domains")
    coefs = data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n), label="coefs")
    rhs = data.draw(st.integers(-10, 10), label="rhs")
    rel = RELATIONS[op]
    terms = " + ".join(f"({c})*x{i}" for i, c in enumerate(coefs))
    check(data, domains, f"m += {terms} {op} {rhs}",
          lambda t: rel(sum(c * x for c, x in zip(coefs, t, strict=True)), rhs), runs=1)


def test_linear_under_every_search_option_combination() -> None:
    """One fixed linear model, solved under all 9 x 7 x 3 option combinations."""
    domains = [Dom((-2, -1, 0, 1, 2), True), Dom((-3, 0, 2, 5), False), Dom((1, 2, 3), True)]
    check_exhaustive_options(
        domains, "m += 2*x0 - x1 + 3*x2 >= 4\nm += x0 + x1 != x2",
        lambda t: 2 * t[0] - t[1] + 3 * t[2] >= 4 and t[0] + t[1] != t[2])


OFFSETS = [10**6, -(10**9), 10**12, 2**62, -(10**18), 10**30]


def shifted(domains: list[Dom], offset: int) -> list[Dom]:
    """The same domains moved far from zero (large values, interval representations)."""
    return [Dom(tuple(v + offset for v in d.values), d.as_range) for d in domains]


@settings(max_examples=scaled(1))
@given(data=st.data(), op=REL, offset=st.sampled_from(OFFSETS))
def test_linear_and_all_different_far_from_zero(data: st.DataObject, op: str,
                                                offset: int) -> None:
    """sum(c_i * x_i) OP k plus all_different, values near +-10**6 .. 10**30."""
    domains = shifted(data.draw(doms(3, max_size=4), label="domains"), offset)
    coefs = data.draw(st.lists(st.integers(-3, 3), min_size=3, max_size=3), label="coefs")
    rhs = data.draw(st.integers(-8, 8), label="rhs") + sum(coefs) * offset
    terms = " + ".join(f"({c})*x{i}" for i, c in enumerate(coefs))
    rel = RELATIONS[op]
    check(data, domains, f"m += {terms} {op} {rhs}\nm += cn.all_different(xs)",
          lambda t: rel(sum(c * x for c, x in zip(coefs, t, strict=True)), rhs)
          and len(set(t)) == 3)


@settings(max_examples=scaled(0.6))
@given(data=st.data(), offset=st.sampled_from(OFFSETS))
def test_times_far_from_zero(data: st.DataObject, offset: int) -> None:
    """x0 * x1 == x2 with x0, x1 near the offset and x2 among (and next to) their products."""
    d01 = shifted(data.draw(doms(2, max_size=3), label="domains"), offset)
    products = sorted({a * b for a in d01[0].values for b in d01[1].values})
    picked = data.draw(st.lists(st.sampled_from(products), min_size=1, max_size=4, unique=True),
                       label="products")
    d2 = Dom(tuple(sorted({p + data.draw(st.integers(-1, 1), label="jitter")
                           for p in picked})), False)
    check(data, [*d01, d2], "m += x0 * x1 == x2", lambda t: t[0] * t[1] == t[2])


@pytest.mark.parametrize("hi", [10**18, 2**64, 10**30])
def test_huge_range_fixed_by_a_small_variable(hi: int) -> None:
    """x0 in 0..hi (never enumerable) with x0 == 3*x1 + hi//2 - 5*x1*x1: one x0 per x1."""
    small = Dom((-2, -1, 0, 3), False)
    domains = [Dom((0, hi), True), small]  # Dom((0, hi), True) declares int_var(0, hi)
    src = f"m += x0 == 3*x1 + {hi // 2} - 5 * x1 * x1"
    truth = [(3 * v + hi // 2 - 5 * v * v, v) for v in small.values]
    b = build(domains, names_for(2), src)
    for opts in ({}, {"var_select": "first_fail", "value_select": "split"},
                 {"var_select": "largest", "value_select": "max", "method": "lds:1000"}):
        got, _ = solve_all(b, opts)
        assert_same_set(got, truth, f"solutions({opts})")
    best = b.m.maximize(b.xs[0])
    assert best is not None and best[b.xs[0]] == max(t[0] for t in truth)


SPARSE = [-(10**12), -(10**6), -70000, -3, -2, -1, 0, 1, 2, 3, 70000, 10**6, 10**12]


@settings(max_examples=scaled(0.8))
@given(data=st.data(), op=REL)
def test_linear_on_sparse_wide_value_lists(data: st.DataObject, op: str) -> None:
    """Value lists mixing small and far values (spans beyond any bit set) keep their holes."""
    domains = [Dom(tuple(sorted(v)), False) for v in data.draw(
        st.lists(st.lists(st.sampled_from(SPARSE), min_size=1, max_size=4, unique=True),
                 min_size=3, max_size=3), label="domains")]
    coefs = data.draw(st.lists(st.integers(-2, 2), min_size=3, max_size=3), label="coefs")
    rhs = data.draw(st.sampled_from([0, 1, -70000, 10**6 + 3]), label="rhs")
    terms = " + ".join(f"({c})*x{i}" for i, c in enumerate(coefs))
    rel = RELATIONS[op]
    check(data, domains, f"m += {terms} {op} {rhs}",
          lambda t: rel(sum(c * x for c, x in zip(coefs, t, strict=True)), rhs))


def divisibility_fixpoint(a: int, b: int, c: int, yz: int, make_x):
    """a*x + b*y - b*z == c with x = make_x(solver) and y, z in -yz..yz, propagated:
    (x, y, z), or None when it fails."""
    from conundrum.engine import Inconsistency, Solver
    from conundrum.propagators.linear import LinearEq

    s = Solver()
    x = make_x(s)
    y = s.int_var(-yz, yz, "y")
    z = s.int_var(-yz, yz, "z")
    try:
        s.post(LinearEq(s, [a, b, -b], [x, y, z], -c))
        s.fix_point()
    except Inconsistency:
        return None
    return x, y, z


@settings(max_examples=scaled(1.0))
@given(a=st.integers(-9, 9).filter(bool), b=st.integers(2, 12), c=st.integers(-60, 60),
       lo=st.integers(-300, 0), width=st.integers(0, 600), yz=st.integers(0, 20))
def test_divisibility_moves_wide_bounds_to_solutions(
    a: int, b: int, c: int, lo: int, width: int, yz: int
) -> None:
    """a*x + b*y - b*z == c with x bounds-only: divisibility reasoning moves x's bounds
    onto the progression a*x = c (mod b), which interval reasoning alone leaves where they
    were (y and z span more than x), and it removes no solution."""
    truth = [(u, v, (a * u + b * v - c) // b) for u in range(lo, lo + width + 1)
             for v in range(-yz, yz + 1)
             if (a * u + b * v - c) % b == 0 and -yz <= (a * u + b * v - c) // b <= yz]
    propagated = divisibility_fixpoint(
        a, b, c, yz, lambda s: s.int_var(lo, lo + width, "x", bitset=False))
    if propagated is None:
        assert truth == []
        return
    x, y, z = propagated
    assert all(x.lo <= u <= x.hi and y.contains(v) and z.contains(w) for u, v, w in truth)
    for bound in (x.lo, x.hi):
        assert (a * bound - c) % b == 0


@settings(max_examples=scaled(1.0))
@given(a=st.integers(-9, 9).filter(bool), b=st.integers(2, 12), c=st.integers(-60, 60),
       values=st.lists(st.integers(-700, 700), min_size=1, max_size=60, unique=True),
       yz=st.integers(10_000, 20_000))
def test_divisibility_keeps_the_progression_of_a_bit_set(
    a: int, b: int, c: int, values: list[int], yz: int
) -> None:
    """a*x + b*y - b*z == c with x a bit set (holes, up to 1,400 wide) and y, z wide
    enough to support any x: the divisibility reasoning leaves x exactly its values on the
    progression a*x = c (mod b), by one mask."""
    expected = [u for u in sorted(values) if (a * u - c) % b == 0]
    propagated = divisibility_fixpoint(a, b, c, yz,
                                       lambda s: s.int_var_values(sorted(values), "x"))
    if propagated is None:
        assert expected == []
        return
    assert list(propagated[0].values()) == expected



@settings(max_examples=scaled(1))
@given(data=st.data(), k=st.lists(st.integers(-3, 3), min_size=3, max_size=3),
       op=REL)
def test_precedences(data: st.DataObject, k: list[int], op: str) -> None:
    """x + c <= y in its spellings (Precedence: two unit terms of opposite signs), chained
    and beside a row of another relation, against brute force under the harness's
    searches (the learning search explains with it)."""
    from conundrum.compiler.compile import Compiler
    from conundrum.engine import Inconsistency
    from conundrum.propagators.linear import Precedence

    domains = data.draw(doms(4, max_size=4), label="domains")
    src = (f"m += x0 + ({k[0]}) <= x1\nm += x1 - x2 <= {k[1]}\n"
           f"m += x3 >= x2 + ({k[2]})\nm += x0 + 2*x3 {op} x1 + 1")
    rel = RELATIONS[op]

    def pred(t: tuple[int, ...]) -> bool:
        return (t[0] + k[0] <= t[1] and t[1] - t[2] <= k[1] and t[3] >= t[2] + k[2]
                and rel(t[0] + 2 * t[3], t[1] + 1))

    check(data, domains, src, pred)
    b = build(domains, names_for(4, None), src)
    try:
        compiled = Compiler(list(b.m.variables), list(b.m.constraints))
    except Inconsistency:
        return
    assert sum(isinstance(p, Precedence) for p in compiled.solver.propagators) == 3


@settings(max_examples=scaled(2), deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from([-6, -4, -3, -2, -1, 1, 2, 3, 4, 6, 9, 12]),
                               st.sets(st.integers(-5, 5), min_size=1, max_size=4)),
                     min_size=1, max_size=20),
       c=st.integers(-20, 20))
def test_divisibility_reasoning_against_its_definition(rows, c: int) -> None:
    """linear_modular.modular_eq keeps, for each unfixed x_j, the values v with a_j*v = r modulo
    the gcd g of the other unfixed coefficients (r: -c minus the fixed terms), and fails
    when the gcd of all of them does not divide r; written here value by value. Its
    shortcuts (two unit coefficients, a first and a last run of gcd 1, looked for among
    linear.RUN terms at each end of rows longer than that) change nothing."""
    from math import gcd

    from conundrum.engine import Inconsistency, Solver
    from conundrum.propagators.linear_modular import modular_eq

    s = Solver()
    coefs = [a for a, _ in rows]
    xs = []
    for _, values in rows:
        x = s.int_var(min(values), max(values))
        x.keep_values(values)
        xs.append(x)
    free = [k for k, (_, vs) in enumerate(rows) if len(vs) > 1]
    r = -c - sum(a * min(vs) for a, vs in rows if len(vs) == 1)
    want: list[list[int]] | None = [sorted(vs) for _, vs in rows]
    if len(free) >= 2:
        total = 0
        for k in free:
            total = gcd(total, coefs[k])
        if r % total:
            want = None
        else:
            for k in free:
                g = 0
                for j in free:
                    if j != k:
                        g = gcd(g, coefs[j])
                kept = [v for v in sorted(rows[k][1]) if (coefs[k] * v - r) % g == 0]
                if not kept:
                    want = None
                    break
                want[k] = kept
    try:
        modular_eq(coefs, xs, c)
        got: list[list[int]] | None = [x.values_list() for x in xs]
    except Inconsistency:
        got = None
    assert got == want


@settings(max_examples=scaled(1), deadline=None)
@given(rows=st.lists(st.tuples(st.sampled_from([-6, -4, -3, -2, 1, 2, 4, 6, 8, 9]),
                               st.sets(st.integers(-5, 5), min_size=1, max_size=5),
                               st.booleans()),
                     min_size=2, max_size=8),
       c=st.integers(-20, 20),
       steps=st.lists(st.tuples(st.integers(0, 11), st.integers(-5, 5), st.integers(0, 3)),
                      max_size=12))
def test_divisibility_remembered_along_a_branch_changes_nothing(rows, c: int, steps) -> None:
    """modular_eq with the propagator's trailed `done` (which skips the gcds when the
    unfixed terms are those of its last complete call) leaves the domains it leaves
    without, along a branch of decisions (a value fixed or removed, a bound moved) with
    backtracking; bounds-only domains included (their rounding is never remembered)."""
    from conundrum.engine import Inconsistency, Solver
    from conundrum.propagators.linear_modular import modular_eq
    from conundrum.state import RevInt

    def fixpoint(coefs, xs, done) -> bool:
        try:
            while modular_eq(coefs, xs, c, -1, done):
                pass
        except Inconsistency:
            return False
        return True

    coefs = [a for a, _, _ in rows]
    solvers = []
    for remembering in (False, True):
        s = Solver()
        xs = []
        for _, values, bitset in rows:
            x = s.int_var(min(values), max(values), bitset=bitset)
            if bitset:
                x.keep_values(values)
            xs.append(x)
        solvers.append((s, xs, RevInt(s.trail, -1) if remembering else None))
    alive = [fixpoint(coefs, xs, done) for _, xs, done in solvers]
    assert alive[0] == alive[1]
    if not alive[0]:
        return
    for k, v, back in steps:
        states = []
        for s, xs, done in solvers:
            if back == 0 and s.trail.depth > 0:
                s.trail.pop_level()
            s.trail.push_level()
            x = xs[k % len(xs)]
            try:
                if back == 1:
                    x.remove(v)
                elif back == 2:  # a bound moved off the residue that rounded it
                    x.remove(x.lo if v < 0 else x.hi)
                else:
                    x.assign(min(max(v, x.lo), x.hi))
                ok = fixpoint(coefs, xs, done)
            except Inconsistency:
                ok = False
            states.append((ok, [(y.lo, y.hi, y.values_list() if y.bits >= 0 else None)
                                for y in xs] if ok else None))
            if not ok:
                s.trail.pop_level()
        assert states[0] == states[1]


def test_divisibility_rounds_a_moved_bound_again() -> None:
    """2x + 4y + 4z == 2 keeps x odd; x bounds-only: after its upper bound moves off the
    progression (3 removed), the next call rounds it again, though the unfixed terms are
    the same (what `done` remembers is never a rounding)."""
    from conundrum.engine import Solver
    from conundrum.propagators.linear_modular import modular_eq
    from conundrum.state import RevInt

    s = Solver()
    x = s.int_var(-4, 4, bitset=False)
    xs = [x, s.int_var(-5, 5, bitset=False), s.int_var(-5, 5)]
    done = RevInt(s.trail, -1)
    assert modular_eq([2, 4, 4], xs, -2, -1, done)
    assert (x.lo, x.hi) == (-3, 3)
    x.remove(3)
    assert modular_eq([2, 4, 4], xs, -2, -1, done)
    assert (x.lo, x.hi) == (-3, 1)


@given(st.one_of(st.integers(-10**6, 10**6), st.integers(-2**100, 2**100)),
       st.one_of(st.integers(-10**6, 10**6), st.integers(-2**100, 2**100), st.just(0)))
def test_native_gcd_is_maths(a: int, b: int) -> None:
    """linear.gcd (Euclid's loop, native when compiled) is math.gcd, signs and 0 too."""
    import math

    from conundrum.propagators.linear_modular import gcd

    assert gcd(a, b) == math.gcd(a, b)
