"""The input of the puzzle commands: a puzzle file (or standard input) read as text with
its size and encoding checked, the alphametic's equations and options, and the Puzzle
they make. Bad input is a PuzzleError saying where, for the command to report.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata

from conundrum.cli.parser import N_COMMANDS
from conundrum.puzzles.base import MAX_TEXT, Puzzle, PuzzleError


def read_text(path: str) -> str:
    """The text of FILE (``-`` is standard input), or a PuzzleError saying what is wrong."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_TEXT * 4 + 1)
            name = "standard input"
        else:
            name = path
            with open(path, "rb") as fh:
                data = fh.read(MAX_TEXT * 4 + 1)
    except FileNotFoundError:
        raise PuzzleError("no such file", source=path) from None
    except IsADirectoryError:
        raise PuzzleError("is a directory, not a file", source=path) from None
    except OSError as exc:
        raise PuzzleError(f"cannot read: {exc.strerror or exc}", source=path) from None
    if len(data) > MAX_TEXT * 4:
        raise PuzzleError("the file is too large for a puzzle", source=name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleError(f"not a text file (byte 0x{data[exc.start]:02x} at offset "
                          f"{exc.start} is not UTF-8)", source=name) from None
    if len(text) > MAX_TEXT:
        raise PuzzleError("the file is too large for a puzzle", source=name)
    return text


def _alphametic(args: argparse.Namespace) -> Puzzle:
    from conundrum.puzzles import alphametic as al

    sources = [al.Source(unicodedata.normalize("NFC", eq), f"argument {k}")
               for k, eq in enumerate(args.equations, 1)]
    if args.file:
        text = read_text(args.file)
        name = "standard input" if args.file == "-" else args.file
        for i, line in enumerate(text.split("\n"), 1):
            if line.strip() and not line.lstrip().startswith("#"):
                label = f"{name}, line {i}"
                sources.append(al.Source(unicodedata.normalize("NFC", line.rstrip("\r")), label))
    if not sources:
        raise PuzzleError("no equation: give one or more, e.g. 'SEND + MORE = MONEY', or -f FILE")
    opts = al.Options(base=args.base, distinct=not args.no_distinct,
                      leading_zeros=args.leading_zeros, integral=args.integral)
    if args.digits is not None:
        match = re.fullmatch(r"\s*(\d{1,3})\s*(?:-|\.\.)\s*(\d{1,3})\s*", args.digits)
        if not match:
            raise PuzzleError(f"--digits must be LO-HI, e.g. 1-9, got {args.digits!r}")
        opts.digits = (int(match.group(1)), int(match.group(2)))
    for item in args.fix:
        match = re.fullmatch(r"\s*(\S+?)\s*=\s*(\d{1,3})\s*", unicodedata.normalize("NFC", item))
        if not match:
            raise PuzzleError(f"--fix must be LETTER=DIGIT, e.g. D=5, got {item!r}")
        opts.fix.append((match.group(1), int(match.group(2))))
    return al.parse(sources, opts)


def make_puzzle(args: argparse.Namespace) -> Puzzle:
    """Parse the command's input into a Puzzle (PuzzleError / ModelError on bad input)."""
    if args.command == "alphametic":
        return _alphametic(args)
    from importlib import import_module

    module = import_module(f"conundrum.puzzles.{args.command}")
    if args.command in N_COMMANDS:
        return module.parse(args.n, args.command)
    text = read_text(args.file)
    return module.parse(text, "standard input" if args.file == "-" else args.file)
