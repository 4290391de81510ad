"""Packing globals: items into bins with loads (bin_packing).
"""

from __future__ import annotations

from collections.abc import Iterable

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    Expr,
    ExprLike,
    Global,
    Operands,
    make_sum,
)
from conundrum.lang.globals.base import (
    _flatten,
    _is,
    _pairwise_all,
)


class BinPacking(Global):
    """Item i (of size sizes[i]) goes into bin bins[i] (0-based) and loads[b] is the total
    size in bin b. args = loads + bins. Posted: propagators/packing.py; reified: one
    linear sum per bin over 0/1 placements."""

    __slots__ = ("sizes",)
    name = "bin_packing"

    def __init__(self, args: tuple[ExprLike, ...], sizes: tuple[int, ...]) -> None:
        super().__init__(args)
        self.sizes = sizes

    def holds(self, values: list[int]) -> bool:
        k = len(values) - len(self.sizes)
        loads, bins = values[:k], values[k:]
        if any(not 0 <= b < k for b in bins):
            return False
        totals = [0] * k
        for w, b in zip(self.sizes, bins):
            totals[b] += w
        return totals == list(loads)

    def decompose(self) -> Expr:
        k = len(self.args) - len(self.sizes)
        ls, bs = self.args[:k], self.args[k:]
        parts: list[Expr | bool] = []
        for b in bs:
            parts += [b >= 0, b < k]
        for j, load in enumerate(ls):
            parts.append(load == make_sum((w, _is(b, j)) for w, b in zip(self.sizes, bs)))
        return _pairwise_all(parts)


def bin_packing(loads: Operands, bins: Operands, sizes: Iterable[int]) -> Expr:
    """Item i (of size sizes[i]) goes into bin bins[i] (0-based), and loads[b] is the total
    size in bin b."""
    ls, bs = _flatten(loads, "bin_packing"), _flatten(bins, "bin_packing")
    ws = list(sizes)
    if len(ws) != len(bs):
        raise ModelError(f"bin_packing: {len(bs)} items but {len(ws)} sizes")
    for w in ws:
        if isinstance(w, bool) or not isinstance(w, int) or w < 0:
            raise ModelError(f"bin_packing: sizes are integers >= 0, not {w!r}")
    return BinPacking(ls + bs, tuple(ws))
