"""Divisibility reasoning for linear equations (linear.py's LinearEq and the reified
equations): for an unfixed term a_j x_j of sum + c == 0 and g the gcd of the other unfixed
coefficients, a_j * x_j = -(c + the fixed terms) (mod g). The carry reasoning of
alphametics and the fraction cancelling of rational equations.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import Inconsistency, IntView
from conundrum.engine.bits import periodic_mask
from conundrum.engine.products import times
from conundrum.state import RevInt

RUN: Final = 8  # the terms modular_eq's shortcut reads at each end of a row


def gcd(a: int, b: int) -> int:
    """The greatest common divisor of |a| and |b| (gcd(0, 0) = 0), by Euclid's loop:
    native in the compiled build, where calling math.gcd looked its name up in a dict and
    boxed both arguments (a quarter of trucking's search was modular_eq's gcds)."""
    if a < 0:
        a = -a
    if b < 0:
        b = -b
    while b:
        a, b = b, a % b
    return a


def modular_eq(coefs: list[int], xs: list[IntView], c: int, n: int = -1,
               done: RevInt | None = None) -> bool:
    """Divisibility reasoning for sum + c == 0 over the first n terms. With r = -(c + the
    fixed terms) and, for an unfixed x_j, g the gcd of the other unfixed coefficients:
    a_j * x_j = r (mod g). This is the carry reasoning of alphametics and the fraction
    cancelling of rational equations. Returns True if a domain changed.

    `done` (trailed, the propagator's) holds the number of unfixed terms when a call last
    found all that follows. Along a branch the unfixed terms only get fewer, so the same
    number means the same terms and the same r, whose residues the domains already keep;
    unless a bounds-only domain was rounded (its later bounds may need rounding again):
    then nothing is remembered. A call on unchanged terms is then one pass over them."""
    if n < 0:
        n = len(xs)
    # Nothing follows when two disjoint groups of unfixed terms each have gcd 1: every
    # term has one of them among the others. A unit coefficient is such a group alone, so
    # two units end it at once (a sum of digits with a few carries); with one, the others
    # are the second group when their gcd reaches 1 (trucking's cost row, 1 against
    # multiples of 30, 27, 23, ...: modular_eq was 17% of its search); without one, a
    # first and a last run of the row (fair_split's 1,000 weights reach 1 within a few
    # terms each way). The lists below cost a pass over every term. The runs are looked
    # for among the first RUN terms of each end only: coefficients with a common factor
    # never reach 1 (popsicle_stand's 14 multiples of 100 ran 10% slower for a whole scan).
    unit = -1
    free = 0
    for k in range(n):
        x = xs[k]
        if x.lo != x.hi:
            free += 1
            a = coefs[k]
            if a == 1 or a == -1:
                if unit >= 0:
                    return False
                unit = k
    if free < 2 or (done is not None and done.value == free):
        return False
    if unit >= 0:
        g = 0
        for k in range(n):
            if k != unit and xs[k].lo != xs[k].hi:
                g = gcd(g, coefs[k])
                if g == 1:
                    return _settled(done, free, False)
    else:
        g = 0
        k = 0
        while k < n and k < RUN and g != 1:
            if xs[k].lo != xs[k].hi:
                g = gcd(g, coefs[k])
            k += 1
        if g == 1:
            h = 0
            j = n - 1
            while j >= k and j >= n - RUN and h != 1:
                if xs[j].lo != xs[j].hi:
                    h = gcd(h, coefs[j])
                j -= 1
            if h == 1:
                return _settled(done, free, False)
    free_a: list[int] = []
    free_x: list[IntView] = []
    r = -c
    for k in range(n):
        a = coefs[k]
        x = xs[k]
        if x.lo == x.hi:
            r -= times(a, x.lo)
        else:
            free_a.append(a)
            free_x.append(x)
    m = len(free_a)
    # prefix and suffix gcds give, for each j, the gcd of the others. Once the first p
    # terms have gcd 1, every later term has 1 for the gcd of the others, and once the
    # terms after j have gcd 1, so has every term up to j: the scans stop there (random
    # coefficients, as market split's, reach 1 within two or three terms)
    prefix = [0]
    total = 0
    while len(prefix) <= m and total != 1:
        total = gcd(total, free_a[len(prefix) - 1])
        prefix.append(total)
    p = len(prefix) - 1
    if r % total:  # (total is the gcd of all when it is not 1)
        raise Inconsistency
    suffix = 0
    changed = False
    rounded = False  # a bounds-only domain was rounded to a residue: nothing remembered
    for j in range(m - 1, -1, -1):
        a = free_a[j]
        if j >= p:  # the first p terms are among the others: gcd 1
            suffix = gcd(suffix, a)
            if suffix == 1:
                break
            continue
        g = gcd(prefix[j], suffix)
        suffix = gcd(suffix, a)
        if g <= 1 or a % g == 0:
            if suffix == 1:
                break  # and so has every term before j
            continue
        x = free_x[j]
        v0, mod = _residue(a, r, g)
        if mod == 1:
            continue
        bits = x.bits
        if bits < 0:
            rounded = True
            if _progression_bounds(x, v0, mod):
                changed = True
            continue
        # the values v0 (mod `mod`) as one mask over x's span: a few shifts of a big int,
        # where testing each value cost a step per value at every call (a cost sum's
        # multiples of 10 up to 11,400 in facility location)
        lo = x.lo
        kept = bits & periodic_mask((v0 - lo) % mod, mod, x.hi - lo + 1)
        if kept != bits:
            x.keep_mask(lo, kept)
            changed = True
    return changed if rounded else _settled(done, free, changed)


def _settled(done: RevInt | None, free: int, changed: bool) -> bool:
    """Remember (in `done`) that everything following from `free` unfixed terms is in the
    domains; return `changed`."""
    if done is not None:
        done.set(free)
    return changed


def _residue(a: int, r: int, g: int) -> tuple[int, int]:
    """The solutions of a*x = r (mod g) as x = v0 (mod m): (v0, m)."""
    d = gcd(a, g)
    if r % d:
        raise Inconsistency
    m = g // d
    v0 = (r // d) * pow((a // d) % m, -1, m) % m if m > 1 else 0
    return v0, m


def _progression_bounds(x: IntView, v0: int, m: int) -> bool:
    """x = v0 (mod m) on a bounds-only domain: each bound moves to the nearest solution.
    Returns True if a bound moved."""
    lo, hi = x.lo, x.hi
    new_lo = lo + (v0 - lo) % m
    new_hi = hi - (hi - v0) % m
    if new_lo == lo and new_hi == hi:
        return False
    x.set_bounds(new_lo, new_hi)  # fails when no solution lies between the bounds
    return True


def can_use_divisibility(coefs: list[int]) -> bool:
    """Divisibility reasoning needs a coefficient other than +-1: with unit coefficients the
    gcd of the others is always 1."""
    return any(abs(a) != 1 for a in coefs)
