"""The command line: `conundrum` (puzzles, explanations, ratings, generation) and
`conundrum-fzn` (FlatZinc). The only part of the package that prints or picks an exit
status."""

from conundrum.cli.app import fzn_main, main
from conundrum.cli.parser import FILE_COMMANDS, N_COMMANDS

__all__ = ["FILE_COMMANDS", "N_COMMANDS", "fzn_main", "main"]
