"""Why a model has no solution (issue 43): a minimal conflict among the user's
constraints, and a smallest correction.

The unit of blame is a *group*: the constraints added under one label
(`m.add(c1, c2, label="cage A")`), or one unlabelled constraint, named by the place in the
user's code that added it (`model.py:12`). `soft` says which groups may be blamed; every
other constraint stays hard.

- `conflict`: the model compiled once with an indicator per soft group, asked questions
  under assumptions (model/shrinking.py): the first core from the learning search's final
  conflict, then deletion (no order of preference) or, when `soft` is a list (an order of
  preference), the preferred conflict by QuickXplain or by deletion from the least
  preferred. Minimal (each group needed), not necessarily the smallest conflict; a limit
  that stops a question leaves `minimal` False.
- `correction`: one optimisation. Each soft group gets an indicator (a fresh 0/1
  variable) and holds only when its indicator is 1 (`cn.implies`: the group is reified,
  so globals stand for their decompositions); the search maximises the number of groups
  kept. The groups whose indicator is 0 are a smallest set to drop (a correction set of
  minimum size, `optimal` when the search proved it), and the solution is one of the model
  without them. The indicators exist only during the call.

Both answer None when the model has a solution (found first, with the same limit).
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, render

if TYPE_CHECKING:
    from conundrum.model.model import Model
    from conundrum.model.solution import Solution


@dataclass
class Group:
    """Constraints blamed together: their label (or place) and their positions."""

    label: str
    positions: list[int] = field(default_factory=list)


@dataclass
class Conflict:
    """Constraints of the model that have no solution together (with the hard ones).

    `labels`: one per group, in the order the model has them; `constraints`, `places`:
    one per constraint of those groups; `minimal`: proved minimal (dropping any one group
    leaves a solution), False when a limit stopped the shrinking; `smallest`: proved to
    have the fewest groups of any conflict (only `method="smallest"` proves that)."""

    labels: list[str]
    constraints: list[Expr]
    places: list[str]
    minimal: bool
    groups: list[list[int]] = field(repr=False, default_factory=list)
    smallest: bool = False

    def rows(self) -> list[tuple[str, str, str]]:
        """(label, place, constraint) for each constraint, group by group."""
        out = []
        i = 0
        for label, positions in zip(self.labels, self.groups, strict=True):
            for _ in positions:
                out.append((label, self.places[i], render(self.constraints[i])))
                i += 1
        return out

    def __str__(self) -> str:
        head = ("a smallest conflict" if self.smallest else
                "a minimal conflict" if self.minimal else
                "a conflict (a limit stopped the shrinking: maybe not minimal)")
        lines = [f"{head}: these cannot all hold ({len(self.labels)} labels)"]
        for label, place, formula in self.rows():
            where = f" ({place})" if place and place != label else ""
            lines.append(f"  {label}{where}: {formula}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{html.escape(a)}</td><td>{html.escape(b)}</td>"
                       f"<td><code>{html.escape(c)}</code></td></tr>"
                       for a, b, c in self.rows())
        head = ("smallest conflict" if self.smallest else "minimal conflict" if self.minimal
                else "conflict (not proved minimal)")
        return (f"<table><caption>{head}</caption><tr><th>label</th><th>place</th>"
                f"<th>constraint</th></tr>{rows}</table>")


@dataclass
class Correction:
    """A smallest set of soft groups whose removal leaves a solution (`labels`, their
    `constraints`), that solution, and whether the search proved the set smallest."""

    labels: list[str]
    constraints: list[Expr]
    solution: Solution
    optimal: bool

    def __str__(self) -> str:
        head = "drop" if self.optimal else "drop (not proved the fewest)"
        lines = [f"{head} {len(self.labels)} constraint group(s) to get a solution:"]
        lines += [f"  {label}" for label in self.labels]
        return "\n".join(lines)


def groups_of(model: Model, soft: Iterable[object] | None) -> tuple[list[Group], set[int]]:
    """The model's soft groups (in the order of their first constraint) and the positions
    of the hard constraints. `soft`: labels, places or constraints (by identity); None for
    every constraint."""
    by_label: dict[str, Group] = {}
    groups: list[Group] = []
    for k in range(len(model.constraints)):
        label = model.labels.get(k)
        if label is not None:
            g = by_label.get(label)
            if g is None:
                g = by_label[label] = Group(label)
                groups.append(g)
            g.positions.append(k)
        else:
            groups.append(Group(model.places.get(k) or f"constraint {k}", [k]))
    if soft is None:
        return groups, set()
    wanted_labels: set[str] = set()
    wanted_ids: set[int] = set()
    for s in [soft] if isinstance(soft, str | Expr) else soft:
        if isinstance(s, str):
            wanted_labels.add(s)
        elif isinstance(s, Expr):
            wanted_ids.add(id(s))
        else:
            raise ModelError(f"soft: {s!r} is neither a label nor a constraint")
    def names(g: Group) -> set[str]:  # its label and the places of its constraints
        return {g.label} | {model.places[k] for k in g.positions if k in model.places}

    known = set().union(*(names(g) for g in groups)) if groups else set()
    missing = sorted(wanted_labels - known)
    if missing:
        raise ModelError(f"soft: no constraint is labelled or was added at {missing[0]!r}")
    ids = {id(c) for c in model.constraints}
    if wanted_ids - ids:
        raise ModelError("soft: a constraint given is not one of this model's")
    chosen = [g for g in groups if names(g) & wanted_labels or
              any(id(model.constraints[k]) in wanted_ids for k in g.positions)]
    picked = {k for g in chosen for k in g.positions}
    hard = set(range(len(model.constraints))) - picked
    return chosen, hard


class _Clock:
    """What is left of a time limit (None: no limit)."""

    def __init__(self, limit: float | None) -> None:
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int | float)
                                  or limit <= 0):
            raise ModelError(f"time_limit must be a positive number of seconds, not {limit!r}")
        self.end = None if limit is None else time.monotonic() + limit

    def left(self) -> float | None:
        if self.end is None:
            return None
        return max(self.end - time.monotonic(), 1e-3)


@contextmanager
def _only(model: Model, constraints: list[Expr]) -> Iterator[None]:
    """The model with just `constraints` for the block (its labels and places, keyed by
    positions in the whole list, set aside), put back as it was after."""
    saved = model.constraints[:]
    labels, places = model.labels, model.places
    model.constraints[:] = constraints
    model.labels, model.places = {}, {}
    try:
        yield
    finally:
        model.constraints[:] = saved
        model.labels, model.places = labels, places


def _solvable(model: Model, keep: set[int], clock: _Clock) -> bool | None:
    """Whether the model restricted to the constraints at `keep` has a solution (None: a
    limit came first)."""
    with _only(model, [c for k, c in enumerate(model.constraints) if k in keep]):
        left = clock.left()
        found = model.solve() if left is None else model.solve(time_limit=left)
        if found is not None:
            return True
        return False if model.stats.status == "unsatisfiable" else None


def _undecided(what: str) -> ModelError:
    return ModelError(f"{what}: the time limit ran out before the model was shown to have "
                      "no solution")


METHODS = ("auto", "deletion", "quickxplain", "smallest")
# with an order of preference, QuickXplain when the first core has at most one group in
# this many of the candidates, else deletion from the least preferred (the same conflict)
QUICKXPLAIN_RATIO = 4


def find_conflict(model: Model, soft: Iterable[object] | None,
                  time_limit: float | None, method: str = "auto") -> Conflict | None:
    """Model.conflict (see the module and model/shrinking.py)."""
    from conundrum.model.shrinking import (
        Oracle,
        deletion,
        preferred_deletion,
        quickxplain,
        smallest,
        undecided,
    )

    if method not in METHODS:
        raise ModelError(f"method must be one of {', '.join(METHODS)}, not {method!r}")
    clock = _Clock(time_limit)
    groups, hard = groups_of(model, soft)
    ordered = preferred_order(model, groups, soft)
    oracle = Oracle(model, [g.positions for g in groups], sorted(hard), clock.end)
    everything = list(range(len(groups)))
    fewest = False
    try:
        whole, core = oracle.ask(everything)
        if whole is None:
            raise undecided("conflict")
        if whole:
            return None
        if method in ("deletion", "smallest") or (method == "auto" and ordered is None):
            kept, minimal = deletion(oracle.ask, core)
            if method == "smallest" and minimal:
                found, fewest = smallest(oracle.ask, oracle.violated, len(groups), kept,
                                         clock.left, type(model))
                if not fewest and found != kept:  # a limit cut the hitting set search
                    found, minimal = deletion(oracle.ask, found)
                kept = sorted(found)
        else:
            # the preferred conflict lies within the order's prefix that ends at the
            # core's last group; QuickXplain when the core is small beside that prefix
            order = ordered if ordered is not None else everything
            rank = {g: k for k, g in enumerate(order)}
            order = order[:max((rank[g] for g in core), default=-1) + 1]
            small = len(core) * QUICKXPLAIN_RATIO <= len(order)
            kept, minimal = (quickxplain(oracle.ask, order) if small or method == "quickxplain"
                             else preferred_deletion(oracle.ask, order))
    finally:
        oracle.close()
    chosen = [groups[j] for j in kept]
    positions = [k for g in chosen for k in g.positions]
    return Conflict(labels=[g.label for g in chosen],
                    constraints=[model.constraints[k] for k in positions],
                    places=[model.places.get(k, "") for k in positions],
                    minimal=minimal, groups=[list(g.positions) for g in chosen],
                    smallest=fewest)


def preferred_order(model: Model, groups: list[Group], soft: Iterable[object] | None,
                    ) -> list[int] | None:
    """The soft groups (their positions in `groups`) in the order of preference that a
    list or tuple `soft` gives (a group ranks where `soft` first names it); None when
    `soft` gives no order (None, one item, a set)."""
    if not isinstance(soft, list | tuple):
        return None
    rank: dict[str, int] = {}
    ids: dict[int, int] = {}
    for k, s in enumerate(soft):
        if isinstance(s, str):
            rank.setdefault(s, k)
        else:
            ids.setdefault(id(s), k)

    def first(j: int) -> int:
        g = groups[j]
        names = [g.label] + [model.places[k] for k in g.positions if k in model.places]
        ks = [rank[n] for n in names if n in rank]
        ks += [ids[id(model.constraints[k])] for k in g.positions
               if id(model.constraints[k]) in ids]
        return min(ks)

    return sorted(range(len(groups)), key=lambda j: (first(j), j))


def find_correction(model: Model, soft: Iterable[object] | None,
                    time_limit: float | None) -> Correction | None:
    """Model.correction (see the module)."""
    from conundrum.lang.globals.arithmetic import implies
    from conundrum.lang.globals.arithmetic import sum as cn_sum
    from conundrum.model.solution import Solution

    clock = _Clock(time_limit)
    groups, hard = groups_of(model, soft)
    whole = _solvable(model, set(range(len(model.constraints))), clock)
    if whole is None:
        raise _undecided("correction")
    if whole:
        return None
    n_vars = len(model.variables)
    saved = model.constraints[:]
    keep = [model.bool_var() for _ in groups]  # the indicators, for this call only
    guarded: list[Expr] = [saved[k] for k in sorted(hard)]
    for b, g in zip(keep, groups, strict=True):
        guarded.extend(implies(b, saved[k]) for k in g.positions)
    try:
        with _only(model, guarded):
            left = clock.left()
            best = (model.maximize(cn_sum(keep)) if left is None else
                    model.maximize(cn_sum(keep), time_limit=left))
        optimal = model.stats.status == "optimal_solution"
        if best is None:
            if model.stats.status == "unsatisfiable":
                raise ModelError("correction: the hard constraints alone have no solution, "
                                 "so dropping soft ones cannot help")
            raise _undecided("correction")
        dropped = [g for b, g in zip(keep, groups, strict=True) if best[b] == 0]
        variables = model.variables[:n_vars]
        solution = Solution(model, {v.index: best[v] for v in variables}, variables)
    finally:
        del model.variables[n_vars:]
    return Correction(labels=[g.label for g in dropped],
                      constraints=[saved[k] for g in dropped for k in g.positions],
                      solution=solution, optimal=optimal)


def count_without(model: Model, dropped: list[Expr], limit: int,
                  time_limit: float | None = None) -> tuple[int, bool]:
    """How many solutions the model has without the constraints `dropped` (by identity),
    counted up to `limit`; and whether the count is complete. The model is put back."""
    gone = {id(c) for c in dropped}
    with _only(model, [c for c in model.constraints if id(c) not in gone]):
        found = (model.count(limit=limit) if time_limit is None else
                 model.count(limit=limit, time_limit=time_limit))
        return found, model.stats.complete and found < limit
