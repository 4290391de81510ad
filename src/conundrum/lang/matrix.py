"""A 2-D grid with rows, columns and slices, that variables can index (`grid[r, c]` is one
2-D element), and `cn.array`, which makes an Array of a list and a Matrix of a list of rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast, overload

from conundrum.lang.array import Array, T, array_items, element_2d
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Expr

if TYPE_CHECKING:
    from conundrum.lang.expr import Var



class Matrix:
    """A grid: `grid[i][j]` or `grid[i, j]`; `grid[a:b, c:d]` is a sub-Matrix; `.rows`,
    `.columns`, `.flat`. Variables may index it: `grid[r, c]` and `grid[r][c]` are one 2-D
    element (0-based, r and c kept inside the grid), `grid[r, 2]` and `grid[1, c]` an
    element over a column or a row. The cells are annotated as Var, what `m.int_matrix`
    makes; a Matrix from `cn.array` may hold integers and expressions."""

    def __init__(self, rows: Iterable[Iterable[Var]]) -> None:
        self._rows = [list(r) for r in rows]

    @property
    def rows(self) -> list[list[Var]]:
        """The rows, as lists (Arrays: a variable can index them)."""
        return [Array(r) for r in self._rows]

    @property
    def columns(self) -> list[list[Var]]:
        """The columns, as lists (Arrays: a variable can index them)."""
        return [Array(c) for c in zip(*self._rows)]

    @property
    def flat(self) -> Array[Var]:
        """Every cell, row by row."""
        return Array(x for r in self._rows for x in r)

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return len(self._rows), len(self._rows[0]) if self._rows else 0

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[Array[Var]]:
        return iter([Array(r) for r in self._rows])

    @overload
    def __getitem__(self, key: tuple[int, int]) -> Var: ...
    @overload
    def __getitem__(self, key: tuple[slice, int] | tuple[int, slice] | tuple[slice, slice],
                    ) -> Matrix: ...
    @overload
    def __getitem__(self, key: tuple[Expr, int | Expr] | tuple[int, Expr]) -> Expr: ...
    @overload
    def __getitem__(self, key: int) -> Array[Var]: ...
    @overload
    def __getitem__(self, key: slice) -> list[list[Var]]: ...
    @overload
    def __getitem__(self, key: Expr) -> Array[Expr]: ...

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, tuple):
            i, j = key
            if isinstance(i, Expr) or isinstance(j, Expr):
                return self._at(i, j)
            if isinstance(i, slice) or isinstance(j, slice):
                ri = self._rows[i] if isinstance(i, slice) else [self._rows[i]]
                return Matrix([r[j] if isinstance(j, slice) else [r[j]] for r in ri])
            return self._rows[i][j]
        if isinstance(key, Expr):
            return _RowAt(self._rows, key)
        if isinstance(key, slice):
            return [Array(r) for r in self._rows[key]]
        return Array(self._rows[key])

    def _at(self, i: Any, j: Any) -> Expr:
        """A cell chosen by one or two index expressions."""
        if isinstance(i, slice) or isinstance(j, slice):
            raise ModelError("a Matrix indexed by a variable takes one cell at a time: "
                             "grid[r, c], or grid[r] for the row r as a list")
        if isinstance(i, Expr) and isinstance(j, Expr):
            return element_2d(self._rows, i, j)
        if isinstance(i, Expr):  # a fixed column j (an int, negative from the end)
            return Array([r[j] for r in self._rows])[i]
        col: Expr = j
        return Array(self._rows[i])[col]

    def __repr__(self) -> str:
        return f"Matrix({self.shape[0]}x{self.shape[1]})"


class _RowAt(Array[Expr]):
    """grid[r] for an index expression r: its items are the cells of row r, one element
    per column; indexed by a second expression c, it is the 2-D element grid[r, c]."""

    __slots__ = ("_grid", "_row")

    def __init__(self, grid: list[list[Any]], row: Expr) -> None:
        super().__init__(Array([r[j] for r in grid])[row]
                         for j in range(len(grid[0]) if grid else 0))
        self._grid = grid
        self._row = row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, Expr):
            return element_2d(self._grid, self._row, key)
        return super().__getitem__(key)


@overload
def array(items: Matrix) -> Matrix: ...
@overload
def array(items: Iterable[Iterable[T]]) -> Matrix: ...
@overload
def array(items: Iterable[T]) -> Array[T]: ...


def array(items: Any) -> Array[Any] | Matrix:
    """An array that variables can index: `cn.array([4, 2, 7])[x]` is element (0-based, x
    kept inside the array); a list of rows makes a Matrix, and `cn.array(rows)[r, c]` or
    `[r][c]` is one 2-D element. Items are integers, variables or expressions; integer
    indices and slices work as on a list."""
    if isinstance(items, Matrix):
        return Matrix(items._rows)
    if isinstance(items, Expr | int | Fraction | str):
        raise ModelError(f"cn.array needs a list of items or of rows, not {items!r}")
    try:
        seq = list(items)
    except TypeError:
        raise ModelError(f"cn.array needs a list of items or of rows, not {items!r}") from None
    rows = [_is_row(x) for x in seq]
    if not any(rows):
        return array_items(seq)
    if not all(rows):
        raise ModelError("cn.array: a list of rows (2-D) or of items (1-D), not a mix of both")
    lists = [list(r) for r in seq]  # (a row may be a generator, read once)
    if any(_is_row(x) for r in lists for x in r):
        raise ModelError("cn.array: at most 2-D (a list of rows of items)")
    grid = [array_items(r, "cn.array") for r in lists]
    for k, r in enumerate(grid):
        if len(r) != len(grid[0]):
            raise ModelError(f"cn.array: row {k} has {len(r)} items, row 0 has "
                             f"{len(grid[0])} (a 2-D array is rectangular)")
    return Matrix(cast("list[list[Var]]", grid))


def _is_row(x: object) -> bool:
    """Whether cn.array reads x as a row of a 2-D array: any iterable but a string (an
    expression is not iterable)."""
    return isinstance(x, Iterable) and not isinstance(x, str | bytes)
