"""What the FlatZinc reader produces: the values (names, array accesses, calls, ranges,
integer sets, strings) and the items (declarations, constraints, the solve item) of a file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

Place = tuple[int, int]  # (line, column), both 1-based


# ------------------------------------------------------------------------------- values

@dataclass(frozen=True)
class Name:
    """An identifier used as a value (a parameter, a variable, an array, an annotation)."""

    name: str


@dataclass(frozen=True)
class Access:
    """`array[index]` with a literal index (1-based, as in FlatZinc)."""

    name: str
    index: int


@dataclass(frozen=True)
class Call:
    """`name(args)`: a constraint or an annotation with arguments."""

    name: str
    args: tuple


@dataclass(frozen=True)
class Range:
    """`lo..hi`, a set of integers (empty when lo > hi)."""

    lo: int
    hi: int

    def values(self) -> list[int]:
        return list(range(self.lo, self.hi + 1))

    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The set as a list of disjoint increasing ranges (none when empty)."""
        return ((self.lo, self.hi),) if self.lo <= self.hi else ()

    def size(self) -> int:
        return max(self.hi - self.lo + 1, 0)

    def __contains__(self, value: object) -> bool:
        return self.lo <= value <= self.hi  # type: ignore[operator]


@dataclass(frozen=True)
class IntSet:
    """A set literal `{1, 3..5, 9}`, kept as disjoint increasing ranges (lo, hi) with gaps
    between them, so `{1..1000000000}` costs one pair, not a billion values."""

    ranges_: tuple[tuple[int, int], ...]

    @staticmethod
    def of(pieces: list[tuple[int, int]]) -> IntSet:
        """The union of the ranges (lo, hi); empty ones are dropped."""
        merged: list[list[int]] = []
        for lo, hi in sorted(p for p in pieces if p[0] <= p[1]):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        return IntSet(tuple((lo, hi) for lo, hi in merged))

    def ranges(self) -> tuple[tuple[int, int], ...]:
        return self.ranges_

    def size(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.ranges_)

    def __iter__(self) -> Iterator[int]:
        for lo, hi in self.ranges_:
            yield from range(lo, hi + 1)

    def __contains__(self, value: object) -> bool:
        return any(lo <= value <= hi for lo, hi in self.ranges_)  # type: ignore[operator]

    def __len__(self) -> int:
        return self.size()


@dataclass(frozen=True)
class SetOf:
    """The type `set of U` of a set variable: its universe U (a range or a set literal;
    None for `set of int`, allowed where the value is given: an array of set variables)."""

    universe: Range | IntSet | None


# the largest universe of a set variable (one 0/1 variable per element)
MAX_SET_UNIVERSE = 1 << 16


@dataclass(frozen=True)
class Str:
    """A string literal (only in annotations)."""

    text: str


# Sets written as {a, b, c} are IntSets; arrays are lists; true/false are bools.


# --------------------------------------------------------------------------------- items

@dataclass
class VarDecl:
    """`var TYPE: name :: annotations [= value];` (`domain` None for `var int`; `is_bool`
    for `var bool`); arrays of variables have `length` and a list `value` (or None)."""

    name: str
    is_bool: bool
    domain: Range | IntSet | SetOf | None
    annotations: list
    value: object
    line: int
    length: int | None = None
    column: int | None = None  # where the declaration starts
    value_place: Place | None = None  # where its value starts


@dataclass
class ParDecl:
    """`TYPE: name = value;` a parameter (int, bool, set of int, or an array of them)."""

    name: str
    value: object
    line: int
    column: int | None = None
    kind: str = "int"  # int, bool or set (of int): the declared type of the elements
    value_place: Place | None = None
    length: int | None = None  # for an array


@dataclass
class Constraint:
    """`constraint name(args) :: annotations;`"""

    name: str
    args: tuple
    annotations: list
    line: int
    column: int | None = None
    places: tuple[Place, ...] = ()  # where each argument starts


@dataclass
class SolveItem:
    """`solve :: annotations satisfy | minimize e | maximize e;`"""

    kind: str  # "satisfy", "minimize" or "maximize"
    objective: object
    annotations: list
    line: int
    column: int | None = None
    objective_place: Place | None = None


@dataclass
class FlatZinc:
    """The items of a FlatZinc file, in order."""

    declarations: list = field(default_factory=list)  # VarDecl and ParDecl, in order
    constraints: list[Constraint] = field(default_factory=list)
    solve: SolveItem | None = None
