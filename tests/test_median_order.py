"""The median (and middle) value choice on a bounds-only domain: the tree of `x = m | x != m`
re-branched with the same rule, as Gecode searches MiniZinc's indomain_median and ECLiPSe
its indomain middle, though such a domain cannot hold the hole x != m makes (issue 41,
item 2: hakank's home_improvement took 13x Gecode's nodes under a three-way split)."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.search.selectors import EQ, Outward


def lower_median_walk(lo: int, hi: int, narrowings: list[tuple[int, int]]) -> list[int]:
    """The values x = m | x != m tries, m the lower median of what is left each time (by
    listing the values), the bounds narrowed to narrowings[i] before the (i+1)-th."""
    left = set(range(lo, hi + 1))
    walk = []
    step = 0
    while left:
        values = sorted(left)
        v = values[(len(values) - 1) // 2]
        walk.append(v)
        left.discard(v)
        if step < len(narrowings):
            a, b = narrowings[step]
            left = {w for w in left if a <= w <= b}
        step += 1
    return walk


@settings(max_examples=200, deadline=None)
@given(st.integers(-30, 30), st.integers(0, 40),
       st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=12))
def test_outward_tries_the_lower_median_of_the_values_left(
        lo: int, width: int, cuts: list[tuple[int, int]]) -> None:
    """Every value once, each the lower median of the untried values within the bounds, the
    bounds only ever narrowing (an objective's bound found between alternatives)."""
    from conundrum.engine import Solver

    hi = lo + width
    x = Solver().int_var(lo, hi, "x")
    first = (lo + hi) // 2
    alts = Outward(x, first)
    narrowings = []
    a, b = lo, hi
    for up, down in cuts:
        if a + up <= b - down:  # a variable's domain is never empty
            a, b = a + up, b - down
        narrowings.append((a, b))
    walk = []
    i = 0
    while i < len(alts):
        if i:
            if i - 1 < len(narrowings):
                x.set_bounds(*narrowings[i - 1])  # (the bounds only ever narrow)
            if not alts.narrow():
                break
        kind, v = alts[i]
        assert kind == EQ
        walk.append(v)
        i += 1
    assert walk == lower_median_walk(lo, hi, narrowings)
    with pytest.raises(IndexError):
        alts[len(walk) + 1]


def test_median_walks_outwards_on_a_wide_domain() -> None:
    """x in 0..10**12 (bounds only): the values around the middle in Gecode's order, not
    the middles of halves."""
    m = cn.Model()
    x = m.int_var(0, 10**12, "x")
    half = 10**12 // 2
    got = [s[x] for s in itertools.islice(m.solutions(value_select="median"), 5)]
    assert got == [half, half - 1, half + 1, half - 2, half + 2]
    got = [s[x] for s in itertools.islice(m.solutions(value_select="middle"), 3)]
    assert got == [half, half - 1, half + 1]


@pytest.mark.parametrize("value_select", ["median", "middle"])
def test_median_does_not_walk_values_a_tied_variable_lacks(value_select: str) -> None:
    """y = x + 1 with x a value list too wide for a bit set: y's bounds-only domain holds
    values that x rules out, through the offset (which makes no hole itself). Walking
    y's values outwards from its middle would try 10**13 of them; split around the
    median, both solutions come within a few nodes."""
    m = cn.Model()
    y = m.int_var(-(10**13), 10**13, "y")
    x = m.int_var([0, 10**12], "x")
    m += y == x + 1
    got = sorted((s[x], s[y]) for s in m.solutions(value_select=value_select,
                                                      var_select="input_order",
                                                      node_limit=1000))
    assert m.stats.complete
    assert got == [(0, 1), (10**12, 10**12 + 1)]


@pytest.mark.parametrize("search", ["classic", "auto"])
@pytest.mark.parametrize("value_select", ["median", "middle"])
def test_median_does_not_walk_a_products_gap(value_select: str, search: str) -> None:
    """z = x*y with z >= 10**11 and y in -2..2: x lies outside a gap of 10**11 values
    around 0 that its bounds-only domain cannot hold. The product keeps no bit set for
    its gaps, but it makes them: x is no interval, and the search splits around its
    median instead of walking the gap's values one at a time (that walk took every node
    of the limit and found nothing)."""
    m = cn.Model()
    x = m.int_var(-(10**12), 10**12, "x")
    y = m.int_var(-2, 2, "y")
    z = m.int_var(10**11, 10**12, "z")
    m += z == x * y
    s = m.solve(var_select="input_order", value_select=value_select, search=search,
                node_limit=1000)
    assert s is not None and s[z] == s[x] * s[y] and s[z] >= 10**11


@pytest.mark.parametrize("value_select", ["median", "middle"])
def test_median_finds_every_solution_once(value_select: str) -> None:
    """All solutions of bounds-only variables (linear constraints make no holes), each once,
    under the classic search, with restarts (which turn the refuted alternatives into
    nogoods) and with two workers (which split an outward branching in three)."""
    m = cn.Model()
    x = m.int_vars(3, -6, 14, "x")
    m += x[0] + 2 * x[1] - x[2] == 7
    m += x[0] - x[1] <= 3
    want = sorted((a, b, c) for a in range(-6, 15) for b in range(-6, 15)
                  for c in range(-6, 15) if a + 2 * b - c == 7 and a - b <= 3)
    for options in ({}, {"restarts": "luby"}, {"search": "learning"}, {"workers": 2}):
        got = [tuple(s[v] for v in x)
               for s in m.solutions(value_select=value_select, **options)]
        assert sorted(got) == want, options


# ------------------------------------------------- against Gecode, through FlatZinc

SATISFY = """var 0..100000: x :: output_var;
var 0..100000: y :: output_var;
var 0..100000: z :: output_var;
constraint int_lin_eq([1,1,1],[x,y,z],150000);
constraint int_lin_le([1,-1],[x,y],-3);
solve :: int_search([x,y,z], input_order, indomain_median, complete) satisfy;
"""

# the objective spans fewer than WIDE values: plain branch and bound, no bisection
MINIMISE = """var 0..100000: x :: output_var;
var 0..100000: y :: output_var;
var 70000..130000: z :: output_var;
constraint int_lin_eq([1,1,-1],[x,y,z],0);
constraint int_lin_le([-1,-1],[x,y],-77777);
constraint int_lin_le([1,-2],[x,y],-5);
solve :: int_search([x,y], max_regret, indomain_median, complete) minimize z;
"""


def printed(path: Path, *args: str, program: str = "conundrum") -> str:
    command = ["fzn-gecode"] if program == "gecode" else [
        sys.executable, "-m", "conundrum", "fzn"]
    out = subprocess.run([*command, *args, str(path)], capture_output=True, text=True,
                         check=True, timeout=120).stdout
    return out.replace(" ", "")


@pytest.mark.parametrize(("text", "args"), [
    (SATISFY, ("-a", "-n", "40")), (SATISFY.replace("median", "middle"), ("-a", "-n", "40")),
    (MINIMISE, ("-a",))])
@pytest.mark.parametrize("search", ["classic", "auto"])
def test_median_follows_gecodes_tree(tmp_path: Path, text: str, args: tuple[str, ...],
                                     search: str) -> None:
    """The solutions in Gecode's order: walking outwards from the median (satisfy), and
    the median moving with the objective's bound after each solution (minimize: a walk
    that ignored it improved by one at a time)."""
    assert shutil.which("fzn-gecode"), "Gecode is required: apt-get install flatzinc"
    path = tmp_path / "median.fzn"
    path.write_text(text)
    theirs = printed(path, *args, program="gecode")
    ours = printed(path, *args, "--search", search)
    assert ours.count("----------") >= 15
    assert ours == theirs


# all solutions: x = 1000 - y within 6 of y, over bounds-only domains (the rows make no
# hole), each searched outwards from the middle
ENUMERATE = """var 0..2000: x :: output_var;
var 0..2000: y :: output_var;
constraint int_lin_eq([1,1],[x,y],1000);
constraint int_lin_le([1,-1],[x,y],6);
constraint int_lin_le([-1,1],[x,y],6);
solve :: int_search([x,y], input_order, indomain_median, complete) satisfy;
"""


@pytest.mark.parametrize("flags", [("--search", "classic"), ("--search", "learning"),
                                   ("--search", "portfolio"), ("-t", "60000"),
                                   ("--restarts", "luby")])
def test_median_enumerates_the_same_solutions_under_every_search(tmp_path: Path,
                                                                 flags: tuple[str, ...]):
    """Every solution once, Gecode's set, whichever search follows the annotation."""
    assert shutil.which("fzn-gecode"), "Gecode is required: apt-get install flatzinc"
    path = tmp_path / "median.fzn"
    path.write_text(ENUMERATE)
    theirs = sorted(c.strip() for c in printed(path, "-a", program="gecode")
                    .split("----------")[:-1])
    ours = [c.strip() for c in printed(path, "-a", *flags).split("----------")[:-1]]
    assert len(theirs) == 7
    assert len(ours) == len(set(ours)) and sorted(ours) == theirs


@pytest.mark.parametrize("flags", [("--search", "learning"), ("--search", "portfolio"),
                                   ("--lns", "-t", "60000"), ("-t", "60000")])
def test_median_minimises_to_gecodes_optimum_under_every_search(tmp_path: Path,
                                                                flags: tuple[str, ...]):
    """The optimum, proved, under the searches that do not follow the median's tree
    alone (learning, the portfolio, large neighbourhood search under a time limit)."""
    assert shutil.which("fzn-gecode"), "Gecode is required: apt-get install flatzinc"
    path = tmp_path / "median.fzn"
    path.write_text(MINIMISE)
    def optimum(text: str) -> str:  # the last solution's z (several reach it)
        last = text.split("----------")[-2]
        return next(line for line in last.split() if line.startswith("z="))

    out = printed(path, "-a", *flags)
    assert optimum(out) == optimum(printed(path, "-a", program="gecode")) == "z=77777;"
    assert out.rstrip().endswith("==========")
