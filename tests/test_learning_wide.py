"""The learning search on wide domains (issue 40, items 2 and 3): explanations and the
loops of the search cost what a domain's representation costs (a bit set of at most 65,536
values, or two bounds), never what its span costs (10^18 values, or 10^300).

Wide domains are kept as bounds only (engine/var.py): nothing may build a bit window, list
values or step a bound one value at a time across them.
"""

from __future__ import annotations

import tracemalloc

import pytest

import conundrum as cn
from conundrum.engine.bits import lost

SEARCHES = ("classic", "learning", "auto")


# ------------------------------------------------------------------ bits.lost


def _lost_by_membership(a: int, b: int, before: tuple[int, int, int],
                        after: tuple[int, int, int]) -> list[int]:
    """The truth for short ranges: a membership test per value."""
    def has(v: int, d: tuple[int, int, int]) -> bool:
        lo, hi, bits = d
        return lo <= v <= hi and (bits < 0 or (bits >> (v - lo)) & 1 == 1)
    return [v for v in range(a, b + 1) if has(v, before) and not has(v, after)]


def test_lost_matches_membership_on_short_ranges() -> None:
    """Every mix of bounds-only and bit-set domains, the range a..b inside, across and
    outside both."""
    domains = [(0, 9, -1), (2, 7, -1), (0, 9, 0b1011011101), (3, 8, 0b101101),
               (3, 8, -1), (5, 5, 1), (12, 14, 0b101)]
    for before in domains:
        for after in domains:
            for a in range(-2, 16, 3):
                for b in range(a - 1, 17, 4):
                    got = list(lost(a, b, before, after))
                    assert got == _lost_by_membership(a, b, before, after), (a, b, before,
                                                                            after)


def test_lost_is_lazy_on_a_wide_bounds_only_domain() -> None:
    """A bounds-only domain of 2 * 10^300 values that lost its lower half: the values come
    one at a time (a caller reading three pays for three), and its inside has no holes."""
    w = 10**300
    gone = lost(-w, w, (-w, w, -1), (0, w, -1))
    assert [next(gone), next(gone), next(gone)] == [-w, -w + 1, -w + 2]
    assert list(lost(-w, w, (-w, w, -1), (-w + 1, w - 1, -1))) == [-w, w]
    # a bit-set `after` inside a bounds-only `before`: a window as wide as the bit set
    assert list(lost(0, 12, (-w, w, -1), (5, 9, 0b10001))) == [0, 1, 2, 3, 4, 6, 7, 8, 10,
                                                               11, 12]
    assert list(lost(4, w, (-w, w, -1), (5, w - 1, -1)))[:1] == [4]
    assert list(lost(6, w, (-w, w, -1), (5, w - 1, -1))) == [w]


# ----------------------------------------------------------- issue 40 item 2


def _offset_model(width: int) -> tuple[cn.Model, cn.Var, cn.Var, int]:
    """Issue 40's MemoryError model, with x1 over -width..width and placed at width // 3
    (so that the same model runs at every width): one solution, x0 = 6."""
    m = cn.Model()
    x0 = m.int_var(6, 7, "x0")
    x1 = m.int_var(-width, width, "x1")
    c = width // 3
    m += x1 == c + x0
    m += x1 / x1 + x0 != 8
    return m, x0, x1, c


@pytest.mark.parametrize("search", SEARCHES)
def test_issue_40_memory_error_model(search: str) -> None:
    """Issue 40 item 2 as reported: the linear explanation of x1's bounds listed the holes
    of x1's root domain through a bit window as wide as 2 * 10^18 (a MemoryError)."""
    m = cn.Model()
    x0 = m.int_var(6, 7, "x0")
    x1 = m.int_var(-10**18, 10**18, "x1")
    m += x1 == 10**12 + x0
    m += x1 / x1 + x0 != 8
    got = [(s[x0], s[x1]) for s in m.solutions(search=search, var_select="input_order",
                                                value_select="max")]
    assert got == [(6, 10**12 + 6)]
    assert m.stats.complete


def _peak(width: int) -> int:
    """The peak of Python memory while the learning search enumerates _offset_model."""
    m, x0, x1, c = _offset_model(width)
    tracemalloc.start()
    try:
        got = [(s[x0], s[x1] - c) for s in m.solutions(search="learning",
                                                        var_select="input_order",
                                                        value_select="max")]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == [(6, 6)]
    return peak


def test_explanation_memory_does_not_follow_the_width() -> None:
    """The same model at widths 10^6 and 10^300: the same peak, give or take (a window of
    the domain's width was 125 kB at 10^6, and a MemoryError from about 10^10)."""
    _peak(10**6)  # warm up: lazy imports and caches are not the search's
    small = _peak(10**6)
    huge = _peak(10**300)
    assert huge < 2 * small + 64 * 1024, (small, huge)
