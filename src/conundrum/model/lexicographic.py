"""Lexicographic optimisation (issue 30): `m.minimize([makespan, cost])` optimises the
first objective, then the second with the first held at its optimum, and so on.

Each stage is one branch and bound of Model._best, with the optima of the stages before
it as extra constraints of that run only (the model is left as it was). The previous
stage's solution satisfies them all, so it is the next stage's hint: its first dive finds a
solution at once. A stage that a limit (or Ctrl-C) stops before its proof ends the
whole run there, with the best solution of that stage: an unproved optimum cannot be held
fixed. `time_limit` and `node_limit` count over every stage.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, as_constraint
from conundrum.model.options import search_options
from conundrum.search.stats import OPTIMAL, SearchStats

if TYPE_CHECKING:
    from conundrum.lang.expr import ExprLike, Var
    from conundrum.model.model import Model
    from conundrum.model.solution import Solution

# the counts a lexicographic run adds up over its stages
COUNTS = ("nodes", "fails", "solutions", "restarts", "propagations")


def optimize_lexicographic(model: Model, objectives: Sequence[ExprLike], sense: str,
                           on_solution: Callable[[Solution], object] | None,
                           options: Mapping[str, Any]) -> Solution | None:
    """The best solution for `objectives` in order, each minimised (sense "min") or
    maximised ("max"); None if there is none (see the module)."""
    if not objectives:
        raise ModelError("minimize/maximize: the list of objectives is empty")
    exprs = [model._objective(e) for e in objectives]
    direction = -1 if sense == "min" else 1
    start = time.perf_counter()
    time_limit = options.get("time_limit")
    node_limit = options.get("node_limit")
    totals = dict.fromkeys(COUNTS, 0)
    fixed: list[Expr] = []
    best: Solution | None = None
    for expr in exprs:
        stage = dict(options)
        if time_limit is not None:
            stage["time_limit"] = max(1e-6, time_limit - (time.perf_counter() - start))
        if node_limit is not None:
            stage["node_limit"] = max(0, node_limit - totals["nodes"])
        opts, parallel = search_options(model, stage, "optimize")
        if best is not None:
            hints: dict[Var, int] = dict(opts.hints or {})  # type: ignore[call-overload]
            hints.update(best)
            opts.hints = hints
        found = model._best(expr, direction, on_solution, opts, parallel, fixed)
        stats = model.stats
        for name in COUNTS:
            totals[name] += getattr(stats, name)
        if found is None:
            break  # unsatisfiable (the first stage) or a limit before any solution
        best = found
        if stats.status != OPTIMAL:
            break  # stopped before the proof: this stage's optimum cannot be held fixed
        if isinstance(expr, Expr):
            fixed.append(as_constraint(expr == found.value(expr)))
    _sum_up(model.stats, totals, start)
    return best


def _sum_up(stats: SearchStats, totals: dict[str, int], start: float) -> None:
    """The last stage's statistics, with the counts and time of every stage."""
    for name, value in totals.items():
        setattr(stats, name, value)
    stats.seconds = time.perf_counter() - start
