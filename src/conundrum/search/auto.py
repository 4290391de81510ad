"""search="auto", the default: which search a run gets, by rules measured on the benchmark
(issue 29).

- Anything but an optimisation (a solution, all of them, a count) is searched depth-first:
  the puzzles' search, whose node counts the benchmark's puzzle rows keep.
- An optimisation over a model with an all_different is searched depth-first too: the
  depth-first search with dom_wdeg proves Golomb rulers 9 and 10 in 0.3 and 2 s, where the
  learning search takes 20 s and fails to (its conflicts cost about a hundred nodes each
  there), and alphametics are over in a few nodes either way.
- Any other optimisation starts depth-first and goes on with the learning search after
  AUTO_SWITCH_FAILS failures (`"auto:N"`: after N), from the root with the incumbent.
  Models that depth-first search solves quickly are over before the switch, with its exact
  tree (every optimisation of the FlatZinc row set: template_design, the largest, takes
  1,442 failures; with a budget of 1,000 it switched and took four times as long); hard
  ones switch within seconds and get what learning brings (job shop, RCPSP, open shop,
  facility location, knapsack, bin packing: bench/HARD-auto.md).
- Naming a learning heuristic (`var_select="activity"`) asks for the learning search from
  the start (dfs.search).

A failure count rather than a clock decides, so that both builds and every run search the
same tree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.propagators.alldiff_value import ValueElimination

if TYPE_CHECKING:
    from conundrum.engine import Solver


def switch_budget(solver: Solver, budget: int, optimising: bool) -> int | None:
    """The failures after which an auto search switches to learning (`budget`, from the
    option), or None when it stays depth-first to the end (see the module)."""
    if not optimising:
        return None
    for p in solver.propagators:
        if isinstance(p, ValueElimination):  # every all_different stage
            return None
    return budget
