"""The base class of every propagator.

Contributor checklist (read before writing a propagator):

1. `post()` subscribes to the weakest events that help (events.py) and then prunes at once
   by calling `propagate()`. A constraint that is unary or already decided at post time
   needs no propagator at all: the compiler prunes the domain directly.
2. `propagate()` removes only values that have no support; it must raise Inconsistency
   (or let a domain update raise it) when every variable is fixed and the constraint is
   false. Never assume a removal happened: large domains keep bounds only.
3. Set `idempotent = True` only if one call reaches the propagator's own fixpoint: its own
   changes then do not wake it again.
4. When the constraint is entailed, call `self.deactivate()`: it is undone on backtrack.
5. Any state that must follow the search (counters, supports) lives in trailed cells
   (state.RevInt); plain attributes are only for caches that are valid whatever the
   search does (e.g. a matching used as a hint).
6. `priority`: 0 cheap (binary, reified, value elimination), 1 linear, 2 expensive globals.
   Set it as a class attribute (the queue is chosen when the propagator is made).
   `makes_holes = False` (class or instance attribute) says that it only ever moves bounds:
   a variable watched only by such propagators needs no bit set (see IntVar.drop_bits);
   with `copies_holes = True` it also passes holes from one view to another (x == y + c),
   so its views keep bit sets together or drop them together. `holes_need_bits = False`
   says that the holes it makes are not worth a bit set (it finds them again from the
   bounds: a product's gaps around 0); it still makes them, so the search does not take
   such a bounds-only domain for an interval (selectors `_interval`).
7. Propagators see variables through `IntView` (engine/view.py): an `IntVar` or an
   `OffsetView` of one. Two of the views may share a variable (`x.root`): a propagator
   whose own changes can then wake it usefully must not be idempotent.

How a propagator is scheduled (the flags below are the whole protocol): its `Waker`'s
`scheduled` is True while the propagator sits in its queue, while an idempotent one runs,
and for as long as it is deactivated, so that waking it is a single test of that flag
(var.py). The variables' wake lists and the solver's queues hold wakers, not propagators:
`Waker` has no subclass, so that reading one from a list checks a single type pointer in
the compiled build, where an instance of one of the many Propagator subclasses made
CPython walk its class hierarchy at every read (`PyType_IsSubtype`: 105 million calls,
17% of the instructions of the corpus's prop_stress).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.state import Reversible

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.literals import Pred
    from conundrum.engine.solver import Solver


class Waker:
    """A propagator as the wake lists and the queues hold it (see the module): the
    propagator, whether it is scheduled, and its queue."""

    __slots__ = ("prop", "scheduled", "queue")

    def __init__(self, prop: Propagator, queue: list[Waker]) -> None:
        self.prop = prop
        self.scheduled = False
        self.queue = queue


class Propagator(Reversible):
    """A filtering algorithm attached to engine variables."""

    priority = 1
    idempotent = False
    makes_holes = True  # may remove values inside a domain (see the checklist)
    copies_holes = False  # passes its views' holes between them (see the checklist)
    holes_need_bits = True  # its holes are worth keeping a bit set for (the checklist)
    # whether it stands for a constraint of the model: IntVar.degree counts only those, so
    # that the nogood store's watchers (clauses.py) do not steer most_constrained
    is_constraint = True
    # whether `explain` is written for this class (else reasons.py's generic explanations
    # stand in: tests/test_explanations.py lists the classes that rely on them)
    explains = False

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.active = True
        self.weight = 1  # dom/wdeg: failures caused by this propagator, plus one
        self.id = -1  # its number in the journal (engine/journal.py), when one is attached
        # propagators whose weight grows with this one's (see Compiler.finish)
        self.credit: list[Propagator] = []
        self.waker = Waker(self, solver.queues[self.priority])

    def post(self) -> None:
        """Subscribe and prune once."""
        self.propagate()

    def propagate(self) -> None:
        """Remove unsupported values; raise Inconsistency on failure."""
        raise NotImplementedError

    def explain(self, journal: Journal, e: int, out: list[Pred]) -> bool:
        """Append predicates that held before journal entry e (a change this propagator
        made) and that, with the constraint, imply it; False to leave it to the generic
        explanations of reasons.py (the default)."""
        return False

    def explain_conflict(self, journal: Journal, out: list[Pred]) -> bool:
        """Append predicates that held when this propagator failed and that, with the
        constraint, cannot all hold; False to leave it to reasons.py (the default)."""
        return False

    def failed(self) -> None:
        """Count a failure of this propagator for dom_wdeg (and for those it credits)."""
        self.weight += 1
        for q in self.credit:
            q.weight += 1

    def deactivate(self) -> None:
        """Switch off for the rest of this branch (the constraint is entailed)."""
        if self.active:
            self.solver.trail.entries.append(self)
            self.active = False
            self.waker.scheduled = True  # never woken while inactive

    def restore(self) -> None:
        """Undo `deactivate` (called by the trail)."""
        self.active = True
        self.waker.scheduled = False
