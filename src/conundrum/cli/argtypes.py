"""The types of option values on the command line: each checks one text and gives the value,
or raises argparse.ArgumentTypeError with what was expected (argparse reports it as a usage
mistake). Shared by the puzzle commands (parser.py) and ``conundrum fzn`` (fzn.py)."""

from __future__ import annotations

import argparse
import re


def positive_int(text: str) -> int:
    """A whole number >= 1."""
    if not re.fullmatch(r"\s*\d{1,12}\s*", text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return int(text)


def seconds(text: str) -> float:
    """A number of seconds > 0."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def method_spec(text: str) -> str:
    """A search method: complete, lds:N or bbs:N."""
    if not re.fullmatch(r"complete|(lds|bbs):\d{1,9}", text):
        raise argparse.ArgumentTypeError(f"expected complete, lds:N or bbs:N, got {text!r}")
    return text


def restarts_spec(text: str) -> str:
    """A restart sequence: luby, geometric, luby:N or geometric:N (N >= 1)."""
    if not re.fullmatch(r"(luby|geometric)(:[1-9]\d{0,8})?", text):
        raise argparse.ArgumentTypeError(f"expected luby, geometric, luby:N or geometric:N, "
                                         f"got {text!r}")
    return text
