"""Facts and steps of an explanation: what is known about each variable, and one deduction.

A fact is a literal about one variable: ``x = v`` or ``x != v``. What is known at a point of
an explanation is each variable's set of values still possible (its candidates); the facts
that state it are, per variable, ``x = v`` when one candidate is left and ``x != w`` for each
declared value w that is ruled out otherwise. A step cites such facts, never a whole domain,
so that "no fact can be dropped" has a precise meaning.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple


class Fact(NamedTuple):
    """``var = value`` (``equal``) or ``var != value``; ``var`` is the variable's index in
    its model. (A named tuple: explanations compare and hash millions of facts.)"""

    var: int
    value: int
    equal: bool

    def negation(self) -> Fact:
        """The opposite literal."""
        return Fact(self.var, self.value, not self.equal)

    def holds_in(self, domain: Iterable[int]) -> bool:
        """Whether the fact is known when the variable's candidates are `domain`."""
        values = set(domain)
        return values == {self.value} if self.equal else self.value not in values


# step kinds, simplest first (Step.rank orders finer)
DEDUCTION = "deduction"  # one constraint
COMBINATION = "combination"  # two constraints that share a variable
CASE_SPLIT = "case split"  # suppose x = w; single-constraint deductions reach a contradiction
SEARCH = "search"  # suppose x = w; only a search shows that no solution follows

RANKS = {1: "basic", 2: "single", 3: "subset", 4: "combination", 5: "case split", 6: "search"}


@dataclass
class Step:
    """One deduction: the constraints and earlier facts it uses, and the facts it derives.

    - ``removed``: the values it rules out, as ``x != w`` facts (what the step proves);
    - ``derived``: the same, as people read it: ``x = v`` for a variable left with one
      value, ``x != w`` otherwise;
    - ``constraints``: positions in ``Model.constraints``; ``facts``: the earlier facts;
    - ``kind``: DEDUCTION, COMBINATION, CASE_SPLIT or SEARCH; ``rank``: 1 (basic) to
      6 (search), see RANKS;
    - a case split or search step also has the ``assumption`` it refutes (``x = w``); a case
      split has the ``chain`` of single-constraint deductions under that assumption, the
      last one ending in a contradiction (``contradiction`` True, nothing removed). A search
      step is a refutation tree: its ``chain`` of deductions under the supposition, then, if
      that reaches no contradiction, ``branches``: one step per candidate of one variable
      (its ``assumption`` is ``y = u``), each with its own chain and branches, every leaf
      ending in a contradiction; ``nodes`` counts the tree's nodes.

    Every step is minimal: without any one of its constraints or facts, at least one of its
    removed values would no longer follow (for a contradiction: the cited constraints and
    facts would have a solution). ``conundrum.explain.verify`` checks this by brute force.
    """

    removed: tuple[Fact, ...]
    derived: tuple[Fact, ...]
    constraints: tuple[int, ...]
    facts: tuple[Fact, ...]
    kind: str = DEDUCTION
    rank: int = 1
    assumption: Fact | None = None
    chain: tuple[Step, ...] = ()
    branches: tuple[Step, ...] = ()
    contradiction: bool = False
    nodes: int = 0
    text: str = field(default="", compare=False)

    def __str__(self) -> str:
        return self.text or repr(self)

    @property
    def technique(self) -> str:
        """The rank's name: basic, single, subset, combination, case split or search."""
        return RANKS[self.rank]


def facts_of(var: int, domain: set[int], declared: Iterable[int]) -> list[Fact]:
    """The facts that state `domain` for variable `var` with this declared domain."""
    if len(domain) == 1:
        return [Fact(var, next(iter(domain)), True)]
    return [Fact(var, w, False) for w in sorted(set(declared) - domain)]


def derived_view(removed: Iterable[Fact], domains: dict[int, set[int]]) -> tuple[Fact, ...]:
    """The removed values as people read them, given the candidates after the step:
    ``x = v`` when x has one value left, else each ``x != w``."""
    out: list[Fact] = []
    by_var: dict[int, list[Fact]] = {}
    for f in removed:
        by_var.setdefault(f.var, []).append(f)
    for var, fs in sorted(by_var.items()):
        left = domains[var]
        if len(left) == 1:
            out.append(Fact(var, next(iter(left)), True))
        else:
            out.extend(sorted(fs))
    return tuple(out)
