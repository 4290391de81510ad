"""Random small models in the shape MiniZinc flattens a model into (issue 40, item 1), with
their meaning, for tests/test_properties_flattened.py and tests/test_properties_history.py.

MiniZinc's `cell_block` made the learning search and LNS report an assignment that violates
`int_lin_eq(...) :: domain`; the random models of the other property tests never had its
shape. These do:

* decision variables in pairs, a row and a column (cell_block's prisoners: rows 1..2 or
  3..4, columns 1..width, sometimes a value list with a hole), most of the time all in the
  same two rows: squeezed into few cells, as cell_block's prisoners of one sex are, the
  all-different, the costs and the objective's bound fix a prisoner's row, column and
  cell index in one propagation by different routes, which is what met LinearEqDomain's
  stale cache (see tests/test_properties_flattened.py);
* *introduced* variables, each defined by an equation with a negative coefficient as
  MiniZinc writes them: `cn.linear_eq([1, 4, -1], [c, r, t], 5, strength=...)` for the
  0-based cell index t = c + 4*r - 5 (strength "domain", MiniZinc's `:: domain`, or
  "bounds" or the default), `4*r + c` for the all-different, differences for `abs`, and
  the sum that is the objective;
* `cn.array(consts)[t]` and `cn.array(vars)[u]` over introduced indices (an index outside
  the array is no solution), `abs(...)`, `cn.all_different` over linear views (`4*r + c`)
  or over the introduced variables, small linear `<=` rows.

Each posted constraint carries its meaning as a predicate over the values of every variable
(decision and introduced), and each introduced variable how it follows from the decision
variables: a solution is known by its decision values, so brute force enumerates those.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

import oracle
from test_properties_harness import Dom

Env = dict[str, int]
Meaning = Callable[[Env], bool]


@dataclass
class Shape:
    """A model as source statements over the decision variables x0..x{n-1}, and its
    meaning (see the module)."""

    domains: list[Dom]
    lines: list[str] = field(default_factory=list)
    # each introduced variable: its name, declared range, and value from the ones before
    defs: list[tuple[str, int, int, Callable[[Env], int]]] = field(default_factory=list)
    # each posted constraint: its source and its meaning over every variable's value
    constraints: list[tuple[str, Meaning]] = field(default_factory=list)
    objective: str = ""
    count: int = 0  # introduced variables so far
    # (row, column) positions of the prisoners when an all-different over their cells is
    # posted: brute force skips at once the assignments that put two in one cell
    distinct_cells: list[tuple[int, int]] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """The decision variables."""
        return [f"x{i}" for i in range(len(self.domains))]

    @property
    def all_names(self) -> list[str]:
        """Every variable, in the order the model declares them (Model.variables)."""
        return self.names + [name for name, _, _, _ in self.defs]

    def introduce(self, prefix: str, lo: int, hi: int, fn: Callable[[Env], int]) -> str:
        """Declare a new variable lo..hi whose value is fn of the ones before (its
        defining constraint is posted by the caller)."""
        self.count += 1
        name = f"{prefix}{self.count}"
        self.lines.append(f'{name} = m.int_var({lo}, {hi}, "{name}")')
        self.defs.append((name, lo, hi, fn))
        return name

    def post(self, src: str, meaning: Meaning) -> None:
        """A constraint: `m += src`."""
        self.lines.append(f"m += {src}")
        self.constraints.append((src, meaning))

    def source(self) -> str:
        """A script that builds the model (printed with a failure)."""
        head = ["import conundrum as cn", "m = cn.Model()"]
        head += [f'{v} = m.int_var({d.decl()}, "{v}")'
                 for v, d in zip(self.names, self.domains, strict=True)]
        return "\n".join(head + self.lines)

    def extend(self, tup: tuple[int, ...]) -> Env | None:
        """The value of every variable that follows from the decision values `tup` (None
        when an introduced variable is undefined: an index outside its array)."""
        env: Env = dict(zip(self.names, tup, strict=True))
        try:
            for name, _, _, fn in self.defs:
                env[name] = fn(env)
        except oracle.Undefined:
            return None
        return env

    def violated(self, env: Env) -> list[str]:
        """What the full assignment `env` violates: introduced variables outside their
        declared range, then constraints (by source)."""
        out = [f"{name} in {lo}..{hi}" for name, lo, hi, _ in self.defs
               if not lo <= env[name] <= hi]
        for src, meaning in self.constraints:
            try:
                ok = meaning(env)
            except oracle.Undefined:
                ok = False
            if not ok:
                out.append(src)
        return out

    def truth(self) -> dict[tuple[int, ...], Env]:
        """The solutions, by brute force: decision values -> every variable's value."""
        found = {}
        for tup in oracle.assignments([d.values for d in self.domains]):
            cells = self.distinct_cells
            if cells and len({(tup[r], tup[c]) for r, c in cells}) < len(cells):
                continue  # the all-different fails (its meaning is checked below anyway)
            env = self.extend(tup)
            if env is not None and not self.violated(env):
                found[tup] = env
        return found


@st.composite
def shapes(draw: st.DrawFn, pairs: tuple[int, int] = (5, 5),
           columns: tuple[int, int] = (3, 3)) -> Shape:
    """A random cell_block-like model (see the module): `pairs` prisoners on a grid of 4
    rows and `columns` columns, all of one sex (rows 1..2 or 3..4) most of the time, so
    that they are squeezed into a few cells as cell_block's are."""
    npairs = draw(st.integers(*pairs))
    width = draw(st.integers(*columns))
    band = draw(st.sampled_from([1, 3]))  # "female" rows 1..2, "male" rows 3..4
    mixed = draw(st.integers(0, 5)) == 0
    domains: list[Dom] = []
    for _ in range(npairs):
        start = draw(st.sampled_from([1, 3])) if mixed else band
        domains.append(Dom((start, start + 1), True))
        if width >= 3 and draw(st.integers(0, 5)) == 0:  # a value list with a hole
            cols = tuple(sorted(draw(st.sets(st.integers(1, width), min_size=2,
                                             max_size=width - 1))))
            domains.append(Dom(cols, False))
        else:
            domains.append(Dom(tuple(range(1, width + 1)), True))
    s = Shape(domains)
    dom = {v: d.values for v, d in zip(s.names, domains, strict=True)}
    rows = [f"x{2 * p}" for p in range(npairs)]
    cols = [f"x{2 * p + 1}" for p in range(npairs)]
    strengths = st.sampled_from(["domain", "domain", "bounds", "default"])

    def define(prefix: str, terms: list[tuple[int, str]], off: int,
               lo: int | None = None, hi: int | None = None) -> str:
        """A new variable, sum(a*v for a, v in terms) + off, declared lo..hi (by default
        the range of the sum), posted as MiniZinc does: linear_eq([a..., -1],
        [v..., name], -off), all signs flipped sometimes, terms in a drawn order."""
        span = [sorted(a * x for x in dom[v]) for a, v in terms]
        lo = off + sum(seq[0] for seq in span) if lo is None else lo
        hi = off + sum(seq[-1] for seq in span) if hi is None else hi
        name = s.introduce(prefix, lo, hi, lambda e: sum(a * e[v] for a, v in terms) + off)
        dom[name] = tuple(range(lo, hi + 1))
        coefs = [a for a, _ in terms] + [-1]
        names = [v for _, v in terms] + [name]
        rhs = -off
        if draw(st.booleans()):
            coefs, rhs = [-a for a in coefs], -rhs
        order = draw(st.permutations(range(len(coefs))))
        cs = [coefs[k] for k in order]
        vs = [names[k] for k in order]
        how = draw(strengths)
        strength = "" if how == "default" else f', strength="{how}"'
        s.post(f"cn.linear_eq({cs}, [{', '.join(vs)}], {rhs}{strength})",
               lambda e: sum(a * e[v] for a, v in zip(cs, vs, strict=True)) == rhs)
        return name

    # the cost of each pair's cell: cost[t], t = c + width*r - (width + 1) the 0-based cell
    # index, declared over the whole grid as MiniZinc declares it
    grid = draw(st.lists(st.integers(1, 8), min_size=4 * width, max_size=4 * width))
    costs = []
    cells = []
    for p in range(npairs):
        t = define("t", [(1, cols[p]), (width, rows[p])], -(width + 1), 0, 4 * width - 1)
        cells.append(t)
        y = s.introduce("y", min(grid), max(grid), lambda e, t=t: oracle.element(grid, e[t]))
        dom[y] = tuple(sorted(set(grid)))
        s.post(f"{y} == cn.array({grid})[{t}]",
               lambda e, t=t, y=y: e[y] == oracle.element(grid, e[t]))
        costs.append(y)

    # the cells all different: over the views width*r + c, over introduced variables
    # equal to them (as MiniZinc does), or over the cell indices
    kind = draw(st.sampled_from(["views"] * 5 + ["introduced"] * 3 + ["cells", "none"]))
    if kind != "none":
        s.distinct_cells = [(2 * p, 2 * p + 1) for p in range(npairs)]
    if kind == "views":
        views = [f"{width}*{r} + {c}" for r, c in zip(rows, cols, strict=True)]
        s.post(f"cn.all_different([{', '.join(views)}])", lambda e: oracle.all_different(
            [width * e[r] + e[c] for r, c in zip(rows, cols, strict=True)]))
    elif kind != "none":
        over = cells if kind == "cells" else [
            define("v", [(width, r), (1, c)], 0) for r, c in zip(rows, cols, strict=True)]
        s.post(f"cn.all_different([{', '.join(over)}])",
               lambda e: oracle.all_different([e[v] for v in over]))

    # a "dangerous" pair keeps its distance from every other:
    # abs(r_p - r_q) + abs(c_p - c_q) >= k, through introduced differences
    danger = draw(st.sets(st.integers(0, npairs - 1), max_size=1)) \
        if draw(st.integers(0, 2)) == 0 else set()
    for p, q in itertools.product(sorted(danger), range(npairs)):
        if p == q:
            continue
        gaps = []
        for a, b in ((rows[q], rows[p]), (cols[q], cols[p])):
            d = define("d", [(1, a), (-1, b)], 0)
            top = max(abs(v) for v in dom[d])
            g = s.introduce("g", 0, top, lambda e, d=d: abs(e[d]))
            dom[g] = tuple(range(top + 1))
            s.post(f"{g} == abs({d})", lambda e, d=d, g=g: e[g] == abs(e[d]))
            gaps.append(g)
        k = draw(st.sampled_from([1, 1, 2]))
        s.post(f"-{gaps[0]} - {gaps[1]} <= {-k}",
               lambda e, gaps=gaps, k=k: -e[gaps[0]] - e[gaps[1]] <= -k)

    # an element of a variable array over an introduced index
    if draw(st.integers(0, 4)) == 0:
        p = draw(st.integers(0, npairs - 1))
        u = define("u", [(1, cols[p])], -min(dom[cols[p]]))
        items = draw(st.lists(st.sampled_from(s.names + costs), min_size=max(dom[u]) + 1,
                              max_size=max(dom[u]) + 1))
        lo = min(min(dom[v]) for v in items)
        hi = max(max(dom[v]) for v in items)
        z = s.introduce("z", lo, hi, lambda e, u=u, items=items:
                        oracle.element([e[v] for v in items], e[u]))
        dom[z] = tuple(range(lo, hi + 1))
        s.post(f"{z} == cn.array([{', '.join(items)}])[{u}]", lambda e, u=u, items=items, z=z:
               e[z] == oracle.element([e[v] for v in items], e[u]))
        other = draw(st.sampled_from(s.names))
        k = draw(st.integers(-1, 2))
        s.post(f"{z} - {other} <= {k}", lambda e, z=z, other=other, k=k: e[z] - e[other] <= k)
        costs.append(z)

    # a small linear row over the decision variables
    if draw(st.integers(0, 4)) == 0:
        terms = [(draw(st.sampled_from([-2, -1, 1, 2])), v)
                 for v in draw(st.lists(st.sampled_from(s.names), min_size=2, max_size=3,
                                        unique=True))]
        k = draw(st.integers(-2, 6))
        s.post(" + ".join(f"{a}*{v}" for a, v in terms) + f" <= {k}",
               lambda e, terms=terms, k=k: sum(a * e[v] for a, v in terms) <= k)

    # the objective: an introduced sum of the costs
    s.objective = define("total", [(1, y) for y in costs], 0)
    return s


@dataclass
class Built:
    """A Shape's model, built: the Model and its variables by name."""

    m: Any
    env: dict[str, Any]

    def decision(self, sol: Any, shape: Shape) -> tuple[int, ...]:
        """A solution's decision values."""
        return tuple(sol[self.env[v]] for v in shape.names)

    def full(self, sol: Any, shape: Shape) -> Env:
        """A solution's value of every variable."""
        return {v: sol[self.env[v]] for v in shape.all_names}


def build(shape: Shape) -> Built:
    """Run the shape's source."""
    env: dict[str, Any] = {}
    exec(shape.source(), env)
    return Built(env["m"], env)
