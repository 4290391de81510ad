"""The trail: exact undo of reversible state, MiniCP style.

A reversible object saves its old state at most once per search level: it remembers the
`stamp` of the level in which it last saved, and the trail hands out a fresh stamp every
time a level is opened or restarted, so a stamp is never reused.

Each trail entry is a tuple whose first item is the object; undo calls `obj.restore(entry)`
on the entries of the level, newest first.
"""

from __future__ import annotations

from typing import Any


class Trail:
    """A stack of saved states with level marks."""

    __slots__ = ("entries", "marks", "stamp", "next_stamp")

    def __init__(self) -> None:
        self.entries: list[tuple[Any, ...]] = []
        self.marks: list[int] = []
        self.stamp = 0
        self.next_stamp = 1

    @property
    def depth(self) -> int:
        """Number of open levels."""
        return len(self.marks)

    def push_level(self) -> None:
        """Open a level: everything changed from now on is undone by `pop_level`."""
        self.marks.append(len(self.entries))
        self.stamp = self.next_stamp
        self.next_stamp += 1

    def undo_to(self, mark: int) -> None:
        """Restore every entry above `mark`, newest first."""
        entries = self.entries
        while len(entries) > mark:
            entry = entries.pop()
            entry[0].restore(entry)

    def restart_level(self) -> None:
        """Undo the changes of the current level but keep it open."""
        self.undo_to(self.marks[-1])
        self.stamp = self.next_stamp
        self.next_stamp += 1

    def pop_level(self) -> None:
        """Undo the changes of the current level and close it."""
        self.undo_to(self.marks.pop())
        self.stamp = self.next_stamp
        self.next_stamp += 1


class RevInt:
    """A reversible cell holding an int (or any immutable value)."""

    __slots__ = ("trail", "value", "stamp")

    def __init__(self, trail: Trail, value: Any) -> None:
        self.trail = trail
        self.value = value
        self.stamp = -1

    def set(self, value: Any) -> None:
        """Set the value, saving the old one once per level."""
        trail = self.trail
        if self.stamp != trail.stamp:
            trail.entries.append((self, self.value))
            self.stamp = trail.stamp
        self.value = value

    def restore(self, entry: tuple[Any, ...]) -> None:
        """Undo one saved change (called by the trail)."""
        self.value = entry[1]
        self.stamp = -1
