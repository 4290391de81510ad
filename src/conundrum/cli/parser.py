"""The argument parsers of the ``conundrum`` command: one sub-command per puzzle family and
per tool (fzn, rate, generate, serve, completion, minizinc-config), the options they share, and
the checks of option values. Building or using the parser prints nothing: a usage
mistake is raised as UsageError for the entry point to report.
"""

from __future__ import annotations

import argparse
import re

from conundrum.cli.argtypes import (
    add_search_arguments,
    method_spec,
    port_number,
    positive_int,
    seconds,
)
from conundrum.cli.terminal import COLOR_CHOICES
from conundrum.search.selectors import LEARNING_VAR_SELECTS, VALUE_SELECTS, VAR_SELECTS

FILE_COMMANDS = {
    "sudoku": "a Sudoku (4x4 to 25x25, one line or a grid; relation grid for Greater-Than)",
    "futoshiki": "a Futoshiki (relation grid, Latin square of any size)",
    "killer": "a Killer Sudoku (cage map and LABEL=SUM rules)",
    "kenken": "a KenKen (cage map and LABEL=TARGET OP rules)",
    "skyscrapers": "a Skyscrapers puzzle (clues around the grid)",
    "kakuro": "a Kakuro (runs of white cells adding up to the clues)",
    "nonogram": "a Nonogram (row and column clues of block lengths)",
    "takuzu": "a Takuzu / Binairo (0s and 1s, balanced, no three alike)",
    "starbattle": "a Star Battle (stars per row, column and region, never touching)",
    "hidato": "a Hidato (consecutive numbers in neighbouring cells, diagonals too)",
    "numbrix": "a Numbrix (consecutive numbers side by side)",
    "survo": "a Survo (1..m*n once each, given row and column sums)",
}
N_COMMANDS = {"queens": "place N queens on an N x N board", "magic": "a magic square of order N"}
# Shell completion is written by shtab from the parser; an argument marked with this
# (shtab's own spelling of "a file name", kept here so that building the parser does not
# import shtab) completes file names.
COMPLETE_FILES = {"bash": "_shtab_compgen_files", "zsh": "_files", "tcsh": "f"}
COMPLETION_SHELLS = ("bash", "zsh", "tcsh")


FZN_DESCRIPTION = ("Solve a FlatZinc file and print as a FlatZinc solver (what `minizinc "
                   "--solver conundrum` runs). Exit status 0 whatever the search found; 2 "
                   "on input that cannot be read or is not supported.")


class UsageError(Exception):
    """A command-line usage mistake (unknown option, bad option value)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        match = re.match(r"argument COMMAND: invalid choice: '(.*)' \(choose from (.*)\)$",
                         message)
        if match:  # the list of commands is long: name the closest instead
            import difflib

            commands = re.findall(r"'([^']*)'", match.group(2))
            close = difflib.get_close_matches(match.group(1), commands, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            message = f"unknown command {match.group(1)!r}{hint}"
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def build_fzn_parser(prog: str = "conundrum-fzn") -> argparse.ArgumentParser:
    """The parser of `conundrum-fzn` (and of `conundrum fzn`): `conundrum fzn`'s arguments
    alone (what MiniZinc starts for every model does not build, nor import, the puzzle
    commands)."""
    from conundrum.cli.fzn import add_arguments

    parser = _Parser(prog=prog, description=FZN_DESCRIPTION)
    add_arguments(parser)
    return parser


def _version() -> str:
    """``conundrum 0.1.0 (compiled engine, Python 3.11.2)``: what a bug report needs."""
    import platform

    import conundrum

    engine = "compiled engine" if conundrum.COMPILED else "pure-Python engine"
    return f"conundrum {conundrum.__version__} ({engine}, Python {platform.python_version()})"


def _limit_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """--time-limit and --node-limit for a command that is not a search of its own."""
    parser.add_argument("--time-limit", type=seconds, metavar="S",
                        help=f"stop the {what} after S seconds (exit status 3)")
    parser.add_argument("--node-limit", type=positive_int, metavar="N",
                        help=f"stop the {what} after N nodes of search in all (exit status 3)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser: one sub-command per puzzle family, common search options."""
    common = _Parser(add_help=False)
    g = common.add_argument_group("what to print (default: the first solution)")
    mode = g.add_mutually_exclusive_group()
    mode.add_argument("--all", action="store_true", help="print every solution")
    mode.add_argument("--count", action="store_true",
                      help="count the solutions; the last line printed is the count")
    mode.add_argument("--unique", action="store_true",
                      help="say whether the solution is unique (stops at the second)")
    mode.add_argument("--explain", action="store_true",
                      help="explain, step by step, how to reach the unique solution")
    mode.add_argument("--hint", action="store_true",
                      help="the first step of the explanation only")
    mode.add_argument("--rate", action="store_true",
                      help="grade the puzzle (easy, medium, hard, fiendish) by the hardest "
                      "step its explanation needs")
    g.add_argument("--limit", type=positive_int, metavar="N",
                   help="print (or count) at most N solutions")
    g.add_argument("--json", action="store_true", help="each solution as one JSON line")
    g.add_argument("--json-stream", action="store_true",
                   help="every line a JSON object, as MiniZinc's --json-stream: the "
                   "solutions, then a summary {\"status\": \"complete\" or \"incomplete\", "
                   "\"result\": MiniZinc's status (satisfied, all_solutions, "
                   "unsatisfiable, unknown), \"solutions\": N, \"nodes\": ..., "
                   "\"seconds\": ...}")
    g.add_argument("--plain", action="store_true",
                   help="grids as bare rows of values, without box lines")
    g.add_argument("--color", choices=COLOR_CHOICES, default="auto",
                   help="colour the output: auto (default: on a terminal, unless NO_COLOR "
                   "is set), always or never")
    s = common.add_argument_group("search")
    s.add_argument("--var-select", choices=VAR_SELECTS + LEARNING_VAR_SELECTS, metavar="H",
                   help="variable selection: " + ", ".join(VAR_SELECTS) + " (default "
                   "dom_wdeg); with --search learning or auto also activity")
    s.add_argument("--value-select", choices=VALUE_SELECTS, metavar="H",
                   help="value selection: " + ", ".join(VALUE_SELECTS) + " (default auto: min, "
                   "or split on domains of more than 65,536 values)")
    s.add_argument("--method", type=method_spec, help="complete (default), lds:N or bbs:N")
    add_search_arguments(s)
    s.add_argument("--time-limit", type=seconds, metavar="S",
                   help="stop after S seconds (exit status 3 if the answer is incomplete)")
    s.add_argument("--node-limit", type=positive_int, metavar="N", help="stop after N nodes")
    s.add_argument("--seed", type=int, default=None, help="seed for random value selection")
    s.add_argument("--stats", action="store_true", help="search statistics on standard error")
    s.add_argument("--plot", metavar="FILE", help="also draw the search into FILE (.png, .svg "
                   "or .pdf): solutions and nodes over time, nodes by depth (needs "
                   "matplotlib)").complete = COMPLETE_FILES  # type: ignore[attr-defined]
    par = common.add_argument_group("parallel search")
    par.add_argument("-p", "--workers", type=positive_int, metavar="N",
                     help="search on N worker processes (default 1: one process)")
    par.add_argument("--scheduler", metavar="ADDRESS",
                     help="search on a Dask cluster, e.g. tcp://host:8786 (needs "
                     "dask[distributed]); -p then caps the tasks in flight")
    par.add_argument("--ordered", action="store_true",
                     help="with -p or --scheduler, print the solutions in the same order on "
                     "every run instead of as the workers find them")

    parser = _Parser(prog="conundrum", description="Solve puzzles with constraint "
                     "programming. Exit status: 0 solved, 1 no solution, 2 bad input, "
                     "3 a limit stopped the search.")
    parser.add_argument("--version", action="version", version=_version(),
                        help="print the version, the engine (compiled or pure Python) and "
                        "the Python version, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    alpha = sub.add_parser("alphametic", parents=[common], help="alphametics and equations",
                           description="Solve alphametics and equation puzzles, e.g. "
                           "'SEND + MORE = MONEY'.")
    alpha.add_argument("equations", nargs="*", metavar="EQUATION",
                       help="equations (also separated by , or ;)")
    ag = alpha.add_argument_group("equations")
    ag.add_argument("-f", "--file", help="read equations from FILE, one or more a line")
    ag.add_argument("--digits", metavar="LO-HI", help="the digits letters stand for "
                       "(default 0 to base-1)")
    ag.add_argument("--base", type=int, default=10, help="number base, 2 to 36 (default 10)")
    ag.add_argument("--no-distinct", action="store_true",
                       help="different letters may be the same digit")
    ag.add_argument("--leading-zeros", action="store_true",
                       help="the first letter of a word may be 0")
    ag.add_argument("--integral", action="store_true",
                       help="every / is exact integer division (ECLiPSe #=)")
    ag.add_argument("--fix", action="append", default=[], metavar="X=D",
                       help="give letter X the digit D (repeatable)")
    for name, text in FILE_COMMANDS.items():
        p = sub.add_parser(name, parents=[common], help=text, description=f"Solve {text}.")
        p.add_argument("file", metavar="FILE", help="the puzzle file, or - for standard "
                       "input").complete = COMPLETE_FILES  # type: ignore[attr-defined]
    for name, text in N_COMMANDS.items():
        p = sub.add_parser(name, parents=[common], help=text, description=f"Solve: {text}.")
        p.add_argument("n", metavar="N", help="the board size")
    from conundrum.cli.fzn import add_arguments

    fzn = sub.add_parser("fzn", help="a FlatZinc model, as a MiniZinc solver",
                         description=FZN_DESCRIPTION)
    add_arguments(fzn)
    rate = sub.add_parser("rate", help="grade puzzles by the reasoning they need",
                          description="Grade a puzzle (easy, medium, hard, fiendish) by the "
                          "hardest step of its explanation, and say whether its solution is "
                          "unique. A Sudoku file of several one-line puzzles is graded line "
                          "by line.")
    rate.add_argument("file", metavar="FILE", help="the puzzle file, or - for standard input")
    rate.add_argument("--as", dest="family", choices=sorted(FILE_COMMANDS), default="sudoku",
                      help="the puzzle family (default sudoku)")
    rate.add_argument("--json", action="store_true", help="each rating as one JSON line")
    _limit_arguments(rate, "rating (all the puzzles of the file together)")
    from conundrum.puzzles.generate import DIFFICULTIES, FAMILIES

    gen = sub.add_parser("generate", help="make a puzzle with exactly one solution",
                         description="Make a puzzle with exactly one solution and minimal "
                         "clues (none can be taken away, no two cages merged, without a "
                         "second solution), in the family's input format. The same seed "
                         "gives the same puzzle. Exit status 1 when no puzzle of the asked "
                         "difficulty was found in --attempts tries.")
    gen.add_argument("family", choices=FAMILIES, metavar="FAMILY",
                     help="one of " + ", ".join(FAMILIES))
    gen.add_argument("--size", type=positive_int, metavar="N",
                     help="rows of the grid (default 9 for Sudoku and Killer, 6 for KenKen, "
                     "5 for Futoshiki and Skyscrapers, 8 for Kakuro counting its row and "
                     "column of clues)")
    gen.add_argument("--difficulty", choices=DIFFICULTIES,
                     help="the grade to reach: " + ", ".join(DIFFICULTIES) + " (as --rate "
                     "says; default: any)")
    gen.add_argument("--seed", type=int, default=None,
                     help="random seed (default: one drawn at random, printed in the header "
                     "so that --seed makes the same puzzle again)")
    gen.add_argument("--attempts", type=positive_int, default=50, metavar="N",
                     help="puzzles to try for --difficulty (default 50)")
    _limit_arguments(gen, "generation")
    srv = sub.add_parser("serve", help="the puzzle page in the browser",
                         description="Serve the puzzle page (type, generate, solve, explain "
                         "and rate puzzles in the browser) on this machine, and open it. "
                         "Ctrl-C stops it.")
    srv.add_argument("--port", type=port_number, default=8000, metavar="N",
                     help="the port (default 8000; 0: any free port, printed)")
    srv.add_argument("--host", default="127.0.0.1", metavar="H",
                     help="the address to listen on (default 127.0.0.1: this machine only)")
    srv.add_argument("--no-browser", action="store_true", help="do not open the browser")
    srv.add_argument("--workers", type=positive_int, default=2, metavar="N",
                     help="puzzles worked on at once, each in its own process (default 2)")
    srv.add_argument("--time-limit", type=seconds, default=30.0, metavar="S",
                     help="seconds one request may take before its worker is stopped "
                     "(default 30)")
    comp = sub.add_parser("completion", help="a shell completion script",
                          description="Print the script that completes conundrum's commands, "
                          "options and files in SHELL, e.g. `conundrum completion bash > "
                          "~/.local/share/bash-completion/completions/conundrum` (needs "
                          "shtab).")
    comp.add_argument("shell", choices=COMPLETION_SHELLS, metavar="SHELL",
                      help="one of " + ", ".join(COMPLETION_SHELLS))
    cfg = sub.add_parser("minizinc-config", help="the MiniZinc solver configuration",
                         description="Print the solver configuration (.msc) that lets "
                         "MiniZinc run conundrum, or install it where MiniZinc finds it.")
    cfg.add_argument("--install", nargs="?", const="", metavar="DIR",
                     help="write conundrum.msc into DIR (default ~/.minizinc/solvers)")
    return parser
