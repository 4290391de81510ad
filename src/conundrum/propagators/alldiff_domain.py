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
  below) so that nothing is ever as large as the span of the values.
* `AllDifferentExcept0` (FIX, priority 0): value elimination that ignores zeros.

Staging (`post_all_different`): the bounds and domain strengths are posted together with the
value stage. Value elimination then runs at once, at the cheapest priority, on every fixed
variable; the expensive stage runs only when every cheaper propagator has settled, and it
first asks whether it can prune at all: a Hall set of k variables needs k unfixed variables
whose domains have at most k values each, so when, with the unfixed domain sizes sorted,
the k-th smallest exceeds k for every k, no Hall set exists and there is nothing to do
(`_no_hall_set`). Early in a search that is the common case.

Implementation notes shared by all of them:

- The variables may be views (`q[i] + i`): two of them may share a variable, which is
  why idempotence is decided on `x.root`.
- Value elimination keeps the variables that are not yet processed in a sparse set (the
  variable list itself, reordered by swaps, and a trailed size): `xs[:nfree]` are
  unprocessed, the others are fixed and their value was already removed from every
  unprocessed variable. Backtracking only restores the size: any order of the list is a
  valid one.
- Bounds-only domains (`var.bits < 0`, see engine/var.py) cannot lose interior values: a
  removal may be a no-op, so a bounds-only variable that becomes fixed is checked against
  the values already processed.
- No recursion anywhere: augmenting paths use an explicit queue, Tarjan uses an explicit
  call stack.

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

from conundrum.engine import BOUNDS, DOMAIN, FIX, Inconsistency, IntView, Propagator, Solver
from conundrum.engine.var import mask_of, offsets
from conundrum.state import RevInt

__all__ = [
    "AllDifferentBounds",
    "AllDifferentDomain",
    "AllDifferentExcept0",
    "AllDifferentValue",
    "HallIntervals",
    "post_all_different",
]

# The graph's bit sets are indexed by value - min when its values span at most this many:
# every puzzle's alldiff (values 0..n^2 at most), and cheap enough (one list entry per bit).
DIRECT_SPAN = 1024
# Beyond this many distinct values in the graph (bit sets that wide, on every matching
# step), the domain stage reasons on bounds instead (module docstring, "Wide values").
UNION_LIMIT = 1 << 16


def _has_alias(xs: list[IntView]) -> bool:
    return len({id(x.root) for x in xs}) != len(xs)


def _no_hall_set(xs: list[IntView]) -> bool:
    """True when no set of unfixed variables can be a Hall set: for every k, fewer than k
    unfixed domains have at most k values. Valid once the values of the fixed variables are
    eliminated (a Hall set may contain fixed variables, but then its unfixed part is a Hall
    set of what is left); a bounds-only domain keeps such values inside, so with one of
    them the answer is False. (Sizes are counted, not sorted: O(n).)"""
    n = len(xs)
    count = [0] * (n + 1)  # count[s]: unfixed domains of size s (s <= n)
    unfixed = 0
    for x in xs:
        if x.lo != x.hi:
            if x.bits < 0:
                return False
            unfixed += 1
            size = x.card
            if size <= n:
                count[size] = count[size] + 1  # (`+=` on an item: a generic call compiled)
    return not _hall_count(count, unfixed)


def _hall_count(count: list[int], most: int) -> bool:
    """Whether, for some k in 2..most, at least k domains have at most k values
    (count[s]: the domains of s values), as a Hall set of k variables needs."""
    at_most = 0
    for k in range(2, most + 1):
        at_most += count[k]
        if at_most >= k:
            return True
    return False


def post_all_different(solver: Solver, xs: list[IntView], strength: str) -> None:
    """Post all_different(xs) at a strength ("value", "bounds" or "domain"), staged: the
    value stage runs first and the stronger stage after it (see the module docstring)."""
    solver.post(AllDifferentValue(solver, xs))
    if strength == "bounds":
        solver.post(AllDifferentBounds(solver, xs))
    elif strength == "domain":
        solver.post(AllDifferentDomain(solver, xs))


class _ValueElimination(Propagator):
    """Shared machinery: remove the value of every newly fixed variable from the others."""

    skip_zero = False

    def __init__(self, solver: Solver, xs: list[IntView]) -> None:
        super().__init__(solver)
        # kept as a sparse set: xs[:nfree] are not yet processed, the others are fixed and
        # their values removed from the unprocessed ones (swaps reorder xs itself)
        self.xs = list(xs)
        self.n = len(self.xs)
        self.nfree = RevInt(solver.trail, self.n)
        # the value each variable was matched to last, moved along with its variable
        # (AllDifferentDomain's; the other stages have none)
        self.hint: list[int] | None = None
        # With a variable appearing twice, our own removals can wake us usefully.
        self.idempotent = not _has_alias(self.xs)

    def _eliminate(self) -> int:
        """Process newly fixed variables until none is left; return the new nfree."""
        xs = self.xs
        hint = self.hint
        n = self.n
        nfree: int = self.nfree.value
        start = nfree
        skip_zero = self.skip_zero
        again = True
        while again:
            again = False
            i = 0
            while i < nfree:
                x = xs[i]
                if x.lo != x.hi:
                    i += 1
                    continue
                v = x.lo
                nfree -= 1
                xs[i] = xs[nfree]
                xs[nfree] = x
                if hint is not None:
                    h = hint[i]
                    hint[i] = hint[nfree]
                    hint[nfree] = h
                if skip_zero and v == 0:
                    continue
                if x.bits < 0:
                    # An earlier removal of v from x may have been a no-op (interior value).
                    for p in range(nfree + 1, n):
                        if xs[p].lo == v:
                            raise Inconsistency
                for p in range(nfree):
                    y = xs[p]
                    if y.lo <= v <= y.hi:
                        y.remove(v)
                        if y.lo == y.hi and p < i:
                            again = True  # fixed behind the scan: look again
        if nfree != start:
            self.nfree.set(nfree)
        return nfree

    def _taken(self, nfree: int) -> set[int]:
        """The values of the fixed variables (xs[nfree:])."""
        xs = self.xs
        return {xs[p].lo for p in range(nfree, self.n)}

    def _skip_taken_bounds(self, nfree: int, taken: set[int]) -> None:
        """Move the bounds of unfixed bounds-only domains past the values of fixed variables
        (their removal was a no-op while the value was interior)."""
        xs = self.xs
        for p in range(nfree):
            y = xs[p]
            if y.bits < 0:
                _skip_values(y, taken)

    def _hall_fixpoint(self, hall: HallIntervals) -> None:
        """Value elimination and bounds consistency by Hall intervals, until neither
        prunes (the bounds stage; the domain stage's fallback on wide values)."""
        xs = self.xs
        n = self.n
        lo, hi = hall.lo, hall.hi
        while True:
            if self._eliminate() == 0:
                self.deactivate()
                return
            if _no_hall_set(xs):
                return
            for k in range(n):
                x = xs[k]
                lo[k] = x.lo
                hi[k] = x.hi
            if not hall.narrow():
                raise Inconsistency
            again = False
            for k in range(n):
                x = xs[k]
                l, h = lo[k], hi[k]
                if l != x.lo or h != x.hi:
                    was_fixed = x.lo == x.hi
                    x.set_min(l)
                    x.set_max(h)
                    # holes moved the bound further, or a fixed value needs eliminating
                    if x.lo != l or x.hi != h or (x.lo == x.hi and not was_fixed):
                        again = True
            if not again:
                return


def _skip_values(x: IntView, excluded: set[int]) -> None:
    """Move x's bounds past the values in `excluded` (a bounds-only domain cannot lose
    them inside; each step removes one of them, so this is O(len(excluded)))."""
    while x.lo in excluded:
        x.set_min(x.lo + 1)
    while x.hi in excluded:
        x.set_max(x.hi - 1)


class AllDifferentValue(_ValueElimination):
    """all_different(xs) by value elimination: a fixed value is removed from the others."""

    priority = 0

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, FIX)
        self.propagate()

    def propagate(self) -> None:
        nfree = self._eliminate()
        if nfree == 0 or (nfree == 1 and self.xs[0].bits >= 0):
            self.deactivate()


class AllDifferentExcept0(AllDifferentValue):
    """all_different_except_0(xs): non-zero values pairwise different (value elimination)."""

    skip_zero = True


class HallIntervals:
    """Bounds consistency of all_different over n intervals: one lower and one upper pass of
    the union-find algorithm of López-Ortiz et al. The caller fills `lo` and `hi`; `narrow`
    tightens them in place. Memory O(n) whatever the values: only ranks are indexed."""

    def __init__(self, n: int) -> None:
        self.n = n
        size = 2 * n + 2
        self.lo = [0] * n
        self.hi = [0] * n
        self._bounds = [0] * size
        self._t = [0] * size
        self._d = [0] * size
        self._h = [0] * size
        self._minrank = [0] * n
        self._maxrank = [0] * n

    def narrow(self) -> bool:
        """Tighten self.lo/self.hi to bounds consistency; False if no assignment exists."""
        n = self.n
        lo, hi = self.lo, self.hi
        bounds, t, d, h = self._bounds, self._t, self._d, self._h
        minrank, maxrank = self._minrank, self._maxrank
        minsorted = sorted(range(n), key=lo.__getitem__)
        maxsorted = sorted(range(n), key=hi.__getitem__)

        # ranks: bounds[] holds the distinct values among the lo's and (hi + 1)'s
        mn = lo[minsorted[0]]
        mx = hi[maxsorted[0]] + 1
        last = mn - 2
        nb = 0
        bounds[0] = last
        i = j = 0
        while True:
            if i < n and mn <= mx:
                if mn != last:
                    nb += 1
                    bounds[nb] = last = mn
                minrank[minsorted[i]] = nb
                i += 1
                if i < n:
                    mn = lo[minsorted[i]]
            else:
                if mx != last:
                    nb += 1
                    bounds[nb] = last = mx
                maxrank[maxsorted[j]] = nb
                j += 1
                if j == n:
                    break
                mx = hi[maxsorted[j]] + 1
        bounds[nb + 1] = bounds[nb] + 2

        # lower bounds: intervals by increasing max
        for i in range(1, nb + 2):
            t[i] = h[i] = i - 1
            d[i] = bounds[i] - bounds[i - 1]
        for k in maxsorted:
            x = minrank[k]
            y = maxrank[k]
            z = x + 1
            while t[z] > z:
                z = t[z]
            j = t[z]
            d[z] -= 1
            if d[z] == 0:
                t[z] = z + 1
                z = t[z]
                while t[z] > z:
                    z = t[z]
                t[z] = j
            p = x + 1
            while p != z:  # path compression
                q = t[p]
                t[p] = z
                p = q
            if d[z] < bounds[z] - bounds[y]:
                return False
            if h[x] > x:
                w = h[x]
                while h[w] > w:
                    w = h[w]
                lo[k] = bounds[w]
                p = x
                while p != w:
                    q = h[p]
                    h[p] = w
                    p = q
            if d[z] == bounds[z] - bounds[y]:  # Hall interval [bounds[j], bounds[y])
                p = h[y]
                while p != j - 1:
                    q = h[p]
                    h[p] = y
                    p = q
                h[y] = j - 1

        # upper bounds: intervals by decreasing min
        for i in range(nb + 1):
            t[i] = h[i] = i + 1
            d[i] = bounds[i + 1] - bounds[i]
        for k in reversed(minsorted):
            x = maxrank[k]
            y = minrank[k]
            z = x - 1
            while t[z] < z:
                z = t[z]
            j = t[z]
            d[z] -= 1
            if d[z] == 0:
                t[z] = z - 1
                z = t[z]
                while t[z] < z:
                    z = t[z]
                t[z] = j
            p = x - 1
            while p != z:
                q = t[p]
                t[p] = z
                p = q
            if d[z] < bounds[y] - bounds[z]:
                return False
            if h[x] < x:
                w = h[x]
                while h[w] < w:
                    w = h[w]
                hi[k] = bounds[w] - 1
                p = x
                while p != w:
                    q = h[p]
                    h[p] = w
                    p = q
            if d[z] == bounds[y] - bounds[z]:
                p = h[y]
                while p != j + 1:
                    q = h[p]
                    h[p] = y
                    p = q
                h[y] = j + 1
        return True


class AllDifferentBounds(_ValueElimination):
    """all_different(xs), bounds consistent (Hall intervals) plus value elimination."""

    priority = 2

    def __init__(self, solver: Solver, xs: list[IntView]) -> None:
        super().__init__(solver, xs)
        self.hall = HallIntervals(self.n)

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        self._hall_fixpoint(self.hall)


class AllDifferentDomain(_ValueElimination):
    """all_different(xs), domain consistent (Régin's matching algorithm), after value
    elimination and the Hall-set test of the module docstring.

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
        # it and counts domain sizes for the Hall-set test (module docstring). A variable
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
        if taken is None and not _hall_count(count, nfree):
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
                    _skip_values(x, excluded)

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
                    _skip_values(x, excluded)


def maximum_matching(doms: list[int], match: list[int]) -> tuple[list[int], int]:
    """Repair `match` (a value bit per variable, or -1; a hint that may be stale) into a
    maximum matching that covers every variable, along shortest augmenting paths. Returns
    (owner: value bit -> its variable or -1, the mask of matched values); Inconsistency
    when some variable cannot be matched."""
    union = 0
    for dm in doms:
        union |= dm
    owner = [-1] * union.bit_length()
    matched = 0
    for k in range(len(doms)):
        b = match[k]
        if b >= 0 and (doms[k] >> b) & 1 and not (matched >> b) & 1:
            owner[b] = k
            matched |= 1 << b
        else:
            match[k] = -1
    for k in range(len(doms)):
        if match[k] < 0:
            matched = _augment(k, doms, match, owner, matched)
    return owner, matched


def _augment(root: int, doms: list[int], match: list[int], owner: list[int],
             matched: int) -> int:
    """Match `root` along a shortest augmenting path (BFS); return the matched mask."""
    prev = [-1] * len(doms)
    queue = [root]
    seen = 0
    qi = 0
    while qi < len(queue):
        y = queue[qi]
        qi += 1
        cand = doms[y] & ~seen
        free = cand & ~matched
        if free:
            b = (free & -free).bit_length() - 1
            matched |= 1 << b
            cur = y
            while cur >= 0:
                old = match[cur]
                match[cur] = b
                owner[b] = cur
                b = old
                cur = prev[cur]
            return matched
        seen |= cand
        while cand:
            low = cand & -cand
            cand ^= low
            z = owner[low.bit_length() - 1]
            prev[z] = y
            queue.append(z)
    raise Inconsistency


def freeable_values(doms: list[int], match: list[int], matched: int) -> tuple[int, list[int]]:
    """The values that some maximum matching leaves free: the free values, and the matched
    value of each variable that can move to such a value (alternating paths from free
    values). Returns (that mask, the variables that cannot reach a free value)."""
    union = 0
    for dm in doms:
        union |= dm
    fvals = union & ~matched
    if not fvals:
        return 0, [k for k in range(len(doms))]
    pending: list[int] = []
    # The first pass sees every variable and builds only the list of those left waiting
    # (starting from a list of them all costs 1.3% of a Golomb ruler's instructions).
    for k in range(len(doms)):
        if doms[k] & fvals:
            fvals |= 1 << match[k]
        else:
            pending.append(k)
    grew = len(pending) < len(doms)
    while grew and pending:  # later passes, the variables still waiting
        grew = False
        rest = []
        for k in pending:
            if doms[k] & fvals:
                fvals |= 1 << match[k]
                grew = True
            else:
                rest.append(k)
        pending = rest
    return fvals, pending


def scc_sets(nodes: list[int], doms: list[int], match: list[int], owner: list[int],
             fvals: int, allowed: list[int]) -> None:
    """Components by forward/backward closure on bit sets; the default (see scc_tarjan).

    A node is a variable, named by the bit of its matched value, so that a successor set
    is simply dom(y) minus the freeable values. The component of the lowest remaining
    node u is the part of its forward closure that reaches u back. On the dense graphs
    of all_different this does a few bit-set operations per node, where Tarjan does a
    few Python statements per edge (about 3x faster at 25 variables).
    """
    succ = [0] * len(owner)  # value bit -> the values its owner can move to
    remaining = 0
    for k in nodes:
        b = match[k]
        succ[b] = doms[k] & ~fvals
        remaining |= 1 << b
    while remaining:
        u = remaining & -remaining
        reach = frontier = u
        while frontier:  # forward closure of u inside the remaining nodes
            new = 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new |= succ[low.bit_length() - 1]
            frontier = new & remaining & ~reach
            reach |= frontier
        comp = u
        cand = reach ^ u
        grew = True
        while grew and cand:  # the nodes of that closure that reach u
            grew = False
            rest = cand
            while rest:
                low = rest & -rest
                rest ^= low
                if succ[low.bit_length() - 1] & comp:
                    comp |= low
                    cand ^= low
                    grew = True
        remaining ^= comp
        vals = comp | fvals
        while comp:
            low = comp & -comp
            comp ^= low
            allowed[owner[low.bit_length() - 1]] = vals


def scc_tarjan(nodes: list[int], doms: list[int], match: list[int], owner: list[int],
               fvals: int, allowed: list[int]) -> None:
    """Tarjan with an explicit stack; allowed[y] = matched values of y's component
    plus the freeable ones. The reference implementation scc_sets is tested against."""
    m = len(doms)
    index = [-1] * m
    low = [0] * m
    on_stack = [False] * m
    rem = [0] * m
    for y in nodes:
        rem[y] = doms[y] & ~fvals & ~(1 << match[y])
    stack: list[int] = []
    counter = 0
    for s in nodes:
        if index[s] >= 0:
            continue
        index[s] = low[s] = counter
        counter += 1
        stack.append(s)
        on_stack[s] = True
        call = [s]
        while call:
            y = call[-1]
            r = rem[y]
            if r:
                bit = r & -r
                rem[y] = r ^ bit
                z = owner[bit.bit_length() - 1]
                if index[z] < 0:
                    index[z] = low[z] = counter
                    counter += 1
                    stack.append(z)
                    on_stack[z] = True
                    call.append(z)
                elif on_stack[z] and index[z] < low[y]:
                    low[y] = index[z]
                continue
            call.pop()
            if call:
                p = call[-1]
                if low[y] < low[p]:
                    low[p] = low[y]
            if low[y] == index[y]:
                comp = []
                vals = 0
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp.append(w)
                    vals |= 1 << match[w]
                    if w == y:
                        break
                vals |= fvals
                for w in comp:
                    allowed[w] = vals
