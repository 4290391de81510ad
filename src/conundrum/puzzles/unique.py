"""Uniqueness, the test every generated puzzle passes: whether a puzzle's text has exactly
one solution (decided on the text read back by the family's own parser), and the two ways
the generators use it: taking clues away while it holds, and adding clues until it does.

generate.py and generate_kakuro.py both use it; neither imports the other for it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..model.budget import Budget
from .base import PuzzleError


def unique(family: str, text: str, budget: Budget | None = None) -> bool:
    """Whether the puzzle written as `text` has exactly one solution (LimitReached when
    the budget ran out before that was known)."""
    from importlib import import_module

    module = import_module(f".{family}", __package__)
    try:
        model = module.parse(text, "generated").model
    except PuzzleError:
        return False  # e.g. a cage sum no digits reach: not a puzzle
    limits = {} if budget is None else budget.search_limits()
    found = len(list(model.solutions(limit=2, **limits)))
    if budget is not None:
        budget.charge(model.stats)
    return found == 1


def remove_clues(clues: list[Any], write: Callable[[list[Any]], str], family: str,
                 rng: random.Random, budget: Budget | None = None) -> list[Any]:
    """Take clues away in a random order while the puzzle stays unique."""
    order = list(clues)
    rng.shuffle(order)
    kept = list(clues)
    for clue in order:
        trial = [c for c in kept if c is not clue]
        if unique(family, write(trial), budget):
            kept = trial
    return kept


def pinned(clues: list[Any], extra: list[Any], write: Callable[[list[Any]], str],
           family: str, rng: random.Random, budget: Budget | None = None) -> list[Any]:
    """`clues` plus as few of `extra` (random order) as make the puzzle unique."""
    pool = list(extra)
    rng.shuffle(pool)
    chosen = list(clues)
    while not unique(family, write(chosen), budget):
        chosen.append(pool.pop())
    return chosen
