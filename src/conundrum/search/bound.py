"""Branch and bound's cut on the objective, shared by the depth-first and the learning
searches (and by the searches of a portfolio or a parallel run, through `best`)."""

from __future__ import annotations

from conundrum.engine import IntView


class ObjectiveBound:
    """Branch and bound's cut: the objective must beat the incumbent, `best` ([] before the
    first solution, else [value]; whoever finds solutions updates it, and a parallel search
    also with other workers' values). Applied at every node, so it lives in the compiled
    search rather than as a closure of the model."""

    __slots__ = ("obj", "sense", "best")

    def __init__(self, obj: IntView, sense: int, best: list[int]) -> None:
        self.obj = obj
        self.sense = sense  # -1 minimise, +1 maximise
        self.best = best

    def apply(self) -> None:
        """Tighten the objective's domain below (above) the incumbent."""
        best = self.best
        if best:
            if self.sense < 0:
                self.obj.set_max(best[0] - 1)
            else:
                self.obj.set_min(best[0] + 1)
