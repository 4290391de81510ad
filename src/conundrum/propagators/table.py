"""Positive table constraint, generalised arc consistency by compact-table.

Compact-table (Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin, Schaus; CP 2016), with
Python ints as bit sets:

* tuple j is bit j; `supports[k][v]` is the set of tuples with value v at position k;
* `current` (trailed) is the set of tuples all of whose values are still in the domains;
* update: for every variable whose domain changed since the last call (a trailed snapshot of
  its bit set, or of its bounds), `current` loses the supports of the removed values (or
  keeps those of the remaining values, whichever is shorter);
* filter: a value v of x_k stays iff `supports[k][v] & current` is not empty. The variable
  that alone caused the update needs no filtering when it has a bit set (its remaining
  values kept their supports); a bounds-only one still moves its bounds onto supported
  values. When fewer tuples are left than x_k has values (after an assignment, typically)
  the supported values are collected from the remaining tuples instead, one OR per tuple
  (`colbits[k][j]` is the bit of tuple j's value in x_k's bit set).

A variable's bit set is relative to its current lowest value (engine/var.py); the table
reads it relative to the column's own anchor `anchor[k]` (the lowest value when posted).

Tuples with a value outside a domain are dropped when the propagator is posted (as are
duplicates). Bounds-only variables only lose values at their bounds.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING

from conundrum.engine import DOMAIN, Inconsistency, IntView, Propagator, Solver
from conundrum.engine.var import offsets
from conundrum.propagators.support_explain import columns_of, explain_removals, explain_wipeout
from conundrum.state import RevInt

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred

__all__ = ["Table"]


def _bitset(indices: list[int], size: int) -> int:
    """The int with the given bits set (linear time, unlike repeated `|=`)."""
    buf = bytearray((size + 7) >> 3)
    for j in indices:
        buf[j >> 3] |= 1 << (j & 7)
    return int.from_bytes(buf, "little")


class Table(Propagator):
    """(x_0, ..., x_{r-1}) is one of the given tuples (GAC, compact-table). The columns are
    distinct variables (not two views of one)."""

    priority = 2
    idempotent = True
    explains = True  # by the lost values that killed the tuples (support_explain.py)

    def __init__(self, solver: Solver, xs: list[IntView], tuples: list[tuple[int, ...]]) -> None:
        super().__init__(solver)
        self.xs = list(xs)
        self.tuples = [tuple(int(v) for v in t) for t in tuples]
        arity = len(self.xs)
        for t in self.tuples:
            if len(t) != arity:
                raise ValueError(f"table: tuple {t} does not have {arity} values")
        if len({id(x.root) for x in self.xs}) != arity:
            # filtering one column would change another behind its back (and the
            # entailment test would trust stale rows): merge such columns first, as the
            # compiler's post_table does
            raise ValueError("table: two columns share a variable")
        self.current = RevInt(solver.trail, 0)
        # per position, the domain as last seen: its bit set, or its lo (with last_hi)
        self.last: list[RevInt] = []
        self.last_hi: list[RevInt] = []
        # per position: for bitset domains a list indexed by value - anchor; for bounds-only
        # domains the masks of the sorted values in `keys`
        self.sup: list[list[int]] = []
        self.keys: list[list[int]] = []
        self.colbits: list[list[int]] = []
        self.anchor: list[int] = []
        # per position, value -> the tuples with it: made on the first explanation
        self.columns: list[dict[int, list[int]]] = []

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        if not self.columns:
            self.columns = columns_of(self.tuples, len(self.xs))
        return explain_removals(journal, self.xs, self.tuples, self.columns, e, out)

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        return explain_wipeout(journal, self.xs, self.tuples, out)

    def post(self) -> None:
        xs = self.xs
        trail = self.solver.trail
        seen = set()
        valid = []
        for t in self.tuples:
            if t not in seen and all(x.contains(v) for x, v in zip(xs, t, strict=True)):
                seen.add(t)
                valid.append(t)
        self.tuples = valid
        if not valid:
            raise Inconsistency
        size = len(valid)
        for k, x in enumerate(xs):
            by_value: dict[int, list[int]] = {}
            for j, t in enumerate(valid):
                by_value.setdefault(t[k], []).append(j)
            self.anchor.append(x.lo)
            if x.bits >= 0:
                base = x.lo
                sup = [0] * (x.hi - base + 1)
                keep = 0
                for v, js in by_value.items():
                    sup[v - base] = _bitset(js, size)
                    keep |= 1 << (v - base)
                self.sup.append(sup)
                self.keys.append([])
                self.colbits.append([1 << (t[k] - base) for t in valid])
                x.keep_mask(base, keep)
            else:
                keys = sorted(by_value)
                self.sup.append([_bitset(by_value[v], size) for v in keys])
                self.keys.append(keys)
                self.colbits.append([])
                x.set_min(keys[0])
                x.set_max(keys[-1])
        self.current.value = (1 << size) - 1
        for k, x in enumerate(xs):
            self.last.append(RevInt(trail, self._bits(k) if x.bits >= 0 else x.lo))
            self.last_hi.append(RevInt(trail, x.hi))
        for x in xs:
            x.subscribe(self, DOMAIN)
        self._check_entailed()

    def propagate(self) -> None:
        xs = self.xs
        sups = self.sup
        last = self.last
        curr: int = self.current.value
        orig = curr
        nchanged = 0
        changed = -1
        # ---- update the current table
        for k in range(len(xs)):
            x = xs[k]
            cell = last[k]
            sup = sups[k]
            bits = x.bits
            if bits >= 0:
                bits <<= x.lo - self.anchor[k]
                old = cell.value
                if bits == old:
                    continue
                removed = old & ~bits
                m = 0
                if removed.bit_count() <= x.card:
                    while removed:
                        low = removed & -removed
                        removed ^= low
                        m |= sup[low.bit_length() - 1]
                    curr &= ~m
                else:
                    rest = bits
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        m |= sup[low.bit_length() - 1]
                    curr &= m
                cell.set(bits)
            else:
                lo, hi = x.lo, x.hi
                if cell.value == lo and self.last_hi[k].value == hi:
                    continue
                keys = self.keys[k]
                m = 0
                for i in range(bisect_left(keys, lo), bisect_right(keys, hi)):
                    m |= sup[i]
                curr &= m
                cell.set(lo)
                self.last_hi[k].set(hi)
            nchanged += 1
            changed = k
        if curr == orig:
            return
        if not curr:
            raise Inconsistency
        self.current.set(curr)
        # ---- filter the domains
        ncurr = curr.bit_count()
        alive: list[int] = []  # the remaining tuples, listed once if a column needs them
        for k in range(len(xs)):
            x = xs[k]
            bits = x.bits
            # the column that alone caused the update keeps support for its remaining
            # values, unless it is bounds-only: its new bound may be no value of the table
            if x.lo == x.hi or (nchanged == 1 and k == changed and bits >= 0):
                continue
            if bits >= 0:
                bits <<= x.lo - self.anchor[k]
                if ncurr < x.card:
                    # few tuples left: the values they use, one OR per tuple
                    if not alive:
                        alive = list(offsets(curr))
                    colbits = self.colbits[k]
                    used = 0
                    for j in alive:
                        used |= colbits[j]
                    rm = bits & ~used
                else:
                    sup = sups[k]
                    rm = 0
                    rest = bits
                    while rest:
                        low = rest & -rest
                        rest ^= low
                        if not sup[low.bit_length() - 1] & curr:
                            rm |= low
                if rm:
                    x.remove_mask(self.anchor[k], rm)
                    last[k].set(self._bits(k))
            else:
                sup = sups[k]
                keys = self.keys[k]
                lo, hi = x.lo, x.hi
                i = bisect_left(keys, lo)
                while not sup[i] & curr:
                    i += 1
                j = bisect_right(keys, hi) - 1
                while not sup[j] & curr:
                    j -= 1
                if keys[i] != lo or keys[j] != hi:
                    x.set_min(keys[i])
                    x.set_max(keys[j])
                    last[k].set(x.lo)
                    self.last_hi[k].set(x.hi)
        self._check_entailed()

    def _bits(self, k: int) -> int:
        """The bit set of column k relative to the column's anchor."""
        x = self.xs[k]
        return x.bits << (x.lo - self.anchor[k])

    def _check_entailed(self) -> None:
        """Entailed when every combination of the current domains is an allowed tuple."""
        count = self.current.value.bit_count()
        prod = 1
        for x in self.xs:
            prod *= x.size()
            if prod > count:
                return
        self.deactivate()
