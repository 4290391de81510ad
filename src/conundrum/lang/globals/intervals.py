"""Constraints between interval variables (lang/interval.py): precedences,
alternative and span. Each is a plain expression over the intervals' parts, so it is also usable
reified (inside implies, |, sums of Booleans)."""

from __future__ import annotations

import builtins

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, ExprLike, Var, const_or_expr
from conundrum.lang.globals.arithmetic import implies
from conundrum.lang.globals.arithmetic import max as max_of
from conundrum.lang.globals.arithmetic import min as min_of
from conundrum.lang.globals.arithmetic import sum as sum_of
from conundrum.lang.globals.base import _pairwise_all
from conundrum.lang.globals.logic import any as any_of
from conundrum.lang.interval import Interval


def _check(what: str, *ivs: object) -> None:
    for iv in ivs:
        if not isinstance(iv, Interval):
            raise ModelError(f"{what} takes interval variables (m.interval), not {iv!r}")


def _when_present(ivs: list[Interval], rule: Expr | bool) -> Expr:
    """rule, required only when every optional one of the intervals is present."""
    presences: list[Var] = [iv.present for iv in ivs if isinstance(iv.present, Var)]
    body = const_or_expr(rule)
    if not presences:
        return _pairwise_all([rule])
    cond: Expr = presences[0]
    for p in presences[1:]:
        cond = cond & p
    return implies(cond, body)  # type: ignore[arg-type]


def _delay(delay: object) -> ExprLike:
    return const_or_expr(delay, "a precedence delay")


def end_before_start(a: Interval, b: Interval, delay: ExprLike = 0) -> Expr:
    """b starts at least `delay` after a ends (a.end + delay <= b.start), when both are
    present; true when either is absent."""
    _check("end_before_start", a, b)
    return _when_present([a, b], a.end + _delay(delay) <= b.start)


def end_before_end(a: Interval, b: Interval, delay: ExprLike = 0) -> Expr:
    """a.end + delay <= b.end when both are present; true when either is absent."""
    _check("end_before_end", a, b)
    return _when_present([a, b], a.end + _delay(delay) <= b.end)


def start_before_start(a: Interval, b: Interval, delay: ExprLike = 0) -> Expr:
    """a.start + delay <= b.start when both are present; true when either is absent."""
    _check("start_before_start", a, b)
    return _when_present([a, b], a.start + _delay(delay) <= b.start)


def start_before_end(a: Interval, b: Interval, delay: ExprLike = 0) -> Expr:
    """a.start + delay <= b.end when both are present; true when either is absent."""
    _check("start_before_end", a, b)
    return _when_present([a, b], a.start + _delay(delay) <= b.end)


def alternative(main: Interval, options: list[Interval]) -> Expr:
    """main takes place as exactly one of the options (same start and end), and no option
    takes place without it: the options present add up to main's presence (so to 1 for a
    mandatory main). The options are optional intervals."""
    _check("alternative", main, *options)
    if not options:
        raise ModelError("alternative(main, options): give at least one option")
    parts: list[Expr | bool] = [sum_of(iv.present for iv in options) == main.present]
    for iv in options:
        same = (iv.start == main.start) & (iv.end == main.end)
        parts.append(implies(iv.present, same) if isinstance(iv.present, Var) else same)
    return _pairwise_all(parts)


def _or_else(iv: Interval, part: Var, otherwise: int) -> ExprLike:
    """The part of iv when it is present, `otherwise` when it is absent."""
    if isinstance(iv.present, Var):
        return part * iv.present + otherwise * (1 - iv.present)
    return part


def span(main: Interval, intervals: list[Interval]) -> Expr:
    """main covers exactly the present intervals: it is present when at least one of them
    is, and then starts at the smallest of their starts and ends at the largest of their
    ends. Absent intervals are ignored."""
    _check("span", main, *intervals)
    if not intervals:
        raise ModelError("span(main, intervals): give at least one interval")
    # an absent interval's start counts as the largest start any of them can take, which
    # never undercuts a present one (its end likewise as the smallest end)
    latest = builtins.max(iv.start.hi for iv in intervals)
    earliest = builtins.min(iv.end.lo for iv in intervals)
    covers = (main.start == min_of([_or_else(iv, iv.start, latest) for iv in intervals])) \
        & (main.end == max_of([_or_else(iv, iv.end, earliest) for iv in intervals]))
    presences: list[Expr | bool] = [iv.present if isinstance(iv.present, Var)
                                    else bool(iv.present) for iv in intervals]
    parts: list[Expr | bool] = [any_of(presences) == main.present,
                                implies(main.present, covers)
                                if isinstance(main.present, Var) else covers]
    return _pairwise_all(parts)
