"""Bad models: Python traps and user mistakes raise cn.ModelError when the model is built;
constant-false models simply have no solution; nothing raises from inside the engine."""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

import conundrum as cn


def model3() -> tuple[Any, Any, Any, Any]:
    """A model with three variables x, y, z in 0..3."""
    m = cn.Model()
    x, y, z = m.int_vars("x y z", 0, 3)
    return m, x, y, z


def test_model_error_is_a_value_error() -> None:
    """cn.ModelError subclasses ValueError (API-NOTES)."""
    assert issubclass(cn.ModelError, ValueError)


@pytest.mark.parametrize("declare", [
    lambda m: m.int_var(5, 3, "x"),
    lambda m: m.int_var([], "x"),
    lambda m: m.int_vars("a b", 2, 1),
    lambda m: m.int_vars(3, [], None),
], ids=["int_var(5, 3)", "int_var([])", "int_vars(lo > hi)", "int_vars(empty values)"])
def test_empty_domain_is_a_model_error(declare: Callable[[Any], Any]) -> None:
    """An empty initial domain is refused when declared."""
    with pytest.raises(cn.ModelError):
        declare(cn.Model())


TRAPS: dict[str, Callable[[Any, Any, Any], Any]] = {
    "x == 1 and y == 2": lambda x, y, z: x == 1 and y == 2,
    "x == 1 or y == 2": lambda x, y, z: x == 1 or y == 2,
    "not (x == y)": lambda x, y, z: not (x == y),
    "1 < x < 3": lambda x, y, z: 1 < x < 3,
    "x < y < z": lambda x, y, z: x < y < z,
    "bool(x == y)": lambda x, y, z: bool(x == y),
    "bool(x != y)": lambda x, y, z: bool(x != y),
    "if x == y: ...": lambda x, y, z: 1 if x == y else 0,
    "x in [1, 2]": lambda x, y, z: x in [1, 2],
}


@pytest.mark.parametrize("trap", list(TRAPS))
def test_python_trap_is_a_model_error_that_says_what_to_write(trap: str) -> None:
    """and/or/not, chained comparisons, if/bool() of a constraint: ModelError with the fix."""
    _, x, y, z = model3()
    with pytest.raises(cn.ModelError) as err:
        TRAPS[trap](x, y, z)
    msg = str(err.value)
    assert any(s in msg for s in ("&", "|", "~")), f"message does not say what to write: {msg}"


def test_negative_exponent_is_refused_or_exact() -> None:
    """x ** -1 is outside SPEC (k >= 0): a ModelError, or (if offered) the exact 1/x."""
    m, x, y, _ = model3()
    try:
        m += x ** -1 == y
    except cn.ModelError:
        return
    got = sorted((s[x], s[y]) for s in m.solutions())
    assert got == [(1, 1)], got  # 1/x == y over 0..3: only x = 1 (x = 0 is undefined)


def test_variable_exponent_is_refused_or_correct() -> None:
    """x ** y with y a variable: a ModelError, or (if offered) Python's meaning."""
    m = cn.Model()
    x = m.int_var(-2, 2, "x")
    y = m.int_var(0, 3, "y")
    z = m.int_var(-10, 10, "z")
    try:
        m += x ** y == z
    except cn.ModelError:
        return
    got = sorted((s[x], s[y], s[z]) for s in m.solutions())
    assert got == sorted((a, b, a**b) for a in range(-2, 3) for b in range(4))


@pytest.mark.parametrize("post", [
    "x - x == 1",
    "x > 5",
    "x + y > 6 + z",
    "cn.all_different([x, x])",
    "(x < y) & (y < x)",
    "cn.table([x, y], [])",
    "x * 0 == 1",
    "x / y == 7",
    "x % 1 == 1",
    "cn.exact_div(x, 4) == 1",
    "cn.integral(y / 2 == z / 3 + 7)",
    "cn.element([7, 8], x) == 1",
    "cn.sum([]) == 1",
    "cn.sum([x, y]) - x - y == 1",
])
def test_constant_false_model_has_no_solution(post: str) -> None:
    """An unsatisfiable (even constant-false) constraint: solve() is None, no exception."""
    m, x, y, z = model3()
    m += eval(post, {"cn": cn, "x": x, "y": y, "z": z})
    assert m.solve() is None
    assert m.count() == 0
    assert list(m.solutions()) == []
    assert m.minimize(x + y) is None and m.maximize(z) is None


@pytest.mark.parametrize("post", ["x // 0 == 1", "x % 0 == 1", "x / 0 == 1",
                                  "cn.exact_div(x, 0) == 1"])
def test_constant_zero_divisor_means_no_solution(post: str) -> None:
    """A constant zero divisor: every assignment fails (a ModelError at build time is also
    acceptable); never an exception at search time."""
    m, x, y, z = model3()
    try:
        m += eval(post, {"cn": cn, "x": x})
    except cn.ModelError:
        return
    assert m.solve() is None
    assert m.count() == 0


@pytest.mark.parametrize("post", ["x - x == 0", "cn.sum([]) == 0", "(x < 9) | (y > 9)",
                                  "cn.all_different([x])", "cn.count([], 1) == 0"])
def test_constant_true_model_keeps_every_assignment(post: str) -> None:
    """An always-true constraint: all 4 * 4 * 4 assignments are solutions."""
    m, x, y, z = model3()
    m += eval(post, {"cn": cn, "x": x, "y": y, "z": z})
    assert m.count() == 64


@pytest.mark.parametrize("search", ["classic", "learning"])
def test_huge_domain_is_not_enumerated(search: str) -> None:
    """int_var(0, 10**18): linear reasoning on bounds, no enumeration of values (by the
    learning search too, whose explanations read the same domains)."""
    m = cn.Model()
    x = m.int_var(0, 10**18, "x")
    y = m.int_var(-(10**18), 10**18, "y")
    m += 2 * x == 10**18
    m += x + y == 3
    start = time.perf_counter()
    sol = m.solve(search=search)
    assert sol is not None and sol[x] == 5 * 10**17 and sol[y] == 3 - 5 * 10**17
    assert m.count(search=search) == 1
    assert time.perf_counter() - start < 5.0


@pytest.mark.parametrize("mistake", [
    "m.int_var(0.5, 3)",
    "m += cn.all_different([x, y], strength='strongest')",
    "m += cn.table([x, y], [[1, 2, 3]])",
    "m += cn.global_cardinality([x, y], [1, 2], [1])",
    "m += m2.int_var(0, 1) + x == 1",
    "cn.element([1, Fraction(5, 4)], x)",
])
def test_other_model_mistakes_are_model_errors(mistake: str) -> None:
    """Float bounds, unknown strength, bad tuple arity, mismatched lengths, a variable of
    another model, a fraction in an element array: ModelError when the model is built (or
    posted), not when it is solved."""
    m, x, y, _ = model3()
    env = {"cn": cn, "m": m, "m2": cn.Model(), "x": x, "y": y, "Fraction": Fraction}
    with pytest.raises(cn.ModelError):
        exec(mistake, env)


@pytest.mark.parametrize("option", [{"var_select": "nonsense"}, {"value_select": "biggest"},
                                    {"method": "lds:many"}, {"method": "dfs"},
                                    {"time_limit": "1"}, {"time_limit": -1},
                                    {"node_limit": "5"}, {"node_limit": 2.5}, {"seed": "x"},
                                    {"on_progress": 5}, {"var_select": 3}])
@pytest.mark.parametrize("call", ["count", "solve", "solutions"])
def test_bad_search_option_is_a_model_error(option: dict[str, Any], call: str) -> None:
    """An unknown or ill-typed search option is a ModelError naming it, raised by the call
    itself before any search, with the compiled engine as with the pure one (whose typed
    options would otherwise raise a bare TypeError)."""
    m, x, y, _ = model3()
    m += x < y
    name, value = next(iter(option.items()))
    with pytest.raises(cn.ModelError, match=name) as err:
        getattr(m, call)(**option)
    assert repr(value) in str(err.value)
