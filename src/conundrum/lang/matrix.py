"""A 2-D grid of variables with rows, columns and slices."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:
    from conundrum.lang.expr import Var


class Matrix:
    """A grid of variables: `grid[i][j]` or `grid[i, j]`; `grid[a:b, c:d]` is a sub-Matrix;
    `.rows`, `.columns`, `.flat`."""

    def __init__(self, rows: Iterable[Iterable[Var]]) -> None:
        self._rows = [list(r) for r in rows]

    @property
    def rows(self) -> list[list[Var]]:
        """The rows, as lists."""
        return [list(r) for r in self._rows]

    @property
    def columns(self) -> list[list[Var]]:
        """The columns, as lists."""
        return [list(c) for c in zip(*self._rows)]

    @property
    def flat(self) -> list[Var]:
        """Every cell, row by row."""
        return [x for r in self._rows for x in r]

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns)."""
        return len(self._rows), len(self._rows[0]) if self._rows else 0

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[list[Var]]:
        return iter(self.rows)

    @overload
    def __getitem__(self, key: tuple[int, int]) -> Var: ...
    @overload
    def __getitem__(self, key: tuple[slice, int] | tuple[int, slice] | tuple[slice, slice],
                    ) -> Matrix: ...
    @overload
    def __getitem__(self, key: int) -> list[Var]: ...
    @overload
    def __getitem__(self, key: slice) -> list[list[Var]]: ...

    def __getitem__(self, key: int | slice | tuple[int | slice, int | slice],
                    ) -> Var | list[Var] | list[list[Var]] | Matrix:
        if isinstance(key, tuple):
            i, j = key
            if isinstance(i, slice) or isinstance(j, slice):
                ri = self._rows[i] if isinstance(i, slice) else [self._rows[i]]
                return Matrix([r[j] if isinstance(j, slice) else [r[j]] for r in ri])
            return self._rows[i][j]
        if isinstance(key, slice):
            return [list(r) for r in self._rows[key]]
        return list(self._rows[key])

    def __repr__(self) -> str:
        return f"Matrix({self.shape[0]}x{self.shape[1]})"
