"""The nogood store (issue 29, plan 2.5): nogoods over predicates, propagated with two
watched predicates.

A nogood is a conjunction of predicates (literals.py) that must not all hold: the clause
of their negations. Each nogood watches two of its predicates that are not true. Nothing
needs waking while both stay not true: the nogood can neither fail nor propagate. When a
watched predicate becomes true, the store looks for another not-true predicate to watch
instead; if there is none, the other watched predicate is the only one left: if it is true
too, every predicate holds and the node fails (Inconsistency); if it is already false the
nogood is satisfied; otherwise it is made false (its negation is made true).

Why nothing is undone on backtrack (the watch lists are plain, monotone-safe state, as in
MiniSat): a watch only moves away from a predicate that became true, to one that is not
true, and backtracking only makes true predicates not true. A watch may stay on a true
predicate only when the other watch was made (or was already) false at the same level or
earlier, and both are undone together or the true one first. That argument needs every
visit to happen in the level of the change that caused it, which the fixpoint guarantees,
and it needs care when a nogood is added below the root with fewer than two predicates
not true (`add`): its second watch then goes to the true predicate that became true last
(read from the journal of a learning search), which is the first to become not true again
on a backjump. The depth-first search with restarts adds its nogoods at the root.

Under a learning search the store explains itself (reasons.py): a predicate it made false
is explained by the nogood's other predicates (the journal's payload names the nogood),
and a failure by all of them.

Learned nogoods can be forgotten (`reduce`, Pumpkin's and Glucose's tiers): each carries
its LBD (the number of decision levels among its predicates when it was learned; 0 marks a
nogood that must stay, such as the blocking nogoods that keep an enumeration exact) and an
activity, bumped whenever it explains a step of conflict analysis. Nogoods of small LBD
stay; past a number of the others, the less active half goes. Forgetting a
learned nogood loses no solution and admits none: it follows from the model and the
nogoods that stay. It is done at the search's root only, where no entry of the journal
above the root names a nogood by its number.

How the store hears of changes: a small `VarWatch` propagator per watched variable,
subscribed to DOMAIN (every change), made when the variable gets its first watch. When it
runs it hands its variable to the store, which scans that variable's watch lists. So the
store knows which variable moved without any hook in var.py. A VarWatch never deactivates
and does not count its failures for dom_wdeg (`failed` is a no-op): a nogood is not a
constraint of the model whose weight should steer the search.

Why a scan is cheap (issue 42): a variable's watches are kept in four lists, one per kind
of the watched predicate, each entry beside the predicate's value, and the VarWatch
remembers the domain's (lo, hi, card, bits) at its last scan, saved on the trail like a domain
(so a backtrack restores what the scan saw on that branch). A scan then reads only the
lists whose kind can have become true since: `>=` if lo moved, `<=` if hi moved, `==` if
the variable became fixed, `!=` if a value went; and it visits only the watches whose
predicate became true *since the last scan*: one that held then was visited then, and if
it stayed, its nogood's other watch is false and stays false while it holds (above), as a
SAT solver visits a literal's watches once, when it becomes true. Every list is sorted by
value, so those watches are runs of the list, found by binary search: `[x >= v]` for seen
lo < v <= lo, `[x <= v]` for hi <= v < seen hi, `[x == lo]` once x is fixed, `[x != v]`
for each value gone since (the VarWatch also remembers the bit set, so holes made inside
the bounds are known). Before, every watch of a list was read at every scan: on golomb-10,
11.6 M reads of the bound lists for 1.6 M visits, and half of the visits were of watches
already visited; all-interval 24 read 43 `==` watches per scan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine.bits import count_bits, offsets
from conundrum.engine.errors import Inconsistency
from conundrum.engine.events import DOMAIN
from conundrum.engine.journal import NOT_TRUE, ROOT, Journal
from conundrum.engine.literals import EQ, GE, LE, NE, Pred, falsified, holds, make_true, negate
from conundrum.engine.propagator import Propagator
from conundrum.engine.reasons import skipped_values
from conundrum.engine.watch import VarWatch, first_above

if TYPE_CHECKING:
    from conundrum.engine.solver import Solver
    from conundrum.engine.var import IntVar

ACTIVITY_DECAY: Final = 0.999  # per conflict, as in MiniSat's clause activity
# a propagation's journal payload: the nogood's number shifted left by POSITION_BITS, or'd
# with the position of the predicate it made false (POSITION_MASK: not recorded, a nogood
# that long is explained by looking up when each predicate became true)
POSITION_BITS: Final = 24
POSITION_MASK: Final = (1 << POSITION_BITS) - 1


def payload(c: int, position: int) -> int:
    """The journal payload of nogood c making its predicate at `position` false."""
    return (c << POSITION_BITS) | (position if position < POSITION_MASK else POSITION_MASK)


class NogoodStore(Propagator):
    """Nogoods with two watched predicates each.

    Storage is flat: nogood `c` is `preds[starts[c]:starts[c] + sizes[c]]`, and its two
    watches are positions in that slice, `watch0[c]` and `watch1[c]` (equal for a nogood
    of one predicate). A watch list entry `2*c + slot` says that slot `slot` of nogood
    `c` watches a predicate of that variable (a nogood may watch two predicates of one
    variable: two entries, one per slot). A variable has four watch lists, one per kind
    (GE, LE, EQ, NE: `watches[i][kind]`), each a flat list of pairs (entry, value).
    """

    priority = 0
    explains = True

    def __init__(self, solver: Solver) -> None:
        super().__init__(solver)
        self.failed_nogood = -1  # the nogood whose predicates all held, at the last failure
        self.preds: list[Pred] = []
        self.starts: list[int] = []
        self.sizes: list[int] = []
        self.watch0: list[int] = []
        self.watch1: list[int] = []
        self.lbd: list[int] = []  # 0: never forgotten (see the module)
        self.activity: list[float] = []
        self.bump_by = 1.0
        self.forgotten = 0  # nogoods forgotten by `reduce`, over the store's life
        # variable index -> its watch lists by kind, each [entry, value, entry, value, ...]
        self.watches: dict[int, list[list[int]]] = {}
        self.watchers: dict[int, VarWatch] = {}  # variable index -> its VarWatch
        # the watch list being scanned, and the watches that moved to it meanwhile
        self.scanning: list[int] | None = None
        self.deferred: list[int] = []

    def post(self) -> None:
        """Nothing to subscribe: the VarWatch propagators do the waking."""

    def propagate(self) -> None:
        """Never scheduled (it subscribes to nothing); the work is in `scan`."""

    def failed(self) -> None:
        """Nogood failures do not feed dom_wdeg."""

    def __len__(self) -> int:
        return len(self.starts)

    def nogood(self, c: int) -> list[Pred]:
        """The predicates of nogood c."""
        s = self.starts[c]
        return self.preds[s:s + self.sizes[c]]

    # ------------------------------------------------------------------ adding
    def add(self, preds: list[Pred], lbd: int = 0, latest: int = -1) -> None:
        """Add the nogood `not (p1 and ... and pn)` and propagate it: at once if it is
        unit or failed, and from then on through its watches (see the module on adding
        below the root). `lbd` is a learned nogood's LBD (0: never forgotten); `latest`,
        if the caller knows it (conflict analysis does), the position of the true
        predicate that became true last, should one be needed as a watch. Raises
        Inconsistency if every predicate already holds, or if a propagation fails (the
        queues are then cleared, as after any failed fixpoint); the nogood is stored
        either way. An empty nogood fails."""
        if not preds:
            raise Inconsistency
        c = len(self.starts)
        start = len(self.preds)
        self.preds.extend(preds)
        self.starts.append(start)
        self.sizes.append(len(preds))
        self.lbd.append(lbd)
        self.activity.append(self.bump_by)
        # watch two predicates that are not true, if there are two; else, below the root
        # of a learning search, the true one that became true last (it is the first to
        # become not true again on a backjump, which keeps the watches sound)
        free = [i for i in range(len(preds)) if not holds(preds[i])]
        w0 = free[0] if free else 0
        if len(free) > 1:
            w1 = free[1]
        elif 0 <= latest < len(preds) and latest != w0 and holds(preds[latest]):
            w1 = latest
        else:
            w1 = self._latest_true(preds, w0)
        if len(preds) == 1:
            w1 = w0
        self.watch0.append(w0)
        self.watch1.append(w1)
        self._watch(preds[w0], 2 * c)
        if len(preds) > 1:
            self._watch(preds[w1], 2 * c + 1)
        journal = self.solver.journal
        if not free:
            self.failed_nogood = c
            if journal is not None:
                journal.conflict = self
            raise Inconsistency
        if len(free) == 1:
            if journal is not None:
                journal.current = self
                journal.current_code = payload(c, free[0])
            try:
                make_true(negate(preds[free[0]]))
            except Inconsistency:
                self.solver.clear_queue()  # as fix_point does on failure
                raise
        self.solver.fix_point()

    def _latest_true(self, preds: list[Pred], skip: int) -> int:
        """The position of the predicate other than `skip` that became true last (by the
        journal; without one, the next position)."""
        journal = self.solver.journal
        n = len(preds)
        if journal is None or n < 2:
            return skip + 1 if skip + 1 < n else 0
        best, best_pos = -1, ROOT - 1
        for i in range(n):
            if i != skip:
                p = preds[i]
                pos = journal.became_true(p.var.index, p.kind, p.value)
                if best < 0 or pos > best_pos:
                    best, best_pos = i, pos
        return best

    # ------------------------------------------------------------ explaining
    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        """Why entry e happened: a nogood made its last predicate false because all the
        others held (the journal's payload names both: `payload`)."""
        code = journal.code[e]
        c = code >> POSITION_BITS
        position = code & POSITION_MASK
        self._bump(c)
        s = self.starts[c]
        preds = self.preds
        made: Pred | None = None  # the predicate e made false
        if position != POSITION_MASK:
            for k in range(self.sizes[c]):
                if k != position:
                    out.append(preds[s + k])
            made = preds[s + position]
        else:
            for p in preds[s:s + self.sizes[c]]:
                pos = journal.became_true(p.var.index, p.kind, p.value)
                if pos != NOT_TRUE and pos < e:
                    out.append(p)
                else:
                    made = p
        if made is not None:
            # a bound moved past holes: those (and the old bound) are part of the reason
            skipped_values(journal, e, negate(made), out)
        return True

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        """Why the last failure happened: every predicate of the failed nogood held."""
        c = self.failed_nogood
        if c < 0:
            return False
        self._bump(c)
        out.extend(self.nogood(c))
        return True

    # ------------------------------------------------------------ forgetting
    def _bump(self, c: int) -> None:
        """Nogood c took part in a conflict analysis."""
        self.activity[c] += self.bump_by
        if self.activity[c] > 1e100:  # rescale all, keeping the order
            self.activity = [a * 1e-100 for a in self.activity]
            self.bump_by *= 1e-100

    def decay(self) -> None:
        """Age every nogood's activity (once per conflict): recent uses weigh more."""
        self.bump_by /= ACTIVITY_DECAY

    def reduce(self, max_learned: int, keep_lbd: int) -> int:
        """Forget the less active half of the forgettable nogoods (learned, LBD above
        `keep_lbd`) when there are more than `max_learned` of them; the number forgotten.
        Only at the search's root (see the module): the nogoods are renumbered."""
        spare = [c for c in range(len(self.starts)) if self.lbd[c] > keep_lbd]
        if len(spare) <= max_learned:
            return 0
        spare.sort(key=lambda c: self.activity[c])
        drop = set(spare[:len(spare) // 2])
        preds, starts, sizes = self.preds, self.starts, self.sizes
        watch0, watch1, lbd, activity = self.watch0, self.watch1, self.lbd, self.activity
        self.preds, self.starts, self.sizes = [], [], []
        self.watch0, self.watch1, self.lbd, self.activity = [], [], [], []
        for lists in self.watches.values():  # emptied in place: the VarWatches hold them
            for ws in lists:
                ws.clear()
        for c in range(len(starts)):
            if c in drop:
                continue
            n = len(self.starts)
            s = starts[c]
            size = sizes[c]
            self.starts.append(len(self.preds))
            self.preds.extend(preds[s:s + size])
            self.sizes.append(size)
            self.watch0.append(watch0[c])
            self.watch1.append(watch1[c])
            self.lbd.append(lbd[c])
            self.activity.append(activity[c])
            self._listed(preds[s + watch0[c]], 2 * n)
            if size > 1:
                self._listed(preds[s + watch1[c]], 2 * n + 1)
        self.failed_nogood = -1
        self.forgotten += len(drop)
        return len(drop)

    def _listed(self, p: Pred, entry: int) -> None:
        """Put a watch list entry on p's variable, in the list of p's kind."""
        ws = self.watches[p.var.index][p.kind]
        if ws is self.scanning:
            self.deferred.append(entry)
            self.deferred.append(p.value)
        else:
            self._insert(ws, entry, p.value)

    def _watch(self, p: Pred, entry: int) -> None:
        """Put a watch list entry on p, making its variable's VarWatch at its first watch."""
        x = p.var
        i = x.index
        if i not in self.watches:
            self.watches[i] = [[], [], [], []]
        self._listed(p, entry)
        if i not in self.watchers:
            w = self.watchers[i] = VarWatch(self.solver, self, x, self.watches[i])
            # not through Solver.post: that would scan and run the fixpoint in the middle
            # of `add`, before its own unit is applied (and the solver's list of
            # propagators is the model's: `detach` takes the watchers away again)
            x.subscribe(w, DOMAIN)

    def detach(self) -> None:
        """Unsubscribe every watcher, so that the engine propagates as if the store had
        never been made (the search that owned it has ended). The store is then empty."""
        for w in self.watchers.values():
            w.var.unsubscribe(w)
        self.watchers = {}
        self.watches = {}
        self.preds = []
        self.starts = []
        self.sizes = []
        self.watch0 = []
        self.watch1 = []
        self.lbd = []
        self.activity = []
        self.failed_nogood = -1

    # --------------------------------------------------------------- propagating
    def scan(self, x: IntVar, watcher: VarWatch) -> None:
        """Visit the watches on x whose predicates became true (x changed) since the last
        scan on this branch, which `watcher` remembers (see the module). Every list is
        sorted by value, so each kind's newly true predicates are runs of its list:
        `[x >= v]` for seen lo < v <= lo, `[x <= v]` for hi <= v < seen hi, `[x == lo]`
        once x is fixed, `[x != v]` for each value v gone since (below lo, above hi, and
        the holes made inside, from the seen bit set)."""
        lists = watcher.lists
        lo = x.lo
        hi = x.hi
        card = x.card
        fresh = watcher.seen_card < 0
        if not fresh and card == watcher.seen_card:
            return  # domains only shrink along a branch: the same size is the same domain
        seen_lo = watcher.seen_lo
        seen_hi = watcher.seen_hi
        seen_bits = watcher.seen_bits
        bits = x.bits
        lo_moved = fresh or lo != seen_lo
        hi_moved = fresh or hi != seen_hi
        # remembered before the visits: what they change on x is seen by the next scan
        watcher.see(lo, hi, card, bits)
        ws = lists[GE]
        if lo_moved and ws:
            self._scan_run(ws, first_above(ws, seen_lo) if not fresh else 0,
                           first_above(ws, lo), None)
        ws = lists[LE]
        if hi_moved and ws:
            self._scan_run(ws, first_above(ws, hi - 1),
                           first_above(ws, seen_hi - 1) if not fresh else len(ws), None)
        ws = lists[EQ]
        if lo == hi and (lo_moved or hi_moved) and ws:
            self._scan_run(ws, first_above(ws, lo - 1), first_above(ws, lo), None)
        ws = lists[NE]
        if not ws:
            return
        if fresh:
            self._scan_run(ws, 0, len(ws), x)
            return
        if lo > seen_lo:  # the values below the new lower bound
            self._scan_run(ws, first_above(ws, seen_lo - 1), first_above(ws, lo - 1), None)
        if hi < seen_hi:  # above the new upper bound
            self._scan_run(ws, first_above(ws, hi), first_above(ws, seen_hi), None)
        if bits < 0 or hi - lo < 2:
            return  # no value inside the bounds can have gone
        if seen_bits < 0:  # (not known what was there: every hole inside)
            self._scan_run(ws, first_above(ws, lo), first_above(ws, hi - 1), x)
            return
        gone = (seen_bits >> (lo - seen_lo)) & ~bits & ((1 << (hi - lo + 1)) - 1)
        if not gone:
            return
        if count_bits(gone) > len(ws) >> 2:  # many: one pass over the inside instead
            self._scan_run(ws, first_above(ws, lo), first_above(ws, hi - 1), x)
            return
        for o in offsets(gone):
            v = lo + o
            self._scan_run(ws, first_above(ws, v - 1), first_above(ws, v), None)

    def _scan_run(self, ws: list[int], start: int, stop: int, x: IntVar | None) -> None:
        """Visit the watches of a sorted list in positions start..stop: all of them, or
        with `x`, those whose value x lacks (`!=` predicates that hold). The watches that
        stay are compacted to the front of that run; those that move go to other lists,
        and those that move to this list wait in `deferred` until the run is done (a
        sorted insertion would shift the run)."""
        if start >= stop:
            return
        self.scanning = ws
        j = start  # where the next kept entry goes
        k = start
        try:
            while k < stop:
                entry = ws[k]
                k += 2
                if (x is not None and x.contains(ws[k - 1])) or self._visit(entry):
                    if j != k - 2:
                        ws[j] = entry
                        ws[j + 1] = ws[k - 1]
                    j += 2
        except Inconsistency:
            del ws[j:k - 2]  # the failing entry and the unvisited ones stay
            self._flush(ws)
            raise
        if j != stop:
            del ws[j:stop]
        self._flush(ws)

    def _flush(self, ws: list[int]) -> None:
        """End a scan of the sorted list ws: insert the watches that moved to it meanwhile
        (on predicates not true, so never into a run still to scan)."""
        self.scanning = None
        deferred = self.deferred
        if deferred:
            for k in range(0, len(deferred), 2):
                self._insert(ws, deferred[k], deferred[k + 1])
            deferred.clear()

    def _insert(self, ws: list[int], entry: int, v: int) -> None:
        """Put the pair (entry, v) into the sorted list ws, after those of value v."""
        k = first_above(ws, v)
        ws.insert(k, v)
        ws.insert(k, entry)

    def _visit(self, entry: int) -> bool:
        """Handle one watch whose predicate became true; False if the watch moved away."""
        c = entry >> 1
        slot = entry & 1
        preds = self.preds
        start = self.starts[c]
        other = self.watch0[c] if slot else self.watch1[c]
        q = preds[start + other]  # (a nogood of one predicate: the one that holds)
        if falsified(q):
            # satisfied (see the module docstring on why it may stay): four visits in
            # five on golomb-10, so this path reads as little as it can
            return True
        size = self.sizes[c]
        if size == 1:
            self.failed_nogood = c
            raise Inconsistency  # its only predicate holds
        w = self.watch1[c] if slot else self.watch0[c]
        # a not-true predicate to watch instead, searched circularly from the one just
        # made true (Gent 2013): the predicates before it were found true at earlier
        # visits and mostly still are, so a search from the start reads them again (on
        # all-interval 24 it read 4.9x as many predicates per visit)
        j = w
        for _ in range(size - 1):
            j += 1
            if j == size:
                j = 0
            if j != other:
                p = preds[start + j]
                if not holds(p):
                    if slot:
                        self.watch1[c] = j
                    else:
                        self.watch0[c] = j
                    self._watch(p, entry)
                    return False
        # every predicate but q holds
        if holds(q):
            self.failed_nogood = c
            raise Inconsistency
        journal = self.solver.journal
        if journal is not None:  # the running VarWatch explains by this nogood
            journal.current_code = payload(c, other)
        make_true(negate(q))
        return True

