"""Activity-based branching and phase saving for the learning search (issue 29 slice 7).

- **Activity** (VSIDS over integer variables, as Chuffed does): every variable that takes
  part in a conflict's analysis is bumped by `inc`, and `inc` grows by 1/DECAY after each
  conflict, so recent conflicts weigh most. The variable to branch on is the unfixed one of
  highest activity (ties to the earliest, or at random under restarts). Floats appear only
  here, in one fixed order of operations, so both builds choose alike.
- **Phase saving**: a variable is first tried at the value it last held: in the last
  solution (an optimisation then searches around its incumbent, as solution-guided search
  does) or, failing that, when a backjump or restart undid it. A value no longer in the
  domain falls back to the value selector's choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from conundrum.search.selectors import EQ, NE, Alternatives, Random32, ValueChooser

if TYPE_CHECKING:
    from conundrum.engine.journal import Journal
    from conundrum.engine.var import IntVar

DECAY: Final = 0.95
RESCALE: Final = 1e100
NO_PHASE: Final = -(1 << 62)  # no saved value (a sentinel outside every domain here)


class Activity:
    """Activities and saved phases of a solver's variables, by variable index."""

    def __init__(self, count: int, rng: Random32 | None = None) -> None:
        self.score: list[float] = [0.0] * count
        self.inc = 1.0
        self.phase: list[int] = [NO_PHASE] * count
        self.rng = rng

    def bump(self, index: int) -> None:
        """A variable took part in a conflict."""
        score = self.score
        score[index] += self.inc
        if score[index] > RESCALE:
            for k in range(len(score)):
                score[k] *= 1.0 / RESCALE
            self.inc *= 1.0 / RESCALE

    def decay(self) -> None:
        """After each conflict: later bumps count more."""
        self.inc *= 1.0 / DECAY

    def select(self, xs: list[IntVar]) -> IntVar | None:
        """The unfixed variable of highest activity (None: all fixed)."""
        best: IntVar | None = None
        best_score = 0.0
        ties = 0
        score = self.score
        rng = self.rng
        for x in xs:
            if x.lo != x.hi:
                s = score[x.index]
                if best is None or s > best_score:
                    best, best_score, ties = x, s, 1
                elif s == best_score and rng is not None:
                    ties += 1
                    if rng.below(ties) == 0:
                        best = x
        return best

    def save(self, xs: list[IntVar]) -> None:
        """Remember the values of the fixed variables among xs."""
        phase = self.phase
        for x in xs:
            if x.lo == x.hi:
                phase[x.index] = x.lo

    def save_undone(self, journal: Journal, level: int) -> None:
        """Remember the values of the variables fixed above trail level `level`, before a
        jump back to it undoes them."""
        levels = journal.level
        lo = journal.lo
        hi = journal.hi
        var = journal.var
        phase = self.phase
        e = len(levels) - 1
        while e >= 0 and levels[e] > level:
            if lo[e] == hi[e]:
                phase[var[e]] = lo[e]
            e -= 1

    def chooser(self, fallback: ValueChooser) -> ValueChooser:
        """A value selector: the saved value first, if the variable can still take it;
        else `fallback`'s choice."""
        phase = self.phase

        def choose(x: IntVar) -> Alternatives:
            v = phase[x.index]
            if v != NO_PHASE and x.contains(v):
                return ((EQ, v), (NE, v))
            return fallback(x)
        return choose
