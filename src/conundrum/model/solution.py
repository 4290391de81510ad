"""Solution: the values of a model's variables in one solution, read by variable or name."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, overload

from conundrum.check import evaluate
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr, ExprLike, Var, const_or_expr
from conundrum.lang.interval import Interval
from conundrum.lang.setvar import SetVar

if TYPE_CHECKING:
    from conundrum.model.model import Model


class Solution:
    """Values of a model's variables in one solution."""

    def __init__(self, model: Model, values: dict[int, int],
                 variables: list[Var] | None = None) -> None:
        self._model = model
        self._values = values
        # the variables that existed when the search started (the model may have grown)
        self._variables = list(model.variables) if variables is None else variables

    @overload
    def __getitem__(self, key: Var | str) -> int: ...
    @overload
    def __getitem__(self, key: SetVar) -> frozenset[int]: ...
    @overload
    def __getitem__(self, key: Interval) -> tuple[int, int] | None: ...
    @overload
    def __getitem__(self, key: Var | SetVar | str) -> int | frozenset[int]: ...

    def __getitem__(self, key: Var | SetVar | Interval | str
                    ) -> int | frozenset[int] | tuple[int, int] | None:
        """The value of a variable (or of the variable with this name); a set
        variable's members as a frozenset; an interval's (start, end), None when absent."""
        if isinstance(key, Interval):
            if isinstance(key.present, Var) and not self[key.present]:
                return None
            return self[key.start], self[key.end]
        if isinstance(key, SetVar):
            if key.card.model is not self._model:
                raise ModelError(f"set variable {key.name!r} belongs to another model")
            if key.card.index not in self._values:
                raise ModelError(f"set variable {key.name!r} was created after this search "
                                 "began")
            return key.value(self._values)
        if isinstance(key, Var):
            if key.model is not self._model:
                raise ModelError(f"variable {key.name!r} belongs to another model")
            if key.index not in self._values:
                raise ModelError(f"variable {key.name!r} was created after this search began")
            return self._values[key.index]
        if isinstance(key, str) and key in self._model._set_names:
            return self[self._model._set_names[key]]
        if isinstance(key, str):
            return self._values[self._model.variable(key).index]
        if isinstance(key, Expr):
            raise ModelError("sol[...] takes a variable or a name; use sol.value(expr) "
                             "for an expression")
        raise KeyError(key)

    def value(self, expr: ExprLike) -> int | Fraction:
        """The exact value of an expression in this solution (int or Fraction)."""
        return evaluate(const_or_expr(expr), self._values)

    def as_dict(self) -> dict[str, int | frozenset[int]]:
        """{name: value} for the named variables, then the named set variables (each a
        frozenset, as sol[s] gives it). An interval is there through its named parts
        (name.start, name.end, name.size, name.present)."""
        out: dict[str, int | frozenset[int]] = {
            v.name: self._values[v.index] for v in self._variables if v.name}
        for s in self._model.set_variables:
            # a set made after the search began has no value here
            if s.name and s.card.index in self._values:
                out[s.name] = s.value(self._values)
        return out

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[tuple[Var, int]]:
        return ((v, self._values[v.index]) for v in self._variables)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Solution) and self._values == other._values

    __hash__ = None  # type: ignore[assignment]

    def _repr_html_(self) -> str:
        """The values as a notebook shows them: name = value, name[i][j] as a grid."""
        from conundrum.display.html import solution_html

        return solution_html(self)

    def __repr__(self) -> str:
        shown = ", ".join(f"{v.name or '_' + str(v.index)}={self._values[v.index]}"
                          for v in self._variables[:20])
        more = "" if len(self._variables) <= 20 else ", ..."
        return f"Solution({shown}{more})"
