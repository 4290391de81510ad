"""Where an optimisation is a knapsack, post its fractional bound (propagators/knapsack.py).

The objective's engine variable is defined by one linear equation `a * obj + sum(c_i y_i)
+ c = 0` with a = +-1, so obj = sign' * sum(c_i y_i) + shift. To maximise it is to maximise
the gain sum(v_i y_i) with v_i = sign' * c_i; to minimise it, with v_i = -sign' * c_i. Every
capacity row `sum(w_i y_i) + c' <= 0` with all w_i > 0 over items that are never negative
and share variables with the gain gives a bound (at most MAX_ROWS of them: a multi-
dimensional knapsack gets one per row). Items of the row missing from the gain have gain
0; items of the gain missing from the row have weight 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.propagators.knapsack import KnapsackBound
from conundrum.propagators.linear import LinearEq, LinearLe

if TYPE_CHECKING:
    from conundrum.engine import IntView, Solver

MAX_ROWS = 8  # capacity rows bounded per objective


def post_knapsack_bounds(solver: Solver, obj: IntView, sense: int) -> int:
    """Post the bounds for objective `obj` (sense -1 minimise, +1 maximise); the number of
    capacity rows found."""
    gain = _gain(solver, obj, sense)
    if gain is None:
        return 0
    values, shift, sign = gain
    posted = 0
    for p in list(solver.propagators):
        if posted == MAX_ROWS:
            break
        if not isinstance(p, LinearLe):
            continue
        weights: dict[tuple[int, int], int] = {}
        views: dict[tuple[int, int], IntView] = {}
        for a, y in zip(p.coefs, p.xs, strict=True):
            key = (y.root.index, y.offset)
            if a <= 0 or y.lo < 0 or key in weights:
                break
            weights[key] = a
            views[key] = y
        else:
            # only an item of positive gain that weighs something bounds more than the
            # objective's own row does (which takes every item at its lower bound): a
            # minimised cost over the items of covering rows (trucking: 8 such bounds
            # over 35 items, half the search) is no knapsack
            if not any(values[key][0] > 0 for key, w in weights.items()
                       if key in values and w > 0):
                continue
            keys = list(weights) + [k for k in values if k not in weights]
            for key, entry in values.items():
                views.setdefault(key, entry[1])
            solver.post(KnapsackBound(
                solver, [values[k][0] if k in values else 0 for k in keys],
                [weights.get(k, 0) for k in keys], [views[k] for k in keys], -p.c,
                obj, sign, shift))
            posted += 1
    return posted


def _gain(solver: Solver, obj: IntView,
          sense: int) -> tuple[dict[tuple[int, int], tuple[int, IntView]], int, int] | None:
    """The gain's items {(root index, offset): (value, view)}, the shift and the sign with
    obj = sign * gain + shift (sign = sense), from the equation defining obj; None when
    there is none, or an item is negative or appears twice."""
    r = obj.root.index
    for p in solver.propagators:
        if not isinstance(p, LinearEq):
            continue
        k = -1
        for j in range(len(p.xs)):
            if p.xs[j].root.index == r:
                k = j
                break
        if k < 0 or p.coefs[k] not in (1, -1):
            continue
        a = p.coefs[k]
        # a * (root + off_k) + S + c = 0, so root = -(S + c) / a - off_k and
        # obj = root + off_obj = -a * S - a * c - off_k + off_obj
        items: dict[tuple[int, int], tuple[int, IntView]] = {}
        for j in range(len(p.xs)):
            if j == k:
                continue
            y = p.xs[j]
            key = (y.root.index, y.offset)
            if y.lo < 0 or key in items or y.root.index == r:
                return None
            # obj = -a * S + ...; the gain to maximise is sense * obj's part
            items[key] = (-a * p.coefs[j] * sense, y)
        shift = -a * p.c - p.xs[k].offset + obj.offset
        return items, shift, sense
    return None
