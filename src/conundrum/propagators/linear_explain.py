"""Explanations of the linear propagators (issue 29 slice 6), for the learning search.

For sum(a_k x_k) + c <= 0 (and each side of == 0): a_j x_j <= -c - (the smallest value
the other terms can take), so a lowered upper bound of x_j (a_j > 0; a raised lower bound
if a_j < 0) is explained by the bounds that give the other terms their smallest values:
`[x_k >= lo_k]` for a_k > 0, `[x_k <= hi_k]` for a_k < 0, as they were just before the
change. The other side of an equation uses the largest values. A bound that is still the
one the search started from is left out: it is a root fact. A failure is explained the same
way over all the terms: their smallest values already exceed 0 (or their largest fall
short of it). For sum != 0, the value removed from the last unfixed term is explained by
the other terms' values.

These explanations are far shorter than the generic one (every bound and hole of every
term) and they are what makes a sum's inferences cheap to resolve. A variable that occurs
in two terms, and the divisibility reasoning of LinearEq, keep the generic explanation.
"""

from __future__ import annotations

from typing import Final

from conundrum.engine import IntVar, IntView
from conundrum.engine.journal import Journal
from conundrum.engine.literals import EQ, GE, LE, Pred
from conundrum.engine.reasons import domain_preds

MIN: Final = -1  # the bounds that give the terms their smallest values
MAX: Final = 1  # ... their largest


def term_bounds(journal: Journal, coefs: list[int], xs: list[IntView], skip: int,
                pos: int, side: int, out: list[Pred]) -> None:
    """Append, for every term whose variable is not `skip` (a root index; -1: none), the
    bound that gives it its smallest (side MIN) or largest (MAX) value just before journal
    position pos."""
    for k in range(len(xs)):
        r = xs[k].root
        i = r.index
        if i == skip:
            continue
        lo, hi, _ = journal.domain_at(i, journal.entry_before(i, pos))
        if (coefs[k] > 0) == (side == MIN):
            if lo > journal.root_lo[i]:
                out.append(Pred(r, GE, lo))
        elif hi < journal.root_hi[i]:
            out.append(Pred(r, LE, hi))


def extreme(journal: Journal, coefs: list[int], xs: list[IntView], c: int, pos: int,
            side: int, skip: int = -1) -> int:
    """The smallest (MIN) or largest (MAX) value of sum + c just before position pos, with
    term `skip` left out (-1: none)."""
    total = c
    for k in range(len(xs)):
        if k == skip:
            continue
        x = xs[k]
        i = x.root.index
        lo, hi, _ = journal.domain_at(i, journal.entry_before(i, pos))
        a = coefs[k]
        total += a * ((lo if (a > 0) == (side == MIN) else hi) + x.offset)
    return total


def explain_bounds(journal: Journal, coefs: list[int], xs: list[IntView], c: int, e: int,
                   both_sides: bool, out: list[Pred]) -> bool:
    """Explain entry e, a bound of one term's variable moved in by sum + c <= 0 (or == 0
    with `both_sides`). When the new bound is not the one the sum implies (it skipped over
    holes of the domain), the variable's previous domain is part of the reason too. False
    when the explanation must be the generic one: the variable occurs in several terms, or
    the entry made holes."""
    i = journal.var[e]
    j = -1
    for k in range(len(xs)):
        if xs[k].root.index == i:
            if j >= 0:
                return False
            j = k
    if j < 0:
        return False
    lo, hi, bits = journal.domain_at(i, e)
    plo, phi, pbits = journal.domain_at(i, journal.prev[e])
    if bits >= 0 and pbits >= 0 and (pbits >> (lo - plo)) & ((1 << (hi - lo + 1)) - 1) != bits:
        return False  # values removed inside the new bounds: not a bounds inference
    a = coefs[j]
    off = xs[j].offset
    raised = lo > plo
    lowered = hi < phi
    need_min = (lowered and a > 0) or (raised and a < 0)
    need_max = (raised and a > 0) or (lowered and a < 0)
    if need_max and not both_sides:
        return False
    start = len(out)
    exact = True  # the new bounds are the ones the sum implies
    if need_min:
        rest = -extreme(journal, coefs, xs, c, e, MIN, j)  # a * x_j <= rest
        if a > 0:
            exact = exact and hi + off == rest // a
        else:
            exact = exact and lo + off == -(rest // -a)
        term_bounds(journal, coefs, xs, i, e, MIN, out)
    if need_max:
        rest = -extreme(journal, coefs, xs, c, e, MAX, j)  # a * x_j >= rest
        if a > 0:
            exact = exact and lo + off == -(-rest // a)
        else:
            exact = exact and hi + off == -rest // -a
        term_bounds(journal, coefs, xs, i, e, MAX, out)
    if not exact and not domain_preds(journal, journal.vars[i], journal.prev[e], out):
        del out[start:]  # too many holes to say: the generic explanation
        return False
    return True


def explain_failure(journal: Journal, coefs: list[int], xs: list[IntView], c: int,
                    both_sides: bool, out: list[Pred]) -> bool:
    """Explain a failure of sum + c <= 0 (== 0 with `both_sides`) now: the smallest values
    of all the terms sum above 0, or (an equation) their largest below 0. False if neither
    holds (the failure came from elsewhere: the generic explanation)."""
    now = len(journal)
    if extreme(journal, coefs, xs, c, now, MIN) > 0:
        term_bounds(journal, coefs, xs, -1, now, MIN, out)
        return True
    if both_sides and extreme(journal, coefs, xs, c, now, MAX) < 0:
        term_bounds(journal, coefs, xs, -1, now, MAX, out)
        return True
    return False


def explain_removal(journal: Journal, xs: list[IntView], e: int, out: list[Pred]) -> bool:
    """Explain entry e of sum + c != 0: a value removed from the last unfixed term, because
    every other term was fixed (their values, just before e)."""
    i = journal.var[e]
    seen = 0
    start = len(out)
    for k in range(len(xs)):
        r = xs[k].root
        if r.index == i:
            seen += 1
            continue
        lo, hi, bits = journal.domain_at(r.index, journal.entry_before(r.index, e))
        if lo != hi:
            del out[start:]
            return False
        fixed_preds(journal, r, lo, bits, out)
    if seen != 1:
        del out[start:]
        return False
    lo, hi, _ = journal.domain_at(i, e)
    plo, phi, _ = journal.domain_at(i, journal.prev[e])
    if lo != plo or hi != phi:  # a bound moved: where to depends on the domain before
        if not domain_preds(journal, journal.vars[i], journal.prev[e], out):
            del out[start:]  # too many holes to say: the generic explanation
            return False
    return True


def explain_all_fixed(journal: Journal, xs: list[IntView], out: list[Pred]) -> None:
    """Explain a failure of sum + c != 0: every term fixed (their values now)."""
    for x in xs:
        r = x.root
        fixed_preds(journal, r, r.lo, r.bits, out)


def fixed_preds(journal: Journal, r: IntVar, v: int, bits: int, out: list[Pred]) -> None:
    """`r == v` as predicates, the root facts left out: one equality on a bit-set domain,
    two bounds on a bounds-only one."""
    i = r.index
    root_lo = journal.root_lo[i]
    root_hi = journal.root_hi[i]
    if root_lo == root_hi:
        return
    if bits >= 0:
        out.append(Pred(r, EQ, v))
        return
    if v > root_lo:
        out.append(Pred(r, GE, v))
    if v < root_hi:
        out.append(Pred(r, LE, v))
