"""check.py's two ways of evaluating a constraint agree: `evaluate` (a walk that calls each
node's `compute`) and `Checker` (straight-line code written once per search, which inlines
the commonest nodes and calls `compute` for the others).

Hypothesis builds random expressions without recursion: a pool of numeric terms starts
with the variables and some constants (whole and fractional), and each step applies one
operation (+ - * / // % exact_div ** abs min max element count sum arg_max arg_min, a
relation used as 0/1, a whole value reached through fractions, ...) to terms of the pool;
boolean terms (relations, & | ^ ~ implies, any all xor at_most_one exactly_one,
and the globals) are built from it likewise.
For random assignments (0 included, so divisions by zero and out-of-range indices happen),
both interpreters must give the same verdict on the constraint: both hold, both violated,
or both undefined. Every numeric term whose value is defined must also read back equal
through the Checker.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum import check
from conundrum.check import Checker, Undefined, evaluate
from conundrum.lang.expr import Expr, Sum

N = 4  # variables x0..x3
LO, HI = -3, 3

RELATIONS = ["==", "!=", "<", "<=", ">", ">="]


def _relation(op: str, a: Any, b: Any) -> Any:
    return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b,
            ">=": a >= b}[op]


def _constraint(value: Any) -> Expr:
    """A relation between two constants is a Python bool: the language's constant."""
    return cn.implies(True, value) if isinstance(value, bool) else value


NUMERIC = ["add", "sub", "mul", "scale", "div", "floordiv", "mod", "exact_div", "pow",
           "abs", "neg", "min", "max", "element", "element2d", "count", "sum", "arg_max", "arg_min",
           "truth", "halves"]
BOOLEAN = ["rel", "and", "or", "xor", "not", "implies", "all_different",
           "all_different_except_0", "all_equal", "increasing", "decreasing", "lex_less",
           "lex_lesseq", "table", "among", "global_cardinality", "value_precede", "circuit",
           "subcircuit", "inverse", "no_overlap", "cumulative", "no_overlap_2d",
           "bin_packing", "regular", "linear_eq", "nvalue", "integral", "any", "all",
           "xor_n", "at_most_one", "exactly_one"]


@st.composite
def model_and_constraint(draw: st.DrawFn) -> tuple[list[cn.Var], Expr, list[Any]]:
    m = cn.Model()
    xs = [m.int_var(LO, HI, f"x{i}") for i in range(N)]
    nums: list[Any] = list(xs) + [0, 1, 2, -1, Fraction(1, 2), Fraction(-3, 2)]
    bools: list[Any] = []

    def term() -> Any:
        return draw(st.sampled_from(nums))

    def terms(lo: int = 1, hi: int = 4) -> list[Any]:
        return draw(st.lists(st.sampled_from(nums), min_size=lo, max_size=hi))

    # integer terms (element arrays, successors, bins ...): variables, integers, and sums
    # whose value is whole but computed through fractions
    ints: list[Any] = list(xs) + [0, 1, 2, -1]

    def whole() -> Any:
        return draw(st.sampled_from(ints))

    def wholes(lo: int = 1, hi: int = 4) -> list[Any]:
        return [whole() for _ in range(draw(st.integers(lo, hi)))]

    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.sampled_from(NUMERIC))
        a, b = term(), term()
        if not isinstance(a, Expr) and not isinstance(b, Expr):
            a = xs[0]
        new: Any
        if op == "add":
            new = a + b
        elif op == "sub":
            new = a - b
        elif op == "mul":
            new = a * b
        elif op == "scale":
            new = draw(st.sampled_from([2, -1, Fraction(1, 2), Fraction(2, 3)])) * a
        elif op == "div":
            new = a / b
        elif op == "floordiv":
            new = a // b
        elif op == "mod":
            new = a % b
        elif op == "exact_div":
            new = cn.exact_div(a, b)
        elif op == "pow":
            new = (a if isinstance(a, Expr) else b) ** draw(st.integers(0, 3))
        elif op == "abs":
            new = abs(a if isinstance(a, Expr) else b)
        elif op == "neg":
            new = -(a if isinstance(a, Expr) else b)
        elif op in ("min", "max"):
            new = getattr(cn, op)(terms())
        elif op == "element":
            new = cn.element(wholes(), a)
        elif op == "element2d":  # grid[r, c] with variable indices: one 2-D element
            cols = draw(st.integers(1, 3))
            grid = cn.array([wholes(cols, cols) for _ in range(draw(st.integers(1, 3)))])
            new = grid[a if isinstance(a, Expr) else xs[0], b if isinstance(b, Expr) else xs[1]]
        elif op == "count":
            new = cn.count(terms(), a)
        elif op == "sum":
            new = cn.sum(terms(0))
        elif op in ("arg_max", "arg_min"):
            new = getattr(cn, op)(terms())
        elif op == "halves":  # a whole value reached through fractions
            c = whole()
            new = Fraction(1, 2) * c + Fraction(1, 2) * xs[0] + Fraction(1, 2) * (c - xs[0])
            ints.append(new)
        else:  # a relation used as a 0/1 value
            new = _constraint(_relation(draw(st.sampled_from(RELATIONS)), a, b)) + 0
        nums.append(new)

    for _ in range(draw(st.integers(1, 5))):
        op = draw(st.sampled_from(BOOLEAN if bools else ["rel"]))
        k = draw(st.integers(1, 4))
        new = None
        if op == "rel":
            new = _constraint(_relation(draw(st.sampled_from(RELATIONS)), term(), term()))
        elif op in ("and", "or", "xor"):
            p, q = draw(st.sampled_from(bools)), draw(st.sampled_from(bools))
            new = {"and": p & q, "or": p | q, "xor": p ^ q}[op]
        elif op in ("any", "all", "xor_n", "at_most_one", "exactly_one"):
            # the n-ary connectives and counts of Booleans, over 0 to 4 of them
            items = draw(st.lists(st.sampled_from([*bools, True, False]), max_size=4))
            new = _constraint(getattr(cn, op.removesuffix("_n"))(items))
        elif op == "not":
            new = ~draw(st.sampled_from(bools))
        elif op == "implies":
            new = cn.implies(draw(st.sampled_from(bools)), draw(st.sampled_from(bools)))
        elif op in ("all_different", "all_different_except_0", "all_equal", "increasing",
                    "decreasing", "circuit", "subcircuit"):
            args = terms(0) if op not in ("circuit", "subcircuit") else wholes(1, 4)
            kwargs = ({"strict": draw(st.booleans())} if op in ("increasing", "decreasing")
                      else {})
            new = getattr(cn, op)(args, **kwargs)
        elif op in ("lex_less", "lex_lesseq"):
            new = getattr(cn, op)(terms(k, k), terms(k, k))
        elif op == "table":
            ys = wholes(k, k)
            rows = draw(st.lists(st.lists(st.integers(LO, HI), min_size=k, max_size=k),
                                 max_size=4))
            new = cn.table(ys, rows)
        elif op == "among":
            new = cn.among(term(), terms(), draw(st.lists(st.integers(LO, HI), max_size=3)))
        elif op == "global_cardinality":
            values = draw(st.lists(st.integers(LO, HI), max_size=3, unique=True))
            new = cn.global_cardinality(terms(), values, [term() for _ in values])
        elif op == "value_precede":
            new = cn.value_precede(draw(st.integers(-1, 2)), draw(st.integers(-1, 2)), terms())
        elif op == "inverse":
            new = cn.inverse(wholes(k, k), wholes(k, k))
        elif op == "no_overlap":
            new = cn.no_overlap(terms(k, k), terms(k, k), strict=draw(st.booleans()))
        elif op == "cumulative":
            new = cn.cumulative(terms(k, k), terms(k, k), terms(k, k), term())
        elif op == "no_overlap_2d":
            new = cn.no_overlap_2d(terms(k, k), terms(k, k), terms(k, k), terms(k, k))
        elif op == "bin_packing":
            new = cn.bin_packing(wholes(1, 3), wholes(k, k),
                                 draw(st.lists(st.integers(0, 3), min_size=k, max_size=k)))
        elif op == "regular":
            new = cn.regular(wholes(k, k), *cn.pattern_automaton(
                draw(st.lists(st.integers(1, 2), max_size=2))))
        elif op == "linear_eq":
            coefs = draw(st.lists(st.integers(-2, 2), min_size=k, max_size=k))
            new = cn.linear_eq(coefs, wholes(k, k), draw(st.integers(-4, 4)))
        elif op == "nvalue":
            new = cn.nvalue(term(), wholes())
        else:  # integral: every / read as exact_div
            new = cn.integral(draw(st.sampled_from(bools)))
        bools.append(new)
        if draw(st.booleans()):  # a constraint used as a 0/1 term
            nums.append(new * draw(st.sampled_from([1, 2, Fraction(1, 3)])))
    return xs, bools[-1], [t for t in nums if isinstance(t, Expr)]


def verdict_of_evaluate(c: Expr, assignment: dict[int, int]) -> str:
    try:
        return "holds" if evaluate(c, assignment) == 1 else "violated"
    except Undefined:
        return "undefined"


def verdict_of_checker(xs: list[cn.Var], c: Expr, values: list[int]) -> str:
    """The Checker's verdict from the generated code; its first solutions walk the trees
    instead (until TREES_AS_CODE), which must give the same verdict."""
    walked = verdict(Checker(xs, [c]), values)
    with mock.patch.object(check, "TREES_AS_CODE", 1):
        checker = Checker(xs, [c])
        written = verdict(checker, values)
        assert not checker.trees
    assert walked == written, repr(c)
    return written


@settings(max_examples=300, deadline=None)
@given(built=model_and_constraint(),
       values=st.lists(st.integers(LO, HI), min_size=N, max_size=N))
def test_evaluate_and_checker_agree(built: tuple[list[cn.Var], Expr, list[Any]],
                                    values: list[int]) -> None:
    xs, c, numeric = built
    assignment = {x.index: v for x, v in zip(xs, values)}
    assert verdict_of_checker(xs, c, values) == verdict_of_evaluate(c, assignment), repr(c)
    for t in numeric:  # each defined term reads back equal through the Checker
        try:
            v = evaluate(t, assignment)
        except Undefined:
            assert verdict_of_checker(xs, t == 0, values) == "undefined", repr(t)
            continue
        assert verdict_of_checker(xs, t == v, values) == "holds", (repr(t), v)


def test_the_verdicts_cover_every_outcome() -> None:
    m = cn.Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    cases = {"holds": x // y == 1, "violated": x // y == 2, "undefined": x // (y - 2) == 0}
    for expected, c in cases.items():
        assert verdict_of_evaluate(c, {x.index: 2, y.index: 2}) == expected
        assert verdict_of_checker([x, y], c, [2, 2]) == expected


@settings(max_examples=200, deadline=None)
@given(left=st.lists(st.tuples(st.integers(0, N - 1), st.integers(-3, 3)), max_size=4),
       right=st.lists(st.tuples(st.integers(0, N - 1), st.integers(-3, 3)), max_size=3),
       consts=st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
       op=st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
       values=st.lists(st.integers(LO, HI), min_size=N, max_size=N))
def test_linear_relations_checked_from_data(left, right, consts, op, values) -> None:
    """A relation between integer linear sums (FlatZinc's int_lin_* rows) is checked from
    data, not compiled code, with evaluate's verdict."""
    m = cn.Model()
    xs = m.int_vars(N, LO, HI, "x")
    a = cn.sum(c * xs[i] for i, c in left) + consts[0]
    b = cn.sum(c * xs[i] for i, c in right) + consts[1]
    c = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
    if not isinstance(c, Expr):
        return  # both sides folded to constants
    checker = Checker(xs, [c])
    assignment = {x.index: v for x, v in zip(xs, values)}
    if all(isinstance(s, (cn.Var, int, Sum)) for s in c.args):
        assert checker.linear or checker.relations, repr(c)
        assert not checker._chunks, repr(c)
    expected = verdict_of_evaluate(c, assignment)
    assert verdict_of_checker(xs, c, values) == expected, repr(c)
    # after LINEAR_AS_CODE solutions the rows are compiled code: the same verdicts
    with mock.patch.object(check, "LINEAR_AS_CODE", 1):
        linear = bool(checker.linear)
        assert verdict(checker, values) == expected, repr(c)
        assert not checker.linear and bool(checker._chunks) == linear
        assert verdict(checker, values) == expected, repr(c)


def verdict(checker: Checker, values: list[int]) -> str:
    try:
        checker(values)
    except AssertionError as e:
        return "violated" if "(false)" in str(e) else "undefined"
    return "holds"


def test_trees_are_walked_until_written_out_as_code() -> None:
    """A constraint checked neither from data nor yet as code is walked as a tree for the
    first TREES_AS_CODE - 1 solutions and compiled at that one; a violation is caught on
    either path."""
    m = cn.Model()
    x, y = m.int_var(0, 9, "x"), m.int_var(1, 9, "y")
    checker = Checker([x, y], [x * y % 7 == 3])
    good, bad = [1, 3], [2, 3]
    for _ in range(check.TREES_AS_CODE - 1):
        assert verdict(checker, good) == "holds"
        assert checker.trees and not checker._chunks
    assert verdict(checker, bad) == "violated"  # the call at which they are compiled
    assert not checker.trees and checker._chunks
    assert verdict(checker, good) == "holds"
    assert verdict(checker, bad) == "violated"
