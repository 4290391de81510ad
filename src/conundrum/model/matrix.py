"""A 2-D grid of variables with rows, columns and slices."""

from __future__ import annotations

from collections.abc import Iterator


class Matrix:
    """A grid of variables: `grid[i][j]` or `grid[i, j]`; `grid[a:b, c:d]` is a sub-Matrix;
    `.rows`, `.columns`, `.flat`."""

    def __init__(self, rows: list[list]) -> None:
        self._rows = [list(r) for r in rows]

    @property
    def rows(self) -> list[list]:
        """The rows, as lists."""
        return [list(r) for r in self._rows]

    @property
    def columns(self) -> list[list]:
        """The columns, as lists."""
        return [list(c) for c in zip(*self._rows)]

    @property
    def flat(self) -> list:
        """Every cell, row by row."""
        return [x for r in self._rows for x in r]

    @property
    def shape(self) -> tuple[int, int]:
        return len(self._rows), len(self._rows[0]) if self._rows else 0

    def __len__(self) -> int:
        return len(self._rows)

    def __iter__(self) -> Iterator[list]:
        return iter(self.rows)

    def __getitem__(self, key: object):
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
