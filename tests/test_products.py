"""engine/products.py: `times` is the product for every sign and size (it only moves the
signs out of the multiplication, for the compiled build's fast path)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from conundrum.engine.products import times


@given(st.integers(), st.integers())
def test_times_is_the_product(a: int, b: int) -> None:
    assert times(a, b) == a * b


def test_times_of_the_corner_cases() -> None:
    # zero of either sign, the edges of a machine word and of mypyc's short integers
    for a in (0, 1, -1, 2**30 - 1, -(2**30), 2**62, -(2**63), 10**40, -(10**40)):
        for b in (0, -1, 3, -7, 2**31, -(2**31)):
            assert times(a, b) == a * b
