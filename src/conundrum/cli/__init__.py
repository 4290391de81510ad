"""The command line: `conundrum` (puzzles, explanations, ratings, generation) and
`conundrum-fzn` (FlatZinc). The only part of the package that prints or picks an exit
status."""

from conundrum.cli.app import FILE_COMMANDS, N_COMMANDS, fzn_main, main

__all__ = ["FILE_COMMANDS", "N_COMMANDS", "fzn_main", "main"]
