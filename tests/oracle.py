"""Brute-force oracle for the property tests.

This module is the *truth* the engine is compared against.  It deliberately shares no code
with ``conundrum`` (it never imports it): it enumerates every assignment of small domains with
``itertools.product`` and evaluates a plain Python predicate with exact arithmetic.

Semantics (SPEC section 2):

* ``/`` is exact rational division: use :func:`div` (``fractions.Fraction``, never floats);
* ``//`` and ``%`` are Python floor division and modulo: :func:`floordiv`, :func:`mod`;
* :func:`exact_div` is the integer quotient and requires the divisor to divide the dividend;
* a division or modulo by zero (or an inexact ``exact_div``, or an out-of-range ``element``
  index) makes *that assignment* not a solution.  The helpers raise :class:`Undefined`
  (a ``ZeroDivisionError`` subclass), and :func:`holds` turns both into ``False``.

Predicates must evaluate every sub-term they depend on (no short-circuit around a division)
so that an undefined sub-term anywhere makes the whole assignment fail, as the SPEC says.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

Number = int | Fraction
Assignment = tuple[int, ...]


class Undefined(ZeroDivisionError):
    """The assignment gives a sub-term no value (x/0, x//0, x%0, inexact exact_div, ...)."""


# --------------------------------------------------------------------------- arithmetic


def div(a: Number, b: Number) -> Fraction:
    """Exact rational ``a / b``; undefined when ``b == 0``."""
    if b == 0:
        raise Undefined("division by zero")
    return Fraction(a) / Fraction(b)


def floordiv(a: int, b: int) -> int:
    """Python floor division ``a // b``; undefined when ``b == 0``."""
    if b == 0:
        raise Undefined("floor division by zero")
    return a // b


def mod(a: int, b: int) -> int:
    """Python modulo ``a % b`` (sign of the divisor); undefined when ``b == 0``."""
    if b == 0:
        raise Undefined("modulo by zero")
    return a % b


def exact_div(a: Number, b: Number) -> int:
    """Integer quotient ``a / b``; undefined unless ``b != 0`` and ``b`` divides ``a``."""
    if b == 0:
        raise Undefined("exact division by zero")
    q = Fraction(a) / Fraction(b)
    if q.denominator != 1:
        raise Undefined(f"{a} is not a multiple of {b}")
    return int(q)


def power(a: Number, k: int) -> Number:
    """``a ** k`` for a constant ``k >= 0`` (``0 ** 0 == 1`` as in Python)."""
    if k < 0:
        raise ValueError("negative exponent is not part of the semantics")
    return a**k


def element(array: Sequence[Number], index: int) -> Number:
    """``array[index]`` with a 0-based index; undefined out of range (no negative wrap)."""
    if not 0 <= index < len(array):
        raise Undefined(f"index {index} out of range")
    return array[index]


def implies(a: bool, b: bool) -> bool:
    """Logical implication."""
    return (not a) or b


# -------------------------------------------------------------------- global constraints


def all_different(xs: Sequence[int]) -> bool:
    """Pairwise different values."""
    return len(set(xs)) == len(xs)


def all_different_except_0(xs: Sequence[int]) -> bool:
    """Pairwise different values, except that any number of zeros is allowed."""
    nz = [x for x in xs if x != 0]
    return len(set(nz)) == len(nz)


def count(xs: Sequence[int], value: int) -> int:
    """How many of ``xs`` equal ``value``."""
    return sum(1 for x in xs if x == value)


def global_cardinality(xs: Sequence[int], values: Sequence[int], counts: Sequence[int]) -> bool:
    """Value ``values[i]`` occurs exactly ``counts[i]`` times in ``xs`` (other values free)."""
    return all(count(xs, v) == c for v, c in zip(values, counts, strict=True))


def increasing(xs: Sequence[int], strict: bool = False) -> bool:
    """Non-decreasing (or strictly increasing) sequence."""
    if strict:
        return all(a < b for a, b in itertools.pairwise(xs))
    return all(a <= b for a, b in itertools.pairwise(xs))


def decreasing(xs: Sequence[int], strict: bool = False) -> bool:
    """Non-increasing (or strictly decreasing) sequence."""
    if strict:
        return all(a > b for a, b in itertools.pairwise(xs))
    return all(a >= b for a, b in itertools.pairwise(xs))


def lex_less(xs: Sequence[int], ys: Sequence[int]) -> bool:
    """``xs`` strictly before ``ys`` in lexicographic order (Python tuple order)."""
    return tuple(xs) < tuple(ys)


def lex_lesseq(xs: Sequence[int], ys: Sequence[int]) -> bool:
    """``xs`` before or equal to ``ys`` in lexicographic order."""
    return tuple(xs) <= tuple(ys)


def table(xs: Sequence[int], tuples: Iterable[Sequence[int]]) -> bool:
    """``xs`` is one of the allowed tuples."""
    return tuple(xs) in {tuple(t) for t in tuples}


def all_different_views(
    domains: Sequence[Iterable[int]], entries: Sequence[tuple[int, int]],
    pins: dict[int, int] | None = None,
) -> Assignment | None:
    """One solution of all_different over ``entries``, each a pair (root, offset) standing for
    ``root + offset``, the roots taking values in ``domains`` (``pins`` fixes some roots);
    None if there is none. A root may appear in several entries (views of one variable).

    Depth-first over the roots, smallest domain first, with an explicit stack; each root's
    entries must differ from each other and from the entries already placed. Returns the
    root values (by root index)."""
    pins = pins or {}
    doms = [[pins[r]] if r in pins else sorted(set(d)) for r, d in enumerate(domains)]
    offs = [[o for s, o in entries if s == r] for r in range(len(doms))]
    order = sorted(range(len(doms)), key=lambda r: len(doms[r]))
    values = [0] * len(doms)
    placed: list[list[int]] = []  # the entry values of each placed level
    used: set[int] = set()
    nxt = [0] * (len(order) + 1)
    level = 0
    while True:
        if level == len(order):
            return tuple(values)
        r = order[level]
        while nxt[level] < len(doms[r]):
            v = doms[r][nxt[level]]
            nxt[level] += 1
            vals = [v + o for o in offs[r]]
            if len(set(vals)) == len(vals) and used.isdisjoint(vals):
                values[r] = v
                used.update(vals)
                placed.append(vals)
                level += 1
                nxt[level] = 0
                break
        else:
            if level == 0:
                return None
            level -= 1
            used.difference_update(placed.pop())


# ------------------------------------------------------------------------ enumeration


def holds(pred: Callable[[Assignment], object], assignment: Assignment) -> bool:
    """Whether ``pred`` accepts the assignment; an undefined sub-term means *no*."""
    try:
        result = pred(assignment)
    except ZeroDivisionError:  # includes Undefined
        return False
    if not isinstance(result, bool):
        raise TypeError(f"predicate returned {result!r}, not a bool")
    return result


def assignments(domains: Sequence[Iterable[int]]) -> Iterable[Assignment]:
    """Every assignment of the domains, in lexicographic order of the given value orders."""
    return itertools.product(*[sorted(set(d)) for d in domains])


def solutions(
    domains: Sequence[Iterable[int]], pred: Callable[[Assignment], object]
) -> list[Assignment]:
    """All assignments satisfying ``pred`` (each once, in lexicographic order)."""
    return [a for a in assignments(domains) if holds(pred, a)]


def value_or_none(fn: Callable[[Assignment], Number], assignment: Assignment) -> Number | None:
    """``fn(assignment)``, or ``None`` when a sub-term is undefined."""
    try:
        return fn(assignment)
    except ZeroDivisionError:
        return None


def optimum(
    sols: Iterable[Assignment], objective: Callable[[Assignment], Number], sense: str
) -> Number | None:
    """Best objective value over ``sols`` (``sense`` is ``"min"`` or ``"max"``), None if none.

    Solutions whose objective is undefined are not candidates.
    """
    values = [v for v in (value_or_none(objective, s) for s in sols) if v is not None]
    if not values:
        return None
    return min(values) if sense == "min" else max(values)
