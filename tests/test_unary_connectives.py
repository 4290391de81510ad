"""A connective over relations of one variable (`(x == 1) | (x == 3)`, MiniZinc's
`set_in_reif` over a constant set) is one table over the variable and its truth
(compiler/tabulate.py): domain consistent, where the clause over reified relations it
replaced could not remove x = 2 once the truth was 1 (issue 41: car sequencing searched
25 times Gecode's nodes under the same annotation).

Checked against brute force: the solutions, and the domains after root propagation
(exactly the supported values), posted and reified, under both searches.
"""

from __future__ import annotations

import operator

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.io.flatzinc.build import read
from test_properties_harness import scaled

RELATIONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge}


def relation(draw):
    op = draw(st.sampled_from(sorted(RELATIONS)))
    return op, draw(st.integers(-3, 6))


@st.composite
def connectives(draw, depth=2):
    """(build, meaning): build(x) makes the expression, meaning(v) is its truth at x = v.
    Nested at most `depth` levels (drawn iteratively: no recursion on input)."""
    leaves = []
    for _ in range(draw(st.integers(1, 4))):
        op, c = relation(draw)
        leaves.append((lambda x, op=op, c=c: _rel(x, op, c),
                       lambda v, op=op, c=c: RELATIONS[op](v, c)))
    for _ in range(depth):
        if len(leaves) < 2:
            break
        kind = draw(st.sampled_from(["or", "and", "xor", "implies", "not"]))
        a = leaves.pop()
        if kind == "not":
            leaves.append((lambda x, a=a: ~a[0](x), lambda v, a=a: not a[1](v)))
            continue
        b = leaves.pop()
        build = {"or": lambda p, q: p | q, "and": lambda p, q: p & q,
                 "xor": lambda p, q: p ^ q, "implies": lambda p, q: cn.implies(p, q)}[kind]
        mean = {"or": lambda p, q: p or q, "and": lambda p, q: p and q,
                "xor": lambda p, q: p != q, "implies": lambda p, q: (not p) or q}[kind]
        leaves.append((lambda x, a=a, b=b, f=build: f(a[0](x), b[0](x)),
                       lambda v, a=a, b=b, g=mean: g(a[1](v), b[1](v))))
    pair = leaves[0]
    for other in leaves[1:]:  # what is left: one disjunction
        pair = _either(pair, other)
    return pair


def _either(a, b):
    """The disjunction of two (build, meaning) pairs."""
    return (lambda x: a[0](x) | b[0](x)), (lambda v: a[1](v) or b[1](v))


def _rel(x, op, c):
    return {"==": x == c, "!=": x != c, "<": x < c, "<=": x <= c, ">": x > c,
            ">=": x >= c}[op]


def root_domains(m):
    compiled = compile_model(m.variables, m.constraints)
    if compiled is None:
        return None
    return [tuple(ev.values()) for ev in compiled.decision]


@settings(max_examples=scaled(2))
@given(conn=connectives(), values=st.frozensets(st.integers(-4, 7), min_size=1, max_size=8),
       truth=st.sampled_from([None, 0, 1]), search=st.sampled_from(["classic", "learning"]))
def test_unary_connective_is_domain_consistent(conn, values, truth, search):
    build, meaning = conn
    m = cn.Model()
    x = m.int_var(sorted(values), "x")
    b = m.bool_var("b")
    m += b == build(x)
    if truth is not None:
        m += b == truth
    expected = sorted((v, int(bool(meaning(v)))) for v in values
                      if truth is None or int(bool(meaning(v))) == truth)
    got = sorted((s[x], s[b]) for s in m.solutions(search=search))
    assert got == expected
    domains = root_domains(m)
    if not expected:
        assert domains is None or m.count() == 0
        return
    assert domains is not None
    assert domains[0] == tuple(sorted({v for v, _ in expected}))
    assert domains[1] == tuple(sorted({t for _, t in expected}))


@settings(max_examples=scaled(1))
@given(conn=connectives(), values=st.frozensets(st.integers(-4, 7), min_size=1, max_size=8))
def test_posted_unary_connective_keeps_exactly_its_values(conn, values):
    build, meaning = conn
    m = cn.Model()
    x = m.int_var(sorted(values), "x")
    m += build(x)
    expected = tuple(sorted(v for v in values if meaning(v)))
    assert sorted(s[x] for s in m.solutions()) == list(expected)
    domains = root_domains(m)
    assert (domains is None) if not expected else domains[0] == expected


def test_set_in_reif_prunes_at_the_root():
    """FlatZinc set_in_reif with a true truth value keeps the set's values only, and a
    domain outside the set makes the truth value false, with no search."""
    problem = read("var 1..7: x :: output_var;\nvar bool: b :: output_var;\n"
                   "var 1..7: y :: output_var;\nvar bool: c :: output_var;\n"
                   "constraint set_in_reif(x, {1,3,5}, b);\nconstraint bool_eq(b, true);\n"
                   "constraint set_in_reif(y, {1,3,5}, c);\nconstraint int_le(6, y);\n"
                   "solve satisfy;\n")
    domains = root_domains(problem.model)
    names = [v.name for v in problem.model.variables]
    got = dict(zip(names, domains))
    assert got["x"] == (1, 3, 5) and got["y"] == (6, 7) and got["c"] == (0,)
