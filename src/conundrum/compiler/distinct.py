"""Pairs of model variables that every solution keeps apart, for the tables to know.

A tabulated subexpression over two variables that an `all_different` (or `x != y`) keeps
apart need not list the rows where they are equal: `abs(x[i+1] - x[i])` over two members
of an all_different is never 0. Left in, that row keeps 0 in the auxiliary's domain, and
the all_different over the n-1 differences of an all-interval series sees n values for
n-1 variables instead of a permutation, so no Hall set is found until the search is deep:
all-interval 24 had no solution in 20 s under any search, and has one in a few dozen
nodes with the rows dropped (CP-SAT shows the same gap between the two ways of stating
its differences' domain). Dropping them is sound because the constraints that keep the
pair apart hold in every solution: only constraints posted as they are (top level, never
reified or guarded, as model/diagnosis.py guards the soft ones) count, each naming its
terms by `normalise.kept_apart`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from conundrum.lang.expr import Expr, Var


class DistinctPairs:
    """Which model variables (by index) the model's constraints keep pairwise apart."""

    def __init__(self, kept: Sequence[list[Expr]]) -> None:
        """`kept`: the terms each top-level constraint keeps apart (normalise.kept_apart)."""
        # variable index -> the groups (one per constraint keeping two or more apart)
        self.groups: dict[int, set[int]] = {}
        for number, terms in enumerate(kept):
            members = [v for v in terms if isinstance(v, Var)]
            if len(members) > 1:
                for v in members:
                    self.groups.setdefault(v.index, set()).add(number)

    def apart(self, a: Var, b: Var) -> bool:
        """Whether every solution gives a and b different values."""
        groups = self.groups.get(a.index)
        others = self.groups.get(b.index)
        return (a.index != b.index and groups is not None and others is not None
                and not groups.isdisjoint(others))

    def pairs(self, variables: Sequence[Var]) -> list[tuple[int, int]]:
        """The positions (i, j), i < j, of the variables kept apart."""
        return [(i, j) for i, j in combinations(range(len(variables)), 2)
                if self.apart(variables[i], variables[j])]
