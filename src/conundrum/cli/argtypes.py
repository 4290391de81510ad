"""The types of option values on the command line: each checks one text and gives the value,
or raises argparse.ArgumentTypeError with what was expected (argparse reports it as a usage
mistake). Shared by the puzzle commands (parser.py) and ``conundrum fzn`` (fzn.py)."""

from __future__ import annotations

import argparse
import re


def add_search_arguments(group: argparse._ArgumentGroup | argparse.ArgumentParser) -> None:
    """--search and --restarts, the same for the puzzle commands and `conundrum fzn`."""
    group.add_argument("--search", type=search_spec, metavar="S",
                       help="auto (default: depth-first, and an optimisation or one "
                       "solution a portfolio after 10000 failures; auto:N after N), "
                       "classic (depth-first), learning (conflict-driven nogood "
                       "learning with restarts) or portfolio (classic and learning in "
                       "turns, sharing the best solution; portfolio:N)")
    group.add_argument("--restarts", type=restarts_spec, metavar="R",
                       help="restart from the root every so many failures, keeping what "
                       "was refuted as nogoods: luby, geometric, linear or constant (luby:N "
                       "etc.: N failures per unit, default 100); off by default")


def search_spec(text: str) -> str:
    """classic, learning, portfolio, auto, auto:N or portfolio:N."""
    from conundrum.search.options import parse_search

    try:
        parse_search(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


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


def port_number(text: str) -> int:
    """A TCP port: 0 (any free one) to 65535."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 0 to 65535, got {text!r}")
    return int(text)


def method_spec(text: str) -> str:
    """A search method: complete, lds:N or bbs:N."""
    if not re.fullmatch(r"complete|(lds|bbs):\d{1,9}", text):
        raise argparse.ArgumentTypeError(f"expected complete, lds:N or bbs:N, got {text!r}")
    return text


def restarts_spec(text: str) -> str:
    """A restart sequence: luby, geometric, linear or constant, optionally :N (N >= 1)."""
    if not re.fullmatch(r"(luby|geometric|linear|constant)(:[1-9]\d{0,8})?", text):
        raise argparse.ArgumentTypeError("expected luby, geometric, linear or constant, "
                                         f"optionally :N, got {text!r}")
    return text
