"""Property tests: arrays indexed by variables (`cn.array(items)[x]`, `grid[r, c]`,
`grid[r][c]`, issue 31), against brute force on small random arrays of constants and
variables, in arithmetic, reified, and as objectives. An index outside the array makes the
assignment fail wherever the indexing appears (the oracle's `element` is undefined there)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import oracle
from test_properties_harness import RELATIONS, check, doms, scaled

REL = st.sampled_from(list(RELATIONS))

# an item of a random array: an integer, or the variable x_k (k >= the first free one)
Item = int | str


@st.composite
def items(draw: st.DrawFn, n: int, first_var: int, n_vars: int) -> list[Item]:
    """n items, each a small integer or one of the variables x{first_var}..x{n_vars-1}."""
    names = [f"x{k}" for k in range(first_var, n_vars)]
    one = st.integers(-3, 3) if not names else st.one_of(st.integers(-3, 3),
                                                        st.sampled_from(names))
    return [draw(one) for _ in range(n)]


def source(xs: Sequence[Item]) -> str:
    return "[" + ", ".join(str(x) for x in xs) + "]"


def values(xs: Sequence[Item], t: tuple[int, ...]) -> list[int]:
    """The items' values under the assignment t."""
    return [t[int(x[1:])] if isinstance(x, str) else x for x in xs]


def at(xs: Sequence[Item], i: int) -> Callable[[tuple[int, ...]], Any]:
    """The oracle of xs[x_i]."""
    return lambda t: oracle.element(values(xs, t), t[i])


def at_2d(grid: Sequence[Sequence[Item]], i: int, j: int,
          ) -> Callable[[tuple[int, ...]], Any]:
    """The oracle of grid[x_i, x_j]: both indices inside the grid (no wrap)."""
    def value(t: tuple[int, ...]) -> Any:
        row = oracle.element([values(r, t) for r in grid], t[i])
        return oracle.element(row, t[j])
    return value


@given(data=st.data(), rel=REL)
def test_array_indexed_by_a_variable(data: st.DataObject, rel: str) -> None:
    """cn.array(items)[x0] OP x1, items constants and variables x2, x3."""
    n = data.draw(st.integers(1, 4), label="n")
    xs = data.draw(items(n, 2, 4), label="items")
    domains = data.draw(doms(4, max_size=4, lo=-2, hi=4), label="domains")
    r = RELATIONS[rel]
    check(data, domains, f"a = cn.array({source(xs)})\nm += a[x0] {rel} x1",
          lambda t: r(at(xs, 0)(t), t[1]),
          exprs=[(f"cn.array({source(xs)})[x0]", at(xs, 0))])


@settings(max_examples=scaled(0.8))
@given(data=st.data())
def test_two_indexings_in_a_sum(data: st.DataObject) -> None:
    """a[x0] + b[x1] <= x2 + k: two arrays inside one linear expression."""
    xs = data.draw(items(data.draw(st.integers(1, 4)), 2, 3), label="a")
    ys = data.draw(items(data.draw(st.integers(1, 4)), 2, 3), label="b")
    k = data.draw(st.integers(-2, 2), label="k")
    domains = data.draw(doms(3, max_size=4, lo=-1, hi=4), label="domains")
    check(data, domains,
          f"a, b = cn.array({source(xs)}), cn.array({source(ys)})\n"
          f"m += a[x0] + b[x1] <= x2 + {k}",
          lambda t: at(xs, 0)(t) + at(ys, 1)(t) <= t[2] + k)


@given(data=st.data())
def test_reified_indexing(data: st.DataObject) -> None:
    """(a[x0] == k) | (x1 > c), and (a[x0] >= k) + (x1 == c) == 1: the indexing inside
    reified constraints; an index outside the array still fails the assignment."""
    xs = data.draw(items(data.draw(st.integers(1, 4)), 2, 3), label="items")
    k = data.draw(st.integers(-2, 3), label="k")
    c = data.draw(st.integers(-1, 3), label="c")
    domains = data.draw(doms(3, max_size=4, lo=-2, hi=4), label="domains")
    a = f"cn.array({source(xs)})"
    if data.draw(st.booleans(), label="or"):
        check(data, domains, f"m += ({a}[x0] == {k}) | (x1 > {c})",
              lambda t: at(xs, 0)(t) == k or t[1] > c)
    else:
        check(data, domains, f"m += ({a}[x0] >= {k}) + (x1 == {c}) == 1",
              lambda t: (at(xs, 0)(t) >= k) + (t[1] == c) == 1)


@given(data=st.data(), rel=REL)
def test_matrix_indexed_by_two_variables(data: st.DataObject, rel: str) -> None:
    """grid[x0, x1] OP x2 or grid[x0][x1] OP x2 (one 2-D element), cells constants and
    the variable x3; a Matrix from m.int_matrix is tested by the docs' examples."""
    rows, cols = data.draw(st.integers(1, 3), label="rows"), data.draw(st.integers(1, 3))
    grid = [data.draw(items(cols, 3, 4), label=f"row {i}") for i in range(rows)]
    domains = data.draw(doms(4, max_size=4, lo=-1, hi=3), label="domains")
    form = data.draw(st.sampled_from(["g[x0, x1]", "g[x0][x1]"]), label="form")
    r = RELATIONS[rel]
    grid_src = "[" + ", ".join(source(row) for row in grid) + "]"
    check(data, domains, f"g = cn.array({grid_src})\nm += {form} {rel} x2",
          lambda t: r(at_2d(grid, 0, 1)(t), t[2]),
          exprs=[(f"cn.array({grid_src})[x0, x1]", at_2d(grid, 0, 1))])


@settings(max_examples=scaled(0.8))
@given(data=st.data())
def test_matrix_reified_and_mixed_indices(data: st.DataObject) -> None:
    """(grid[x0, x1] == k) | (grid[x0, j] > x2), and grid[i][x1] in a sum: a row or a
    column fixed by an integer, the other index a variable, inside reified constraints;
    the same index twice (grid[x0, x0]) too."""
    rows, cols = data.draw(st.integers(1, 3), label="rows"), data.draw(st.integers(1, 3))
    grid = [data.draw(items(cols, 2, 3), label=f"row {i}") for i in range(rows)]
    i, j = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, cols - 1))
    k = data.draw(st.integers(-2, 3), label="k")
    domains = data.draw(doms(3, max_size=4, lo=-1, hi=3), label="domains")
    grid_src = "[" + ", ".join(source(row) for row in grid) + "]"
    col_j = [row[j] for row in grid]
    if data.draw(st.booleans(), label="or"):
        check(data, domains,
              f"g = cn.array({grid_src})\nm += (g[x0, x1] == {k}) | (g[x0, {j}] > x2)",
              lambda t: at_2d(grid, 0, 1)(t) == k or at(col_j, 0)(t) > t[2])
    else:
        check(data, domains,
              f"g = cn.array({grid_src})\nm += g[{i}][x1] + (g[x0, x0] != {k}) <= x2",
              lambda t: at(grid[i], 1)(t) + (at_2d(grid, 0, 0)(t) != k) <= t[2])


@settings(max_examples=scaled(0.6))
@given(data=st.data())
def test_indexing_in_an_objective(data: st.DataObject) -> None:
    """minimize / maximize cost[0][x0] + cost[1][x1] + cost[2][x2] under
    all_different: a small assignment problem, optimum against brute force."""
    n = 3
    cost = data.draw(st.lists(st.lists(st.integers(0, 9), min_size=n, max_size=n),
                              min_size=n, max_size=n), label="cost")
    domains = data.draw(doms(n, max_size=4, lo=-1, hi=3), label="domains")

    def total(t: tuple[int, ...]) -> int:
        return sum(oracle.element(cost[i], t[i]) for i in range(n))

    # the objective is not a constraint: a solution with an index outside the array is one,
    # but no candidate for the optimum (oracle.optimum skips undefined objectives)
    check(data, domains, f"cost = cn.array({cost})\nm += cn.all_different(xs)",
          oracle.all_different, exprs=[("cn.sum(cost[i][xs[i]] for i in range(3))", total)],
          objective=("cn.sum(cost[i][xs[i]] for i in range(3))", total))
