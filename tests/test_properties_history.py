"""Property test of the engine: propagation is a function of the domains, whatever came
before it (issue 40, item 1).

A propagator may keep state between its calls that the trail does not restore (a cache of
the domains it last saw, a support, a counter); a search that fails, backjumps or restarts
and comes back to the same domains must get the same answer from it. LinearEqDomain got it
wrong (its cache said "nothing left to do" for domains it had failed on), and cell_block
under the learning search and LNS reported an assignment that violates an equation.

Here a model is compiled once (`compile_model`, as every search does) and random decision
paths are applied to it, each in a trail level of its own that is popped after: a path is
one to three steps, each step some decisions (x = v, x != v, x <= v, x > v) followed by
one fixpoint, so that several changes reach a propagator in one call, as when a learned
nogood or a neighbourhood fixes several variables. Its outcome is the failure, or every
engine variable's domain. Then

* the same path applied twice in a row gives the same outcome, and so do all the paths
  applied again in reverse order, after every other one (failed or not) has run;
* a path that fixes every variable of the model fails exactly when brute force says the
  assignment is no solution (with the engine's auxiliary variables labelled when the
  fixpoint leaves some open).

Full assignments are drawn mostly *one constraint away* from a solution (every other
constraint holds), so that the propagators of that one constraint are the ones to see the
violation: a propagator that forgets a failure is caught when the path comes again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import given, note, settings
from hypothesis import strategies as st

import oracle
from flattened_models import Shape, build, shapes
from test_properties_harness import doms, scaled
from test_properties_models import constraint

Step = list[tuple[int, int, int]]  # (variable position, decision kind, value)
Path = list[Step]
Outcome = tuple[tuple[int, int, int], ...] | None  # every engine variable's (lo, hi, bits)


class Engine:
    """A compiled model and the application of paths to it."""

    def __init__(self, variables: list[Any], constraints: list[Any]) -> None:
        from conundrum.compiler.compiled import compile_model

        self.compiled = compile_model(variables, constraints)

    def outcome(self, path: Path, full: bool) -> tuple[Outcome, bool]:
        """Apply the path in a trail level of its own; (the domains or None on a failure,
        and for a full assignment whether the auxiliary variables can be completed)."""
        from conundrum.engine import Inconsistency
        from conundrum.search.selectors import apply_decision

        assert self.compiled is not None
        solver = self.compiled.solver
        decision = self.compiled.decision
        trail = solver.trail
        base = trail.depth
        trail.push_level()
        try:
            for step in path:
                for k, kind, v in step:
                    apply_decision(decision[k], kind, v)
                solver.fix_point()
            domains = tuple((x.lo, x.hi, x.bits) for x in solver.vars)
            return domains, (full and self.completes())
        except Inconsistency:
            solver.clear_queue()
            return None, False
        finally:
            while trail.depth > base:
                trail.pop_level()

    def inside(self, tup: tuple[int, ...]) -> bool:
        """Whether every value of `tup` is still in its variable's domain at the root."""
        assert self.compiled is not None
        return all(x.contains(v) for x, v in zip(self.compiled.decision, tup, strict=True))

    def completes(self) -> bool:
        """Whether the auxiliary variables left open can be labelled without a failure."""
        from conundrum.engine import Inconsistency

        assert self.compiled is not None
        solver = self.compiled.solver
        open_vars = [x for x in solver.vars if x.lo != x.hi]
        if not open_vars:
            return True
        x = open_vars[0]
        for v in list(x.values()):
            solver.trail.push_level()
            try:
                x.assign(v)
                solver.fix_point()
                if self.completes():
                    return True
            except Inconsistency:
                solver.clear_queue()
            finally:
                solver.trail.pop_level()
        return False


@st.composite
def steps_of(draw: st.DrawFn, decisions: list[tuple[int, int, int]]) -> Path:
    """The decisions in a drawn order, cut into one to three steps."""
    order = draw(st.permutations(decisions))
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(order) - 1)), max_size=2)))
    bounds = [0, *[c for c in cuts if c < len(order)], len(order)]
    return [list(order[a:b]) for a, b in zip(bounds, bounds[1:]) if a < b]


@st.composite
def partial_path(draw: st.DrawFn, domains: Sequence[Sequence[int]]) -> Path:
    """One to four random decisions on the decision variables."""
    decisions = []
    for _ in range(draw(st.integers(1, 4))):
        k = draw(st.integers(0, len(domains) - 1))
        kind = draw(st.integers(0, 3))  # EQ, NE, LE, GT (search/selectors.py)
        decisions.append((k, kind, draw(st.sampled_from(list(domains[k])))))
    return draw(steps_of(decisions))


def check_history(data: st.DataObject, engine: Engine, domains: Sequence[Sequence[int]],
                  candidates: list[tuple[int, ...]],
                  verdict: Callable[[tuple[int, ...]], bool]) -> None:
    """Draw paths (full assignments among `candidates`, and partial ones), apply each twice
    in a row and all again in reverse order; full ones must fail exactly when `verdict`
    (brute force) says the assignment is no solution."""
    paths: list[tuple[Path, tuple[int, ...] | None]] = []
    for _ in range(data.draw(st.integers(4, 10), label="paths")):
        if candidates and data.draw(st.integers(0, 2), label="full?"):
            tup = data.draw(st.sampled_from(candidates), label="assignment")
            path = data.draw(steps_of([(k, 0, v) for k, v in enumerate(tup)]), label="path")
            paths.append((path, tup))
        else:
            paths.append((data.draw(partial_path(domains), label="path"), None))
    first = []
    for path, tup in paths:
        got, completes = engine.outcome(path, tup is not None)
        if tup is not None:
            want = verdict(tup)
            assert completes == want, (
                f"{tup}: propagation says {'a solution' if completes else 'no solution'}, "
                f"brute force {'a solution' if want else 'no solution'} (path {path})")
        again = engine.outcome(path, tup is not None)
        assert again == (got, completes), f"{path}: a different outcome at once again"
        first.append((got, completes))
    for (path, tup), was in reversed(list(zip(paths, first, strict=True))):
        assert engine.outcome(path, tup is not None) == was, (
            f"{path}: a different outcome after the other paths")


def rooted(engine: Engine, candidates: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """The candidates whose every value is still in its domain after the propagation at
    the root, if there are any (the others fail at their first decision)."""
    inside = [t for t in candidates if engine.inside(t)]
    return inside or candidates


@settings(max_examples=scaled(1))
@given(shape=shapes(pairs=(2, 4), columns=(3, 4)), data=st.data())
def test_history_independence_on_flattened_models(shape: Shape, data: st.DataObject) -> None:
    """The cell_block-like models of flattened_models.py: full assignments over every
    variable (decision and introduced), from the brute-force solutions with one variable
    changed, or as they follow from random decision values."""
    note("model:\n" + shape.source())
    b = build(shape)
    engine = Engine(b.m.variables, b.m.constraints)
    names = shape.all_names
    assert [v.name for v in b.m.variables] == names
    truth = shape.truth()
    if engine.compiled is None:
        assert not truth, "the root fails, but there are solutions"
        return
    domains = [list(d.values) for d in shape.domains] + [
        list(range(lo, hi + 1)) for _, lo, hi, _ in shape.defs]
    # decision values and what follows from them, then each variable changed once
    starts = [env for env in truth.values()]
    for _ in range(data.draw(st.integers(0, 3), label="random starts")):
        tup = tuple(data.draw(st.sampled_from(d.values), label="value") for d in shape.domains)
        env = shape.extend(tup)
        if env is not None:
            starts.append(env)
    candidates = set()
    for env in starts[:6]:
        full = tuple(env[v] for v in names)
        candidates.add(full)
        for k, v in enumerate(names):
            for w in domains[k]:
                if w != env[v]:
                    changed = full[:k] + (w,) + full[k + 1:]
                    if len(shape.violated(dict(zip(names, changed, strict=True)))) == 1:
                        candidates.add(changed)

    def verdict(tup: tuple[int, ...]) -> bool:
        return not shape.violated(dict(zip(names, tup, strict=True)))

    check_history(data, engine, domains, rooted(engine, sorted(candidates)), verdict)


@settings(max_examples=scaled(1.5))
@given(data=st.data())
def test_history_independence_on_random_models(data: st.DataObject) -> None:
    """The property harness' random constraints (every family) over three or four
    variables, and most of the time a domain-consistent linear equation over them all."""
    n = data.draw(st.integers(3, 4), label="n")
    cs = [(c.src, c.fn) for c in data.draw(st.lists(constraint(n), min_size=1, max_size=2),
                                           label="constraints")]
    domains = data.draw(doms(n, max_size=4 if n == 3 else 3, lo=-3, hi=3), label="domains")
    if data.draw(st.integers(0, 3), label="linear_eq"):
        coefs = data.draw(st.lists(st.sampled_from([-4, -2, -1, 1, 2, 3]), min_size=n,
                                   max_size=n), label="coefs")
        at = [data.draw(st.sampled_from(d.values), label="a root of the equation")
              for d in domains]
        rhs = sum(a * x for a, x in zip(coefs, at, strict=True))
        names = [f"x{i}" for i in range(n)]
        cs.append((f'cn.linear_eq({coefs}, [{", ".join(names)}], {rhs}, strength="domain")',
                   lambda t: sum(a * x for a, x in zip(coefs, t, strict=True)) == rhs))
    import conundrum as cn

    m = cn.Model()
    env: dict[str, Any] = {"cn": cn, "m": m}
    for i, d in enumerate(domains):
        env[f"x{i}"] = (m.int_var(d.values[0], d.values[-1], f"x{i}") if d.as_range
                        else m.int_var(list(d.values), f"x{i}"))
    for src, _ in cs:
        m.add(eval(src, env))
    note("constraints: " + "; ".join(src for src, _ in cs))
    note("domains: " + "; ".join(d.decl() for d in domains))
    engine = Engine(m.variables, m.constraints)

    def violations(t: tuple[int, ...]) -> int:
        return sum(not oracle.holds(fn, t) for _, fn in cs)

    tuples = list(oracle.assignments([d.values for d in domains]))
    if engine.compiled is None:
        assert all(violations(t) for t in tuples), "the root fails, but there are solutions"
        return
    candidates = rooted(engine, [t for t in tuples if violations(t) <= 1])
    if len(candidates) < 8:  # and others that propagation at the root left possible
        candidates += [t for t in tuples if engine.inside(t) and violations(t) > 1][:8]
    check_history(data, engine, [d.values for d in domains], candidates,
                  lambda t: violations(t) == 0)
