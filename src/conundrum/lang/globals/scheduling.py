"""Scheduling globals: tasks on a unary resource (no_overlap), on a cumulative resource
(cumulative), and rectangles in the plane (no_overlap_2d).
"""

from __future__ import annotations

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    Expr,
    ExprLike,
    Global,
    Operands,
    const_or_expr,
    make_sum,
)
from conundrum.lang.globals.arithmetic import implies
from conundrum.lang.globals.base import (
    _flatten,
    _pairwise_all,
)
from conundrum.lang.interval import Interval


class NoOverlap(Global):
    """Tasks [s_i, s_i + d_i) on a unary resource do not overlap; durations are >= 0. A
    task of duration 0 may sit anywhere unless strict. args = starts + durations."""

    __slots__ = ("strict",)
    name = "no_overlap"

    def __init__(self, args: tuple[ExprLike, ...], strict: bool) -> None:
        super().__init__(args)
        self.strict = strict

    def holds(self, values: list[int]) -> bool:
        n = len(values) // 2
        s, d = values[:n], values[n:]
        if any(x < 0 for x in d):
            return False
        return all((not self.strict and (d[i] == 0 or d[j] == 0))
                   or s[i] + d[i] <= s[j] or s[j] + d[j] <= s[i]
                   for i in range(n) for j in range(i + 1, n))

    def decompose(self) -> Expr:
        n = len(self.args) // 2
        s, d = self.args[:n], self.args[n:]
        parts: list[Expr | bool] = [x >= 0 for x in d]
        for i in range(n):
            for j in range(i + 1, n):
                apart = (s[i] + d[i] <= s[j]) | (s[j] + d[j] <= s[i])
                parts.append(apart if self.strict else (d[i] == 0) | (d[j] == 0) | apart)
        return _pairwise_all(parts)


class Cumulative(Global):
    """At every time, the demands of the running tasks add up to at most the capacity;
    durations and demands are >= 0, and so is the capacity when there is a task.
    args = starts + durations + demands + (capacity,)."""

    __slots__ = ()
    name = "cumulative"

    def holds(self, values: list[int]) -> bool:
        n = (len(values) - 1) // 3
        s, d, r, c = values[:n], values[n:2 * n], values[2 * n:3 * n], values[-1]
        if any(x < 0 for x in d + r) or (n and c < 0):
            return False
        # the load only grows when a task starts: check it at every start (this module's
        # sum builds expressions, hence the loop)
        for j in range(n):
            load = 0
            for i in range(n):
                if s[i] <= s[j] < s[i] + d[i]:
                    load += r[i]
            if load > c:
                return False
        return True

    def decompose(self) -> Expr:
        n = (len(self.args) - 1) // 3
        a = self.args
        s, d, r, c = a[:n], a[n:2 * n], a[2 * n:3 * n], a[-1]
        parts: list[Expr | bool] = [x >= 0 for x in d + r]
        if n:
            parts.append(c >= 0)
        for j in range(n):
            load = make_sum((1, r[i] * ((s[i] <= s[j]) & (s[j] < s[i] + d[i])))
                            for i in range(n) if i != j)
            parts.append(implies((d[j] > 0) & (r[j] > 0), load + r[j] <= c))
        return _pairwise_all(parts)


class NoOverlap2D(Global):
    """Rectangles (x_i, y_i, w_i, h_i) do not overlap: each pair is apart on x or on y;
    sizes are >= 0. args = xs + ys + widths + heights."""

    __slots__ = ()
    name = "no_overlap_2d"

    def holds(self, values: list[int]) -> bool:
        n = len(values) // 4
        x, y, w, h = (values[k * n:(k + 1) * n] for k in range(4))
        if any(v < 0 for v in w + h):
            return False
        return all(x[i] + w[i] <= x[j] or x[j] + w[j] <= x[i]
                   or y[i] + h[i] <= y[j] or y[j] + h[j] <= y[i]
                   for i in range(n) for j in range(i + 1, n))

    def decompose(self) -> Expr:
        n = len(self.args) // 4
        x, y, w, h = (self.args[k * n:(k + 1) * n] for k in range(4))
        parts: list[Expr | bool] = [v >= 0 for v in w + h]
        for i in range(n):
            for j in range(i + 1, n):
                parts.append((x[i] + w[i] <= x[j]) | (x[j] + w[j] <= x[i])
                             | (y[i] + h[i] <= y[j]) | (y[j] + h[j] <= y[i]))
        return _pairwise_all(parts)


def _tasks(what: str, *columns: object) -> list[tuple[ExprLike, ...]]:
    """The columns as tuples of one length (starts, durations, ...), or a ModelError."""
    out = [_flatten(c, what) for c in columns]
    if len({len(c) for c in out}) > 1:
        raise ModelError(f"{what}: the lists have different lengths "
                         f"({', '.join(str(len(c)) for c in out)})")
    return out


def _intervals(items: object, what: str) -> list[Interval] | None:
    """The intervals when `items` is a list of them, None when it holds none (the
    flat-list form); a ModelError for a mix."""
    if isinstance(items, Interval):
        return [items]
    if not isinstance(items, list | tuple):
        return None
    found = [isinstance(x, Interval) for x in items]
    if not any(found):
        return None
    if not all(found):
        raise ModelError(f"{what}: give a list of intervals, or lists of starts and "
                         "durations, not a mix")
    return list(items)


def no_overlap(starts: Operands | list[Interval], durations: Operands | None = None,
               strict: bool = False) -> Expr:
    """Tasks [starts[i], starts[i] + durations[i]) on one machine do not overlap
    (MiniZinc's disjunctive). Durations are >= 0; a task of duration 0 may sit anywhere,
    unless strict=True (disjunctive_strict: not strictly inside another task).
    no_overlap(intervals) takes interval variables instead: an absent one takes no room.
    Propagation: detectable precedences, overload checking and edge-finding."""
    ivs = _intervals(starts, "no_overlap")
    if ivs is not None:
        if durations is not None or strict:
            raise ModelError("no_overlap(intervals) takes the intervals alone")
        # an absent task lasts 0 on the machine, and a task of duration 0 sits anywhere:
        # the plain propagator then leaves it out until it is present
        return NoOverlap(tuple(iv.start for iv in ivs)
                         + tuple(const_or_expr(iv.length()) for iv in ivs), False)
    if durations is None:
        raise ModelError("no_overlap(starts, durations): give the durations")
    s, d = _tasks("no_overlap", starts, durations)
    return NoOverlap(s + d, bool(strict))


def cumulative(starts: Operands | list[Interval], durations: Operands | None = None,
               demands: Operands | object = None, capacity: object = None) -> Expr:
    """Tasks [starts[i], starts[i] + durations[i]) each use demands[i] of a resource:
    at every time the running tasks use at most `capacity`. Durations and demands must
    be >= 0 (and the capacity too, when there is a task). cumulative(intervals, demands,
    capacity) takes interval variables instead: an absent one uses nothing. Propagation:
    timetabling on the compulsory parts and energetic overload checking."""
    ivs = _intervals(starts, "cumulative")
    if ivs is not None:
        if durations is not None:  # positional: (intervals, demands, capacity)
            if capacity is not None:
                raise ModelError("cumulative(intervals, demands, capacity): the "
                                 "intervals carry the durations")
            demands, capacity = durations, demands
        if demands is None or capacity is None:
            raise ModelError("cumulative(intervals, demands, capacity): give the demands "
                             "and the capacity")
        firsts: tuple[ExprLike, ...] = tuple(iv.start for iv in ivs)
        lengths = tuple(const_or_expr(iv.length()) for iv in ivs)
        (r,) = _tasks("cumulative", demands)
        if len(r) != len(firsts):
            raise ModelError(f"cumulative: {len(firsts)} intervals but {len(r)} demands")
        # an absent task lasts 0, and a task of duration 0 uses nothing
        return Cumulative(firsts + lengths + r + (const_or_expr(capacity, "cumulative"),))
    if durations is None or demands is None or capacity is None:
        raise ModelError("cumulative(starts, durations, demands, capacity): give all four")
    s, d, r = _tasks("cumulative", starts, durations, demands)
    return Cumulative(s + d + r + (const_or_expr(capacity, "cumulative"),))


def no_overlap_2d(xs: Operands | list[Interval], ys: Operands | list[Interval],
                  widths: Operands | None = None, heights: Operands | None = None) -> Expr:
    """Rectangles with lower-left corners (xs[i], ys[i]) and sizes widths[i] x heights[i]
    do not overlap (MiniZinc's diffn: a rectangle of size 0 may not lie strictly inside
    another). Sizes are >= 0. no_overlap_2d(x_intervals, y_intervals) takes interval
    variables instead: rectangle i is present when both its intervals are, and an absent
    one takes no room. Propagation: pairwise, each pair's four separations."""
    xi, yi = _intervals(xs, "no_overlap_2d"), _intervals(ys, "no_overlap_2d")
    if xi is not None or yi is not None:
        if xi is None or yi is None or widths is not None or heights is not None:
            raise ModelError("no_overlap_2d(x_intervals, y_intervals) takes two lists of "
                             "intervals alone")
        if len(xi) != len(yi):
            raise ModelError(f"no_overlap_2d: {len(xi)} x intervals but {len(yi)} y "
                             "intervals")
        if not any(iv.optional for iv in xi + yi):
            return NoOverlap2D(tuple(iv.start for iv in xi) + tuple(iv.start for iv in yi)
                               + tuple(const_or_expr(iv.size) for iv in xi)
                               + tuple(const_or_expr(iv.size) for iv in yi))
        # optional rectangles: pairwise, each pair apart when both are present
        parts: list[Expr | bool] = []
        n = len(xi)
        for i in range(n):
            for j in range(i + 1, n):
                a, b, c, e = xi[i], xi[j], yi[i], yi[j]
                apart = ((a.end <= b.start) | (b.end <= a.start)
                         | (c.end <= e.start) | (e.end <= c.start))
                both: list[Expr] = [p for p in (a.present, b.present, c.present, e.present)
                        if not isinstance(p, int)]
                parts.append(implies(_conj(both), apart) if both else apart)
        return _pairwise_all(parts)
    if widths is None or heights is None:
        raise ModelError("no_overlap_2d(xs, ys, widths, heights): give all four")
    x, y, w, h = _tasks("no_overlap_2d", xs, ys, widths, heights)
    return NoOverlap2D(x + y + w + h)


def _conj(items: list[Expr]) -> Expr:
    out = items[0]
    for x in items[1:]:
        out = out & x
    return out
