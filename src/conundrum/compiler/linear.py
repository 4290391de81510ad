"""Rational linear forms: the values the compiler gives expressions.

Every expression compiles to an exact pair (N, D) of linear forms over engine variables,
value N / D with D never 0: integer expressions have D = 1, `a / b` multiplies out
(N_a*D_b, D_a*N_b). This module holds the forms and the arithmetic on them that needs no
new engine variable (auxiliary.py makes the ones that do).
"""

from __future__ import annotations

import math
from fractions import Fraction

from conundrum.engine import Inconsistency, IntVar, IntView
from conundrum.lang.errors import ModelError
from conundrum.propagators.linear import linear_bounds


class Lin:
    """A linear form sum(coef * engine var) + const with integer coefficients; never
    changed in place (operations return new forms, or the form itself)."""

    __slots__ = ("terms", "const")

    def __init__(self, terms: dict[IntVar, int] | None = None, const: int = 0) -> None:
        self.terms: dict[IntVar, int] = terms or {}
        self.const = const

    @staticmethod
    def of(var: IntView) -> Lin:
        """The form of a variable or of a view of one (x + c is {x: 1} + c)."""
        return Lin({var.root: 1}, var.offset)

    def is_const(self) -> bool:
        return not self.terms

    def scaled(self, k: int) -> Lin:
        if k == 1:
            return self  # forms are never changed in place
        if k == 0:
            return Lin()
        return Lin({v: c * k for v, c in self.terms.items()}, self.const * k)

    def plus(self, other: Lin, k: int = 1) -> Lin:
        terms = dict(self.terms)
        for v, c in other.terms.items():
            n = terms.get(v, 0) + c * k
            if n:
                terms[v] = n
            else:
                terms.pop(v, None)
        return Lin(terms, self.const + other.const * k)

    def bounds(self) -> tuple[int, int]:
        return linear_bounds(list(self.terms.values()), list(self.terms), self.const)

    def parts(self) -> tuple[list[int], list[IntView], int]:
        return list(self.terms.values()), list(self.terms), self.const


ONE = Lin(None, 1)
Rat = tuple[Lin, Lin]  # (numerator, denominator)


def sign(lin: Lin) -> int:
    """+1 or -1 when the form's sign is known from bounds, 0 otherwise."""
    lo, hi = lin.bounds()
    if lo > 0:
        return 1
    if hi < 0:
        return -1
    return 0


def is_integer(rat: Rat) -> bool:
    """Whether the pair has the denominator 1 (an integer expression)."""
    d = rat[1]
    return d.is_const() and d.const == 1


def ceil_div(p: int, q: int) -> int:
    return -((-p) // q)


def const_rat(value: int | Fraction) -> Rat:
    f = Fraction(value)
    return Lin(None, f.numerator), Lin(None, f.denominator)


def normal(n: Lin, d: Lin) -> Rat:
    """The pair n / d with a constant denominator made positive and the common factor of
    the constant and the coefficients divided out (Inconsistency for the denominator 0)."""
    if d.is_const():
        if d.const == 0:
            raise Inconsistency
        if d.const < 0:
            n, d = n.scaled(-1), d.scaled(-1)
        if n.is_const():
            g = math.gcd(n.const, d.const)
            return Lin(None, n.const // g), Lin(None, d.const // g)
        g = d.const
        for c in n.terms.values():
            g = math.gcd(g, c)
        g = math.gcd(g, n.const)
        if g > 1:
            return Lin({v: c // g for v, c in n.terms.items()}, n.const // g), \
                Lin(None, d.const // g)
    return n, d


def integer(rat: Rat, what: str) -> Lin:
    """The numerator of an integer-valued pair, or a ModelError."""
    n, d = rat
    if d.is_const() and d.const == 1:
        return n
    if d.is_const() and n.is_const() and n.const % d.const == 0:
        return Lin(None, n.const // d.const)
    raise ModelError(f"{what} needs integer values, but an argument may be a fraction "
                     "(written with /): use // or cn.exact_div for integer division")
