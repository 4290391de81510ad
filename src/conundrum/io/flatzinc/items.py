"""What the FlatZinc reader produces: the values (names, array accesses, calls, ranges,
integer sets, strings) and the items (declarations, constraints, the solve item) of a file.

Plain slotted classes, not dataclasses: `dataclasses` imports `inspect` and builds each
class's methods with `exec`, about 25 ms of every `conundrum fzn` run before reading a
line (issue 41, the fixed cost of a run).
"""

from __future__ import annotations

from collections.abc import Iterator

Place = tuple[int, int]  # (line, column), both 1-based


class Record:
    """Fields named by `__slots__` (set by the subclass's __init__), shown and compared by
    type and fields, in the manner of a dataclass (unhashable, as a mutable one is)."""

    __slots__: tuple[str, ...] = ()

    def fields(self) -> tuple:
        """The field values, in the order of `__slots__`."""
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.fields() == other.fields()

    # (defining __eq__ without __hash__ leaves a Record unhashable, as Python does)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({shown})"


class Value(Record):
    """A value of the file: immutable once made, hashed by type and fields."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.fields()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def _set(self, **values: object) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)


# ------------------------------------------------------------------------------- values

class Name(Value):
    """An identifier used as a value (a parameter, a variable, an array, an annotation)."""

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        self._set(name=name)


class Access(Value):
    """`array[index]` with a literal index (1-based, as in FlatZinc)."""

    __slots__ = ("name", "index")
    name: str
    index: int

    def __init__(self, name: str, index: int) -> None:
        self._set(name=name, index=index)


class Call(Value):
    """`name(args)`: a constraint or an annotation with arguments."""

    __slots__ = ("name", "args")
    name: str
    args: tuple

    def __init__(self, name: str, args: tuple) -> None:
        self._set(name=name, args=args)


class Range(Value):
    """`lo..hi`, a set of integers (empty when lo > hi)."""

    __slots__ = ("lo", "hi")
    lo: int
    hi: int

    def __init__(self, lo: int, hi: int) -> None:
        self._set(lo=lo, hi=hi)

    def values(self) -> list[int]:
        return list(range(self.lo, self.hi + 1))

    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The set as a list of disjoint increasing ranges (none when empty)."""
        return ((self.lo, self.hi),) if self.lo <= self.hi else ()

    def size(self) -> int:
        return max(self.hi - self.lo + 1, 0)

    def __contains__(self, value: object) -> bool:
        return self.lo <= value <= self.hi  # type: ignore[operator]


class IntSet(Value):
    """A set literal `{1, 3..5, 9}`, kept as disjoint increasing ranges (lo, hi) with gaps
    between them, so `{1..1000000000}` costs one pair, not a billion values."""

    __slots__ = ("ranges_",)
    ranges_: tuple[tuple[int, int], ...]

    def __init__(self, ranges_: tuple[tuple[int, int], ...]) -> None:
        self._set(ranges_=ranges_)

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


class SetOf(Value):
    """The type `set of U` of a set variable: its universe U (a range or a set literal;
    None for `set of int`, allowed where the value is given: an array of set variables)."""

    __slots__ = ("universe",)
    universe: Range | IntSet | None

    def __init__(self, universe: Range | IntSet | None) -> None:
        self._set(universe=universe)


# the largest universe of a set variable (one 0/1 variable per element)
MAX_SET_UNIVERSE = 1 << 16


class Str(Value):
    """A string literal (only in annotations)."""

    __slots__ = ("text",)
    text: str

    def __init__(self, text: str) -> None:
        self._set(text=text)


# Sets written as {a, b, c} are IntSets; arrays are lists; true/false are bools.


# --------------------------------------------------------------------------------- items

class VarDecl(Record):
    """`var TYPE: name :: annotations [= value];` (`domain` None for `var int`; `is_bool`
    for `var bool`); arrays of variables have `length` and a list `value` (or None)."""

    __slots__ = ("name", "is_bool", "domain", "annotations", "value", "line", "length",
                 "column", "value_place")

    def __init__(self, name: str, is_bool: bool, domain: Range | IntSet | SetOf | None,
                 annotations: list, value: object, line: int, length: int | None = None,
                 column: int | None = None, value_place: Place | None = None) -> None:
        self.name = name
        self.is_bool = is_bool
        self.domain = domain
        self.annotations = annotations
        self.value = value
        self.line = line
        self.length = length
        self.column = column  # where the declaration starts
        self.value_place = value_place  # where its value starts


class ParDecl(Record):
    """`TYPE: name = value;` a parameter (int, bool, set of int, or an array of them)."""

    __slots__ = ("name", "value", "line", "column", "kind", "value_place", "length")

    def __init__(self, name: str, value: object, line: int, column: int | None = None,
                 kind: str = "int", value_place: Place | None = None,
                 length: int | None = None) -> None:
        self.name = name
        self.value = value
        self.line = line
        self.column = column
        self.kind = kind  # int, bool or set (of int): the declared type of the elements
        self.value_place = value_place
        self.length = length  # for an array


class Constraint(Record):
    """`constraint name(args) :: annotations;`"""

    __slots__ = ("name", "args", "annotations", "line", "column", "places")

    def __init__(self, name: str, args: tuple, annotations: list, line: int,
                 column: int | None = None, places: tuple[Place, ...] = ()) -> None:
        self.name = name
        self.args = args
        self.annotations = annotations
        self.line = line
        self.column = column
        self.places = places  # where each argument starts


class SolveItem(Record):
    """`solve :: annotations satisfy | minimize e | maximize e;`"""

    __slots__ = ("kind", "objective", "annotations", "line", "column", "objective_place")

    def __init__(self, kind: str, objective: object, annotations: list, line: int,
                 column: int | None = None, objective_place: Place | None = None) -> None:
        self.kind = kind  # "satisfy", "minimize" or "maximize"
        self.objective = objective
        self.annotations = annotations
        self.line = line
        self.column = column
        self.objective_place = objective_place


class FlatZinc(Record):
    """The items of a FlatZinc file, in order."""

    __slots__ = ("declarations", "constraints", "solve")

    def __init__(self) -> None:
        self.declarations: list = []  # VarDecl and ParDecl, in order
        self.constraints: list[Constraint] = []
        self.solve: SolveItem | None = None
