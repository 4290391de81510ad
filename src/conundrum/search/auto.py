"""search="auto", the default: which search a run gets, by rules measured on the benchmark
(issues 29 and 42).

- All solutions or a count are searched depth-first: the puzzles' search.
- An optimisation, or one solution, is a portfolio (compiler/portfolio.py): the
  depth-first search for its
  first AUTO_SWITCH_FAILS failures (`"auto:N"`: N), then the depth-first and the learning
  search in turns, sharing the incumbent, and under a time limit large neighbourhood
  search as a third. Models that depth-first search solves quickly are over before the
  first turn ends, with its exact tree (the puzzles, whose node counts the benchmark's
  puzzle rows keep; every optimisation of the FlatZinc row set: template_design, the
  largest, takes 1,442 failures); on the others the run takes about
  twice what the better search needs alone, where the switch of issue 29 (depth-first,
  then learning to the end) lost the proofs only depth-first search finds (a partition,
  a shipping model, abbott: bench/CORPUS.md) and the all_different rule below lost the
  ones only learning finds.
- Where the portfolio does not run (a parallel search's workers, an objective for
  bisection), an optimisation over a model with an all_different stays depth-first to the
  end (the Golomb rulers) and any other switches to learning after the budget, as
  `switch_budget` says.
- Naming a learning heuristic (`var_select="activity"`) asks for the learning search from
  the start (dfs.search).
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
