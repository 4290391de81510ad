"""Explanations of the arithmetic relations (issue 29 slice 6), for the learning search.

The arithmetic propagators (products, quotients, remainders, |x|, powers, affine maps,
offsets, listed values, domain-consistent sums, argmax) reason in several rounds mixing
bounds, holes and enumeration, so their explanations are not replayed from what they did:
they are *proved* after the fact. A relation class (`Relation`) states its constraint twice:

* `satisfied(values)`: the constraint itself, on one value per variable (its views');
* `hull(k, lo, hi, bits)`: intervals holding every value of variable k that has a support
  in the box (lo, hi, bits) of the others, within k's own (lo[k], hi[k], bits[k]): the
  interval reasoning, written to over-approximate, never to filter.

Entry e changed view k. A *proof* of it ranges over a box of domains: the "bad" values of
k's domain (those the entry excluded: below a raised lower bound, above a lowered upper
bound, or a hole it made) have no support with the others in theirs. It holds when none of
them lies in the hull or (few enough to list, EXPLAIN_LIMIT checks) none has a support by
enumeration. It starts from the domains just before e (k's previous one: the generic
explanation's box) and is then widened towards the root domains as far as it still holds,
k's own domain first: a whole domain to the root, else its holes dropped, else each bound
in turn. What is left is the explanation: nothing for a root domain, the bounds kept, or
the full domain. So the other variables' bounds explain a bounds inference, k's previous
domain comes in only when the new bound skipped holes of it, and a variable the inference
did not need is left out. A failure is proved the same way: some view has no supported
value at all.

So an explanation is sound whatever path the propagator took, as long as `hull`
over-approximates and `satisfied` is the constraint; tests/test_journal.py checks both
(and this module's enumeration can be switched off there, to check the hulls alone).
Root facts are left out, as in linear_explain.py. A relation whose views share a variable
keeps the generic explanation.
"""

from __future__ import annotations

from conundrum.engine import IntView, Propagator
from conundrum.engine.journal import Journal
from conundrum.engine.literals import GE, LE, Pred, contains_in
from conundrum.engine.reasons import domain_preds
from conundrum.propagators.arith_intervals import (
    ceil_div,
    corner_products,
    iroot,
    iroot_ceil,
    quotient_range,
    root_ceil,
    root_floor,
)

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
        self.holes: list[int] = []
        if bits >= 0 and lo < hi:
            for v in range(lo + 1, hi):
                if not contains_in(v, lo, hi, bits) and contains_in(v, plo, phi, pbits):
                    self.holes.append(v + offset)


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
    return [lo + o for o in range(hi - lo + 1) if (bits >> o) & 1]


def _supported(p: Relation, k: int, v: int, lo: list[int], hi: list[int],
               bits: list[int], budget: list[int]) -> bool:
    """Whether view k = v has a support in the others' domains, by enumeration (an
    odometer over their values); True (no proof) when it would exceed budget[0] checks,
    which it spends."""
    n = len(lo)
    lists: list[list[int]] = []
    count = 1
    for j in range(n):
        if j == k:
            lists.append([v])
            continue
        if hi[j] - lo[j] >= budget[0]:
            return True
        vals = _values(lo[j], hi[j], bits[j])
        count *= len(vals)
        if count > budget[0]:
            return True
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
              bits: list[int]) -> bool:
    """Whether no value of view k's domain (lo[k], hi[k], bits[k]) that the entry excluded
    (every value when entry is None: a failure) has a support in the others' domains:
    the hull first, then enumeration within EXPLAIN_LIMIT checks."""
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
    budget = [EXPLAIN_LIMIT]
    for t in range(0, len(bad), 2):
        a, b = bad[t], bad[t + 1]
        v = _first_in(a, b, lo[k], hi[k], bits[k])
        while v is not None:
            if budget[0] <= 0 or _supported(p, k, v, lo, hi, bits, budget):
                return False
            v = _first_in(v + 1, b, lo[k], hi[k], bits[k])
    return True


ROOT_ONLY = 0  # a view's domain in a proof: its root domain (nothing to say)
BOUNDS_ONLY = 1  # its bounds (the holes left out)
FULL = 2  # its domain as a journal entry left it


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

    def read(self, x: IntView, entry: int) -> None:
        """Add view x with its domain as `entry` left it."""
        lo, hi, bits = self.journal.domain_at(x.root.index, entry)
        self.lo.append(lo + x.offset)
        self.hi.append(hi + x.offset)
        self.bits.append(bits)
        self.need.append(FULL if bits >= 0 else BOUNDS_ONLY)
        self.src.append(entry)

    def proves(self, p: Relation, k: int, entry: _Entry | None) -> bool:
        return _excluded(p, k, entry, self.lo, self.hi, self.bits)

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
    if not box.proves(p, k, entry):
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
        if box.proves(p, k, None):
            box.relax(p, k, None, k)
            for j in range(len(xs)):
                if j != k:
                    box.relax(p, k, None, j)
            return box.emit(out)
    return False


# ------------------------------------------------------------------------ the hulls


def contains(v: int, lo: int, hi: int, bits: int) -> bool:
    """Whether the domain (lo, hi, bits) holds v."""
    return contains_in(v, lo, hi, bits)


def signed_parts(lo: int, hi: int, bits: int) -> tuple[int, int, int, int]:
    """(nl, nh, pl, ph): hulls of the negative and the positive values of a domain (a part
    with lo > hi is empty); a bit set's part ends at its value nearest to 0."""
    nl, nh, pl, ph = lo, min(hi, -1), max(lo, 1), hi
    if bits >= 0:
        while nl <= nh and not contains_in(nh, lo, hi, bits):
            nh -= 1
        while pl <= ph and not contains_in(pl, lo, hi, bits):
            pl += 1
    return nl, nh, pl, ph


def min_abs_of(lo: int, hi: int, bits: int) -> int:
    """The smallest |v| over a domain with at least one value."""
    if lo >= 0:
        return lo
    if hi <= 0:
        return -hi
    nl, nh, pl, ph = signed_parts(lo, hi, bits)
    if contains_in(0, lo, hi, bits):
        return 0
    best = -1
    if nl <= nh:
        best = -nh
    if pl <= ph and (best < 0 or pl < best):
        best = pl
    return best


def without_zero(hull: list[int]) -> list[int]:
    """The intervals with 0 taken out (a divisor is never 0)."""
    out: list[int] = []
    for t in range(0, len(hull), 2):
        a, b = hull[t], hull[t + 1]
        if a <= 0 <= b:
            out += [a, -1, 1, b]
        else:
            out += [a, b]
    return out


def quotients(zl: int, zh: int, nl: int, nh: int, pl: int, ph: int) -> list[int]:
    """The a with a*b in zl..zh for some b of the parts nl..nh (< 0) and pl..ph (> 0)."""
    out: list[int] = []
    if nl <= nh:
        lo, hi = quotient_range(zl, zh, nl, nh)
        out += [lo, hi]
    if pl <= ph:
        lo, hi = quotient_range(zl, zh, pl, ph)
        out += [lo, hi]
    return out


def times_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x*y (views 0, 1, 2): z between the corner products; a factor in z over the
    other factor's signed parts (anything when both the other and z can be 0)."""
    if k == 2:
        zl, zh = corner_products(lo[0], hi[0], lo[1], hi[1])
        return [zl, zh]
    o = 1 - k
    if contains(0, lo[o], hi[o], bits[o]) and contains(0, lo[2], hi[2], bits[2]):
        return [lo[k], hi[k]]
    nl, nh, pl, ph = signed_parts(lo[o], hi[o], bits[o])
    return quotients(lo[2], hi[2], nl, nh, pl, ph)


def exact_div_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x / y exactly (views 0, 1, 2): x = y*z with y != 0."""
    if k == 0:
        xl, xh = corner_products(lo[1], hi[1], lo[2], hi[2])
        return [xl, xh]
    if k == 2:
        nl, nh, pl, ph = signed_parts(lo[1], hi[1], bits[1])
        return quotients(lo[0], hi[0], nl, nh, pl, ph)
    if contains(0, lo[0], hi[0], bits[0]) and contains(0, lo[2], hi[2], bits[2]):
        return without_zero([lo[1], hi[1]])
    nl, nh, pl, ph = signed_parts(lo[2], hi[2], bits[2])
    return without_zero(quotients(lo[0], hi[0], nl, nh, pl, ph))


def floor_div_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x // y (views 0, 1, 2), y != 0, part by part of y's sign (arith_binary.py's
    reasoning, as hulls)."""
    xl, xh, zl, zh = lo[0], hi[0], lo[2], hi[2]
    nl, nh, pl, ph = signed_parts(lo[1], hi[1], bits[1])
    out: list[int] = []
    if k == 2:
        for a, b in ((nl, nh), (pl, ph)):
            if a <= b:
                qs = [xl // a, xl // b, xh // a, xh // b]
                out += [min(qs), max(qs)]
        return out
    if k == 0:
        if nl <= nh:  # y*(z+1) + 1 <= x <= y*z
            out += [corner_products(nl, nh, zl + 1, zh + 1)[0] + 1,
                    corner_products(nl, nh, zl, zh)[1]]
        if pl <= ph:  # y*z <= x <= y*(z+1) - 1
            out += [corner_products(pl, ph, zl, zh)[0],
                    corner_products(pl, ph, zl + 1, zh + 1)[1] - 1]
        return out
    if nl <= nh:
        nl, nh = _clip_le(nl, nh, -zl, -xl)
        nl, nh = _clip_le(nl, nh, zh + 1, xh - 1)
        out += [nl, nh]
    if pl <= ph:
        pl, ph = _clip_le(pl, ph, zl, xh)
        pl, ph = _clip_le(pl, ph, -(zh + 1), -(xl + 1))
        out += [pl, ph]
    return out


def _clip_le(lo: int, hi: int, a: int, c: int) -> tuple[int, int]:
    """The y in lo..hi with a*y <= c, as a range (lo > hi: none)."""
    if a > 0:
        return lo, min(hi, c // a)
    if a < 0:
        return max(lo, ceil_div(c, a)), hi
    return (lo, hi) if c >= 0 else (lo, lo - 1)


def mod_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x % y (views 0, 1, 2; Python's remainder, with the sign of y)."""
    xl, xh, zl, zh = lo[0], hi[0], lo[2], hi[2]
    nl, nh, pl, ph = signed_parts(lo[1], hi[1], bits[1])
    fixed = lo[1] == hi[1] and lo[1] != 0
    if k == 1:
        out: list[int] = []
        if nl <= nh and zl <= 0:
            out += [nl, min(nh, zh - 1)]  # y < z <= 0
        if pl <= ph and zh >= 0:
            out += [max(pl, zl + 1), ph]  # 0 <= z < y
        return out
    if k == 2:
        if fixed:
            return _fixed_remainders(xl, xh, lo[1])
        return _remainders(xl, xh, nl, nh, pl, ph)
    if fixed:
        out = _dividends(xl, xh, lo[1], zl, zh)
    else:
        a, b = xl, xh
        if nl > nh and a >= 0:  # y > 0 and x >= 0: x = y*q + z with q >= 0
            a = max(a, zl)
            if b < pl:  # x < y: x is its own remainder
                b = min(b, zh)
        elif pl > ph and b <= 0:  # mirrored for y < 0
            b = min(b, zh)
            if a > nh:
                a = max(a, zl)
        out = [a, b]
    if not contains(0, zl, zh, bits[2]):
        out = without_zero(out)  # 0 % y == 0
    return out


def _fixed_remainders(xl: int, xh: int, d: int) -> list[int]:
    """x % d over xl..xh for a constant d != 0."""
    size = d if d > 0 else -d
    m = 0 if d > 0 else d + 1
    if xh - xl >= size:
        return [m, m + size - 1]
    rl, rh = xl % d, xh % d
    if rl <= rh:
        return [rl, rh]
    return [m, rh, rl, m + size - 1]


def _remainders(xl: int, xh: int, nl: int, nh: int, pl: int, ph: int) -> list[int]:
    """x % y over xl..xh and y in the parts nl..nh (< 0), pl..ph (> 0)."""
    out: list[int] = []
    if nl <= nh:
        a, b = nl + 1, 0
        if xh <= 0:
            a = max(a, xl)
        elif xl > 0:
            b = min(b, xh + nh)
        out += [a, b]
    if pl <= ph:
        a, b = 0, ph - 1
        if xl >= 0:
            b = min(b, xh)
        elif xh < 0:
            a = max(a, xl + pl)
        out += [a, b]
    return out


def _dividends(xl: int, xh: int, d: int, zl: int, zh: int) -> list[int]:
    """The hull of the x in xl..xh with x % d in zl..zh, d a constant != 0: the
    remainders climb by one inside each block of |d| values."""
    size = d if d > 0 else -d
    m = 0 if d > 0 else d + 1
    tl = max(zl, m) - m  # the allowed remainders, counted from the block's start
    th = min(zh, m + size - 1) - m
    if tl > th:
        return []
    t = (xl - m) % size
    first = xl if tl <= t <= th else xl + tl - t if t < tl else xl + size - t + tl
    t = (xh - m) % size
    last = xh if tl <= t <= th else xh - (t - th) if t > th else xh - t - size + th
    return [first, last]


def abs_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = |x| (views 0, 1)."""
    if k == 1:
        return [min_abs_of(lo[0], hi[0], bits[0]), max(-lo[0], hi[0])]
    zl = max(lo[1], 0)
    return [-hi[1], -zl, zl, hi[1]]


def power_hull(k: int, e: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """z = x ** e, e >= 2 (views 0, 1): exact integer roots."""
    if e % 2:
        if k == 1:
            return [lo[0] ** e, hi[0] ** e]
        return [root_ceil(lo[1], e), root_floor(hi[1], e)]
    if k == 1:
        return [min_abs_of(lo[0], hi[0], bits[0]) ** e, max(lo[0] ** e, hi[0] ** e)]
    if hi[1] < 0:
        return []
    r = iroot(hi[1], e)
    s = iroot_ceil(max(lo[1], 0), e)
    return [-r, -s, s, r]


def affine_hull(k: int, a: int, c: int, lo: list[int], hi: list[int]) -> list[int]:
    """z = a*x + c, a != 0 (views 0 = z, 1 = x)."""
    if k == 0:
        p, q = a * lo[1] + c, a * hi[1] + c
        return [min(p, q), max(p, q)]
    if a > 0:
        return [ceil_div(lo[0] - c, a), (hi[0] - c) // a]
    return [ceil_div(hi[0] - c, a), (lo[0] - c) // a]


def linear_hull(k: int, coefs: list[int], c: int, lo: list[int],
                hi: list[int]) -> list[int]:
    """sum(a_j x_j) + c == 0: a_k x_k = -(c + the others), over the others' bounds."""
    rest_lo = rest_hi = c
    for j in range(len(coefs)):
        if j == k:
            continue
        a = coefs[j]
        if a > 0:
            rest_lo += a * lo[j]
            rest_hi += a * hi[j]
        else:
            rest_lo += a * hi[j]
            rest_hi += a * lo[j]
    a = coefs[k]  # a * x_k in -rest_hi..-rest_lo
    if a > 0:
        return [ceil_div(-rest_hi, a), (-rest_lo) // a]
    return [ceil_div(-rest_lo, a), (-rest_hi) // a]


def max_hull(k: int, lo: list[int], hi: list[int]) -> list[int]:
    """z = max(xs) (views xs, then z last): z between the largest lower and upper bounds;
    an x at most z, and at least z when no other x can reach z."""
    n = len(lo) - 1
    if k == n:
        return [max(lo[:n]), max(hi[:n])]
    others_lo = others_hi = lo[n] - 1  # the largest other bounds (none: below z)
    first = True
    for j in range(n):
        if j != k:
            if first or lo[j] > others_lo:
                others_lo = lo[j]
            if first or hi[j] > others_hi:
                others_hi = hi[j]
            first = False
    if not first and others_lo > hi[n]:
        return []  # another x already exceeds z
    a = lo[n] if first or others_hi < lo[n] else lo[k]
    return [a, hi[n]]


def min_hull(k: int, lo: list[int], hi: list[int]) -> list[int]:
    """z = min(xs): max_hull on the negated values."""
    neg = max_hull(k, [-v for v in hi], [-v for v in lo])
    out: list[int] = []
    for t in range(0, len(neg), 2):
        out.append(-neg[t + 1])
        out.append(-neg[t])
    return out


def argmax_hull(k: int, lo: list[int], hi: list[int], bits: list[int]) -> list[int]:
    """i == the first position of the largest of xs (views xs, then i last)."""
    n = len(lo) - 1
    # after[j]: the largest lower bound after position j; the one before it, as we go
    low = -(1 << 62) if n == 0 else min(lo[:n]) - 1
    after = [low] * n
    best = low
    for j in range(n - 1, -1, -1):
        after[j] = best
        if lo[j] > best:
            best = lo[j]
    positions: list[int] = []  # the positions i can take, as far as the bounds say
    before = low
    for j in range(n):
        if contains(j, lo[n], hi[n], bits[n]) and hi[j] > before and hi[j] >= after[j]:
            positions.append(j)
        if lo[j] > before:
            before = lo[j]
    if k == n:
        out: list[int] = []
        for j in positions:
            out += [j, j]
        return out
    if not positions:
        return []
    top = lo[k]
    if k not in positions:  # x_k is at most the maximum, and below it if earlier
        first = True
        for j in positions:
            h = hi[j] if j < k else hi[j] - 1
            if first or h > top:
                top = h
            first = False
        hi_k = top
    else:
        hi_k = hi[k]
    lo_k = lo[k]
    if len(positions) == 1 and positions[0] == k:  # x_k is the first maximum
        lo_k = max(lo_k, after[k])
        for j in range(k):
            lo_k = max(lo_k, lo[j] + 1)
    return [lo_k, hi_k]


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
