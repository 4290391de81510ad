"""The journal: every domain change of a search, in order, with who made it (issue 29,
plan 2.2). Conflict analysis reads it to ask *why* a predicate holds.

The trail (state/trail.py) undoes changes but forgets them: a variable saves its old domain
once per level, not each change, and nothing records which propagator changed what. The
journal is a second, optional record beside it. When one is attached, `IntVar._set_bits`
and `_set_bounds` end by calling `record`, which appends one *entry*: the variable, its new
domain (lo, hi, bits), the reason (the propagator running, None for a search decision), a
payload `code` for the reason's own use, the trail depth, and the variable's previous entry
(`prev`; -1 means the snapshot taken when the journal was attached). So each variable's
entries form a chain from its latest (`latest(index)`) back to that snapshot, and the domain
a variable had at any earlier moment is a walk along its chain (`entry_before`). The same
chain is also kept as a list in order (`chain[index]`), so that the moment a predicate
became true is a binary search (`became_true`, which conflict analysis asks for every
predicate of every explanation).

The journal is itself a reversible object: it saves its length once per trail level and
`restore` truncates back to it, popping each variable's chain. So every pop of the trail keeps
it exact, with no bookkeeping in the search. In the classic search no journal is attached
and the hook is one test of a None field.

Propagators are numbered when the journal is attached (`Propagator.id`), and each one's
*scope* (the root variables that wake it) is read off the subscriptions: that is what the
generic explanation of reasons.py describes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.engine.literals import GE, LE, holds_in
from conundrum.state import Reversible

if TYPE_CHECKING:
    from conundrum.engine.propagator import Propagator
    from conundrum.engine.solver import Solver
    from conundrum.engine.var import IntVar

ROOT: Final = -1  # the `prev` of a variable's first entry: its domain at the snapshot
NOT_TRUE: Final = -2  # became_true of a predicate that does not hold now


class Journal(Reversible):
    """The domain changes since the journal was attached to a solver (see the module)."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.trail = solver.trail
        self.stamp = -1
        self.saved: list[int] = []  # the journal's length when each level first wrote
        # one entry per change, in parallel lists
        self.var: list[int] = []
        self.lo: list[int] = []
        self.hi: list[int] = []
        self.bits: list[int] = []
        self.reason: list[Propagator | None] = []
        self.code: list[int] = []
        self.level: list[int] = []
        self.prev: list[int] = []
        xs = solver.vars
        self.vars: list[IntVar] = list(xs)
        # each variable's entries, in order (the last one is its latest: `latest`)
        self.chain: list[list[int]] = [[] for _ in xs]
        # the snapshot: each variable's domain when the journal was attached
        self.root_lo: list[int] = [x.lo for x in xs]
        self.root_hi: list[int] = [x.hi for x in xs]
        self.root_bits: list[int] = [x.bits for x in xs]
        # who is changing domains now (the fixpoint sets it; None: a search decision) and
        # the payload it gives; which propagator failed last
        self.current: Propagator | None = None
        self.current_code = 0
        self.conflict: Propagator | None = None
        self.recorded = 0  # changes recorded since attached (undone ones included)
        self.propagators: list[Propagator] = []
        self.scopes: list[list[IntVar]] = []
        self._number_propagators()

    def _number_propagators(self) -> None:
        """Number every subscribed propagator (in the order of the variables, so the
        numbers are the same in every run and build) and collect each one's scope."""
        xs = self.vars
        for x in xs:
            for w in x.wake_fix:
                w.prop.id = -1
        for x in xs:
            for w in x.wake_fix:
                p = w.prop
                if p.id < 0:
                    p.id = len(self.propagators)
                    self.propagators.append(p)
                    self.scopes.append([])
                scope = self.scopes[p.id]
                if not scope or scope[-1] is not x:  # a propagator on two lists of x
                    scope.append(x)

    # ------------------------------------------------------------------ attaching
    def attach(self) -> None:
        """Start recording (every variable's changes go to this journal)."""
        for x in self.vars:
            x.journal = self
        self.solver.journal = self

    def detach(self) -> None:
        """Stop recording; the entries stay readable."""
        for x in self.vars:
            x.journal = None
        self.solver.journal = None

    # ------------------------------------------------------------------ recording
    def record(self, x: IntVar) -> None:
        """Append x's new domain (called by IntVar after every change)."""
        trail = self.trail
        if self.stamp != trail.stamp:
            self.saved.append(len(self.var))
            trail.entries.append(self)
            self.stamp = trail.stamp
        self.recorded += 1
        chain = self.chain[x.index]
        self.prev.append(chain[len(chain) - 1] if chain else ROOT)
        chain.append(len(self.var))
        self.var.append(x.index)
        self.lo.append(x.lo)
        self.hi.append(x.hi)
        self.bits.append(x.bits)
        self.reason.append(self.current)
        self.code.append(self.current_code)
        self.level.append(len(trail.marks))

    def restore(self) -> None:
        """Forget the entries of the level being undone (called by the trail)."""
        n = self.saved.pop()
        var = self.var
        chain = self.chain
        k = len(var)
        while k > n:
            k -= 1
            chain[var[k]].pop()
        del var[n:]
        del self.lo[n:]
        del self.hi[n:]
        del self.bits[n:]
        del self.reason[n:]
        del self.code[n:]
        del self.level[n:]
        del self.prev[n:]
        self.stamp = -1

    def __len__(self) -> int:
        return len(self.var)

    # ------------------------------------------------------------------- queries
    def entry_before(self, index: int, pos: int) -> int:
        """The latest entry of variable `index` before position `pos` (ROOT: none, the
        snapshot holds its domain then). A binary search over the variable's entries in
        order: walking back along `prev` cost as many steps as the variable had entries
        since pos, and a slow convergence of bounds (a product on 10^18-wide factors moves
        them a little per round) gives one variable thousands of entries in one level,
        each asked about by the explanations of the others (quadratic analysis)."""
        chain = self.chain[index]
        n = len(chain)
        if not n:
            return ROOT
        if chain[n - 1] < pos:
            return chain[n - 1]
        if chain[0] >= pos:
            return ROOT
        first = 0
        last = n - 1  # chain[first] < pos <= chain[last]
        while last - first > 1:
            mid = (first + last) >> 1
            if chain[mid] < pos:
                first = mid
            else:
                last = mid
        return chain[first]

    def latest(self, index: int) -> int:
        """The latest entry of variable `index` (ROOT: none, the snapshot holds its domain)."""
        chain = self.chain[index]
        return chain[len(chain) - 1] if chain else ROOT

    def domain_at(self, index: int, e: int) -> tuple[int, int, int]:
        """(lo, hi, bits) of variable `index` as entry e left it (ROOT: the snapshot)."""
        if e == ROOT:
            return self.root_lo[index], self.root_hi[index], self.root_bits[index]
        return self.lo[e], self.hi[e], self.bits[e]

    def became_true(self, index: int, kind: int, value: int) -> int:
        """The earliest entry from which the predicate `[var kind value]` (literals.py's
        kinds) on variable `index` has held: ROOT if it held at the snapshot, NOT_TRUE if it
        does not hold now. Domains only shrink along a chain, so once true it stays true:
        a binary search over the variable's entries finds the first one."""
        chain = self.chain[index]
        lo = self.lo
        hi = self.hi
        bits = self.bits
        n = len(chain)
        if n:
            e = chain[n - 1]
            if not holds_in(kind, value, lo[e], hi[e], bits[e]):
                return NOT_TRUE
        if holds_in(kind, value, self.root_lo[index], self.root_hi[index],
                    self.root_bits[index]):
            return ROOT
        if not n:
            return NOT_TRUE
        first = 0
        last = n - 1  # holds at chain[last]; find the first position that does
        # the bounds' searches read one list each, without a call per step
        if kind == GE:
            while first < last:
                mid = (first + last) >> 1
                if lo[chain[mid]] >= value:
                    last = mid
                else:
                    first = mid + 1
        elif kind == LE:
            while first < last:
                mid = (first + last) >> 1
                if hi[chain[mid]] <= value:
                    last = mid
                else:
                    first = mid + 1
        else:
            while first < last:
                mid = (first + last) >> 1
                e = chain[mid]
                if holds_in(kind, value, lo[e], hi[e], bits[e]):
                    last = mid
                else:
                    first = mid + 1
        return chain[first]

