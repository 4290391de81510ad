"""Arrays that a variable can index: `Array` (a list whose `a[x]` with an expression x is
`element(a, x)`) and `Element2D`, the node of `grid[r, c]` with variable indices.

An index outside the array is never an exception: the assignment that puts it there fails,
as for `cn.element` (docs/arrays.md), so `a[x]` restricts x to 0..len(a)-1 wherever it
appears, in a reified context too. Integer indices and slices keep the list behaviour
(negative integers count from the end); a variable index is 0-based and never wraps.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import SupportsIndex, TypeVar, overload

from conundrum.lang.errors import ModelError, Undefined
from conundrum.lang.expr import Element, Expr, ExprLike, const_or_expr, make_sum, zero_one
from conundrum.lang.globals.arithmetic import element
from conundrum.lang.tree import Number

_list_item = list.__getitem__

# the type of an Array's items: what m.int_vars makes (Var), integers, expressions
T = TypeVar("T", bound="Expr | int | Fraction")


class Array(list[T]):
    """A list of integers or expressions that a variable can index: `a[x]` is
    `cn.element(a, x)` (0-based; x is kept inside 0..len(a)-1), `a[2]` the item itself and
    `a[1:3]` an Array. It is a list: everything that takes a list takes an Array."""

    __slots__ = ()

    @overload
    def __getitem__(self, key: SupportsIndex) -> T: ...
    @overload
    def __getitem__(self, key: slice) -> Array[T]: ...
    @overload
    def __getitem__(self, key: Expr) -> Expr: ...

    def __getitem__(self, key: SupportsIndex | slice | Expr) -> T | Array[T] | Expr:
        if type(key) is int:  # first, and without super(): x[i] in model-building loops
            return _list_item(self, key)
        if isinstance(key, Expr):
            return element(self, key)
        if isinstance(key, slice):
            return Array(_list_item(self, key))
        return _list_item(self, key)


class Element2D(Expr):
    """grid[row, col] with 0-based index expressions over a rows x `cols` grid given row by
    row; args = (row, col, *cells). Either index outside the grid makes the assignment
    fail."""

    __slots__ = ("cols",)

    def __init__(self, row: ExprLike, col: ExprLike, cells: tuple[ExprLike, ...],
                 cols: int) -> None:
        super().__init__((row, col, *cells))
        self.cols = cols

    @property
    def boolean(self) -> bool:  # type: ignore[override]
        return zero_one(self.args[2:])  # a grid of Booleans gives a Boolean

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) of the grid."""
        return (len(self.args) - 2) // self.cols, self.cols

    def compute(self, values: list[Number]) -> Number:
        rows, cols = self.shape
        r, c = values[0], values[1]
        if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < rows
                and 0 <= c < cols):
            raise Undefined("element index out of range")
        return values[2 + r * cols + c]

    def written(self, texts: list[str]) -> str:
        cells = texts[2:]
        rows = ", ".join("[" + ", ".join(cells[i:i + self.cols]) + "]"
                         for i in range(0, len(cells), self.cols))
        return f"element([{rows}], {texts[0]}, {texts[1]})"

    def decompose(self) -> Expr:
        """The same value as a 1-D element over the cells, row by row, at
        row * cols + col (the inner element over 0..cols-1 keeps col inside the grid)."""
        col = Element((self.args[1], *range(self.cols)))
        return Element((make_sum(((self.cols, self.args[0]), (1, col))), *self.args[2:]))


def element_2d(rows: Sequence[Sequence[ExprLike]], row: ExprLike, col: ExprLike) -> Expr:
    """rows[row][col] for index expressions over a rectangular, non-empty grid."""
    if not rows or not rows[0]:
        raise ModelError("element: the 2-D array is empty")
    cells: list[ExprLike] = []
    for k, r in enumerate(rows):
        if len(r) != len(rows[0]):
            raise ModelError(f"element: row {k} has {len(r)} items, row 0 has {len(rows[0])} "
                             "(a 2-D array is rectangular)")
        for j, item in enumerate(r):
            cells.append(_item(item, f"array[{k}][{j}]", "element"))
    return Element2D(const_or_expr(row, "element index"), const_or_expr(col, "element index"),
                     tuple(cells), len(rows[0]))


def _item(item: object, where: str, what: str) -> ExprLike:
    value = const_or_expr(item, what)
    if isinstance(value, Fraction) and value.denominator == 1:  # numpy's integers, say
        value = value.numerator
    if not isinstance(value, Expr | int):
        raise ModelError(f"{what}: {where} = {item} is not an integer (an array holds "
                         "integers or integer expressions)")
    return value


def array_items(items: Iterable[object], what: str = "cn.array") -> Array[ExprLike]:
    """The items as an Array, each checked to be an integer or an expression."""
    return Array(_item(x, f"item {k}", what) for k, x in enumerate(items))
