"""all_different at three strengths, plus all_different_except_0.

* `AllDifferentValue` (FIX, priority 0): when a variable is fixed, its value is removed from
  the others (forward checking).
* `AllDifferentBounds` (BOUNDS, priority 2): bounds consistency with Hall intervals, the
  union-find algorithm of López-Ortiz, Quimper, Tromp and van Beek (IJCAI 2003),
  O(n log n) per pass, combined with the value elimination of fixed variables (so that holes
  are used on bitset domains and duplicates are caught on bounds-only ones).
* `AllDifferentDomain` (DOMAIN, priority 2): domain consistency, Régin (AAAI 1994): a
  maximum matching variables -> values (repaired from the previous one, which is only a hint
  and needs no trailing), then every edge that lies in no maximum matching is removed
  (strongly connected components of the residual graph, plus edges that reach a free value).
  The graph's domains are bit sets over a value universe, chosen by size (see "Wide values"
  in alldiff_domain.py) so that nothing is ever as large as the span of the values.
* `AllDifferentExcept0` (FIX, priority 0): value elimination that ignores zeros.

Staging (`post_all_different`): the bounds and domain strengths are posted together with the
value stage. Value elimination then runs at once, at the cheapest priority, on every fixed
variable; the expensive stage runs only when every cheaper propagator has settled, and it
first asks whether it can prune at all: a Hall set of k variables needs k unfixed variables
whose domains have at most k values each, so when, with the unfixed domain sizes sorted,
the k-th smallest exceeds k for every k, no Hall set exists and there is nothing to do
(`_no_hall_set` and `hall_count` in alldiff_value.py). Early in a search that is the common case.

The stages live in one module each: alldiff_value.py (value elimination, and the base
class the other stages share), alldiff_bounds.py (Hall intervals), alldiff_domain.py
(Régin's filtering, with its notes on wide values) and alldiff_matching.py (the matching
and strongly connected components on bit sets). Every name is importable from here.
"""

from __future__ import annotations

from conundrum.engine import IntView, Solver
from conundrum.propagators.alldiff_bounds import AllDifferentBounds, HallIntervals
from conundrum.propagators.alldiff_domain import DIRECT_SPAN, UNION_LIMIT, AllDifferentDomain
from conundrum.propagators.alldiff_matching import (
    freeable_values,
    maximum_matching,
    scc_sets,
    scc_tarjan,
)
from conundrum.propagators.alldiff_value import AllDifferentExcept0, AllDifferentValue

__all__ = [
    "DIRECT_SPAN",
    "UNION_LIMIT",
    "AllDifferentBounds",
    "AllDifferentDomain",
    "AllDifferentExcept0",
    "AllDifferentValue",
    "HallIntervals",
    "freeable_values",
    "maximum_matching",
    "post_all_different",
    "scc_sets",
    "scc_tarjan",
]


def post_all_different(solver: Solver, xs: list[IntView], strength: str) -> None:
    """Post all_different(xs) at a strength ("value", "bounds" or "domain"), staged: the
    value stage runs first and the stronger stage after it (see the module docstring)."""
    solver.post(AllDifferentValue(solver, xs))
    if strength == "bounds":
        solver.post(AllDifferentBounds(solver, xs))
    elif strength == "domain":
        solver.post(AllDifferentDomain(solver, xs))
