"""The largest power the compiler computes: x ** k over a wide base and a huge exponent
would otherwise build integers of millions of bits (y == x ** 10**7 with x up to 10 is a
33-million-bit number, seconds to compute and gigabytes to tabulate)."""

from __future__ import annotations

import math
from fractions import Fraction

from conundrum.lang.errors import ModelError

MAX_POWER_BITS = 1 << 16  # the bits a power may reach (about 19,700 decimal digits)


def power_bits(base: int | Fraction, k: int) -> float:
    """About how many bits |base| ** k has (its numerator or denominator, for a fraction);
    0 for a base of -1, 0 or 1, whose powers stay small whatever k."""
    m = max(abs(base.numerator), base.denominator)
    return 0.0 if m < 2 else k * math.log2(m)


def check_power(lo: int | Fraction, hi: int | Fraction, k: int, what: str) -> None:
    """ModelError when `what` ** k, for a base between lo and hi, may exceed
    MAX_POWER_BITS bits: its value could not be computed, let alone searched."""
    bits = max(power_bits(lo, k), power_bits(hi, k))
    if bits > MAX_POWER_BITS:
        # the largest base allowed: 2 ** (MAX_POWER_BITS / k), in integers (1 for a huge k)
        top = 1
        if k < MAX_POWER_BITS:
            from conundrum.propagators.arith import iroot

            top = iroot(1 << MAX_POWER_BITS, k)
        raise ModelError(f"{what} ** {k:,} may have about {bits:,.0f} bits, more than the "
                         f"{MAX_POWER_BITS:,} a power may have: narrow the base to "
                         f"-{top:,}..{top:,} or lower the exponent")
