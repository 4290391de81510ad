"""element: result == array[index], with a 0-based index.

* `ElementConst(solver, array, index, result)`: array of integer constants; domain consistent
  on both index and result (bounds only where a domain is bounds-only).
* `ElementVar(solver, array, index, result)`: array of variables; the index keeps the
  positions whose variable can equal the result, the result keeps the union of those
  variables' domains (values on bitset domains, bounds otherwise), and once the index is
  fixed, result and array[index] are made equal (domain consistent).

The index is restricted to 0..len(array)-1 when the propagator is posted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine import DOMAIN, Inconsistency, IntView, Propagator, Solver
from conundrum.engine.bits import mask_of, offsets
from conundrum.propagators import element_explain
from conundrum.propagators.support_explain import columns_of, explain_removals, explain_wipeout

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred

__all__ = ["ElementConst", "ElementVar"]

MANY_VALUES: Final = 256  # arrays with more distinct values are filtered position by position


class ElementConst(Propagator):
    """result == array[index] for a list of integer constants (domain consistent).

    Under a learning search it explains itself as the table of the pairs (i, array[i])
    over (index, result) (support_explain.py)."""

    priority = 1
    idempotent = True
    explains = True

    def __init__(self, solver: Solver, array: list[int], index: IntView,
                 result: IntView) -> None:
        super().__init__(solver)
        self.array = [int(v) for v in array]
        self.index = index
        self.result = result
        self.idempotent = index.root is not result.root
        # bit of array[i] relative to the result's lowest value now (rbase), 0 if outside;
        # the result's bit set is relative to its current lo >= rbase
        rbits: list[int] = []
        self.rbase = result.lo
        if result.bits >= 0:
            width = result.hi - self.rbase
            for v in self.array:
                off = v - self.rbase
                rbits.append(1 << off if 0 <= off <= width else 0)
        self.rbits = rbits
        # for an array of few distinct values: each value's bit (as in rbits) and the mask
        # of its positions, so that a call costs a few big-int ANDs per value instead of a
        # step per position (a 5,977-word dictionary over 26 letters)
        self.by_value: list[tuple[int, int]] = _positions_by_value(rbits)
        # the pairs (i, array[i]) and their columns: made on the first explanation
        self.pairs: list[tuple[int, ...]] = []
        self.columns: list[dict[int, list[int]]] = []

    def _table(self) -> list[tuple[int, ...]]:
        """The pairs (i, array[i]), and their columns (made once)."""
        if not self.pairs:
            self.pairs = [(i, self.array[i]) for i in range(len(self.array))]
            self.columns = columns_of(self.pairs, 2)
        return self.pairs

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        pairs = self._table()
        return explain_removals(journal, [self.index, self.result], pairs, self.columns, e,
                                out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_wipeout(journal, [self.index, self.result], self._table(), out)

    def post(self) -> None:
        n = len(self.array)
        if n == 0:
            raise Inconsistency
        self.index.set_min(0)
        self.index.set_max(n - 1)
        self.index.subscribe(self, DOMAIN)
        self.result.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        index, result = self.index, self.result
        if index.bits >= 0 and result.bits >= 0:
            res = result.bits << (result.lo - self.rbase)
            idx = index.mask(0, index.hi)  # bit i stands for position i
            keep_i = keep_r = 0
            by_value = self.by_value
            if by_value and index.card > len(by_value):
                for b, where in by_value:
                    if b & res:
                        w = where & idx
                        if w:
                            keep_i |= w
                            keep_r |= b
            else:
                rbits = self.rbits
                kept: list[int] = []
                for i in offsets(idx):
                    b = rbits[i]
                    if b & res:
                        kept.append(i)
                        keep_r |= b
                keep_i = idx if len(kept) == index.card else mask_of(kept)
            if keep_i != idx:
                index.keep_mask(0, keep_i)
            if keep_r != res:
                result.keep_mask(self.rbase, keep_r)
            if result.lo == result.hi:
                self.deactivate()  # every remaining index gives that value
            return
        # generic path (a bounds-only domain is involved)
        array = self.array
        positions: list[int] = []
        results: set[int] = set()
        for i in index.values():
            v = array[i]
            if result.contains(v):
                positions.append(i)
                results.add(v)
        if not positions:
            raise Inconsistency
        index.keep_values(positions)
        result.keep_values(results)
        if index.lo == index.hi:
            self.deactivate()


def _positions_by_value(rbits: list[int]) -> list[tuple[int, int]]:
    """For each value bit of `rbits` (0s skipped), the mask of the positions holding it;
    [] when there are too many distinct values for that to pay (or none)."""
    where: dict[int, list[int]] = {}
    for i in range(len(rbits)):
        b = rbits[i]
        if b:
            where.setdefault(b, []).append(i)
    if len(where) > MANY_VALUES or len(where) * 8 > len(rbits):
        return []
    return [(b, mask_of(positions)) for b, positions in where.items()]


def _intersects(a: IntView, r: IntView) -> bool:
    """Whether the domains of a and r share a value."""
    lo = a.lo if a.lo > r.lo else r.lo
    hi = a.hi if a.hi < r.hi else r.hi
    if lo > hi:
        return False
    if a.bits < 0:
        if r.bits < 0:
            return True
        return r.mask(lo, hi) != 0
    if r.bits < 0:
        return a.mask(lo, hi) != 0
    return (a.mask(lo, hi) & r.mask(lo, hi)) != 0


def _equal(a: IntView, r: IntView) -> None:
    """Make the domains of a and r equal to their intersection."""
    while True:
        lo = a.lo if a.lo > r.lo else r.lo
        hi = a.hi if a.hi < r.hi else r.hi
        if lo > hi:
            raise Inconsistency
        if a.bits < 0 and r.bits < 0:
            a.set_min(lo)
            a.set_max(hi)
            r.set_min(lo)
            r.set_max(hi)
        else:
            common = a.mask(lo, hi) & r.mask(lo, hi)
            if not common:
                raise Inconsistency
            a.keep_mask(lo, common)
            r.keep_mask(lo, common)
        if a.lo == r.lo and a.hi == r.hi:
            return


class ElementVar(Propagator):
    """result == array[index] for a list of variables. Under a learning search it explains
    itself by disjoint domains and the index (element_explain.py)."""

    priority = 2
    idempotent = True
    explains = True

    def __init__(self, solver: Solver, array: list[IntView], index: IntView,
                 result: IntView) -> None:
        super().__init__(solver)
        self.array = list(array)
        self.index = index
        self.result = result
        ids = {id(a.root) for a in self.array}
        self.idempotent = (index.root is not result.root and id(index.root) not in ids
                           and id(result.root) not in ids)

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        return element_explain.explain_entry(journal, self.index, self.result, self.array, e,
                                             out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return element_explain.explain_failure(journal, self.index, self.result, self.array,
                                               out)

    def post(self) -> None:
        n = len(self.array)
        if n == 0:
            raise Inconsistency
        self.index.set_min(0)
        self.index.set_max(n - 1)
        self.index.subscribe(self, DOMAIN)
        self.result.subscribe(self, DOMAIN)
        seen = set()
        for a in self.array:
            if id(a.root) not in seen:
                seen.add(id(a.root))
                a.subscribe(self, DOMAIN)
        self.propagate()

    def propagate(self) -> None:
        index, result, array = self.index, self.result, self.array
        if index.lo != index.hi:
            self._filter_index_and_result()
        if index.lo == index.hi:
            a = array[index.lo]
            _equal(a, result)
            if result.lo == result.hi:
                self.deactivate()

    def _filter_index_and_result(self) -> None:
        index, result, array = self.index, self.result, self.array
        rlo, rhi = result.lo, result.hi
        bitset_result = result.bits >= 0
        union = 0
        new_lo: int | None = None
        new_hi: int | None = None
        kept: list[int] = []
        for i in index.values_list():  # a list: a generator allocates, compiled
            a = array[i]
            if _intersects(a, result):
                kept.append(i)
                if bitset_result:
                    union |= a.mask(rlo, rhi)
                else:
                    # a meets the result's range, so both values exist
                    alo: int = a.lo if a.lo >= rlo else a.next_value(rlo - 1)  # type: ignore
                    ahi: int = a.hi if a.hi <= rhi else a.prev_value(rhi + 1)  # type: ignore
                    if new_lo is None or alo < new_lo:
                        new_lo = alo
                    if new_hi is None or ahi > new_hi:
                        new_hi = ahi
        if not kept:
            raise Inconsistency
        if len(kept) != index.size():
            index.keep_values(kept)
        if bitset_result:
            result.keep_mask(rlo, union)
        elif new_lo is not None and new_hi is not None:
            result.set_bounds(new_lo, new_hi)
