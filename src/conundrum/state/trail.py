"""The trail: exact undo of reversible state, MiniCP style.

A reversible object keeps the history of its own old states and saves at most once per
search level: it remembers the `stamp` of the level in which it last saved, and the trail
hands out a fresh stamp every time a level is opened or restarted, so a stamp is never
reused. The trail itself only lists, in order, the objects that saved; undoing a level calls
`restore()` on each of them, newest first, and each pops its own last saved state.
(Keeping the old values with their owner, rather than as a tuple per trail entry, means a
save allocates nothing: this runs at every domain change.)
"""

from __future__ import annotations


class Reversible:
    """An object the trail can restore: it pushed its old state on its own history and
    itself on the trail, and `restore` pops that state back."""

    __slots__ = ()

    def restore(self) -> None:
        """Undo the last saved change (called by the trail)."""
        raise NotImplementedError


class Trail:
    """A stack of saved objects with level marks."""

    __slots__ = ("entries", "marks", "stamp", "next_stamp")

    def __init__(self) -> None:
        self.entries: list[Reversible] = []
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
            entries.pop().restore()

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


class SavedInt:
    """A value as RevInt saves it for its restore."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class RevInt(Reversible):
    """A reversible integer cell."""

    __slots__ = ("trail", "value", "stamp", "saved", "depth")

    def __init__(self, trail: Trail, value: int) -> None:
        self.trail = trail
        self.value = value
        self.stamp = -1
        # the saved values in saved[:depth], newest last, in records that are reused (see
        # IntVar.saved: a list of integers would box each one and shrink to nothing)
        self.saved: list[SavedInt] = []
        self.depth = 0

    def set(self, value: int) -> None:
        """Set the value, saving the old one once per level."""
        trail = self.trail
        if self.stamp != trail.stamp:
            top = self.depth
            if top == len(self.saved):
                self.saved.append(SavedInt())
            self.saved[top].value = self.value
            self.depth = top + 1
            trail.entries.append(self)
            self.stamp = trail.stamp
        self.value = value

    def restore(self) -> None:
        """Undo one saved change (called by the trail)."""
        top = self.depth - 1
        self.depth = top
        self.value = self.saved[top].value
        self.stamp = -1
