"""all_different, bounds consistent: Hall intervals by the union-find algorithm of
López-Ortiz, Quimper, Tromp and van Beek (IJCAI 2003), O(n log n) per pass, combined with
the value elimination of fixed variables (so that holes are used on bitset domains and
duplicates are caught on bounds-only ones).
"""

from __future__ import annotations

from conundrum.engine import BOUNDS, IntView, Solver
from conundrum.propagators.alldiff_explain import INTERVALS
from conundrum.propagators.alldiff_value import ValueElimination


class HallIntervals:
    """Bounds consistency of all_different over n intervals: one lower and one upper pass of
    the union-find algorithm of López-Ortiz et al. The caller fills `lo` and `hi`; `narrow`
    tightens them in place. Memory O(n) whatever the values: only ranks are indexed."""

    def __init__(self, n: int) -> None:
        self.n = n
        size = 2 * n + 2
        self.lo = [0] * n
        self.hi = [0] * n
        self._bounds = [0] * size
        self._t = [0] * size
        self._d = [0] * size
        self._h = [0] * size
        self._minrank = [0] * n
        self._maxrank = [0] * n

    def narrow(self) -> bool:
        """Tighten self.lo/self.hi to bounds consistency; False if no assignment exists."""
        n = self.n
        lo, hi = self.lo, self.hi
        bounds, t, d, h = self._bounds, self._t, self._d, self._h
        minrank, maxrank = self._minrank, self._maxrank
        minsorted = sorted(range(n), key=lo.__getitem__)
        maxsorted = sorted(range(n), key=hi.__getitem__)

        # ranks: bounds[] holds the distinct values among the lo's and (hi + 1)'s
        mn = lo[minsorted[0]]
        mx = hi[maxsorted[0]] + 1
        last = mn - 2
        nb = 0
        bounds[0] = last
        i = j = 0
        while True:
            if i < n and mn <= mx:
                if mn != last:
                    nb += 1
                    bounds[nb] = last = mn
                minrank[minsorted[i]] = nb
                i += 1
                if i < n:
                    mn = lo[minsorted[i]]
            else:
                if mx != last:
                    nb += 1
                    bounds[nb] = last = mx
                maxrank[maxsorted[j]] = nb
                j += 1
                if j == n:
                    break
                mx = hi[maxsorted[j]] + 1
        bounds[nb + 1] = bounds[nb] + 2

        # lower bounds: intervals by increasing max
        for i in range(1, nb + 2):
            t[i] = h[i] = i - 1
            d[i] = bounds[i] - bounds[i - 1]
        for k in maxsorted:
            x = minrank[k]
            y = maxrank[k]
            z = x + 1
            while t[z] > z:
                z = t[z]
            j = t[z]
            d[z] -= 1
            if d[z] == 0:
                t[z] = z + 1
                z = t[z]
                while t[z] > z:
                    z = t[z]
                t[z] = j
            p = x + 1
            while p != z:  # path compression
                q = t[p]
                t[p] = z
                p = q
            if d[z] < bounds[z] - bounds[y]:
                return False
            if h[x] > x:
                w = h[x]
                while h[w] > w:
                    w = h[w]
                lo[k] = bounds[w]
                p = x
                while p != w:
                    q = h[p]
                    h[p] = w
                    p = q
            if d[z] == bounds[z] - bounds[y]:  # Hall interval [bounds[j], bounds[y])
                p = h[y]
                while p != j - 1:
                    q = h[p]
                    h[p] = y
                    p = q
                h[y] = j - 1

        # upper bounds: intervals by decreasing min
        for i in range(nb + 1):
            t[i] = h[i] = i + 1
            d[i] = bounds[i + 1] - bounds[i]
        for k in reversed(minsorted):
            x = maxrank[k]
            y = minrank[k]
            z = x - 1
            while t[z] < z:
                z = t[z]
            j = t[z]
            d[z] -= 1
            if d[z] == 0:
                t[z] = z - 1
                z = t[z]
                while t[z] < z:
                    z = t[z]
                t[z] = j
            p = x - 1
            while p != z:
                q = t[p]
                t[p] = z
                p = q
            if d[z] < bounds[y] - bounds[z]:
                return False
            if h[x] < x:
                w = h[x]
                while h[w] < w:
                    w = h[w]
                hi[k] = bounds[w] - 1
                p = x
                while p != w:
                    q = h[p]
                    h[p] = w
                    p = q
            if d[z] == bounds[y] - bounds[z]:
                p = h[y]
                while p != j + 1:
                    q = h[p]
                    h[p] = y
                    p = q
                h[y] = j + 1
        return True


class AllDifferentBounds(ValueElimination):
    """all_different(xs), bounds consistent (Hall intervals) plus value elimination."""

    priority = 2
    reasons = INTERVALS  # a bound pushed past a Hall interval (alldiff_explain.py)

    def __init__(self, solver: Solver, xs: list[IntView]) -> None:
        super().__init__(solver, xs)
        self.hall = HallIntervals(self.n)

    def post(self) -> None:
        for x in self.xs:
            x.subscribe(self, BOUNDS)
        self.propagate()

    def propagate(self) -> None:
        self._hall_fixpoint(self.hall)
