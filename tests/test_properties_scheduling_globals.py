"""Property tests: circuit, subcircuit, no_overlap, cumulative, no_overlap_2d, arg_max and
arg_min against brute force (random small domains, every search option through the
harness), each posted at the top level (its propagator) and reified (its decomposition).
The predicates are written here from the constraints' definitions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import conundrum as cn
from test_properties_harness import check, doms


def is_circuit(succ: tuple[int, ...], sub: bool) -> bool:
    """succ is a permutation of 0..n-1 whose nodes i with succ[i] != i (all of them for a
    circuit) form a single cycle."""
    n = len(succ)
    if sorted(succ) != list(range(n)):
        return False
    if not sub and n > 1 and any(succ[i] == i for i in range(n)):
        return False
    cycles = []
    seen: set[int] = set()
    for start in range(n):
        if start in seen or (sub and succ[start] == start):
            continue
        cycle = [start]
        seen.add(start)
        k = succ[start]
        while k != start:
            cycle.append(k)
            seen.add(k)
            k = succ[k]
        cycles.append(cycle)
    return len(cycles) <= 1 if sub else len(cycles) == 1 or n == 0


@pytest.mark.parametrize("sub", [False, True])
@given(data=st.data())
def test_circuit(data: st.DataObject, sub: bool) -> None:
    """x0.. are successors; domains reach outside 0..n-1 and hold self-loops."""
    n = data.draw(st.integers(1, 5), label="n")
    domains = data.draw(doms(n, max_size=4, lo=-1, hi=n), label="domains")
    name = "subcircuit" if sub else "circuit"
    check(data, domains, f"m += cn.{name}(xs)", lambda t: is_circuit(t, sub))


@pytest.mark.parametrize("sub", [False, True])
@given(data=st.data())
def test_circuit_reified(data: st.DataObject, sub: bool) -> None:
    """x0 >= 1 exactly when the others form a (sub)circuit: the decomposition."""
    n = data.draw(st.integers(1, 4), label="n")
    domains = data.draw(doms(n + 1, max_size=3, lo=-1, hi=n), label="domains")
    name = "subcircuit" if sub else "circuit"
    check(data, domains, f"m += (x0 >= 1) == cn.{name}(xs[1:])",
          lambda t: (t[0] >= 1) == is_circuit(t[1:], sub))


def apart(s: tuple[int, ...], d: tuple[int, ...], strict: bool) -> bool:
    """Tasks [s_i, s_i + d_i) do not overlap; durations >= 0; duration 0 anywhere unless
    strict (then not strictly inside another task)."""
    n = len(s)
    if any(x < 0 for x in d):
        return False
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            if not strict and (d[i] == 0 or d[j] == 0):
                continue
            # i starts while j runs (strictly after j starts), or both start together
            # with positive lengths
            if s[j] < s[i] < s[j] + d[j]:
                return False
            if s[i] == s[j] and d[i] > 0 and d[j] > 0:
                return False
    return True


@given(data=st.data(), strict=st.booleans())
def test_no_overlap(data: st.DataObject, strict: bool) -> None:
    """Starts x0..x{n-1}, durations the rest (variables, some of them possibly 0 or < 0)."""
    n = data.draw(st.integers(1, 3), label="n")
    domains = (data.draw(doms(n, max_size=4, lo=0, hi=5), label="starts")
               + data.draw(doms(n, max_size=3, lo=-1, hi=3), label="durations"))
    check(data, domains, f"m += cn.no_overlap(xs[:{n}], xs[{n}:], strict={strict})",
          lambda t: apart(t[:n], t[n:], strict))


@given(data=st.data(), strict=st.booleans())
def test_no_overlap_constant_durations(data: st.DataObject, strict: bool) -> None:
    n = data.draw(st.integers(2, 5), label="n")
    durations = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="d")
    domains = data.draw(doms(n, max_size=4, lo=0, hi=7), label="starts")
    check(data, domains, f"m += cn.no_overlap(xs, {durations}, strict={strict})",
          lambda t: apart(t, tuple(durations), strict))


@given(data=st.data())
def test_no_overlap_reified(data: st.DataObject) -> None:
    n = 2
    domains = data.draw(doms(1 + 2 * n, max_size=3, lo=-1, hi=3), label="domains")
    check(data, domains, "m += (x0 >= 1) == cn.no_overlap(xs[1:3], xs[3:])",
          lambda t: (t[0] >= 1) == apart(t[1:3], t[3:], False))


def fits(s: tuple[int, ...], d: tuple[int, ...], r: tuple[int, ...], c: int) -> bool:
    """At every time t the running tasks (s_i <= t < s_i + d_i) demand at most c; durations
    and demands >= 0; c >= 0 when there is a task."""
    if any(x < 0 for x in d + r) or (s and c < 0):
        return False
    times = {t for si, di in zip(s, d) for t in range(si, si + di)}
    return all(sum(ri for si, di, ri in zip(s, d, r) if si <= t < si + di) <= c
               for t in times)


@given(data=st.data())
def test_cumulative(data: st.DataObject) -> None:
    """Starts, durations, demands and the capacity all variables (2 tasks)."""
    n = 2
    domains = (data.draw(doms(n, max_size=3, lo=0, hi=4), label="starts")
               + data.draw(doms(2 * n + 1, max_size=3, lo=-1, hi=3), label="d, r, c"))
    check(data, domains,
          f"m += cn.cumulative(xs[:{n}], xs[{n}:{2 * n}], xs[{2 * n}:{3 * n}], xs[-1])",
          lambda t: fits(t[:n], t[n:2 * n], t[2 * n:3 * n], t[-1]))


@given(data=st.data())
def test_cumulative_constant_tasks(data: st.DataObject) -> None:
    """Up to 5 tasks of constant durations and demands, variable starts, capacity x0."""
    n = data.draw(st.integers(1, 5), label="n")
    d = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="d")
    r = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="r")
    domains = (data.draw(doms(1, max_size=3, lo=0, hi=4), label="capacity")
               + data.draw(doms(n, max_size=4, lo=0, hi=5), label="starts"))
    check(data, domains, f"m += cn.cumulative(xs[1:], {d}, {r}, x0)",
          lambda t: fits(t[1:], tuple(d), tuple(r), t[0]))


@given(data=st.data())
def test_cumulative_reified(data: st.DataObject) -> None:
    d, r = [2, 1], [1, 2]
    domains = data.draw(doms(4, max_size=3, lo=-1, hi=3), label="domains")
    check(data, domains, f"m += (x0 >= 1) == cn.cumulative(xs[1:3], {d}, {r}, x3)",
          lambda t: (t[0] >= 1) == fits(t[1:3], tuple(d), tuple(r), t[3]))


def separate(x: tuple[int, ...], y: tuple[int, ...], w: tuple[int, ...],
             h: tuple[int, ...]) -> bool:
    """No two rectangles overlap on both axes, where intervals [a, a + w) overlap when each
    starts before the other ends (sizes >= 0)."""
    if any(v < 0 for v in w + h):
        return False
    n = len(x)
    for i in range(n):
        for j in range(i + 1, n):
            overlap_x = x[i] < x[j] + w[j] and x[j] < x[i] + w[i]
            overlap_y = y[i] < y[j] + h[j] and y[j] < y[i] + h[i]
            if overlap_x and overlap_y:
                return False
    return True


@given(data=st.data())
def test_no_overlap_2d(data: st.DataObject) -> None:
    """Corners variable, sizes constant (0 allowed): up to 3 rectangles."""
    n = data.draw(st.integers(1, 3), label="n")
    w = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n), label="w")
    h = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n), label="h")
    domains = data.draw(doms(2 * n, max_size=3, lo=0, hi=3), label="corners")
    check(data, domains, f"m += cn.no_overlap_2d(xs[:{n}], xs[{n}:], {w}, {h})",
          lambda t: separate(t[:n], t[n:], tuple(w), tuple(h)))


@given(data=st.data())
def test_no_overlap_2d_variable_sizes(data: st.DataObject) -> None:
    domains = data.draw(doms(8, max_size=2, lo=-1, hi=2), label="domains")
    check(data, domains, "m += cn.no_overlap_2d(xs[0:2], xs[2:4], xs[4:6], xs[6:8])",
          lambda t: separate(t[0:2], t[2:4], t[4:6], t[6:8]), runs=1)


@given(data=st.data())
def test_no_overlap_2d_reified(data: st.DataObject) -> None:
    domains = data.draw(doms(5, max_size=3, lo=0, hi=3), label="domains")
    check(data, domains,
          "m += (x0 >= 1) == cn.no_overlap_2d(xs[1:3], xs[3:5], [2, 1], [1, 2])",
          lambda t: (t[0] >= 1) == separate(t[1:3], t[3:5], (2, 1), (1, 2)))


def first_position(values: tuple[int, ...], largest: bool) -> int:
    best = max(values) if largest else min(values)
    return next(k for k, v in enumerate(values) if v == best)


@pytest.mark.parametrize("largest", [True, False])
@given(data=st.data())
def test_arg_max_and_arg_min(data: st.DataObject, largest: bool) -> None:
    """x0 is the position of the first largest (smallest) of the others."""
    n = data.draw(st.integers(1, 4), label="n")
    domains = data.draw(doms(n + 1, max_size=4, lo=-2, hi=3), label="domains")
    name = "arg_max" if largest else "arg_min"
    check(data, domains, f"m += x0 == cn.{name}(xs[1:])",
          lambda t: t[0] == first_position(t[1:], largest),
          exprs=[(f"cn.{name}(xs[1:])", lambda t: first_position(t[1:], largest))])


@pytest.mark.parametrize("largest", [True, False])
@given(data=st.data())
def test_arg_max_of_rationals(data: st.DataObject, largest: bool) -> None:
    """Items x/2 (rational): compiled through the decomposition."""
    domains = data.draw(doms(4, max_size=4, lo=-2, hi=3), label="domains")
    name = "arg_max" if largest else "arg_min"
    check(data, domains, f"m += x0 == cn.{name}([x1 / 2, x2 / 3, x3 / 2])",
          lambda t: t[0] == first_position((t[1] * 3, t[2] * 2, t[3] * 3), largest))


def test_mistakes_are_model_errors() -> None:
    m = cn.Model()
    xs = m.int_vars(3, 0, 2, "x")
    for make in (lambda: cn.no_overlap(xs, [1, 2]),
                 lambda: cn.cumulative(xs, [1, 1, 1], [1, 1], 2),
                 lambda: cn.no_overlap_2d(xs, xs, [1, 1, 1], [1]),
                 lambda: cn.arg_max([]),
                 lambda: cn.circuit("abc")):
        with pytest.raises(cn.ModelError):
            make()
