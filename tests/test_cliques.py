"""Disequalities compiled by cliques (compiler/cliques.py): which ones form a clique, that
the solutions stay the same (brute force over random graphs), and what it buys."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

import conundrum as cn
from conundrum.compiler import cliques
from conundrum.compiler.normalise import kept_apart
from conundrum.lang.expr import Rel, Sum
from conundrum.lang.globals import AllDifferent
from test_properties_harness import check, doms


def with_cliques(constraints: list) -> list:
    """The constraints as the compiler posts them (compile.py)."""
    return cliques.with_cliques(constraints, [kept_apart(c) for c in constraints])


def alldiffs(constraints: list) -> list[list[str]]:
    return [sorted(v.name for v in c.args) for c in constraints if isinstance(c, AllDifferent)]


def test_pairwise_disequalities_become_one_all_different() -> None:
    m = cn.Model()
    a, b, c, d, e = m.int_vars("a b c d e", 0, 5)
    cs = [a != b, a != c, b != c, a - d != 0, b - d != 0, c - d != 0, d != e, a + e <= 3]
    out = with_cliques(cs)
    assert alldiffs(out) == [["a", "b", "c", "d"]]
    assert len(out) == 3  # d != e and a + e <= 3 stay as they are


def test_what_is_no_edge() -> None:
    m = cn.Model()
    a, b, c, d = m.int_vars("a b c d", 0, 5)
    cycle = [a != b, b != c, c != d, d != a]  # no triangle
    assert with_cliques(cycle) == cycle
    others = [a != b, b - c != 1, cn.implies(d == 0, a != c), (b != c) | (d == 1),
              2 * a - b != 0, a != b + 0 * d]
    assert with_cliques(others) == others
    nothing = Sum((a, b), (0, 0), 0)  # 0*a + 0*b != 0 is false, whatever a and b are
    assert kept_apart(Rel("!=", nothing, 0)) == []


def test_overlapping_cliques_cover_every_disequality() -> None:
    """Two triangles sharing an edge: both become all_differents and no disequality
    is left."""
    m = cn.Model()
    a, b, c, d = m.int_vars("a b c d", 0, 5)
    out = with_cliques([a != b, a != c, b != c, b != d, c != d])
    assert sorted(alldiffs(out)) == [["a", "b", "c"], ["b", "c", "d"]]
    assert len(out) == 2


@given(data=st.data(),
       edges=st.sets(st.sampled_from(list(itertools.combinations(range(5), 2))), min_size=3))
def test_random_disequality_graphs_keep_their_solutions(data: st.DataObject,
                                                        edges: set[tuple[int, int]]) -> None:
    domains = data.draw(doms(5, max_size=4), label="domains")
    ordered = sorted(edges)
    src = "\n".join(f"m += x{u} != x{v}" if (u + v) % 2 else f"m += x{u} - x{v} != 0"
                    for u, v in ordered)
    check(data, domains, src + "\nm += x0 + x1 <= x2 + x3 + x4",
          lambda t: all(t[u] != t[v] for u, v in ordered) and t[0] + t[1] <= t[2] + t[3] + t[4])


def test_all_interval_by_pairwise_disequalities() -> None:
    """Hakan Kjellerstrand's all_interval1.mzn writes both all_differents pair by pair
    (the FlatZinc's int_lin_ne): as cliques the series of 12 needs one node under its
    first_fail, indomain_min annotation (Gecode: 297,917; before: 174,783)."""
    n = 12
    m = cn.Model()
    x = m.int_vars(n, 0, n - 1, "x")
    d = [abs(x[i + 1] - x[i]) for i in range(n - 1)]
    m += [x[i] != x[j] for i in range(n) for j in range(i + 1, n)]
    m += [d[i] != d[j] for i in range(n - 1) for j in range(i + 1, n - 1)]
    sol = m.solve(var_select="first_fail", value_select="min")
    assert sol is not None and m.stats.nodes <= 5, m.stats
    values = [sol[v] for v in x]
    assert sorted(abs(values[i + 1] - values[i]) for i in range(n - 1)) == list(range(1, n))
