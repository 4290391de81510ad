"""Colour on a terminal, none elsewhere: when the command line may use ANSI styles.

The convention (https://no-color.org and what git, ls or pytest do): ``--color=auto``, the
default, colours a stream only when it is a terminal, ``NO_COLOR`` set to anything
non-empty turns colour off, and so does ``TERM=dumb``; ``--color=always`` and
``--color=never`` override both. Colour only decorates: the text without the escape codes
is exactly the plain output.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, TextIO

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


class ProgressLine:
    """A live line on a terminal's standard error, each report replacing the last: the
    text `describe` makes of the statistics (search_text for a search, work_text for an
    explanation, a grade or a generated puzzle). Made only when the stream is a terminal
    (see `progress_line`), so a pipe or a file never receives it."""

    def __init__(self, stream: TextIO, describe: Callable[[Any], str]) -> None:
        self.stream = stream
        self.describe = describe
        self.shown = False

    def __call__(self, stats: object) -> None:
        self.stream.write("\r\x1b[K  " + self.describe(stats))
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Erase the line, if one is shown."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def search_text(stats: Any) -> str:
    """A search's progress: solutions, nodes, rate and seconds."""
    secs = max(getattr(stats, "seconds", 0.0) or 0.0, 1e-9)
    nodes = getattr(stats, "nodes", 0)
    return (f"{getattr(stats, 'solutions', 0):,} solutions, {nodes:,} nodes, "
            f"{nodes / secs:,.0f} nodes/s, {secs:.1f} s")


def work_text(what: str) -> Callable[[Any], str]:
    """The progress of work made of many searches (`what`: "rating", ...): nodes, seconds."""
    def describe(stats: Any) -> str:
        nodes = getattr(stats, "nodes", 0)
        secs = getattr(stats, "seconds", 0.0) or 0.0
        return f"{what}: {nodes:,} nodes, {secs:.1f} s"

    return describe


def progress_line(stream: TextIO, what: str | Callable[[Any], str]) -> ProgressLine | None:
    """A ProgressLine on `stream` if it is a terminal, else None (nothing to show); `what`
    names the work (work_text) or is the describing function itself (search_text)."""
    isatty = getattr(stream, "isatty", None)
    if not (isatty and isatty()):
        return None
    return ProgressLine(stream, work_text(what) if isinstance(what, str) else what)
