"""Model's questions for a model without a solution: `conflict` and `correction` (the work,
and its dataclasses, are in model/diagnosis.py, imported when first asked: `import
conundrum` loads neither)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from conundrum.model.diagnosis import Conflict, Correction


class Diagnosing:
    """Model's methods for a model without a solution (see the module)."""

    def conflict(self, soft: Iterable[object] | None = None,
                 time_limit: float | None = None, method: str = "auto") -> Conflict | None:
        """None when the model has a solution; otherwise a minimal set of its constraint
        groups (a label's constraints, or one unlabelled constraint) that cannot hold
        together with the hard ones: those outside `soft` (labels, places or
        constraints; by default every constraint is soft). `conflict.minimal` is False
        when the time limit stopped the shrinking. A list `soft` is an order of preference
        (earlier: more preferred): the conflict is then QuickXplain's preferred one.
        `method`: "auto" (QuickXplain when `soft` gives an order, else deletion),
        "deletion", "quickxplain" or "smallest" (the fewest groups of any conflict,
        `conflict.smallest` when proved; docs/conflicts.md: what each costs)."""
        from conundrum.model.diagnosis import find_conflict

        return find_conflict(self, soft, time_limit, method)  # type: ignore[arg-type]

    def correction(self, soft: Iterable[object] | None = None,
                   time_limit: float | None = None) -> Correction | None:
        """None when the model has a solution; otherwise a smallest set of soft groups to
        drop (`correction.labels`) and a solution of the rest (`correction.solution`)."""
        from conundrum.model.diagnosis import find_correction

        return find_correction(self, soft, time_limit)  # type: ignore[arg-type]
