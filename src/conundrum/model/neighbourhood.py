"""Holding part of a model at known values for a while (issue 30): a user's own large
neighbourhoods, or re-optimising what is left once part of an answer is decided.

    with m.relax(best, free=[x[3], x[7]]):      # every other variable keeps its value
        better = m.maximize(total)
    with m.fix({start[0]: 0}):                   # those variables held, the rest free
        ...

On entering the block the values become constraints of the model (`x == v`); on leaving
it they are taken out again, whatever happened inside (constraints added inside the block
stay, with their labels).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, Var, as_constraint
from conundrum.model.options import model_vars
from conundrum.model.solution import Solution

if TYPE_CHECKING:
    from conundrum.model.model import Model


def checked_values(model: Model, values: Mapping[Var, int] | Solution,
                   what: str) -> dict[Var, int]:
    """The {variable: value} pairs of a mapping or a Solution, each checked to be a
    variable of `model` and an integer (ModelError naming `what` otherwise)."""
    pairs = list(values) if isinstance(values, Solution) else list(values.items())
    out: dict[Var, int] = {}
    for var, value in pairs:
        if not isinstance(var, Var) or var.model is not model:
            raise ModelError(f"{what}: {var!r} is not a variable of this model")
        if isinstance(value, bool) or not isinstance(value, int):
            raise ModelError(f"{what}: the value of {var.name or var.index!r} must be an "
                             f"integer, not {value!r}")
        out[var] = value
    return out


def drop_constraints(model: Model, drop: set[int]) -> None:
    """Take the constraints at the positions `drop` out of the model, keeping the labels
    and places of the others (renumbered)."""
    kept: list[Expr] = []
    labels: dict[int, str] = {}
    places: dict[int, str] = {}
    for k, c in enumerate(model.constraints):
        if k in drop:
            continue
        if k in model.labels:
            labels[len(kept)] = model.labels[k]
        if k in model.places:
            places[len(kept)] = model.places[k]
        kept.append(c)
    model.constraints[:] = kept
    model.labels = labels
    model.places = places


class Held:
    """A `with` block during which variables keep given values (see the module)."""

    def __init__(self, model: Model, values: dict[Var, int]) -> None:
        self.model = model
        self.values = values
        self.constraints: list[Expr] = []

    def __enter__(self) -> Held:
        if self.constraints:
            raise ModelError("this fix()/relax() block is already in force")
        self.constraints = [as_constraint(var == value) for var, value in self.values.items()]
        self.model.add(self.constraints)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        mine = {id(c) for c in self.constraints}
        model = self.model
        drop_constraints(model, {k for k, c in enumerate(model.constraints) if id(c) in mine})
        self.constraints = []


def fix(model: Model, values: Mapping[Var, int] | Solution,
        keep: Iterable[Var] | None = None) -> Held:
    """Model.fix: hold the given variables (only those of `keep`, if given) at their
    values."""
    pairs = checked_values(model, values, "fix")
    if keep is not None:
        # by index: comparing variables with == builds a constraint
        given = {v.index: x for v, x in pairs.items()}
        wanted = model_vars(model, keep, "fix: keep")
        missing = [v for v in wanted if v.index not in given]
        if missing:
            raise ModelError(f"fix: no value given for {missing[0].name or missing[0].index!r}")
        pairs = {v: given[v.index] for v in wanted}
    return Held(model, pairs)


def relax(model: Model, solution: Mapping[Var, int] | Solution,
          free: Iterable[Var]) -> Held:
    """Model.relax: hold every variable of `solution` at its value except those of
    `free`."""
    pairs = checked_values(model, solution, "relax")
    loose = {v.index for v in model_vars(model, free, "relax: free")}
    return Held(model, {v: x for v, x in pairs.items() if v.index not in loose})
