"""Numbrix: Hidato with consecutive numbers side by side (no diagonal steps); the format
is Hidato's (see :mod:`conundrum.puzzles.hidato`)."""

from __future__ import annotations

from .base import Puzzle
from .hidato import ROOK, parse_with


def parse(text: str, source: str = "") -> Puzzle:
    """Parse a Numbrix into a puzzle."""
    return parse_with(text, source, ROOK, "Numbrix")
