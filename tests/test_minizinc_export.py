"""`Model.to_minizinc()`: the exported model, run through the real MiniZinc and Gecode, has
exactly the model's solutions and the same optimum.

- random models built from the property-test harness's expression generators (integer
  arithmetic with floor `//` and `%`, rational `/`, `cn.integral`, connectives): the
  solutions Gecode prints are the brute-force solutions (tests/oracle.py), as many as
  conundrum counts;
- every global constraint of conundrum.lang, on one small instance each, both posted and
  reified (its truth value equal to a 0/1 variable, which checks where it is false too):
  Gecode's solutions are conundrum's;
- the export includes the library file of each global it writes, and not globals.mzn;
- example models (SEND + MORE = MONEY, a knapsack, a job shop with no_overlap and with
  cumulative, Golomb rulers): the same optimum (or solution) through the export and Gecode
  as through conundrum;
- what MiniZinc cannot say exactly is refused with a ModelError.

MiniZinc is required, never skipped (`.ci/run` installs it). Gecode runs as a user would
run it, `minizinc --solver gecode`, with its own library of globals (Debian's Gecode 6.2.0
ships an older one than its MiniZinc 2.6.4, where `include "globals.mzn"` does not
compile: the export includes only its globals' files). Each run of MiniZinc costs 0.1 to
0.3 s: the examples are few and small.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import conundrum as cn
import oracle
from conundrum.check import holds
from test_properties_harness import (
    RELATIONS,
    build,
    doms,
    int_expr,
    names_for,
    rational_expr,
    relation,
    repro,
    scaled,
)

TIMEOUT = 120


def minizinc(text: str, *flags: str) -> list[dict[str, int]]:
    """The solutions Gecode prints for a model exported by to_minizinc (every one, with
    --non-unique, so that MiniZinc's filter of repeated outputs hides none), each as
    {name: value}; an optimisation's last one is its optimum. Plain `--solver gecode`: no
    `-G`, Gecode's own library of globals."""
    assert shutil.which("minizinc"), "MiniZinc is required: apt-get install minizinc flatzinc"
    with tempfile.NamedTemporaryFile("w", suffix=".mzn", delete=False) as f:
        f.write(text)
    try:
        cmd = ["minizinc", "--solver", "gecode", "--non-unique", *flags, f.name]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    finally:
        os.unlink(f.name)
    assert r.returncode == 0, f"{' '.join(cmd)}\n{r.stderr[-3000:]}\n{text}"
    out = []
    for block in r.stdout.split("----------\n")[:-1]:
        pairs = (line.rsplit(" = ", 1) for line in block.strip().splitlines())
        out.append({name: int(value) for name, value in pairs})
    return out


def gecode_solutions(m: cn.Model) -> list[tuple[int, ...]]:
    """Every solution of the export of m, as tuples in m's order of variables."""
    names = [v.name for v in m.variables]
    return [tuple(s[n] for n in names) for s in minizinc(m.to_minizinc(), "-a")]


def conundrum_solutions(m: cn.Model) -> list[tuple[int, ...]]:
    """Every solution of m, as tuples in m's order of variables."""
    return [tuple(s[v] for v in m.variables) for s in m.solutions()]


# ------------------------------------------------------------------- random expressions

REL = st.sampled_from(list(RELATIONS))


@st.composite
def constraint(draw: st.DrawFn, n: int) -> tuple[str, Callable[[tuple[int, ...]], object]]:
    """A random constraint over x0..x{n-1} (source, meaning): a relation between integer
    or rational expressions, read as written or under cn.integral, or two of them
    combined by a connective."""
    kind = draw(st.sampled_from(["int", "rational", "integral", "connective", "global"]))
    if kind == "global":
        return draw(global_constraint(n))
    if kind == "connective":
        a = draw(constraint(n).filter(lambda c: not c[0].startswith("(~")))
        b = draw(constraint(n).filter(lambda c: not c[0].startswith("(~")))
        op = draw(st.sampled_from(["&", "|", "^", "implies", "~"]))
        if op == "~":
            return f"(~{a[0]})", lambda t: not a[1](t)
        if op == "implies":
            return (f"cn.implies({a[0]}, {b[0]})",
                    lambda t: oracle.implies(bool(a[1](t)), bool(b[1](t))))
        meaning = {"&": lambda p, q: p and q, "|": lambda p, q: p or q,
                   "^": lambda p, q: p != q}[op]
        # both sides evaluated (an undefined one voids the assignment, as in conundrum)
        return f"({a[0]} {op} {b[0]})", lambda t: meaning(bool(a[1](t)), bool(b[1](t)))
    gen = int_expr if kind == "int" else rational_expr
    r = relation(draw(REL), draw(gen(n, 2)), draw(gen(n, 2)))
    if kind == "integral":
        return f"cn.integral{r.src}", r.ifn
    return r.src, r.fn


def _circuit(t: tuple[int, ...]) -> bool:
    """A single cycle through every node (0-based successors)."""
    if sorted(t) != list(range(len(t))):
        return False
    k, length = t[0], 1
    while k != 0:
        k, length = t[k], length + 1
    return length == len(t)


@st.composite
def global_constraint(draw: st.DrawFn, n: int) -> tuple[str, Callable[[tuple[int, ...]],
                                                                       object]]:
    """A global constraint over the variables (source, meaning)."""
    xs = "[" + ", ".join(f"x{i}" for i in range(n)) + "]"
    c = draw(st.integers(-2, 2))
    k = draw(st.integers(0, n - 1))
    strict = draw(st.booleans())
    tuples = draw(st.lists(st.tuples(*[st.integers(-3, 3)] * n), max_size=4))
    options: list[tuple[str, Callable[[tuple[int, ...]], object]]] = [
        (f"cn.all_different({xs})", oracle.all_different),
        (f"cn.all_different_except_0({xs})", oracle.all_different_except_0),
        (f"cn.increasing({xs}, strict={strict})", lambda t: oracle.increasing(t, strict)),
        (f"cn.decreasing({xs}, strict={strict})", lambda t: oracle.decreasing(t, strict)),
        (f"(cn.element({xs}, x0) == x{k})", lambda t: oracle.element(t, t[0]) == t[k]),
        (f"(cn.count({xs}, {c}) == x{k})", lambda t: oracle.count(t, c) == t[k]),
        (f"(cn.max({xs}) - cn.min({xs}) <= x{k} + {c})",
         lambda t: max(t) - min(t) <= t[k] + c),
        (f"cn.table({xs}, {tuples})", lambda t: oracle.table(t, tuples)),
        (f"cn.lex_less({xs}, {xs}[::-1])", lambda t: oracle.lex_less(t, t[::-1])),
        (f"cn.circuit({xs})", _circuit),
    ]
    return draw(st.sampled_from(options))


@settings(max_examples=scaled(0.7))
@given(data=st.data())
def test_random_expressions_have_the_same_solutions(data: st.DataObject) -> None:
    """A random model's export has, under Gecode, exactly the brute-force solutions, as
    many as conundrum counts."""
    n = data.draw(st.integers(1, 3), label="variables")
    domains = data.draw(doms(n, max_size=4, lo=-3, hi=3), label="domains")
    names = names_for(n)
    src, meaning = data.draw(constraint(n), label="constraint")
    src = f"m += {src}"
    note(repro(domains, names, src))
    truth = oracle.solutions([d.values for d in domains], meaning)
    b = build(domains, names, src)
    note(b.m.to_minizinc())
    got = gecode_solutions(b.m)
    assert sorted(got) == truth
    assert b.m.count() == len(truth)


# ---------------------------------------------------------------------- every global

def _xs(m: cn.Model, n: int, lo: int, hi: int, name: str) -> list[cn.Var]:
    return m.int_vars(n, lo, hi, name)


# each builds, on a fresh model and its variables' name prefix, one instance of a global
GLOBALS: dict[str, Callable[[cn.Model, str], Any]] = {
    "all_different": lambda m, p: cn.all_different(_xs(m, 3, 0, 2, p)),
    "all_different_except_0": lambda m, p: cn.all_different_except_0(_xs(m, 3, 0, 2, p)),
    "all_equal": lambda m, p: cn.all_equal(_xs(m, 3, -1, 1, p)),
    "global_cardinality": lambda m, p: cn.global_cardinality(
        _xs(m, 2, 0, 2, p), [0, 2], [m.int_var(0, 2, p + "c"), 1]),
    "among": lambda m, p: cn.among(m.int_var(0, 2, p + "n"), _xs(m, 2, 0, 2, p), [1, 2]),
    "nvalue": lambda m, p: cn.nvalue(m.int_var(1, 2, p + "n"), _xs(m, 3, 0, 1, p)),
    "count": lambda m, p: cn.count(_xs(m, 2, 0, 2, p), m.int_var(0, 2, p + "v")) == 1,
    "at_most": lambda m, p: cn.at_most(1, _xs(m, 3, 0, 1, p), 1),
    "increasing": lambda m, p: cn.increasing(_xs(m, 3, 0, 2, p)),
    "strictly decreasing": lambda m, p: cn.decreasing(_xs(m, 3, 0, 3, p), strict=True),
    "lex_less": lambda m, p: cn.lex_less(_xs(m, 2, 0, 2, p), _xs(m, 2, 0, 1, p + "y")),
    "lex_lesseq": lambda m, p: cn.lex_lesseq(_xs(m, 2, 0, 1, p), _xs(m, 2, 0, 1, p + "y")),
    "value_precede": lambda m, p: cn.value_precede(1, 2, _xs(m, 3, 0, 2, p)),
    "table": lambda m, p: cn.table(_xs(m, 2, -1, 2, p), [(0, 1), (-1, 2), (2, 2)]),
    "regular": lambda m, p: cn.regular(_xs(m, 4, 0, 2, p), *cn.pattern_automaton([2, 1])),
    "circuit": lambda m, p: cn.circuit(_xs(m, 3, -1, 2, p)),
    "circuit of one node": lambda m, p: cn.circuit(_xs(m, 1, -1, 1, p)),
    "subcircuit": lambda m, p: cn.subcircuit(_xs(m, 3, -1, 2, p)),
    "inverse": lambda m, p: cn.inverse(_xs(m, 2, -1, 2, p), _xs(m, 2, 0, 1, p + "g")),
    "bin_packing": lambda m, p: cn.bin_packing(_xs(m, 2, 0, 3, p + "load"),
                                               _xs(m, 2, -1, 1, p), [1, 2]),
    "no_overlap": lambda m, p: cn.no_overlap(_xs(m, 2, 0, 2, p),
                                             [2, m.int_var(-1, 2, p + "d")]),
    "no_overlap strict": lambda m, p: cn.no_overlap(_xs(m, 3, 0, 2, p), [0, 1, 2],
                                                    strict=True),
    "cumulative": lambda m, p: cn.cumulative(
        _xs(m, 2, 0, 1, p), [2, m.int_var(-1, 1, p + "d")], [1, m.int_var(-1, 1, p + "r")],
        m.int_var([-1, 1], p + "c")),
    "no_overlap_2d": lambda m, p: cn.no_overlap_2d(_xs(m, 2, 0, 2, p), [0, 0],
                                                   [2, m.int_var(-1, 1, p + "w")], [1, 1]),
    "element": lambda m, p: cn.element([3, m.int_var(0, 1, p + "a"), -1],
                                       m.int_var(-1, 3, p)) >= 0,
    "min and max": lambda m, p: cn.max(_xs(m, 2, -1, 1, p)) - cn.min(_xs(m, 2, 0, 1, p + "y"))
                                == 1,
    "arg_max": lambda m, p: cn.arg_max(_xs(m, 3, 0, 2, p)) == 1,
    "arg_min": lambda m, p: cn.arg_min(_xs(m, 3, 0, 2, p)) == 0,
    "linear_eq": lambda m, p: cn.linear_eq([2, -1, 1], _xs(m, 3, 0, 2, p), 1),
    "rational arguments": lambda m, p: cn.all_different(
        [v / 2 for v in _xs(m, 2, 0, 2, p)] + [m.int_var(0, 1, p + "y")]),
    "0/1 variable as a constraint": lambda m, p: m.bool_var(p + "b") | (m.int_var(0, 2, p) == 1),
}


@pytest.mark.parametrize("kind", list(GLOBALS))
def test_every_global_posted_and_reified(kind: str) -> None:
    """One instance posted, another reified (`b == global`), in one model: Gecode finds
    conundrum's solutions, exactly."""
    m = cn.Model()
    m += GLOBALS[kind](m, "x")
    b = m.bool_var("b")
    m += b == GLOBALS[kind](m, "z")
    text = m.to_minizinc()
    want = conundrum_solutions(m)
    assert want, "an instance with solutions"
    assert sorted(gecode_solutions(m)) == sorted(want), text


def test_every_node_class_has_a_rule() -> None:
    """Every expression node class of conundrum.lang has its rule, and every global its
    MiniZinc global (a new global would be exported by its decomposition until it gets
    one; a new node of another kind would be refused with a ModelError)."""
    from conundrum.io.minizinc.export import RULES
    from conundrum.io.minizinc.globals import GLOBALS as TABLE
    from conundrum.lang.expr import Expr, Global
    from conundrum.lang.tree import rule_for

    classes, stack = set(), [Expr]
    while stack:
        for sub in stack.pop().__subclasses__():
            classes.add(sub)
            stack.append(sub)
    ours = {c for c in classes if c.__module__.startswith("conundrum.lang")}
    assert all(c in RULES or c in TABLE for c in ours - {Global}), sorted(
        c.__name__ for c in ours if c not in RULES and c not in TABLE)
    assert all(rule_for(TABLE, object.__new__(c)) for c in ours if issubclass(c, Global)
               and c is not Global)


# ------------------------------------------------------------------ the files included

def several_globals() -> cn.Model:
    """A model with every global of GLOBALS posted, each on variables of its own, and the
    orders GLOBALS does not name (decreasing, strictly increasing): every MiniZinc global
    the export writes."""
    m = cn.Model()
    for k, make in enumerate(GLOBALS.values()):
        m += make(m, f"g{k}_")
    m += cn.decreasing(_xs(m, 3, 0, 2, "dec"))
    m += cn.increasing(_xs(m, 3, 0, 3, "inc"), strict=True)
    return m


# the standard library's file of each global several_globals() writes (count's function
# is in count_fn.mzn; arg_min.mzn needs arg_max.mzn in MiniZinc 2.6.4)
SEVERAL_FILES = [
    "all_different.mzn", "all_equal.mzn", "alldifferent_except_0.mzn", "among.mzn",
    "arg_max.mzn", "arg_min.mzn", "bin_packing_load.mzn", "circuit.mzn", "count_fn.mzn",
    "cumulative.mzn", "decreasing.mzn", "diffn.mzn", "disjunctive.mzn",
    "disjunctive_strict.mzn", "global_cardinality.mzn", "increasing.mzn", "inverse.mzn",
    "lex_less.mzn", "lex_lesseq.mzn", "nvalue.mzn", "regular.mzn", "strictly_decreasing.mzn",
    "strictly_increasing.mzn", "subcircuit.mzn", "table.mzn", "value_precede.mzn",
]


def included(text: str) -> list[str]:
    return re.findall(r'^include "(.*)";$', text, flags=re.MULTILINE)


def test_the_export_includes_the_files_of_its_globals() -> None:
    """One include per library file of the globals written, sorted, each a file of
    MiniZinc's standard library; never globals.mzn (which, with Debian's Gecode, does not
    compile); none for a model without globals."""
    text = several_globals().to_minizinc()
    assert included(text) == SEVERAL_FILES, text
    assert "globals.mzn" not in text
    r = subprocess.run(["minizinc", "--config-dirs"], capture_output=True, text=True,
                       timeout=TIMEOUT, check=True)
    std = os.path.join(json.loads(r.stdout)["mznStdlibDir"], "std")
    assert [f for f in SEVERAL_FILES if not os.path.isfile(os.path.join(std, f))] == []
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 3)
    m += (x // (y + 1) == 1) | (cn.max([x, y]) - cn.min([x, 2]) == cn.element([1, 2], y))
    assert included(m.to_minizinc()) == []


def test_every_global_at_once_through_plain_gecode() -> None:
    """The model of every global, through `minizinc --solver gecode` with Gecode's own
    library: it compiles, and the solution Gecode finds satisfies every constraint
    (the independent checker)."""
    m = several_globals()
    (found,) = minizinc(m.to_minizinc())
    assert sorted(found) == sorted(v.name for v in m.variables)
    values = {v.index: found[v.name] for v in m.variables}
    assert [c for c in m.constraints if not holds(c, values)] == []


# ---------------------------------------------------------------------- example models

def send_more_money() -> tuple[cn.Model, None, str]:
    m = cn.Model()
    S, E, N, D, M, O, R, Y = letters = m.int_vars("S E N D M O R Y", 0, 9)
    m += cn.all_different(letters)
    m += (S != 0) & (M != 0)
    m += (1000 * S + 100 * E + 10 * N + D + 1000 * M + 100 * O + 10 * R + E
          == 10000 * M + 1000 * O + 100 * N + 10 * E + Y)
    return m, None, "min"


def knapsack() -> tuple[cn.Model, Any, str]:
    weights, values = [12, 7, 11, 8, 9, 6], [24, 13, 23, 15, 16, 11]
    m = cn.Model()
    take = m.int_vars(len(weights), 0, 1, "take")
    m += cn.sum(w * t for w, t in zip(weights, take)) <= 26
    return m, cn.sum(v * t for v, t in zip(values, take)), "max"


JOBS = [[(0, 3), (1, 2), (2, 2)], [(0, 2), (2, 1), (1, 4)], [(1, 4), (2, 3), (0, 1)]]


def job_shop(resource: str) -> tuple[cn.Model, Any, str]:
    """Three jobs of three tasks (machine, duration) in order; each machine runs one task
    at a time (no_overlap, or cumulative of capacity 1); the makespan is minimised."""
    m = cn.Model()
    horizon = sum(d for job in JOBS for _, d in job)
    starts = [[m.int_var(0, horizon - d, f"s{j}_{k}") for k, (_, d) in enumerate(job)]
              for j, job in enumerate(JOBS)]
    end = m.int_var(0, horizon, "makespan")
    for j, job in enumerate(JOBS):
        for k in range(len(job) - 1):
            m += starts[j][k] + job[k][1] <= starts[j][k + 1]
        m += starts[j][-1] + job[-1][1] <= end
    for machine in range(3):
        tasks = [(starts[j][k], d) for j, job in enumerate(JOBS)
                 for k, (mach, d) in enumerate(job) if mach == machine]
        s, d = [t for t, _ in tasks], [d for _, d in tasks]
        m += cn.no_overlap(s, d) if resource == "no_overlap" else cn.cumulative(
            s, d, [1] * len(s), 1)
    return m, end, "min"


def golomb(marks: int) -> tuple[cn.Model, Any, str]:
    """A Golomb ruler: marks at distinct distances, the length minimised (17 for 6)."""
    m = cn.Model()
    x = m.int_vars(marks, 0, marks * marks, "mark")
    m += x[0] == 0
    m += cn.increasing(x, strict=True)
    m += cn.all_different([x[j] - x[i] for i in range(marks) for j in range(i + 1, marks)])
    m += x[1] - x[0] < x[-1] - x[-2]  # the mirror image once
    return m, x[-1], "min"


# the job shop with optional machines of docs/intervals.md: job -> operations, each
# {machine: duration} over the machines that can run it
FLEXIBLE_JOBS = [
    [{0: 3, 1: 5}, {2: 2}, {1: 2}],
    [{1: 2, 2: 4}, {0: 4, 1: 3}],
    [{2: 3}, {0: 2, 2: 2}, {0: 1, 1: 1}],
]


def flexible_job_shop() -> tuple[cn.Model, Any, str]:
    """Interval variables: each operation is the alternative of optional intervals, one
    per machine that can run it; the machines take no_overlap of their optional ones."""
    m = cn.Model()
    on: dict[int, list[cn.Interval]] = {0: [], 1: [], 2: []}
    last = []
    for j, job in enumerate(FLEXIBLE_JOBS):
        before = None
        for k, choices in enumerate(job):
            op = m.interval(start=(0, 20), size=(min(choices.values()),
                                                max(choices.values())), name=f"op{j}{k}")
            ways = [m.interval(start=(0, 20), size=d, optional=True, name=f"op{j}{k}@{i}")
                    for i, d in choices.items()]
            for i, way in zip(choices, ways, strict=True):
                on[i].append(way)
            m += cn.alternative(op, ways)
            if before is not None:
                m += cn.end_before_start(before, op)
            before = op
        last.append(before)
    for ways in on.values():
        m += cn.no_overlap(ways)
    return m, cn.max([op.end for op in last if op is not None]), "min"


def optional_tasks() -> tuple[cn.Model, Any, str]:
    """Optional intervals on a cumulative resource before a deadline, the most valuable
    set of them chosen (an absent task uses nothing), with a precedence between two."""
    m = cn.Model()
    spec = [(3, 2, 5), (2, 1, 3), (4, 2, 6), (2, 2, 4), (1, 1, 1)]  # size, demand, value
    ivs = [m.interval(start=(0, 6), size=d, optional=True, name=f"t{k}")
           for k, (d, _, _) in enumerate(spec)]
    m += [iv.end <= 6 for iv in ivs]
    m += cn.cumulative(ivs, [r for _, r, _ in spec], 3)
    m += cn.end_before_start(ivs[0], ivs[2], 1)
    return m, cn.sum(v * iv.present for (_, _, v), iv in zip(spec, ivs, strict=True)), "max"


def assignment() -> tuple[cn.Model, Any, str]:
    """docs/arrays.md's assignment problem: cost[w][task[w]], an element over a row
    indexed by a variable (optimum 13)."""
    cost = cn.array([[9, 2, 7, 8], [6, 4, 3, 7], [5, 8, 1, 8], [7, 6, 9, 4]])
    m = cn.Model()
    task = m.int_vars(4, 0, 3, "task")
    m += cn.all_different(task)
    return m, cn.sum(cost[w][task[w]] for w in range(4)), "min"


def span_tasks() -> tuple[cn.Model, Any, str]:
    """A span over optional tasks, one reified span beside it: every solution the same
    (the absent intervals' parts free, so many)."""
    m = cn.Model()
    day = m.interval(start=(0, 4), size=(0, 4), optional=True, name="day")
    a = m.interval(start=(1, 2), size=2, optional=True, name="a")
    b = m.interval(start=(3, 4), size=(0, 1), optional=True, name="b")
    m += cn.span(day, [a, b])
    whole = m.interval(start=(0, 2), size=(2, 3), name="whole")
    flag = m.bool_var("flag")
    m += flag == cn.span(whole, [a, b])
    return m, None, ""


EXAMPLES = {
    "send_more_money": send_more_money,
    "assignment, cost[w][task[w]]": assignment,
    "optional tasks, cumulative": optional_tasks,
    "flexible job shop, intervals": flexible_job_shop,
    "span of optional tasks": span_tasks,
    "knapsack": knapsack,
    "job shop, no_overlap": lambda: job_shop("no_overlap"),
    "job shop, cumulative": lambda: job_shop("cumulative"),
    "golomb 6": lambda: golomb(6),
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_examples_have_the_same_optimum(name: str) -> None:
    """The optimum through the export and Gecode is conundrum's (a satisfaction model:
    the same solutions)."""
    m, objective, sense = EXAMPLES[name]()
    if objective is None:
        assert sorted(gecode_solutions(m)) == sorted(conundrum_solutions(m))
        return
    best = (m.minimize if sense == "min" else m.maximize)(objective)
    assert best is not None and m.stats.complete
    found = minizinc(m.to_minizinc(objective, sense))
    assert found[-1]["objective"] == best.value(objective)


# ------------------------------------------------------------ semantics at the edges

EDGES = {
    # an undefined operation anywhere in a constraint voids the assignment, even under a
    # disjunction or a negation that MiniZinc's relational semantics would let pass
    "floor division under or": lambda x, y: (y == 0) | (x // y == -1),
    "modulo under not": lambda x, y: ~(x % y == 1),
    "element index under implies": lambda x, y: cn.implies(y < 0, cn.element([1, 2], y) == 1),
    "rational quotient under or": lambda x, y: (x / y < Fraction(1, 2)) | (y == 0),
    "exact division compared": lambda x, y: cn.exact_div(x, y) != 1,
    "floor of a rational": lambda x, y: (x / 3) // y == x % y - Fraction(1, 3) * y,
    # rationals under every numeric node
    "rational min and abs": lambda x, y: cn.min(x / 2, y) + abs(y / 3) >= Fraction(1, 2),
    "rational power, divisor of unknown sign": lambda x, y: (x / (y + 1)) ** 2 < Fraction(1, 2),
    "rational modulo": lambda x, y: (x / 2) % y == Fraction(1, 2),
    "rational element": lambda x, y: cn.element([x / 2, y, 1], y) == Fraction(1, 2),
    "rational index": lambda x, y: cn.element([1, 2, 3], x / 2) == y,
    "rational count": lambda x, y: cn.count([x / 2, y / 2, 1], Fraction(1, 2)) == 1,
    "rational arg_max": lambda x, y: cn.arg_max([x / 3, y / 2, Fraction(1, 3)]) == 1,
    "exact division of a rational": lambda x, y: cn.exact_div(x / 2, y) == -1,
    "integral": lambda x, y: cn.integral(x / y + y / x == 2),
    "global over rationals": lambda x, y: cn.all_different([x / 2, y / 3, Fraction(1, 2)]),
    # truth values as numbers and numbers as truth values
    "truth values added": lambda x, y: (x > y) + (y > 0) * 2 == 2,
    "truth values compared": lambda x, y: ((x < y) == (y < 0)) & ((x == 1) < (y == 1)),
    "connectives": lambda x, y: cn.implies(x > 0, y >= 0) ^ (x == y),
    # a truth value as a number under a negation or in a product: MiniZinc 2.6.4
    # half-reifies the argument of bool2int the wrong way there with Gecode's library
    "truth value multiplied, under not": lambda x, y: ~(x * (y < 0) > 1),
    "difference of truth values multiplied": lambda x, y: x * ((x > 0) - (y < 0)) < 1,
}


# conundrum's compiler refuses a rational element (item or index); the export writes its
# exact meaning (the checker's)
NOT_COMPILED = {"rational element", "rational index"}


@pytest.mark.parametrize("kind", list(EDGES))
def test_semantics_at_the_edges(kind: str) -> None:
    """Division by zero, modulo by zero, an element index out of range: the assignment is
    not a solution, wherever the operation sits; rationals under every numeric node; truth
    values as numbers. Gecode's solutions are conundrum's and the independent checker's
    (brute force over x, y in -3..3)."""
    m = cn.Model()
    x, y = m.int_vars("x y", -3, 3)
    m += EDGES[kind](x, y)
    want = [(a, b) for a in range(-3, 4) for b in range(-3, 4)
            if all(holds(c, {x.index: a, y.index: b}) for c in m.constraints)]
    assert sorted(gecode_solutions(m)) == want
    if kind in NOT_COMPILED:
        with pytest.raises(cn.ModelError, match="fraction"):
            m.count()
    else:
        assert sorted(conundrum_solutions(m)) == want


# ------------------------------------------------------------------ names and refusals

def test_names_become_identifiers_and_are_printed_as_given() -> None:
    """Names that are not MiniZinc identifiers (indices, reserved words, digits first,
    clashes after the change, no name) get identifiers; the output prints each variable by
    its own name."""
    m = cn.Model()
    odd = [m.int_var(0, 1, name) for name in
           ("x[0][1]", "var", "2nd", "a b", "a_b", 'say "hi"\\', "int")]
    anonymous = m.int_var(0, 1)
    m += cn.sum(odd) + anonymous == 8  # all 1: one solution
    text = m.to_minizinc()
    assert "var 0..1: x_0_1;" in text and "var 0..1: var_;" in text
    assert "var 0..1: v_2nd;" in text and "var 0..1: a_b_1;" in text
    found = minizinc(text, "-a")
    assert [sorted(s) for s in found] == [sorted(v.name for v in odd)]
    assert all(s[v.name] == 1 for s in found for v in odd)


def test_what_minizinc_cannot_say_is_refused() -> None:
    """A rational objective, an integer past 64 bits, a bad sense: a ModelError."""
    m = cn.Model()
    x, y = m.int_vars("x y", 1, 3)
    with pytest.raises(cn.ModelError, match="integer-valued"):
        m.to_minizinc(x / y)
    with pytest.raises(cn.ModelError, match="sense"):
        m.to_minizinc(x, "largest")  # type: ignore[arg-type]
    with pytest.raises(cn.ModelError, match="another model"):
        m.to_minizinc(cn.Model().int_var(0, 1, "z"))
    m += x + 2**70 * y >= 0
    with pytest.raises(cn.ModelError, match="64-bit"):
        m.to_minizinc()
    big = cn.Model()
    big.int_var(0, 2**64, "z")
    with pytest.raises(cn.ModelError, match="64-bit"):
        big.to_minizinc()


def test_the_objective_is_solved_and_printed() -> None:
    """solve maximize, the objective's value printed as `objective = N`."""
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 4)
    m += x + y <= 5
    text = m.to_minizinc(x * y - (x == 3), "max")
    assert "solve maximize (x * y) - (if x == 3 then 1 else 0 endif);" in text, text
    assert minizinc(text)[-1]["objective"] == m.maximize(x * y - (x == 3)).value(
        x * y - (x == 3)) == 6


# --------------------------------------------------------------------------- print(m)

def test_print_shows_a_small_model_whole() -> None:
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 9)
    z = m.int_var([1, 3, 5], "z")
    m += cn.all_different([x, y, z])
    m.add(x + y == z, label="sum")
    assert str(m) == "\n".join([
        "Model: 3 variables, 2 constraints",
        "variables:",
        "  2 in 0..9: x, y",
        "  1 in {1, 3, 5}: z",
        "constraints: 1 all_different, 1 linear ==",
        "  all_different(x, y, z)",
        "  sum: (x + y) == z",
    ])
    assert repr(m) == "Model(3 variables, 2 constraints)"


def test_print_summarises_a_large_model() -> None:
    m = cn.Model()
    g = m.int_matrix(20, 20, 1, 20, "cell")
    for row in g.rows:
        m += cn.all_different(row)
    m += cn.sum(g.flat) >= 0
    lines = str(m).splitlines()
    assert lines[:4] == [
        "Model: 400 variables, 21 constraints",
        "variables:",
        "  400 in 1..20: cell[0][0], cell[0][1], cell[0][2], cell[0][3], cell[0][4], ..., "
        "cell[19][19]",
        "constraints: 20 all_different, 1 linear >=",
    ]
    assert len(lines) == 4 + 10 + 1 and lines[-1] == "  ... and 11 more"
    assert all(len(line) <= 100 for line in lines)


def test_a_2d_element_with_variable_indices():
    """grid[r, c] (one 2-D element) exported as a flat array at r * cols + c: the same
    solutions as conundrum's, an index outside the grid failing the assignment, in a
    reified context too."""
    m = cn.Model()
    r = m.int_var(-1, 3, "r")
    c = m.int_var(0, 3, "c")
    v = m.int_var(0, 9, "v")
    grid = cn.array([[1, 2, 3], [4, 5, 6]])
    m += (grid[r, c] == v) | (v == 0)
    m += grid[r][c] + v >= 6
    assert sorted(gecode_solutions(m)) == sorted(conundrum_solutions(m))


def test_at_most_one_and_exactly_one():
    """The Boolean builders of lang/globals/logic.py, posted and as values."""
    m = cn.Model()
    b = m.bool_vars(4, "b")
    x = m.int_var(0, 3, "x")
    m += cn.at_most_one(b[0], b[1], x > 1)
    m += cn.exactly_one(b[1], b[2], b[3]) == (x != 2)
    assert sorted(gecode_solutions(m)) == sorted(conundrum_solutions(m))


def test_an_element_of_booleans_is_a_boolean():
    """b[i] over 0/1 variables (1-D and 2-D) in connectives and as a constraint: exported as
    a comparison of the element, the same solutions as conundrum's."""
    m = cn.Model()
    b = m.bool_vars(4, "b")
    i = m.int_var(-1, 3, "i")
    r = m.int_var(0, 1, "r")
    m += cn.any(b[i], b[0]) | (i == -1)
    m += ~b[(i + 1) % 4] | b[2]
    m += cn.array([[b[0], 1], [0, b[3]]])[r, r]
    assert sorted(gecode_solutions(m)) == sorted(conundrum_solutions(m))
