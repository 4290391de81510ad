"""A puzzle without a solution, said why (issue 43, item 5): the clues that clash (a minimal
set, the rules kept hard), the fewest clues to drop and how many solutions the puzzle then
has, the cells and outside clues to mark on its picture, and the steps from the clashing
clues to a contradiction.

The command line (cli/why.py), the puzzle page (serve/actions.py) and
the notebook (`Puzzle.clash()`) all use this one answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conundrum.display import PuzzleView
    from conundrum.explain.clash import ClashSteps
    from conundrum.model.diagnosis import Conflict, Correction
    from conundrum.puzzles.base import Puzzle

CELL = re.compile(r"r(\d+)c(\d+)")
COUNT_LIMIT = 1000  # solutions counted once the correction is made


def cells_of(constraints: Iterable[Any], names: dict[int, str]) -> list[str]:
    """The grid cells (``r1c1``) the constraints mention, in reading order."""
    from conundrum.explain.entail import scope_of

    found = {names.get(v.index, "") for c in constraints for v in scope_of(c)}
    return sorted((n for n in found if CELL.fullmatch(n)), key=cell_key)


def cell_key(name: str) -> tuple[int, int]:
    """``r2c10`` -> (2, 10): reading order of cell names."""
    match = CELL.fullmatch(name)
    assert match is not None
    return int(match.group(1)), int(match.group(2))


def variable_names(puzzle: Puzzle, model: Any) -> dict[int, str]:
    """The names explanations give the model's variables."""
    names = {v.index: v.name or f"x{v.index}" for v in model.variables}
    names.update(puzzle.names)
    return names


@dataclass
class Restricted:
    """A puzzle's rules and some of its clues, as the explainer and its checker read a
    model: variables, constraints, labels by position."""

    variables: list[Any]
    constraints: list[Any]
    labels: dict[int, str] = field(default_factory=dict)


@dataclass
class Clash:
    """Why a puzzle has no solution: `conflict` (its `labels` are the clashing clues),
    `correction` (the fewest clues to drop, or None when no answer came in time), the
    number of solutions without them (`solutions_without`, counted up to COUNT_LIMIT;
    `count_complete` False when the count stopped there or at the time limit), and
    `cells`, the grid cells of the clashing clues (``r1c3``) in reading order."""

    puzzle: Puzzle
    conflict: Conflict
    correction: Correction | None = None
    solutions_without: int | None = None
    count_complete: bool = False
    cells: list[str] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        """The clashing clues."""
        return self.conflict.labels

    def json(self) -> dict[str, Any]:
        """What ``--json`` prints after "no solution"."""
        cor = self.correction
        return {"conflict": self.labels, "minimal": self.conflict.minimal,
                "correction": None if cor is None else cor.labels,
                "fewest": None if cor is None else cor.optimal,
                "solutions_without": self.solutions_without,
                "count_complete": self.count_complete}

    def restricted(self) -> Restricted:
        """The puzzle's rules and only the clashing clues (the others dropped): a model
        without a solution, the one its explanation reasons on."""
        m = self.puzzle.model
        clues = set(self.puzzle.clues)
        kept_clues = {k for group in self.conflict.groups for k in group}
        keep = [k for k in range(len(m.constraints))
                if m.labels.get(k) not in clues or k in kept_clues]
        labels = {new: m.labels[old] for new, old in enumerate(keep) if old in m.labels}
        return Restricted(list(m.variables), [m.constraints[k] for k in keep], labels)

    def explain(self, time_limit: float | None = None,
                node_limit: int | None = None) -> ClashSteps:
        """The steps, on the rules and the clashing clues only, that end in a constraint
        no values satisfy (conundrum.explain.clash); their texts filled in."""
        from conundrum.explain.clash import explain_clash
        from conundrum.explain.wording import describe_all

        model = self.restricted()
        steps = explain_clash(model, time_limit, node_limit)
        describe_all(steps, self.wording(model))
        return steps

    def wording(self, model: Any = None) -> Any:
        """The Wording of the steps (of the restricted model unless `model` is given)."""
        from conundrum.explain.wording import Wording

        p = self.puzzle
        return Wording(model or self.restricted(), p.names, value_words=p.value_words)

    def display(self) -> PuzzleView:
        """The puzzle's picture with the clashing clues marked."""
        from conundrum.display import PuzzleView
        from conundrum.display.layout import Marks

        cells = [(r - 1, c - 1) for r, c in map(cell_key, self.cells)]  # 0-based
        return PuzzleView(self.puzzle, marks=Marks(cells, list(self.labels)))

    def __str__(self) -> str:
        lines = ["these clues cannot all hold: " + ", ".join(self.labels)
                 + ("" if self.conflict.minimal else " (not proved minimal)")]
        cor = self.correction
        if cor is not None and self.solutions_without is not None:
            many = f"{self.solutions_without} solution{'s' * (self.solutions_without != 1)}"
            if not self.count_complete:
                many = "at least " + many
            lines.append("without " + " and ".join(cor.labels) + f": {many}"
                         + ("" if cor.optimal else " (not proved the fewest to drop)"))
        return "\n".join(lines)

    def _repr_svg_(self) -> str | None:
        return self.display().svg()

    def _repr_html_(self) -> str:
        from conundrum.display.html import text_html

        picture = self.display().html()
        return f'<div class="cn-clash">{picture}{text_html(str(self))}</div>'


def find_clash(puzzle: Puzzle, time_limit: float | None = None,
               count_limit: int = COUNT_LIMIT) -> Clash | None:
    """Why the puzzle has no solution, or None when it has one (or no clues to blame).
    `time_limit` holds for each of the conflict, the correction and the count; a
    ModelError says the conflict was not decided in time. Without an answer for the
    correction in time, `correction` is None."""
    from conundrum.lang.errors import ModelError
    from conundrum.model.diagnosis import count_without

    m = puzzle.model
    if not puzzle.clues:
        return None
    conflict = m.conflict(soft=puzzle.clues, time_limit=time_limit)
    if conflict is None:
        return None
    clash = Clash(puzzle, conflict,
                  cells=cells_of(conflict.constraints, variable_names(puzzle, m)))
    if not conflict.labels:  # the rules alone clash: no clue to drop
        return clash
    try:
        clash.correction = m.correction(soft=puzzle.clues, time_limit=time_limit)
    except ModelError:
        return clash
    if clash.correction is not None:
        clash.solutions_without, clash.count_complete = count_without(
            m, clash.correction.constraints, count_limit, time_limit)
    return clash
