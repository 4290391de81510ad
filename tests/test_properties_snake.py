"""The seed "snake" puzzle through the public API, against an independent brute force.

A + 13*B/C + D + 12*E - F - 11 + G*H/I - 10 == 66, A..I a permutation of 1..9:
136 solutions with rational ``/``, 20 with ``cn.integral`` (SPEC section 2).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

import conundrum as cn

NAMES = "A B C D E F G H I"


@cache
def brute_force_snake() -> tuple[frozenset[tuple[int, ...]], frozenset[tuple[int, ...]], int]:
    """(rational solutions, integral solutions, truncating-division count) over 9! perms.

    Rational: multiply through by C*I (both positive), exact integer arithmetic.
    Integral: each quotient must be exact.  Truncating: Python ``//`` on positive values.
    """
    rational, integral, trunc = set(), set(), 0
    for p in itertools.permutations(range(1, 10)):
        a, b, c, d, e, f, g, h, i = p
        rest = a + d + 12 * e - f - 11 - 10 - 66
        if rest * c * i + 13 * b * i + g * h * c == 0:
            rational.add(p)
            if (13 * b) % c == 0 and (g * h) % i == 0:
                integral.add(p)
        if rest + (13 * b) // c + (g * h) // i == 0:
            trunc += 1
    return frozenset(rational), frozenset(integral), trunc


def snake_model(integral: bool) -> tuple[Any, list[Any]]:
    """The snake as a user writes it."""
    m = cn.Model()
    A, B, C, D, E, F, G, H, I = xs = m.int_vars(NAMES, 1, 9)
    m += cn.all_different(xs)
    eq = A + 13 * B / C + D + 12 * E - F - 11 + G * H / I - 10 == 66
    m += cn.integral(eq) if integral else eq
    return m, xs


def test_snake_rational_count_is_136() -> None:
    """count() with rational ``/``."""
    m, _ = snake_model(integral=False)
    assert m.count() == 136


def test_snake_integral_count_is_20() -> None:
    """count() with cn.integral(...)."""
    m, _ = snake_model(integral=True)
    assert m.count() == 20


@pytest.mark.parametrize("var_select,value_select", [
    ("input_order", "min"), ("first_fail", "split"), ("dom_wdeg", "random"),
    ("max_regret", "median")])
def test_snake_integral_solutions_under_options(var_select: str, value_select: str) -> None:
    """The 20 integral solutions, each exactly once, each with integral quotients."""
    m, xs = snake_model(integral=True)
    sols = list(m.solutions(var_select=var_select, value_select=value_select, seed=3))
    got = [tuple(s[x] for x in xs) for s in sols]
    assert len(got) == len(set(got)) == 20
    A, B, C, D, E, F, G, H, I = xs
    for s, t in zip(sols, got, strict=True):
        a, b, c, d, e, f, g, h, i = t
        assert sorted(t) == list(range(1, 10))
        assert (13 * b) % c == 0 and (g * h) % i == 0
        assert s.value(13 * B / C) == Fraction(13 * b, c)
        assert a + 13 * b // c + d + 12 * e - f - 11 + g * h // i - 10 == 66


def test_snake_matches_independent_brute_force() -> None:
    """Brute force over the 9! permutations confirms 136 / 20 (and 2672 if truncating), and
    the engine's solution sets equal the brute-force sets exactly."""
    rational, integral, trunc = brute_force_snake()
    assert (len(rational), len(integral), trunc) == (136, 20, 2672)
    for flag, truth in ((False, rational), (True, integral)):
        m, xs = snake_model(integral=flag)
        got = [tuple(s[x] for x in xs) for s in m.solutions(var_select="first_fail")]
        assert len(got) == len(set(got)), "duplicated solutions"
        assert set(got) == truth
        for a, b, c, d, e, f, g, h, i in got:
            assert (a + Fraction(13 * b, c) + d + 12 * e - f - 11 + Fraction(g * h, i) - 10
                    == 66)
