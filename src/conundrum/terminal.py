"""Colour on a terminal, none elsewhere: when the command line may use ANSI styles.

The convention (https://no-color.org and what git, ls or pytest do): ``--color=auto``, the
default, colours a stream only when it is a terminal, ``NO_COLOR`` set to anything
non-empty turns colour off, and so does ``TERM=dumb``; ``--color=always`` and
``--color=never`` override both. Colour only decorates: the text without the escape codes
is exactly the plain output.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TextIO

COLOR_CHOICES = ("auto", "always", "never")

_STYLES = {"error": "1;31", "good": "32", "warn": "33", "dim": "2", "bold": "1"}
# box-drawing characters (U+2500-U+257F) and the ASCII ones our grids use
_LINES = re.compile(r"[\u2500-\u257f]+")


def wants_color(stream: TextIO, choice: str, environ: Mapping[str, str]) -> bool:
    """Whether to colour what goes to `stream`; `choice` is one of COLOR_CHOICES."""
    if choice != "auto":
        return choice == "always"
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Palette:
    """Styles text for one stream; with colour off every method returns its text as is."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def paint(self, text: str, style: str) -> str:
        """`text` in one of the styles: error, good, warn, dim, bold."""
        if not self.enabled or not text:
            return text
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"

    def grid(self, text: str) -> str:
        """A drawn grid with its lines dimmed, so that the values stand out."""
        if not self.enabled:
            return text
        return _LINES.sub(lambda m: self.paint(m.group(), "dim"), text)

    def message(self, text: str) -> str:
        """An error message: its ``conundrum:`` prefix in bold red."""
        prefix = "conundrum:"
        if not text.startswith(prefix):
            return text
        return self.paint(prefix, "error") + text[len(prefix):]
