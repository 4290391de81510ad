"""Dispatch by node class: each pass keeps its rules in a table keyed by the language's node
classes (no chain of isinstance tests), and finds a node's rule here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

Rule = TypeVar("Rule")


def rule_for(table: Mapping[type, Rule], node: object) -> Rule | None:
    """The rule the table gives node's class, or the nearest base class's (walking the
    method resolution order, so a subclass of a node class needs no entry of its own);
    None when no class of node is in the table."""
    for cls in type(node).__mro__:
        found = table.get(cls)
        if found is not None:
            return found
    return None
