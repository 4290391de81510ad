"""Explanations of the arithmetic relations (issue 29 slice 6), for the learning search.

The arithmetic propagators (products, quotients, remainders, |x|, powers, affine maps,
offsets, listed values, domain-consistent sums, argmax) reason in several rounds mixing
bounds, holes and enumeration, so their explanations are not replayed from what they did:
they are *proved* after the fact. A relation class (`Relation`) states its constraint twice:

* `satisfied(values)`: the constraint itself, on one value per variable (its views');
* `hull(k, lo, hi, bits)`: intervals holding every value of variable k that has a support
  in the box (lo, hi, bits) of the others, within k's own (lo[k], hi[k], bits[k]): the
  interval reasoning, written to over-approximate, never to filter (arith_hulls.py).

Entry e changed view k. A *proof* of it ranges over a box of domains: the "bad" values of
k's domain (those the entry excluded: below a raised lower bound, above a lowered upper
bound, or a hole it made) have no support with the others in theirs. It holds when none of
them lies in the hull or (few enough to list, EXPLAIN_LIMIT checks) none has a support by
enumeration. It starts from the domains just before e (k's previous one: the generic
explanation's box) and is then widened towards the root domains as far as it still holds
(the widenings together spend at most EXPLAIN_LIMIT more checks), k's own domain first: a
whole domain to the root, else its holes dropped, else each bound in turn. What is left is
the explanation: nothing for a root domain, the bounds kept, or the full domain. So the
other variables' bounds explain a bounds inference, k's previous domain comes in only when
the new bound skipped holes of it, and a variable the inference did not need is left out. A
failure is proved the same way: some view has no supported value at all.

So an explanation is sound whatever path the propagator took, as long as `hull`
over-approximates and `satisfied` is the constraint; tests/test_journal.py checks both
(and this module's enumeration can be switched off there, to check the hulls alone).
Root facts are left out, as in linear_explain.py. A relation whose views share a variable
keeps the generic explanation.

MinMax is explained first by the rule behind each of its bounds (`minmax_change`: a few
bounds in O(n), where the proof would widen n domains one by one), and proved only when
that fails.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntView, Propagator
from conundrum.engine.bits import count_bits, lost, offsets
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, Pred
from conundrum.engine.reasons import domain_preds

# constraint checks one proof may spend enumerating supports (0: hulls only)
EXPLAIN_LIMIT = 1024


class Relation(Propagator):
    """A propagator whose explanations are proved from its constraint (see the module):
    subclasses give `views`, `satisfied` and, to be explained on wide domains, `hull`."""

    explains = True

    def views(self) -> list[IntView]:
        """The constrained views, in the order `satisfied` and `hull` number them."""
        raise NotImplementedError

    def satisfied(self, values: list[int]) -> bool:
        """Whether one value per view satisfies the constraint."""
        raise NotImplementedError

    def hull(self, k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
        """Intervals (flattened: l1, h1, l2, h2, ...; empty ones allowed) holding every
        value of view k in its own domain with a support in the others' domains (each
        lo..hi, bit set `bits` or -1 for bounds only). The default knows nothing."""
        return [lo[k], hi[k]]

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return explain_change(journal, self, e, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_failure(journal, self, out)


# --------------------------------------------------------------------- domains of views


def _first_in(a: int, b: int, lo: int, hi: int, bits: int) -> int | None:
    """The smallest value of the domain (lo, hi, bits) within a..b, or None."""
    if a < lo:
        a = lo
    if b > hi:
        b = hi
    if a > b:
        return None
    if bits < 0:
        return a
    window = (bits >> (a - lo)) & ((1 << (b - a + 1)) - 1)
    if not window:
        return None
    return a + (window & -window).bit_length() - 1


def _shared(xs: list[IntView]) -> bool:
    """Whether two views name the same variable."""
    seen: set[int] = set()
    for x in xs:
        i = x.root.index
        if i in seen:
            return True
        seen.add(i)
    return False


# ----------------------------------------------------------------------- the proofs


class _Entry:
    """What entry e excluded from its variable's domain, in view values: everything below
    `lo` if `raised`, above `hi` if `lowered`, and the holes it made inside."""

    def __init__(self, journal: Journal, e: int, offset: int) -> None:
        i = journal.var[e]
        lo, hi, bits = journal.domain_at(i, e)
        plo, phi, pbits = journal.domain_at(i, journal.prev[e])
        self.lo = lo + offset
        self.hi = hi + offset
        self.raised = lo > plo
        self.lowered = hi < phi
        self.holes = [v + offset for v in lost(lo + 1, hi - 1, (plo, phi, pbits), (lo, hi, bits))]


def _bad_ranges(entry: _Entry, a: int, b: int, out: list[int]) -> None:
    """The parts of a..b the entry excluded, as flattened intervals."""
    if entry.raised and a < entry.lo:
        out.append(a)
        out.append(min(b, entry.lo - 1))
    if entry.lowered and b > entry.hi:
        out.append(max(a, entry.hi + 1))
        out.append(b)
    for v in entry.holes:
        if a <= v <= b:
            out.append(v)
            out.append(v)


def _values(lo: int, hi: int, bits: int) -> list[int]:
    """The values of a domain (the caller has checked it is small)."""
    if bits < 0:
        return list(range(lo, hi + 1))
    return [lo + o for o in offsets(bits)]  # not a shift per value: each copies the set


def _supported(p: Relation, k: int, v: int, lo: list[int], hi: list[int],
               bits: list[int], budget: list[int], listed: list[list[int] | None]) -> bool:
    """Whether view k = v has a support in the others' domains, by enumeration (an
    odometer over their values); True (no proof) when it would exceed budget[0] checks,
    which it spends. `listed[j]`: view j's values once listed (the caller's, for the
    same domains: every v of one proof enumerates the same others)."""
    n = len(lo)
    lists: list[list[int]] = []
    count = 1
    for j in range(n):
        if j == k:
            lists.append([v])
            continue
        if hi[j] - lo[j] >= budget[0]:
            return True
        vals = listed[j]
        # counted before listed: a set too large for the budget is not listed at all
        if vals is not None:
            count *= len(vals)
        else:
            count *= hi[j] - lo[j] + 1 if bits[j] < 0 else count_bits(bits[j])
        if count > budget[0]:
            return True
        if vals is None:
            vals = listed[j] = _values(lo[j], hi[j], bits[j])
        lists.append(vals)
    if count == 0:
        return False
    budget[0] -= count
    at = [0] * n
    values = [lst[0] for lst in lists]
    while True:
        if p.satisfied(values):
            return True
        j = 0
        while j < n:
            at[j] += 1
            if at[j] < len(lists[j]):
                values[j] = lists[j][at[j]]
                break
            at[j] = 0
            values[j] = lists[j][0]
            j += 1
        if j == n:
            return False


def _excluded(p: Relation, k: int, entry: _Entry | None, lo: list[int], hi: list[int],
              bits: list[int], budget: list[int]) -> bool:
    """Whether no value of view k's domain (lo[k], hi[k], bits[k]) that the entry excluded
    (every value when entry is None: a failure) has a support in the others' domains:
    the hull first, then enumeration within the checks left in budget[0] (spent)."""
    hull = p.hull(k, lo, hi, bits)
    bad: list[int] = []
    for t in range(0, len(hull), 2):
        a = max(hull[t], lo[k])
        b = min(hull[t + 1], hi[k])
        if a > b:
            continue
        if entry is None:
            bad.append(a)
            bad.append(b)
        else:
            _bad_ranges(entry, a, b, bad)
    listed: list[list[int] | None] = [None] * len(lo)
    for t in range(0, len(bad), 2):
        a, b = bad[t], bad[t + 1]
        v = _first_in(a, b, lo[k], hi[k], bits[k])
        while v is not None:
            if budget[0] <= 0 or _supported(p, k, v, lo, hi, bits, budget, listed):
                return False
            v = _first_in(v + 1, b, lo[k], hi[k], bits[k])
    return True


ROOT_ONLY: Final = 0  # a view's domain in a proof: its root domain (nothing to say)
BOUNDS_ONLY: Final = 1  # its bounds (the holes left out)
FULL: Final = 2  # its domain as a journal entry left it


class _Box:
    """The domains a proof ranges over, in view values: for each view lo, hi, bits (-1:
    bounds only), how much of it the proof still needs (`need`: ROOT_ONLY, BOUNDS_ONLY,
    FULL) and the journal entry it was read from (`src`)."""

    def __init__(self, journal: Journal, xs: list[IntView]) -> None:
        self.journal = journal
        self.xs = xs
        self.lo: list[int] = []
        self.hi: list[int] = []
        self.bits: list[int] = []
        self.need: list[int] = []
        self.src: list[int] = []
        # the checks the widenings may spend together: one proof's worth. Each widening
        # that enumeration cannot settle spent a whole EXPLAIN_LIMIT before; there are up
        # to 4 a view (prime_looking's explanations: 90% of its learning search's time)
        self.spare = [EXPLAIN_LIMIT]

    def read(self, x: IntView, entry: int) -> None:
        """Add view x with its domain as `entry` left it."""
        lo, hi, bits = self.journal.domain_at(x.root.index, entry)
        self.lo.append(lo + x.offset)
        self.hi.append(hi + x.offset)
        self.bits.append(bits)
        self.need.append(FULL if bits >= 0 else BOUNDS_ONLY)
        self.src.append(entry)

    def proves(self, p: Relation, k: int, entry: _Entry | None, first: bool = False) -> bool:
        """Whether the box proves the entry (`first`: the proof the explanation needs,
        with checks of its own; else a widening, from the spare ones)."""
        budget = [EXPLAIN_LIMIT] if first else self.spare
        return _excluded(p, k, entry, self.lo, self.hi, self.bits, budget)

    def relax(self, p: Relation, k: int, entry: _Entry | None, j: int) -> None:
        """Widen view j's domain towards its root domain as far as the proof (of view k)
        still holds: all of it, else its holes, then each bound."""
        x = self.xs[j]
        journal = self.journal
        i = x.root.index
        rlo = journal.root_lo[i] + x.offset
        rhi = journal.root_hi[i] + x.offset
        lo, hi, bits, need = self.lo[j], self.hi[j], self.bits[j], self.need[j]
        self.lo[j], self.hi[j], self.bits[j] = rlo, rhi, journal.root_bits[i]
        if self.proves(p, k, entry):
            self.need[j] = ROOT_ONLY
            return
        self.lo[j], self.hi[j], self.bits[j] = lo, hi, -1
        if need == FULL and not self.proves(p, k, entry):
            self.bits[j] = bits
            return
        self.need[j] = BOUNDS_ONLY
        if lo > rlo:
            self.lo[j] = rlo
            if not self.proves(p, k, entry):
                self.lo[j] = lo
        if hi < rhi:
            self.hi[j] = rhi
            if not self.proves(p, k, entry):
                self.hi[j] = hi

    def emit(self, out: list[Pred]) -> bool:
        """The predicates that say the domains the proof needs (root facts left out);
        False past the holes cap of reasons.py."""
        journal = self.journal
        start = len(out)
        for j in range(len(self.xs)):
            r = self.xs[j].root
            need = self.need[j]
            if need == FULL:
                if not domain_preds(journal, r, self.src[j], out):
                    del out[start:]
                    return False
            elif need == BOUNDS_ONLY:
                i = r.index
                off = self.xs[j].offset
                if self.lo[j] - off > journal.root_lo[i]:
                    out.append(Pred(r, GE, self.lo[j] - off))
                if self.hi[j] - off < journal.root_hi[i]:
                    out.append(Pred(r, LE, self.hi[j] - off))
        return True


def explain_change(journal: Journal, p: Relation, e: int, out: list[Pred]) -> bool:
    """Explain entry e of relation p (see the module); False: the generic explanation."""
    xs = p.views()
    i = journal.var[e]
    k = -1
    for j in range(len(xs)):
        if xs[j].root.index == i:
            k = j
    if k < 0 or _shared(xs):
        return False
    entry = _Entry(journal, e, xs[k].offset)
    box = _Box(journal, xs)
    for j in range(len(xs)):
        r = xs[j].root.index
        box.read(xs[j], journal.prev[e] if j == k else journal.entry_before(r, e))
    if not box.proves(p, k, entry, first=True):
        return False  # beyond the hull and the enumeration: the generic explanation
    box.relax(p, k, entry, k)  # the changed variable's own domain first
    for j in range(len(xs)):
        if j != k:
            box.relax(p, k, entry, j)
    return box.emit(out)


def explain_failure(journal: Journal, p: Relation, out: list[Pred]) -> bool:
    """Explain a failure of relation p now: some view has no supported value in the box
    of the domains, widened as far as that still holds. False when no view is proved
    empty."""
    xs = p.views()
    if _shared(xs):
        return False
    now = len(journal)
    box = _Box(journal, xs)
    for x in xs:
        box.read(x, journal.entry_before(x.root.index, now))
    for k in range(len(xs)):
        if box.proves(p, k, None, first=True):
            box.relax(p, k, None, k)
            for j in range(len(xs)):
                if j != k:
                    box.relax(p, k, None, j)
            return box.emit(out)
    return False


# ------------------------------------------------- min and max: the direct explanations


def _oriented(journal: Journal, x: IntView, entry: int, s: int) -> tuple[int, int]:
    """x's bounds as entry left them, in the orientation s (1: as is, -1: negated, so that
    a minimum reads as a maximum)."""
    lo, hi, _ = journal.domain_at(x.root.index, entry)
    lo += x.offset
    hi += x.offset
    return (lo, hi) if s == 1 else (-hi, -lo)


def _bound(journal: Journal, x: IntView, s: int, upper: bool, t: int,
           out: list[Pred]) -> None:
    """Append [x <= t] (upper) or [x >= t] in orientation s, unless a root fact."""
    kind = LE if upper == (s == 1) else GE
    r = x.root
    i = r.index
    v = (t if s == 1 else -t) - x.offset
    if kind == GE and v > journal.root_lo[i]:
        out.append(Pred(r, GE, v))
    elif kind == LE and v < journal.root_hi[i]:
        out.append(Pred(r, LE, v))


def minmax_change(journal: Journal, xs: list[IntView], z: IntView, s: int, e: int,
                  out: list[Pred]) -> bool:
    """Explain entry e of z = max(xs) (s = 1) or min(xs) (s = -1, read as a maximum of
    negated values) by the rule that made it, in O(n): z >= x_j, z <= the largest upper
    bound, x_k <= z, and x_k >= z when no other x can reach z. False when the entry is
    not one of those (a bound that skipped holes, a shared variable): then prove it."""
    i = journal.var[e]
    if z.root.index == i:
        k = -1
    else:
        k = -2
        for j in range(len(xs)):
            if xs[j].root.index == i:
                if k != -2:
                    return False
                k = j
        if k == -2:
            return False
    x = z if k < 0 else xs[k]
    lo, hi = _oriented(journal, x, e, s)
    plo, phi = _oriented(journal, x, journal.prev[e], s)
    if (lo > plo) == (hi < phi) or _Entry(journal, e, 0).holes:
        return False  # both bounds moved, or holes made: not one rule
    if _shared(xs + [z]):
        return False
    start = len(out)
    if k < 0 and lo > plo:  # z >= x_j >= lo
        for y in xs:
            if _oriented(journal, y, journal.entry_before(y.root.index, e), s)[0] >= lo:
                _bound(journal, y, s, False, lo, out)
                return True
        return False
    if k < 0:  # z <= every upper bound <= hi
        for y in xs:
            if _oriented(journal, y, journal.entry_before(y.root.index, e), s)[1] > hi:
                del out[start:]
                return False
            _bound(journal, y, s, True, hi, out)
        return True
    zlo, zhi = _oriented(journal, z, journal.entry_before(z.root.index, e), s)
    if hi < phi:  # x_k <= z <= hi
        if zhi > hi:
            return False
        _bound(journal, z, s, True, hi, out)
        return True
    t = lo  # x_k = z >= t, every other x <= t - 1
    for j in range(len(xs)):
        if j != k:
            y = xs[j]
            yhi = _oriented(journal, y, journal.entry_before(y.root.index, e), s)[1]
            if yhi + 1 > t:
                t = yhi + 1
    if t > zlo:
        return False
    _bound(journal, z, s, False, t, out)
    for j in range(len(xs)):
        if j != k:
            _bound(journal, xs[j], s, True, t - 1, out)
    return True


def minmax_failure(journal: Journal, xs: list[IntView], z: IntView, s: int,
                   out: list[Pred]) -> bool:
    """Explain a failure of z = max(xs) (s = 1, or min with s = -1) now: some x above z's
    upper bound, or every x below z's lower bound. False otherwise."""
    now = len(journal)
    zlo, zhi = _oriented(journal, z, journal.entry_before(z.root.index, now), s)
    for y in xs:
        ylo = _oriented(journal, y, journal.entry_before(y.root.index, now), s)[0]
        if ylo > zhi:
            _bound(journal, y, s, False, ylo, out)
            _bound(journal, z, s, True, ylo - 1, out)
            return True
    for y in xs:
        if _oriented(journal, y, journal.entry_before(y.root.index, now), s)[1] >= zlo:
            return False
    for y in xs:
        _bound(journal, y, s, True, zlo - 1, out)
    _bound(journal, z, s, False, zlo, out)
    return True
