"""Set variables: a finite set of integers drawn from a universe (the upper bound), held as
one 0/1 membership variable per element of the universe and a cardinality variable.

The bounds representation of a set variable (its greatest lower bound, the elements sure
to be in, and its least upper bound, those that may be in) is read off the membership
variables: the glb is the members fixed to 1, the lub the members not fixed to 0. Set
constraints (`conundrum.lang.globals.sets`) are globals over these membership variables.
"""

from __future__ import annotations

from collections.abc import Mapping

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import BoolConst, Expr, Var


class SetVar:
    """A set variable of a Model: `s.universe` (its upper bound, sorted), `s.members` (one
    0/1 variable per element of the universe), `s.card` (its size, an integer variable).
    Made by `Model.set_var(lb, ub, name)`; `sol[s]` is a frozenset."""

    __slots__ = ("name", "universe", "members", "card", "_position")

    def __init__(self, name: str, universe: tuple[int, ...], members: tuple[Var, ...],
                 card: Var) -> None:
        if len(universe) != len(members):
            raise ModelError("a set variable needs one membership variable per element")
        self.name = name
        self.universe = universe
        self.members = members
        self.card = card
        self._position = {e: k for k, e in enumerate(universe)}

    def has(self, element: int) -> Expr:
        """The 0/1 variable `element in self` (the constant False outside the universe)."""
        k = self._position.get(element)
        return BoolConst(False) if k is None else self.members[k]

    def value(self, values: Mapping[int, int]) -> frozenset[int]:
        """The set this variable takes in an assignment {variable index: value}."""
        return frozenset(e for e, m in zip(self.universe, self.members) if values[m.index])

    def __repr__(self) -> str:
        return f"SetVar({self.name or '_'}, universe={list(self.universe)})"

    def __bool__(self) -> bool:
        raise ModelError("a set variable has no truth value: write a set constraint "
                         "(subset, disjoint, member, ...)")
