"""Arrays and matrices indexed by variables (issue 31): what indexing builds, that arrays
stay lists, the errors, and an assignment problem against brute force. The solution sets
are checked against brute force in tests/test_properties_arrays.py."""

from __future__ import annotations

import itertools
import pickle
import random
from fractions import Fraction

import pytest

import conundrum as cn
from conundrum.check import evaluate
from conundrum.lang.array import Element2D
from conundrum.lang.errors import Undefined
from conundrum.lang.expr import Element


def test_integer_indices_and_slices_keep_the_list_behaviour():
    m = cn.Model()
    x = m.int_vars(4, 0, 3, "x")
    assert isinstance(x, list) and isinstance(x, cn.Array)
    assert x[1] is x[-3] and x == list(x) and repr(x) == "[x[0], x[1], x[2], x[3]]"
    assert isinstance(x[1:3], cn.Array) and x[1:3] == [x[1], x[2]]
    a = cn.array([4, 5, 6])
    assert a[0] == 4 and a[-1] == 6 and a[::2] == [4, 6] and a + [7] == [4, 5, 6, 7]
    with pytest.raises(IndexError):
        a[3]
    a, b = m.int_vars("a b", 0, 1)  # unpacking, as before
    assert pickle.loads(pickle.dumps(cn.array([1, 2]))) == [1, 2]


def test_a_variable_index_builds_one_element():
    m = cn.Model()
    x = m.int_vars(3, 0, 3, "x")
    i = m.int_var(0, 2, "i")
    e = x[i]
    assert isinstance(e, Element) and e.args == (i, *x)
    assert repr(cn.array([4, 5])[i + 1]) == "element([4, 5], (i + 1))"


def test_matrix_indices_build_one_2d_element_not_two_nested():
    m = cn.Model()
    g = m.int_matrix(2, 3, 0, 5, "g")
    r, c = m.int_vars("r c", 0, 5)
    for e in (g[r, c], g[r][c], cn.array(g.rows)[r, c]):
        assert isinstance(e, Element2D) and e.shape == (2, 3)
        assert e.args[:2] == (r, c) and e.args[2:] == tuple(g.flat)
    assert g[1][2] is g[1, 2]  # integer indices: the cell itself
    column = g[r, 2]
    assert isinstance(column, Element) and column.args == (r, g[0, 2], g[1, 2])
    row = g[1][c]
    assert isinstance(row, Element) and row.args == (c, *g[1])
    assert g[r][0].args == (r, g[0, 0], g[1, 0])  # the row r, one element per column
    assert len(g[r]) == 3


def test_element_2d_means_the_cell_and_fails_outside():
    m = cn.Model()
    r, c = m.int_vars("r c", -1, 4)
    e = cn.array([[1, 2, 3], [4, 5, 6]])[r, c]
    assert isinstance(e, Element2D)
    for rv, cv in itertools.product(range(-1, 5), repeat=2):
        values = {r.index: rv, c.index: cv}
        if 0 <= rv < 2 and 0 <= cv < 3:
            assert evaluate(e, values) == 1 + 3 * rv + cv
            assert evaluate(e.decompose(), values) == 1 + 3 * rv + cv
        else:
            for form in (e, e.decompose()):
                with pytest.raises(Undefined):
                    evaluate(form, values)


def test_2d_element_of_constants_is_domain_consistent():
    """One 2-D element over distinct constants: propagation alone leaves only supported
    rows and columns, so the search never fails."""
    cells = random.Random(31).sample(range(40), 20)
    grid = cn.array([cells[k:k + 5] for k in range(0, 20, 5)])
    m = cn.Model()
    r, c = m.int_vars("r c", 0, 6)
    v = m.int_var(0, 39, "v")
    m += grid[r, c] == v
    m += v % 3 == 0
    want = sum(1 for x in cells if x % 3 == 0)
    assert m.count(var_select="input_order") == want and m.stats.fails == 0


def test_index_expressions_and_variable_cells():
    m = cn.Model()
    g = m.int_matrix(3, 3, 1, 9, "g")
    r, c = m.int_vars("r c", 0, 2)
    m += cn.all_different(g)
    m += g[r - 1, 2 * c] == 9
    m += (r == 2) & (c == 1)
    s = m.solve()
    assert s is not None and s[g[1, 2]] == 9


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_assignment_problem_optimum_matches_brute_force(seed):
    rng = random.Random(seed)
    n = 5
    cost = cn.array([[rng.randint(1, 20) for _ in range(n)] for _ in range(n)])
    m = cn.Model()
    task = m.int_vars(n, 0, n - 1, "task")
    m += cn.all_different(task)
    total = cn.sum(cost[w][task[w]] for w in range(n))
    best = m.minimize(total)
    want = min(sum(cost[w][p[w]] for w in range(n)) for p in itertools.permutations(range(n)))
    assert best is not None and best.value(total) == want
    assert m.stats.status == "optimal_solution"
    assert sum(cost[w][best[task[w]]] for w in range(n)) == want


@pytest.mark.parametrize("build,fragment", [
    (lambda r: cn.element([[1, 2], [3, 4]], r), "cn.array(rows)[r, c]"),
    (lambda r: cn.element(cn.array([[1, 2], [3, 4]]), r), "cn.array(rows)[r, c]"),
    (lambda r: cn.element(([1], [2]), r), "nested"),
    (lambda r: cn.array([[1, 2], [3]]), "rectangular"),
    (lambda r: cn.array([[1, 2], 3]), "not a mix"),
    (lambda r: cn.array([[[1]]]), "at most 2-D"),
    (lambda r: cn.array([1.5]), "float"),
    (lambda r: cn.array([Fraction(1, 2)]), "not an integer"),
    (lambda r: cn.array(["a"]), "cannot be used"),
    (lambda r: cn.array(3), "list of items"),
    (lambda r: cn.array(r), "list of items"),
    (lambda r: cn.array([])[r], "empty"),
    (lambda r: cn.array([[]])[r, r], "empty"),
    (lambda r: cn.array([[1, 2]])[r, 0:1], "one cell at a time"),
])
def test_bad_arrays_raise_model_error(build, fragment):
    m = cn.Model()
    r = m.int_var(0, 1, "r")
    with pytest.raises(cn.ModelError, match=fragment.replace("[", r"\[").replace("(", r"\(")
                       .replace(")", r"\)").replace("]", r"\]")):
        build(r)


def test_old_element_forms_still_work():
    m = cn.Model()
    i = m.int_var(0, 9, "i")
    m += cn.element((v for v in [7, 3, 9, 3, 5]), i) <= 5  # a generator, read once
    assert [s[i] for s in m.solutions()] == [1, 3, 4]
