"""Property tests: reification (constraints as 0/1 values) and & | ~ cn.implies."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import div, implies
from test_properties_harness import (
    RELATIONS,
    Dom,
    Expr,
    check,
    doms,
    linear_expr,
    relation,
    scaled,
)
from test_properties_models import constraint

REL = st.sampled_from(list(RELATIONS))


@given(data=st.data(), v=st.integers(-2, 2), rel=REL,
       form=st.sampled_from(["sum", "cn.sum"]))
def test_reified_count_of_equalities(data: st.DataObject, v: int, rel: str, form: str) -> None:
    """sum(x == v for x in xs) OP k, with builtin sum and with cn.sum."""
    n = data.draw(st.integers(2, 4), label="n")
    k = data.draw(st.integers(0, n), label="k")
    domains = data.draw(doms(n, max_size=3, lo=-3, hi=3), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += {form}(x == {v} for x in xs) {rel} {k}",
          lambda t: r(sum(x == v for x in t), k),
          exprs=[(f"{form}(x == {v} for x in xs)", lambda t: sum(x == v for x in t))])


@given(data=st.data(), k=st.integers(0, 2), rel=REL)
def test_reified_strict_orders_sum(data: st.DataObject, k: int, rel: str) -> None:
    """(x0 < x1) + (x1 < x2) OP k."""
    domains = data.draw(doms(3, max_size=4), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += (x0 < x1) + (x1 < x2) {rel} {k}",
          lambda t: r((t[0] < t[1]) + (t[1] < t[2]), k),
          exprs=[("(x0 < x1) + (x1 < x2)", lambda t: (t[0] < t[1]) + (t[1] < t[2]))])


@given(data=st.data(), a=st.integers(-3, 3), rel=REL)
def test_reified_value_in_arithmetic(data: st.DataObject, a: int, rel: str) -> None:
    """a * (x0 != x1) - x2 OP (x0 >= x2): a constraint used as a 0/1 term with weights."""
    domains = data.draw(doms(3, max_size=4), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"m += ({a}) * (x0 != x1) - x2 {rel} (x0 >= x2)",
          lambda t: r(a * (t[0] != t[1]) - t[2], int(t[0] >= t[2])))


@given(data=st.data(), rel=REL)
def test_bool_var_equals_reified_constraint(data: st.DataObject, rel: str) -> None:
    """b = m.bool_var(); b == (x0 OP x1): b is 0/1 and mirrors the constraint."""
    domains = data.draw(doms(2, max_size=4), label="domains")
    r = RELATIONS[rel]
    # b is tied to a third declared variable x2 in {0, 1}, so the harness sees its value.
    src = f'b = m.bool_var("b")\nm += b == (x0 {rel} x1)\nm += b == x2'
    check(data, [*domains, Dom((0, 1), True)], src, lambda t: t[2] == int(r(t[0], t[1])),
          exprs=[("b", lambda t: t[2]), ("b + (x0 == x1)", lambda t: t[2] + (t[0] == t[1]))])


@st.composite
def formula(draw: st.DrawFn, n: int, depth: int = 2) -> Expr:
    """A random Boolean formula of comparisons between linear expressions."""
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        a = draw(linear_expr(n, 1))
        b = draw(linear_expr(n, 1))
        return relation(draw(REL), a, b)
    kind = draw(st.sampled_from(["&", "|", "~", "implies", "==", "!="]))
    p = draw(formula(n, depth - 1))
    if kind == "~":
        return Expr(f"(~{p.src})", lambda t: not p.fn(t), lambda t: not p.ifn(t))
    q = draw(formula(n, depth - 1))
    ops: dict[str, Callable[[bool, bool], bool]] = {
        "&": lambda x, y: x and y, "|": lambda x, y: x or y, "implies": implies,
        "==": lambda x, y: x == y, "!=": lambda x, y: x != y,
    }
    f = ops[kind]
    src = f"cn.implies({p.src}, {q.src})" if kind == "implies" else f"({p.src} {kind} {q.src})"
    return Expr(src, lambda t: f(bool(p.fn(t)), bool(q.fn(t))),
                lambda t: f(bool(p.ifn(t)), bool(q.ifn(t))))


@settings(max_examples=scaled(2))
@given(data=st.data())
def test_random_boolean_formulas(data: st.DataObject) -> None:
    """& | ~ cn.implies and equivalence (==, != between constraints) over comparisons."""
    phi = data.draw(formula(3), label="formula")
    domains = data.draw(doms(3, max_size=3), label="domains")
    check(data, domains, f"m += {phi.src}", phi.fn, runs=1)


@given(data=st.data(), a=st.integers(-2, 2), b=st.integers(-2, 2))
def test_implies_between_comparisons(data: st.DataObject, a: int, b: int) -> None:
    """cn.implies(x0 == a, x1 != b) and its contrapositive, and the negation of an and."""
    domains = data.draw(doms(3, max_size=4, lo=-3, hi=3), label="domains")
    src = (f"m += cn.implies(x0 == {a}, x1 != {b})\n"
           f"m += ~((x1 > x2) & (x0 <= {b}))")
    check(data, domains, src,
          lambda t: implies(t[0] == a, t[1] != b) and not (t[1] > t[2] and t[0] <= b))


@settings(max_examples=scaled(0.6))
@given(data=st.data())
def test_reified_rational_comparison_with_zero_divisor(data: st.DataObject) -> None:
    """(x0 / x1 == 1) | (x2 == 0): a division by zero makes the whole assignment fail.

    SPEC section 2: "A division or modulo by zero makes that assignment fail" -- even when
    the undefined term sits under a disjunction whose other side holds.
    """
    domains = data.draw(doms(3, max_size=3, lo=-2, hi=2), label="domains")

    def pred(t: tuple[int, ...]) -> bool:
        q = div(t[0], t[1])  # evaluated first: undefined -> not a solution
        return q == 1 or t[2] == 0

    check(data, domains, "m += (x0 / x1 == 1) | (x2 == 0)", pred, runs=1)


@settings(max_examples=scaled(2))
@given(data=st.data(), form=st.sampled_from(["~g", "g | c", "g + h == 1", "implies(c, g)",
                                             "g == c"]))
def test_reified_global_constraints(data: st.DataObject, form: str) -> None:
    """Globals used as 0/1 values: negated, in disjunctions, summed, implied, equated."""
    n = 3
    g = data.draw(constraint(n, globals_only=True), label="g")
    h = data.draw(constraint(n, globals_only=True), label="h")
    c = relation(data.draw(REL), data.draw(linear_expr(n, 1)), data.draw(linear_expr(n, 1)))
    src = {"~g": f"~{g.src}", "g | c": f"({g.src} | {c.src})",
           "g + h == 1": f"{g.src} + {h.src} == 1",
           "implies(c, g)": f"cn.implies({c.src}, {g.src})",
           "g == c": f"({g.src} == {c.src})"}[form]

    def pred(t: tuple[int, ...]) -> bool:
        # Only the parts the posted constraint mentions (an undefined h elsewhere is no matter).
        gv = bool(g.fn(t))
        if form == "~g":
            return not gv
        if form == "g + h == 1":
            return gv + bool(h.fn(t)) == 1
        cv = bool(c.fn(t))
        return {"g | c": gv or cv, "implies(c, g)": implies(cv, gv), "g == c": gv == cv}[form]

    domains = data.draw(doms(n, max_size=3, lo=-2, hi=2), label="domains")
    check(data, domains, f"m += {src}", pred, runs=1)
