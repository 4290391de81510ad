"""Property tests: interval variables (m.interval, optional ones included) under
no_overlap, cumulative and no_overlap_2d over intervals, the precedences
(end_before_start and its kin), alternative and span, posted at the top level and reified.
The number of solutions equals brute force over every variable of the model, under the
classic and the learning search; the predicates are written here from the definitions
(an absent interval takes part in nothing)."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

import conundrum as cn

Values = tuple[int, int, int, int]  # start, size, end, present


def _draw_intervals(data: st.DataObject, m: cn.Model, n: int,
                    prefix: str = "t", widest: int = 2) -> list[cn.Interval]:
    out = []
    for k in range(n):
        lo = data.draw(st.integers(0, 2), label=f"lo{k}")
        width = data.draw(st.integers(0, widest), label=f"width{k}")
        size: int | tuple[int, int] = data.draw(
            st.one_of(st.integers(0, 2), st.just((1, 2))), label=f"size{k}")
        optional = data.draw(st.booleans(), label=f"optional{k}")
        out.append(m.interval(start=(lo, lo + width), size=size, optional=optional,
                              name=f"{prefix}{k}"))
    return out


Value = Callable[[cn.Var | int], int]


def _brute(m: cn.Model, ivs: list[cn.Interval],
           rule: Callable[[list[Values], Value], bool]) -> int:
    """Solutions over every variable of m: the intervals' own ties, then rule (given the
    intervals' values and the value of any variable)."""
    vs = m.variables
    total = 0
    for values in itertools.product(*(range(v.lo, v.hi + 1) for v in vs)):
        def val(x: cn.Var | int, values: tuple[int, ...] = values) -> int:
            return x if isinstance(x, int) else values[x.index]
        tasks = [(val(iv.start), val(iv.size), val(iv.end), val(iv.present))
                 for iv in ivs]
        if any(p and (s + d != e or d < 0) for s, d, e, p in tasks):
            continue
        total += rule(tasks, val)
    return total


def _apart(tasks: list[Values]) -> bool:
    return all(not (a[3] and b[3] and a[1] > 0 and b[1] > 0)
               or a[2] <= b[0] or b[2] <= a[0]
               for a, b in itertools.combinations(tasks, 2))


def _fits(tasks: list[Values], demands: list[int], cap: int) -> bool:
    starts = [s for s, d, _, p in tasks if p and d > 0]
    return all(sum(r for (s, d, _, p), r in zip(tasks, demands, strict=True)
                   if p and d > 0 and s <= t < s + d) <= cap for t in starts)


def _compare(m: cn.Model, ivs: list[cn.Interval],
             rule: Callable[[list[Values], Value], bool]) -> None:
    expected = _brute(m, ivs, rule)
    note(f"expected {expected}")
    for search in ("classic", "learning"):
        assert m.count(search=search) == expected, search


def _post(m: cn.Model, c: cn.Expr, reified: bool) -> cn.Var | None:
    """Post c, or b == c for a new Boolean b (returned)."""
    if not reified:
        m += c
        return None
    b = m.bool_var("b")
    m += b == c
    return b


def _matches(b: cn.Var | None, val: Value, ok: bool) -> bool:
    return ok if b is None else val(b) == ok


@pytest.mark.parametrize("reified", [False, True])
@given(data=st.data())
def test_no_overlap_intervals(data: st.DataObject, reified: bool) -> None:
    m = cn.Model()
    ivs = _draw_intervals(data, m, data.draw(st.integers(1, 3), label="n"))
    b = _post(m, cn.no_overlap(ivs), reified)
    _compare(m, ivs, lambda t, val: _matches(b, val, _apart(t)))


@pytest.mark.parametrize("reified", [False, True])
@given(data=st.data())
def test_cumulative_intervals(data: st.DataObject, reified: bool) -> None:
    m = cn.Model()
    n = data.draw(st.integers(1, 3), label="n")
    ivs = _draw_intervals(data, m, n)
    demands = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n),
                        label="demands")
    cap = data.draw(st.integers(0, 3), label="capacity")
    b = _post(m, cn.cumulative(ivs, demands, cap), reified)
    _compare(m, ivs, lambda t, val: _matches(b, val, _fits(t, demands, cap)))


def _tight_tasks(data: st.DataObject, m: cn.Model) -> list[cn.Interval]:
    """A mandatory task with a narrow window and optional ones around it whose windows
    it often blocks: the rule that makes an undecided task that fits nowhere absent."""
    lo = data.draw(st.integers(0, 2), label="mandatory lo")
    out = [m.interval(start=(lo, lo + data.draw(st.integers(0, 1), label="mandatory width")),
                      size=data.draw(st.integers(2, 3), label="mandatory size"), name="a")]
    for k in range(data.draw(st.integers(1, 2), label="optional tasks")):
        start = data.draw(st.integers(0, 3), label=f"lo{k}")
        size: int | tuple[int, int] = data.draw(
            st.one_of(st.integers(1, 3), st.just((1, 3))), label=f"size{k}")
        out.append(m.interval(start=(start, start + data.draw(st.integers(0, 2))),
                              size=size, optional=True, name=f"o{k}"))
    return out


@given(data=st.data())
def test_tight_optional_no_overlap(data: st.DataObject) -> None:
    m = cn.Model()
    ivs = _tight_tasks(data, m)
    m += cn.no_overlap(ivs)
    _compare(m, ivs, lambda t, val: _apart(t))


@given(data=st.data())
def test_tight_optional_cumulative(data: st.DataObject) -> None:
    m = cn.Model()
    ivs = _tight_tasks(data, m)
    demands = data.draw(st.lists(st.integers(1, 2), min_size=len(ivs), max_size=len(ivs)),
                        label="demands")
    cap = data.draw(st.integers(1, 3), label="capacity")
    m += cn.cumulative(ivs, demands, cap)
    _compare(m, ivs, lambda t, val: _fits(t, demands, cap))


PRECEDENCES = {
    "end_before_start": (cn.end_before_start, 2, 0),
    "end_before_end": (cn.end_before_end, 2, 2),
    "start_before_start": (cn.start_before_start, 0, 0),
    "start_before_end": (cn.start_before_end, 0, 2),
}


@pytest.mark.parametrize("reified", [False, True])
@pytest.mark.parametrize("kind", sorted(PRECEDENCES))
@given(data=st.data())
def test_precedences(data: st.DataObject, kind: str, reified: bool) -> None:
    """One precedence between two intervals, beside a no_overlap of both."""
    m = cn.Model()
    ivs = _draw_intervals(data, m, 2)
    delay = data.draw(st.integers(-1, 2), label="delay")
    fn, x, y = PRECEDENCES[kind]
    b = _post(m, fn(ivs[0], ivs[1], delay), reified)
    m += cn.no_overlap(ivs)

    def rule(t: list[Values], val: Value) -> bool:
        ok = not (t[0][3] and t[1][3]) or t[0][x] + delay <= t[1][y]
        return _apart(t) and _matches(b, val, ok)

    _compare(m, ivs, rule)


@given(data=st.data())
def test_alternative(data: st.DataObject) -> None:
    """A main interval (optional or not) as one of two optional ones."""
    m = cn.Model()
    ivs = _draw_intervals(data, m, 1, widest=1)
    opts = [m.interval(start=(0, 2), size=data.draw(st.integers(0, 2), label=f"s{k}"),
                       optional=True, name=f"o{k}") for k in range(2)]
    m += cn.alternative(ivs[0], opts)
    m += cn.no_overlap(opts)

    def rule(t: list[Values], val: Value) -> bool:
        main, chosen = t[0], [o for o in t[1:] if o[3]]
        return (_apart(t[1:]) and len(chosen) == main[3]
                and all(o[0] == main[0] and o[2] == main[2] for o in chosen))

    _compare(m, ivs + opts, rule)


@pytest.mark.parametrize("reified", [False, True])
@given(data=st.data())
def test_span(data: st.DataObject, reified: bool) -> None:
    """A main interval (optional or not) spanning one or two others (each optional or
    not): present when one of them is, from their smallest start to their largest end."""
    m = cn.Model()
    main = m.interval(start=(0, 1), size=(0, 2), optional=data.draw(st.booleans(),
                      label="main optional"), name="main")
    # narrow windows keep the brute force small (every part of every interval)
    ivs = _draw_intervals(data, m, data.draw(st.integers(1, 2), label="n"), widest=1)
    b = _post(m, cn.span(main, ivs), reified)

    def rule(t: list[Values], val: Value) -> bool:
        top, present = t[0], [iv for iv in t[1:] if iv[3]]
        ok = bool(top[3]) == bool(present) and (
            not present or (top[0] == min(iv[0] for iv in present)
                            and top[2] == max(iv[2] for iv in present)))
        return _matches(b, val, ok)

    _compare(m, [main, *ivs], rule)


def test_span_of_tasks_on_one_day() -> None:
    """A span's start and end follow the present tasks only, and it is absent with them."""
    m = cn.Model()
    day = m.interval(start=(0, 9), size=(0, 9), optional=True, name="day")
    a = m.interval(start=(2, 3), size=2, optional=True, name="a")
    b = m.interval(start=5, size=1, optional=True, name="b")
    m += cn.span(day, [a, b])
    seen = {(s[a.present], s[b.present], s[day.present],
             (s[day.start], s[day.end]) if s[day.present] else None)
            for s in m.solutions()}
    assert seen == {(0, 0, 0, None), (1, 0, 1, (2, 4)), (1, 0, 1, (3, 5)),
                    (0, 1, 1, (5, 6)), (1, 1, 1, (2, 6)), (1, 1, 1, (3, 6))}
    with pytest.raises(cn.ModelError, match="at least one interval"):
        cn.span(day, [])
    with pytest.raises(cn.ModelError, match="interval variables"):
        cn.span(day, [a.start])  # type: ignore[list-item]


@pytest.mark.parametrize("reified", [False, True])
@given(data=st.data())
def test_no_overlap_2d_intervals(data: st.DataObject, reified: bool) -> None:
    m = cn.Model()
    n = data.draw(st.integers(1, 2), label="n")
    # four intervals: narrower windows keep the brute force small
    xs = _draw_intervals(data, m, n, "x", 1)
    ys = _draw_intervals(data, m, n, "y", 1)
    b = _post(m, cn.no_overlap_2d(xs, ys), reified)

    def rule(t: list[Values], val: Value) -> bool:
        rects = list(zip(t[:n], t[n:], strict=True))
        ok = all(not (a[0][3] and a[1][3] and c[0][3] and c[1][3])
                 or a[0][2] <= c[0][0] or c[0][2] <= a[0][0]
                 or a[1][2] <= c[1][0] or c[1][2] <= a[1][0]
                 for a, c in itertools.combinations(rects, 2))
        return _matches(b, val, ok)

    _compare(m, xs + ys, rule)


@given(data=st.data())
def test_a_solution_reads_an_interval_as_its_start_and_end(data: st.DataObject) -> None:
    """sol[iv] is (start, end) for a present interval and None for an absent one, in
    every solution."""
    m = cn.Model()
    ivs = _draw_intervals(data, m, 2)
    m += cn.no_overlap(ivs)
    seen = set()
    for sol in m.solutions():
        for iv in ivs:
            present = sol[iv.present] if iv.optional else 1
            expected = (sol[iv.start], sol[iv.end]) if present else None
            assert sol[iv] == expected
            seen.add(expected is None)
    assert seen == ({True, False} if any(iv.optional for iv in ivs) else {False})


def test_reading_an_interval_of_another_model_fails() -> None:
    other = cn.Model().interval(start=0, size=1, name="elsewhere")
    m = cn.Model()
    m.interval(start=0, size=1, name="here")
    sol = m.solve()
    assert sol is not None
    with pytest.raises(cn.ModelError, match="another model"):
        sol[other]


BAD_INTERVALS = {
    "empty start range": (dict(start=(3, 1), size=2), "range 3..1 is empty"),
    "negative size": (dict(start=0, size=-1), "cannot be negative"),
    "negative size range": (dict(start=0, size=(-1, 2)), "cannot be negative"),
    "no size": (dict(start=0, size=None), "give its size"),
    "a string start": (dict(start="a", size=1), "must be an int, a (lo, hi) pair"),
}


@pytest.mark.parametrize("name", sorted(BAD_INTERVALS))
def test_bad_interval_arguments(name: str) -> None:
    kwargs, message = BAD_INTERVALS[name]
    with pytest.raises(cn.ModelError, match=re.escape(message)):
        cn.Model().interval(**kwargs)


def test_bad_interval_constraints() -> None:
    m = cn.Model()
    a = m.interval(start=0, size=1)
    with pytest.raises(cn.ModelError, match="not a mix"):
        cn.no_overlap([a, m.int_var(0, 3)])
    with pytest.raises(cn.ModelError, match="1 intervals but 2 demands"):
        cn.cumulative([a], [1, 2], 1)
    with pytest.raises(cn.ModelError, match="interval variables"):
        cn.end_before_start(a, 3)  # type: ignore[arg-type]


def test_mandatory_intervals_are_the_plain_tasks() -> None:
    """Fixed sizes and mandatory intervals give the flat global's own arguments: the
    scheduling propagators see the same tasks as before."""
    m = cn.Model()
    ivs = [m.interval(start=(0, 9), size=d) for d in (2, 3)]
    c = cn.no_overlap(ivs)
    assert isinstance(c, cn.Expr) and type(c).__name__ == "NoOverlap"
    assert c.args[0] is ivs[0].start and c.args[1] is ivs[1].start
    assert c.args[2:] == (2, 3)
    r = cn.cumulative(ivs, demands=[1, 1], capacity=1)
    assert r.args[2:] == (2, 3, 1, 1, 1)
