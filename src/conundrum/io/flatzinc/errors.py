"""The errors of the FlatZinc reader: FznError, with the place (line, column) of the fault,
and ArgumentError, which names a constraint's argument and gets its place from the reader.
"""

from __future__ import annotations


class FznError(Exception):
    """A FlatZinc input that cannot be read or is not supported, with its place (1-based
    line and column, when known)."""

    def __init__(self, message: str, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        if self.column is None:
            return f"line {self.line}: {self.message}"
        return f"line {self.line}, column {self.column}: {self.message}"


class ArgumentError(FznError):
    """A constraint's argument at fault, by its 0-based index (the reader adds the place)."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index
