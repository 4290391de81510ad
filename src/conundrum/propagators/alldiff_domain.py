"""all_different, domain consistent: Régin (AAAI 1994), after value elimination and the
Hall-set test (alldiff.py). A maximum matching variables -> values (repaired from the
previous one, which is only a hint and needs no trailing), then every edge that lies in no
maximum matching is removed (strongly connected components of the residual graph, plus
edges that reach a free value; alldiff_matching.py). The graph's domains are bit sets over
a value universe, chosen by size (see "Wide values" below) so that nothing is ever as large
as the span of the values.

Wide values. Domains may lie anywhere (a bounds-only `-10**9..10**9`, a view `x + 10**18`),
so memory and time must follow the number of variables and the domain sizes, never the
span of the values (`max - min` over all domains): a bit set indexed by `value - min`, and
the `owner` list of the matching with one entry per bit, grew with that span (0.9 GB for
`all_different([x, x + 1, x + 10**8])`, a MemoryError for `x + 10**17`, and in the
compiled engine failed allocations surfacing as other errors or an abort). So:

- Only small domains enter the matching graph: a variable with at least as many values as
  there are unfixed variables cannot be blocked and stays out (AllDifferentDomain), and a
  bounds-only one enters only when it has fewer than n values (its interval may still hold
  values of fixed variables, which are left out of its graph domain). The graph therefore
  has fewer than n * n edges.
- The graph's bit sets are indexed by `value - min` when the graph's own values span at
  most `DIRECT_SPAN` (every puzzle: the fast path, unchanged); otherwise by the rank of the
  value among the sorted distinct values of the graph ("sparse" graph: a dict and a sort,
  O(edges log edges)). Both give the same pruning, so the choice never changes a search.
- If even the distinct values of the graph outnumber `UNION_LIMIT` (hundreds of variables
  with hundreds of scattered values each), matching on bit sets that wide is too costly:
  the domain stage then does what the bounds stage does, bounds consistency by Hall
  intervals on the sorted bounds (`HallIntervals`: memory O(n)) plus value elimination,
  correct but weaker, until the domains shrink.
- Bounds-only domains move their bounds past the values of fixed variables and past the
  values every maximum matching uses by looking those values up in a set (never by a shift
  of `value - min`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine import DOMAIN, IntView, Solver
from conundrum.engine.bits import mask_of, offsets
from conundrum.propagators.alldiff_bounds import HallIntervals
from conundrum.propagators.alldiff_explain import SETS, explain_entry
from conundrum.propagators.alldiff_matching import freeable_values, maximum_matching, scc_sets
from conundrum.propagators.alldiff_value import ValueElimination, hall_count, skip_values

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred

# The graph's bit sets are indexed by value - min when its values span at most this many:
# every puzzle's alldiff (values 0..n^2 at most), and cheap enough (one list entry per bit).
DIRECT_SPAN: Final = 1024
# Beyond this many distinct values in the graph (bit sets that wide, on every matching
# step), the domain stage reasons on bounds instead (module docstring, "Wide values").
UNION_LIMIT: Final = 1 << 16


class AllDifferentDomain(ValueElimination):
    """all_different(xs), domain consistent (Régin's matching algorithm), after value
    elimination and the Hall-set test of alldiff.py's docstring.

    A variable whose domain has at least nfree values (nfree: the unfixed variables) can
    never be blocked: any assignment of the others leaves it a free value. Such "wide"
    variables (every bounds-only variable until it is small) are left out of the matching
    graph; they only lose the values that every maximum matching of the other variables
    uses. Interior values of a bounds-only variable cannot be removed, so on those the
    filtering moves bounds only (still sound, and exact once the variable is fixed).

    `direct_span` and `union_limit` choose the graph's representation (module docstring,
    "Wide values"); tests lower them to exercise the sparse graph and the fallback.
    """

    priority = 2
    reasons = SETS  # a value removed by a Hall set (alldiff_explain.py)

    def __init__(self, solver: Solver, xs: list[IntView], direct_span: int = DIRECT_SPAN,
                 union_limit: int = UNION_LIMIT) -> None:
        super().__init__(solver, xs)
        # the last matching as values: only a hint (checked before use), so not trailed
        self.hint = [0] * self.n
        # Bounds-only domains (too wide for a bit set) are so from the start and stay so:
        # a variable watched by this propagator keeps its bit set (IntVar.drop_bits).
        self.bounds_only = any(x.bits < 0 for x in self.xs)
        self.direct_span = direct_span
        self.union_limit = union_limit
        self.hall: HallIntervals | None = None  # made on the first fallback

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        """Explain entry e; a Hall set's matching starts from the last one (`hint`)."""
        return explain_entry(journal, self.xs, e, self.skip_zero, self.reasons, out,
                             self.hint, self.direct_span)

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, DOMAIN)
        if self.n <= 1:
            self.deactivate()
            return
        self.propagate()

    def propagate(self) -> None:
        nfree = self._eliminate()
        if nfree == 0:
            self.deactivate()
            return
        xs = self.xs
        n = self.n
        taken: set[int] | None = None
        if self.bounds_only:
            taken = self._taken(nfree)
            self._skip_taken_bounds(nfree, taken)
        # One pass over the unfixed variables sorts them into the matching graph or out of
        # it and counts domain sizes for the Hall-set test (alldiff.py). A variable
        # with at least nfree values cannot be blocked by the nfree - 1 others (a
        # bounds-only one may still hold fixed values inside: it needs n); it cannot be in
        # a Hall set either, so the test counts only the graph's variables.
        count = [0] * (nfree + 1)  # count[s]: graph variables with s values (s <= nfree)
        small: list[int] = []  # positions of the variables in the graph
        wide: list[int] = []
        off = top = 0
        for i in range(nfree):
            x = xs[i]
            size = x.card
            if size >= (n if x.bits < 0 else nfree):
                wide.append(i)
                continue
            if size <= nfree:  # (a bounds-only one may have more: it skips the test)
                count[size] = count[size] + 1  # (`+=` on an item: a generic call compiled)
            lo, hi = x.lo, x.hi
            if not small:
                off, top = lo, hi
            else:
                if lo < off:
                    off = lo
                if hi > top:
                    top = hi
            small.append(i)
        if not small:
            return
        # bounds-only domains hide taken values: always look
        if taken is None and not hall_count(count, nfree):
            return  # no Hall set: nothing to prune
        if top - off < self.direct_span:
            self._regin_direct(small, wide, off, top, taken)
        else:
            self._regin_sparse(small, wide, taken)

    def _regin_direct(self, small: list[int], wide: list[int], off: int, top: int,
                      taken: set[int] | None) -> None:
        """Régin on bit sets indexed by value - off (off..top spans every graph domain)."""
        xs = self.xs
        m = len(small)
        hint = self.hint
        assert hint is not None
        span = top - off
        gone = 0  # the fixed values within off..top, left out of bounds-only domains
        if taken is not None:
            for v in taken:
                if off <= v <= top:
                    gone |= 1 << (v - off)
        doms = [0] * m
        match = [-1] * m  # value bit of each graph variable, seeded from the last matching
        for k in range(m):
            i = small[k]
            x = xs[i]
            # a bit set only shifts up (mask() would also clip)
            doms[k] = x.bits << (x.lo - off) if x.bits >= 0 else x.mask(off, top) & ~gone
            b = hint[i] - off
            match[k] = b if 0 <= b <= span else -1  # (a hint from a sparse graph: far off)
        owner, matched = maximum_matching(doms, match)
        for k in range(m):
            hint[small[k]] = match[k] + off
        fvals, pending = freeable_values(doms, match, matched)
        if not pending:
            return  # every variable can move to a free value: every value is supported
        allowed = [fvals] * m
        scc_sets(pending, doms, match, owner, fvals, allowed)

        # ---- prune
        for k in range(m):
            dm = doms[k]
            if dm & ~allowed[k]:
                xs[small[k]].keep_mask(off, dm & allowed[k])
        forced = matched & ~fvals
        if forced and wide:
            excluded: set[int] | None = None
            for i in wide:
                x = xs[i]
                if x.bits >= 0:
                    x.remove_mask(off, forced)
                else:
                    if excluded is None:
                        excluded = {off + b for b in offsets(forced)}
                        if taken is not None:
                            excluded |= taken
                    skip_values(x, excluded)

    def _regin_sparse(self, small: list[int], wide: list[int],
                      taken: set[int] | None) -> None:
        """Régin on bit sets indexed by the rank of each value among the graph's distinct
        values: memory and time follow the domain sizes, not the span of the values. Too
        many distinct values: bounds consistency instead (module docstring)."""
        xs = self.xs
        hint = self.hint
        assert hint is not None
        lists: list[list[int]] = []
        universe_set: set[int] = set()
        for i in small:
            x = xs[i]
            if x.bits >= 0:
                vals = x.values_list()
            elif taken is not None:
                vals = [v for v in range(x.lo, x.hi + 1) if v not in taken]
            else:
                vals = list(range(x.lo, x.hi + 1))
            lists.append(vals)
            universe_set.update(vals)
        if len(universe_set) > self.union_limit:
            hall = self.hall
            if hall is None:
                hall = self.hall = HallIntervals(self.n)
            self._hall_fixpoint(hall)
            return
        universe = sorted(universe_set)
        rank = {v: b for b, v in enumerate(universe)}
        m = len(small)
        doms = [mask_of([rank[v] for v in vals]) for vals in lists]
        match = [rank.get(hint[i], -1) for i in small]
        owner, matched = maximum_matching(doms, match)
        for k in range(m):
            hint[small[k]] = universe[match[k]]
        fvals, pending = freeable_values(doms, match, matched)
        if not pending:
            return
        allowed = [fvals] * m
        scc_sets(pending, doms, match, owner, fvals, allowed)

        # ---- prune
        for k in range(m):
            dm = doms[k]
            if dm & ~allowed[k]:
                xs[small[k]].keep_values([universe[b] for b in offsets(dm & allowed[k])])
        forced = matched & ~fvals
        if forced and wide:
            values = [universe[b] for b in offsets(forced)]
            excluded = set(values)
            if taken is not None:
                excluded |= taken
            for i in wide:
                x = xs[i]
                if x.bits >= 0:
                    for v in values:
                        x.remove(v)
                else:
                    skip_values(x, excluded)
