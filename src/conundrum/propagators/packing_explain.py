"""Explanations of BinPacking (issue 29 slice 6), for the learning search.

Every inference of packing.py is a sum over items, recomputed here from the domains just
before the change (they are at least as tight as the ones the propagator read, so the sums
still imply the change):

- a load's lower bound: the items placed in its bin (`[bin_j == b]`, the largest first,
  only as many as the bound needs), or the total size less the other loads' maxima
  (`[load_c <= hi_c]`); its upper bound: the items that cannot go there (`b` missing
  from their bins), or the total less the other loads' minima;
- an item leaving bin b (it does not fit): the items placed there and
  `[load_b <= placed + size - 1]`; an item put into bin b (the bin needs it): the items
  that cannot go there and `[load_b >= the others that can + 1]`;
- a failure: a bin whose placed items exceed its load's maximum, or whose possible items
  fall short of its minimum, or loads whose maxima (minima) sum below (above) the total.

Predicates are weakened to what the sum needs, root facts are left out, and a bound that
moved past holes names them (reasons.bounds_context). Negative sizes, and a variable in two
roles, keep the generic explanation.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, NE, Pred, contains_in, on_view
from conundrum.engine.reasons import bounds_context, removed_values
from conundrum.propagators.alldiff_explain import position_of
from conundrum.propagators.alldiff_hall import NONE, fixed_at, view_domain

REMOVED_LIMIT: Final = 256  # values one entry may remove from a bin and be explained one by one


def lacks(journal: Journal, x: IntView, b: int, pos: int, out: list[Pred]) -> bool:
    """Append that x (a view) lacks the value b just before pos, as weakly as possible
    ([x >= b + 1] below its bounds, [x <= b - 1] above, [x != b] inside); False if x
    has b then."""
    lo, hi, bits = view_domain(journal, x, pos)
    i = x.root.index
    off = x.offset
    if b < lo:
        if b + 1 - off > journal.root_lo[i]:
            out.append(on_view(x, GE, b + 1))
    elif b > hi:
        if b - 1 - off < journal.root_hi[i]:
            out.append(on_view(x, LE, b - 1))
    elif contains_in(b, lo, hi, bits):
        return False
    elif contains_in(b - off, journal.root_lo[i], journal.root_hi[i], journal.root_bits[i]):
        out.append(on_view(x, NE, b))
    return True


def bound_pred(journal: Journal, x: IntView, kind: int, v: int, out: list[Pred]) -> None:
    """Append `[x kind v]` (a view), unless it is a root fact."""
    i = x.root.index
    off = x.offset
    if kind == GE and v - off > journal.root_lo[i]:
        out.append(on_view(x, GE, v))
    elif kind == LE and v - off < journal.root_hi[i]:
        out.append(on_view(x, LE, v))


class Packing:
    """The state of a BinPacking just before a journal position: each bin's domain, each
    load's bounds, and the explanations built on them."""

    def __init__(self, journal: Journal, loads: list[IntView], bins: list[IntView],
                 sizes: list[int], total: int, pos: int, by_size: list[int]) -> None:
        self.journal = journal
        self.loads = loads
        self.bins = bins
        self.sizes = sizes
        self.total = total
        self.pos = pos
        self.by_size = by_size  # the items, the largest first (`largest_first`)
        self.doms = [view_domain(journal, x, pos) for x in bins]
        self.lows: list[int] = []
        self.highs: list[int] = []
        for load in loads:
            lo, hi, _ = view_domain(journal, load, pos)
            self.lows.append(lo)
            self.highs.append(hi)

    def placed(self, b: int, skip: int) -> list[int]:
        """The items (not `skip`) fixed to bin b, the largest first."""
        items: list[int] = []
        for j in self.by_size:
            lo, hi, _ = self.doms[j]
            if lo == b == hi and j != skip and self.sizes[j] > 0:
                items.append(j)
        return items

    def excluded(self, b: int, skip: int) -> list[int]:
        """The items (not `skip`, of positive size) whose bins lack b, the largest first."""
        out: list[int] = []
        for j in self.by_size:
            lo, hi, bits = self.doms[j]
            if j != skip and self.sizes[j] > 0 and not contains_in(b, lo, hi, bits):
                out.append(j)
        return out

    def at_least(self, b: int, need: int, skip: int, out: list[Pred]) -> bool:
        """Append items placed in bin b (not `skip`) whose sizes reach `need`; False if
        all of them fall short."""
        start = len(out)
        total = 0
        for j in self.placed(b, skip):
            if total >= need:
                break
            fixed_at(self.journal, self.bins[j], self.pos, out)
            total += self.sizes[j]
        if total >= need:
            return True
        del out[start:]
        return False

    def at_most(self, b: int, most: int, skip: int, out: list[Pred]) -> bool:
        """Append that enough items (not `skip`) cannot go to bin b for the others to total
        at most `most`; False if they total more."""
        rest = self.total - (self.sizes[skip] if skip != NONE else 0)
        start = len(out)
        for j in self.excluded(b, skip):
            if rest <= most:
                break
            lacks(self.journal, self.bins[j], b, self.pos, out)
            rest -= self.sizes[j]
        if rest <= most:
            return True
        del out[start:]
        return False

    def others_sum(self, b: int, side: int, out: list[Pred] | None) -> int:
        """The sum of the other loads' minima (side GE) or maxima (LE), their bounds
        appended to `out` if given."""
        total = 0
        for c in range(len(self.loads)):
            if c == b:
                continue
            v = self.lows[c] if side == GE else self.highs[c]
            total += v
            if out is not None:
                bound_pred(self.journal, self.loads[c], side, v, out)
        return total

    # ------------------------------------------------------------------ loads
    def load_low(self, b: int, need: int, out: list[Pred]) -> bool:
        """Load b >= need: by its placed items, or by the total less the others' maxima."""
        if self.at_least(b, need, NONE, out):
            return True
        if self.total - self.others_sum(b, LE, None) >= need:
            self.others_sum(b, LE, out)
            return True
        return False

    def load_high(self, b: int, need: int, out: list[Pred]) -> bool:
        """Load b <= need: by the items that cannot go there, or by the total less the
        others' minima."""
        if self.at_most(b, need, NONE, out):
            return True
        if self.total - self.others_sum(b, GE, None) <= need:
            self.others_sum(b, GE, out)
            return True
        return False

    # ------------------------------------------------------------------ items
    def does_not_fit(self, k: int, b: int, out: list[Pred]) -> bool:
        """Item k cannot go to bin b: the items placed there and its size exceed the load's
        maximum."""
        w = self.sizes[k]
        if not 0 <= b < len(self.loads):
            return True  # no such bin: the constraint alone
        hi = self.highs[b]
        start = len(out)
        total = 0
        for j in self.placed(b, k):
            if total + w > hi:
                break
            fixed_at(self.journal, self.bins[j], self.pos, out)
            total += self.sizes[j]
        if total + w > hi:
            bound_pred(self.journal, self.loads[b], LE, total + w - 1, out)
            return True
        del out[start:]
        return False

    def is_needed(self, k: int, b: int, out: list[Pred]) -> bool:
        """Item k must go to bin b: the others that can go there fall short of the load's
        minimum."""
        lo = self.lows[b]
        start = len(out)
        rest = self.total - self.sizes[k]
        for j in self.excluded(b, k):
            rest -= self.sizes[j]
        # rest: the others that can go to b
        if rest >= lo:
            return False
        if not self.at_most(b, rest, k, out):
            del out[start:]
            return False
        bound_pred(self.journal, self.loads[b], GE, rest + 1, out)
        return True

    # ------------------------------------------------------------------ failures
    def failure(self, out: list[Pred]) -> bool:
        """Explain that nothing fits now (module docstring); False if no reason is found."""
        k = len(self.loads)
        for b in range(k):
            if self.at_least(b, self.highs[b] + 1, NONE, out):
                bound_pred(self.journal, self.loads[b], LE, self.highs[b], out)
                return True
            possible = self.total
            for j in self.excluded(b, NONE):
                possible -= self.sizes[j]
            if possible < self.lows[b] and self.at_most(b, possible, NONE, out):
                bound_pred(self.journal, self.loads[b], GE, possible + 1, out)
                return True
        if sum(self.highs) < self.total:
            for b in range(k):
                bound_pred(self.journal, self.loads[b], LE, self.highs[b], out)
            return True
        if sum(self.lows) > self.total:
            for b in range(k):
                bound_pred(self.journal, self.loads[b], GE, self.lows[b], out)
            return True
        return False


def explainable(loads: list[IntView], bins: list[IntView], sizes: list[int]) -> bool:
    """Whether a BinPacking's inferences have the explanations of this module: every
    variable in one role (loads and items on distinct variables) and no negative size.
    It never changes, so the propagator asks once; the functions below assume it."""
    roots = {x.root.index for x in loads} | {x.root.index for x in bins}
    return len(roots) == len(loads) + len(bins) and all(w >= 0 for w in sizes)


def largest_first(sizes: list[int]) -> list[int]:
    """The items by size, the largest first (ties in item order): the order in which the
    explanations name items, worked out once per propagator."""
    return sorted(range(len(sizes)), key=lambda j: -sizes[j])


def explain_entry(journal: Journal, loads: list[IntView], bins: list[IntView],
                  sizes: list[int], total: int, e: int, out: list[Pred],
                  by_size: list[int]) -> bool:
    """Explain entry e of a BinPacking (module docstring; `explainable`; `by_size` from
    `largest_first`); False for the generic one."""
    i = journal.var[e]
    state = Packing(journal, loads, bins, sizes, total, e, by_size)
    start = len(out)
    b = position_of(loads, i)
    if b != NONE:
        ok = _explain_load(journal, state, loads[b], b, e, out)
    else:
        k = position_of(bins, i)
        ok = k != NONE and _explain_item(journal, state, bins[k], k, e, out)
    if not ok:
        del out[start:]
    return ok


def _explain_load(journal: Journal, state: Packing, x: IntView, b: int, e: int,
                  out: list[Pred]) -> bool:
    """A load's bounds: each moved one by its sum, and the holes it passed."""
    i = x.root.index
    off = x.offset
    plo, phi, pbits = journal.domain_at(i, journal.prev[e])
    lo, hi, _ = journal.domain_at(i, e)
    floor: int | None = None
    ceiling: int | None = None
    if lo > plo:
        need = lo  # the lowest bound that, with the holes above it, gives lo
        while need - 1 > plo and not contains_in(need - 1, plo, phi, pbits):
            need -= 1
        if not state.load_low(b, need + off, out):
            return False
        floor = need
    if hi < phi:
        need = hi
        while need + 1 < phi and not contains_in(need + 1, plo, phi, pbits):
            need += 1
        if not state.load_high(b, need + off, out):
            return False
        ceiling = need
    bounds_context(journal, e, floor, ceiling, out)
    return True


def _explain_item(journal: Journal, state: Packing, x: IntView, k: int, e: int,
                  out: list[Pred]) -> bool:
    """An item's bin: the values it lost did not fit, or the one left was needed."""
    i = x.root.index
    off = x.offset
    now = journal.domain_at(i, e)
    start = len(out)
    # one reason per value: past REMOVED_LIMIT of them (a bin variable of a wide domain
    # whose bound moved far), only "the bin left is needed" can say it
    gone = removed_values(journal, e, REMOVED_LIMIT)
    ok = gone is not None
    for v in gone or []:
        if not state.does_not_fit(k, v + off, out):
            ok = False
            break
    if ok:
        bounds_context(journal, e, None, None, out)
        return True
    del out[start:]
    return now[0] == now[1] and state.is_needed(k, now[0] + off, out)


def explain_failure(journal: Journal, loads: list[IntView], bins: list[IntView],
                    sizes: list[int], total: int, out: list[Pred], by_size: list[int]) -> bool:
    """Explain a failure of a BinPacking now (`explainable`); False for the generic
    explanation."""
    start = len(out)
    if Packing(journal, loads, bins, sizes, total, len(journal), by_size).failure(out):
        return True
    del out[start:]
    return False
