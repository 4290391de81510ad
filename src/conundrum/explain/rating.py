"""Difficulty grades derived from an explanation.

A step's rank says what kind of reasoning it needs (explain.facts.RANKS): 1 basic (placed
values rule themselves out of a constraint), 2 single (one value has one place left),
3 subset (naked or hidden pairs, triples, any other deduction on one constraint),
4 combination (two constraints at once), 5 case split (a supposition refuted by a chain of
deductions), 6 search. The grade is set by the hardest step the explanation needs:

=========  ====================================
grade      hardest step
=========  ====================================
easy       basic or single
medium     subset
hard       combination
fiendish   case split or search
=========  ====================================

The score orders puzzles within a grade: each step adds 1, 2, 4, 8, 16 or 32 by rank, so
one hard step outweighs many easy ones. bench/RATING.md shows the grades of a public set
of easy Sudokus against the hardest known ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from conundrum.explain.explainer import ExplainError, explain
from conundrum.explain.facts import RANKS, Step
from conundrum.model.budget import Budget
from conundrum.search.stats import SearchStats

GRADES = ("easy", "medium", "hard", "fiendish")
_GRADE_OF_RANK = {1: "easy", 2: "easy", 3: "medium", 4: "hard", 5: "fiendish", 6: "fiendish"}


@dataclass
class Rating:
    """A model's difficulty: `solutions` is 0, 1 or 2 (two meaning "more than one");
    the rest is set only when there is exactly one.

    When a time or node limit stopped the explanation first, `complete` is False,
    `stopped_by` names the limit and `grade` is None: no grade is given from part of an
    explanation. `solutions` is then 1 if the solution was found unique before the limit,
    None if that is not known either; `steps` counts the steps made."""

    solutions: int | None
    grade: str | None = None
    hardest: str | None = None  # the technique of the hardest step
    score: int = 0
    steps: int = 0
    techniques: dict[str, int] = field(default_factory=dict)  # steps per technique
    complete: bool = True
    stopped_by: str | None = None

    @property
    def unique(self) -> bool:
        """Whether the model is known to have exactly one solution."""
        return self.solutions == 1

    def __str__(self) -> str:
        if not self.complete:
            limit = str(self.stopped_by).replace("_", " ")
            return f"not rated: the {limit} stopped the explanation after {self.steps} steps"
        if not self.unique:
            return "no solution" if self.solutions == 0 else "more than one solution"
        counts = ", ".join(f"{n} {name}" for name, n in self.techniques.items())
        return (f"{self.grade} (score {self.score}; hardest step: {self.hardest}; "
                f"{self.steps} steps: {counts})")


def rating_of(steps: list[Step]) -> Rating:
    """The rating of an explanation (of a model with one solution)."""
    ranks = [s.rank for s in steps]
    hardest = max(ranks, default=1)
    counts = Counter(ranks)
    return Rating(solutions=1, grade=_GRADE_OF_RANK[hardest], hardest=RANKS[hardest],
                  score=sum(2 ** (r - 1) for r in ranks), steps=len(steps),
                  techniques={RANKS[r]: counts[r] for r in sorted(counts)})


def rate(model: object, time_limit: float | None = None, node_limit: int | None = None,
         on_progress: Callable[[SearchStats], object] | None = None,
         budget: Budget | None = None) -> Rating:
    """The model's rating (grade None when it has no solution or more than one, or when
    a limit stopped its explanation: then `complete` is False). `budget`, instead of the
    limits, shares a larger computation's (generation's)."""
    try:
        steps = explain(model, time_limit, node_limit, on_progress, budget)
    except ExplainError as exc:
        return Rating(solutions=exc.solutions)
    if not steps.complete:
        return Rating(solutions=1 if steps.unique else None, steps=len(steps),
                      complete=False, stopped_by=steps.stopped_by)
    return rating_of(steps)
