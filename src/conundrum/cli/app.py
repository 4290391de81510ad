"""The ``conundrum`` command line: the only module that prints or chooses exit codes.

Exit status: 0 solved, 1 no solution, 2 bad input, 3 a limit stopped the search.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from conundrum.cli.terminal import (
    COLOR_CHOICES,
    Palette,
    ProgressLine,
    progress_line,
    search_text,
    wants_color,
)
from conundrum.puzzles.base import MAX_TEXT, Puzzle, PuzzleError
from conundrum.search.selectors import VALUE_SELECTS, VAR_SELECTS

if TYPE_CHECKING:
    from conundrum.cli.plotting import Timeline

EXIT_SOLVED, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_LIMIT = 0, 1, 2, 3

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
def _solutions(k: int) -> str:
    return f"{k} solution" if k == 1 else f"{k} solutions"


_STOP_REASON = {"time_limit": "the time limit", "node_limit": "the node limit",
                "lds": "limited discrepancy search (lds)", "bbs": "bounded backtracking (bbs)"}


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


def _positive_int(text: str) -> int:
    if not re.fullmatch(r"\s*\d{1,12}\s*", text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1e9:
        raise argparse.ArgumentTypeError(f"expected a number of seconds > 0, got {text!r}")
    return value


def _method(text: str) -> str:
    if not re.fullmatch(r"complete|(lds|bbs):\d{1,9}", text):
        raise argparse.ArgumentTypeError(f"expected complete, lds:N or bbs:N, got {text!r}")
    return text


def _version() -> str:
    """``conundrum 0.1.0 (compiled engine, Python 3.11.2)``: what a bug report needs."""
    import platform

    import conundrum

    engine = "compiled engine" if conundrum.COMPILED else "pure-Python engine"
    return f"conundrum {conundrum.__version__} ({engine}, Python {platform.python_version()})"


def _limit_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """--time-limit and --node-limit for a command that is not a search of its own."""
    parser.add_argument("--time-limit", type=_seconds, metavar="S",
                        help=f"stop the {what} after S seconds (exit status 3)")
    parser.add_argument("--node-limit", type=_positive_int, metavar="N",
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
    g.add_argument("--limit", type=_positive_int, metavar="N",
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
    s.add_argument("--var-select", choices=VAR_SELECTS, metavar="H",
                   help="variable selection: " + ", ".join(VAR_SELECTS) + " (default dom_wdeg)")
    s.add_argument("--value-select", choices=VALUE_SELECTS, metavar="H",
                   help="value selection: " + ", ".join(VALUE_SELECTS) + " (default auto: min, "
                   "or split on domains of more than 65,536 values)")
    s.add_argument("--method", type=_method, help="complete (default), lds:N or bbs:N")
    s.add_argument("--time-limit", type=_seconds, metavar="S",
                   help="stop after S seconds (exit status 3 if the answer is incomplete)")
    s.add_argument("--node-limit", type=_positive_int, metavar="N", help="stop after N nodes")
    s.add_argument("--seed", type=int, default=None, help="seed for random value selection")
    s.add_argument("--stats", action="store_true", help="search statistics on standard error")
    s.add_argument("--plot", metavar="FILE", help="also draw the search into FILE (.png, .svg "
                   "or .pdf): solutions and nodes over time, nodes by depth (needs "
                   "matplotlib)").complete = COMPLETE_FILES  # type: ignore[attr-defined]
    par = common.add_argument_group("parallel search")
    par.add_argument("-p", "--workers", type=_positive_int, metavar="N",
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
    from conundrum.io.flatzinc.run import add_arguments

    fzn = sub.add_parser("fzn", help="a FlatZinc model, as a MiniZinc solver",
                         description="Solve a FlatZinc file and print as a FlatZinc solver "
                         "(what `minizinc --solver conundrum` runs). Exit status 0 whatever "
                         "the search found; 2 on input that cannot be read or is not "
                         "supported.")
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
    gen.add_argument("--size", type=_positive_int, metavar="N",
                     help="rows of the grid (default 9 for Sudoku and Killer, 6 for KenKen, "
                     "5 for Futoshiki and Skyscrapers, 8 for Kakuro counting its row and "
                     "column of clues)")
    gen.add_argument("--difficulty", choices=DIFFICULTIES,
                     help="the grade to reach: " + ", ".join(DIFFICULTIES) + " (as --rate "
                     "says; default: any)")
    gen.add_argument("--seed", type=int, default=None,
                     help="random seed (default: one drawn at random, printed in the header "
                     "so that --seed makes the same puzzle again)")
    gen.add_argument("--attempts", type=_positive_int, default=50, metavar="N",
                     help="puzzles to try for --difficulty (default 50)")
    _limit_arguments(gen, "generation")
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


# ------------------------------------------------------------------------------ reading input

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


# ------------------------------------------------------------------------------------ output

def _search_options(args: argparse.Namespace) -> dict:
    """The search options given on the command line (the API's defaults otherwise)."""
    keys = ("var_select", "value_select", "method", "time_limit", "node_limit", "seed",
            "workers", "scheduler")
    opts = {key: getattr(args, key) for key in keys if getattr(args, key) is not None}
    if args.ordered:
        opts["ordered"] = True
    return opts


def _show(puzzle: Puzzle, sol: Any, args: argparse.Namespace) -> str:
    if args.json:
        return json.dumps(puzzle.to_json(sol), ensure_ascii=False)
    if args.plain:
        data = puzzle.to_json(sol)
        if "grid" in data:
            rows = data["grid"]
            sep = "" if all(0 <= v <= 9 for row in rows for v in row) else " "
            return "\n".join(sep.join(str(v) for v in row) for row in rows)
    return _palette(args, "out").grid(puzzle.render(sol))


def _palette(args: argparse.Namespace, stream: str) -> Palette:
    """The colours for standard output ("out") or standard error ("err")."""
    return getattr(args, f"{stream}_palette", None) or Palette(False)


def _warn(args: argparse.Namespace, text: str) -> None:
    """A message on standard error (its ``conundrum:`` prefix coloured on a terminal)."""
    print(_palette(args, "err").message(text), file=sys.stderr)


def status_line(status: str = "complete", **data: object) -> str:
    """The last line of a --json-stream, as MiniZinc's ends with a status: "complete" (the
    answer is final) or "incomplete" (a limit cut the search short), then what was found."""
    return json.dumps({"status": status, **data})


def _summary(stats: Any, solutions: int, incomplete: bool, **extra: object) -> str:
    """The status line of a search: the limit that stopped it, if one did, what the search
    established in MiniZinc's words (`result`, as stats.status), and its cost."""
    stopped = {"stopped_by": stats.stopped_by} if incomplete else {}
    return status_line("incomplete" if incomplete else "complete", **stopped,
                       result=stats.status, **extra, solutions=solutions, nodes=stats.nodes,
                       fails=stats.fails, propagations=stats.propagations,
                       seconds=round(stats.seconds, 6))


def _progress_callback(progress: ProgressLine | None,
                       timeline: Timeline | None) -> Callable[[Any], None]:
    """One progress callback for the live line on a terminal and the plot's timeline."""
    def report(stats: Any) -> None:
        if progress:
            progress(stats)
        if timeline:
            timeline.sample(stats)

    return report


def _stats_line(stats: Any) -> str:
    parts = [f"{getattr(stats, k, '?')} {k}" for k in ("solutions", "nodes", "fails",
                                                       "propagations")]
    line = ("stats: " + ", ".join(parts) + f", {getattr(stats, 'seconds', 0.0):.3f} s, "
            f"{getattr(stats, 'status', '?')}")
    stopped = getattr(stats, "stopped_by", None)
    if stopped:
        line += f", stopped by {stopped}"
    return line


def solve(puzzle: Puzzle, args: argparse.Namespace, out: Callable[[str], None]) -> int:
    """Run the search the options ask for, print the results, return the exit status."""
    from conundrum.cli.plotting import Timeline, check_plot_target, write_plot

    m = puzzle.model
    opts = _search_options(args)
    progress = progress_line(sys.stderr, search_text)
    timeline = None
    if args.plot:
        check_plot_target(args.plot)
        timeline = Timeline()
    if progress or timeline:
        opts["on_progress"] = _progress_callback(progress, timeline)
    try:
        if args.count:
            if timeline:  # a plot marks each solution as it comes
                found = 0
                for _ in m.solutions(limit=args.limit, **opts):
                    found += 1
                    timeline.sample(m.stats)
            else:
                found = m.count(limit=args.limit, **opts)
            shown: list[Any] = []
        else:
            limit = 2 if args.unique else args.limit if args.limit else None if args.all else 1
            found = 0
            shown = []
            if limit == 1 and not args.limit:
                # the first solution, as solve() asks: found, the run ended as asked
                first = m.solve(**opts)
                solutions: Iterator[Any] = iter(() if first is None else (first,))
            else:
                solutions = m.solutions(limit=limit, **opts)
            for sol in solutions:
                found += 1
                if timeline:
                    timeline.sample(m.stats)
                if args.unique:
                    shown.append(sol)
                    continue
                if progress:
                    progress.clear()
                if found > 1 and not args.json:
                    out("")
                out(_show(puzzle, sol, args))
    finally:
        if progress:
            progress.clear()
    stats = m.stats
    if args.stats:
        print(_stats_line(stats), file=sys.stderr)
    if timeline:
        source = getattr(args, "file", None) or getattr(args, "n", None) or ""
        write_plot(args.plot, f"conundrum {args.command} {source}".rstrip(),
                   timeline.samples, stats)
    stopped = getattr(stats, "stopped_by", None)
    # a --limit the user gave (stopped_by "limit") is an answer as asked, not a cut one
    incomplete = stopped not in (None, "limit")
    reason = _STOP_REASON.get(str(stopped), str(stopped))
    paint = _palette(args, "out").paint
    if args.unique:
        return _report_unique(puzzle, shown, incomplete, reason, args, out)
    stream = args.json_stream
    if stream:
        # one summary line, whatever was asked: the count, or how many solutions came
        out(_summary(stats, found, incomplete))
    if args.count:
        if incomplete:
            _warn(args, f"conundrum: {reason} stopped the search after {_solutions(found)}: "
                  "the count is incomplete")
            return EXIT_LIMIT
        if not stream:
            out(str(found))  # the last line is the count alone, --json or not
        return EXIT_SOLVED
    if found == 0:
        if incomplete:
            _warn(args, f"conundrum: {reason} stopped the search before any solution was "
                  "found: the answer is incomplete")
            return EXIT_LIMIT
        if not stream:
            out(paint("no solution", "warn"))
        return EXIT_NO_SOLUTION
    wanted_more = args.all or (args.limit and found < args.limit)
    if wanted_more and incomplete:
        _warn(args, f"conundrum: {reason} stopped the search after {_solutions(found)}: there "
              "may be more")
        return EXIT_LIMIT
    return EXIT_SOLVED


def _report_unique(puzzle: Puzzle, shown: list[Any], incomplete: bool, reason: str,
                   args: argparse.Namespace, out: Callable[[str], None]) -> int:
    paint = _palette(args, "out").paint
    undecided = incomplete and len(shown) < 2
    stream = args.json_stream
    if stream:
        for sol in shown:
            out(_show(puzzle, sol, args))
        extra = {} if undecided or not shown else {"unique": len(shown) == 1}
        out(_summary(puzzle.model.stats, len(shown), undecided, **extra))
    elif shown:
        out(_show(puzzle, shown[0], args))
    if not shown:
        if incomplete:
            _warn(args, f"conundrum: {reason} stopped the search before any solution was "
                  "found")
            return EXIT_LIMIT
        if not stream:
            out(paint("no solution", "warn"))
        return EXIT_NO_SOLUTION
    if undecided:
        _warn(args, f"conundrum: {reason} stopped the search: cannot tell whether the "
              "solution is unique")
        return EXIT_LIMIT
    if stream:
        return EXIT_SOLVED
    if args.json:
        if len(shown) > 1:
            out(_show(puzzle, shown[1], args))
        out(json.dumps({"unique": len(shown) == 1}))
        return EXIT_SOLVED
    if len(shown) > 1:
        out("")
        out(paint("a second solution:", "bold"))
        out(_show(puzzle, shown[1], args))
        out("")
        out(paint("not unique", "warn"))
    else:
        out("")
        out(paint("unique", "good"))
    return EXIT_SOLVED


LONG_TOKEN = 120  # characters: a longer word or number (not a path) in a message is cut


def shorten(message: str) -> str:
    """The message with every word or number longer than LONG_TOKEN characters cut to its
    ends (a 5,000-digit value is not echoed whole)."""
    return re.sub(rf"\S{{{LONG_TOKEN + 1},}}",
                  lambda m: f"{m.group()[:20]}...{m.group()[-20:]} ({len(m.group())} "
                            f"characters)", message)


def _format_error(err: PuzzleError) -> str:
    msg = "conundrum: " + shorten(err.one_line())
    if err.text is not None and err.column is not None and len(err.text) <= 300:
        shown = "".join(" " if ch == "\t" else ch for ch in err.text)
        msg += f"\n  {shown}\n  {' ' * (err.column - 1)}^"
    return msg


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``conundrum`` command; returns the exit status."""
    try:
        return _main(argv)
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_SOLVED
    except KeyboardInterrupt:
        print("conundrum: interrupted", file=sys.stderr)
        return 130


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        text = shorten(str(exc))
        print(text if text.startswith("conundrum") else f"conundrum: {text}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.command:
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT

    def out(text: str) -> None:
        print(text, flush=True)

    if getattr(args, "json_stream", False):
        args.json = True  # the stream's solutions are the --json lines
    choice = getattr(args, "color", "auto")
    args.out_palette = Palette(wants_color(sys.stdout, choice, os.environ))
    args.err_palette = Palette(wants_color(sys.stderr, choice, os.environ))

    def err(text: str) -> None:
        print(shorten(text), file=sys.stderr)

    if args.command == "fzn":
        from conundrum.io.flatzinc.run import run

        return _guarded(lambda: run(args, out, err))
    if args.command == "minizinc-config":
        return _guarded(lambda: minizinc_config(args, out, err))
    if args.command == "completion":
        return _guarded(lambda: completion(args.shell, parser, out, err))
    if args.command == "rate":
        from conundrum.cli.explaining import rate_command

        return _guarded(lambda: rate_command(args, out))
    if args.command == "generate":
        from conundrum.cli.explaining import generate_command

        return _guarded(lambda: generate_command(args, out))
    return _guarded(lambda: _puzzle_command(args, out))


def _puzzle_command(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    """A puzzle command: read, solve, print; bad input is a one-line message."""
    try:
        import conundrum as cn

        model_error: type[Exception] = cn.ModelError
    except (ImportError, AttributeError):  # pragma: no cover - the engine is missing
        model_error = ValueError
    from conundrum.cli.plotting import PlotError

    try:
        puzzle = make_puzzle(args)
        if args.explain or args.hint or args.rate:
            if args.plot:
                raise PlotError("--plot draws a search; --explain, --hint and --rate reason "
                                "without one")
            from conundrum.cli.explaining import explain_command

            return explain_command(puzzle, args, out)
        return solve(puzzle, args, out)
    except PlotError as exc:
        _warn(args, f"conundrum: {exc}")
        return EXIT_BAD_INPUT
    except PuzzleError as exc:
        _warn(args, _format_error(exc))
        return EXIT_BAD_INPUT
    except model_error as exc:
        _warn(args, shorten(f"conundrum: {args.command}: {exc}"))
        return EXIT_BAD_INPUT


def _guarded(command: Callable[[], int]) -> int:
    """Run a command; an unexpected exception is reported as a bug, never a traceback."""
    try:
        return command()
    except (BrokenPipeError, KeyboardInterrupt):
        raise
    except Exception as exc:  # the last guard: a bug must not look like a traceback
        print(shorten(f"conundrum: internal error, this is a bug (please report it): "
                      f"{type(exc).__name__}: {exc}"), file=sys.stderr)
        return EXIT_BAD_INPUT


def minizinc_config(args: argparse.Namespace, out: Callable[[str], None],
                    err: Callable[[str], None]) -> int:
    """Print the .msc, or write it (--install) where MiniZinc looks for solvers."""
    from pathlib import Path

    from conundrum import __version__
    from conundrum.io.flatzinc import config

    exe = config.executable_path()
    if exe is None:
        err(f"conundrum: the {config.FZN_COMMAND} command is not installed (pip install "
            "conundrum puts it beside the conundrum command)")
        return EXIT_BAD_INPUT
    text = config.render(config.solver_config(exe, __version__))
    if args.install is None:
        out(text.rstrip("\n"))
        return EXIT_SOLVED
    folder = Path(args.install) if args.install else config.default_install_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "conundrum.msc").write_text(text, encoding="utf-8")
    except OSError as exc:
        err(f"conundrum: cannot write {folder / 'conundrum.msc'}: {exc.strerror or exc}")
        return EXIT_BAD_INPUT
    shown = str(folder / "conundrum.msc")
    home = str(Path.home())
    if shown.startswith(home + os.sep):
        shown = "~" + shown[len(home):]
    out(f"wrote {shown}; `minizinc --solvers` now lists conundrum")
    return EXIT_SOLVED


def completion(shell: str, parser: argparse.ArgumentParser, out: Callable[[str], None],
               err: Callable[[str], None]) -> int:
    """Print the completion script for `shell`, written by shtab (an optional extra)."""
    try:
        import shtab
    except ImportError:
        err("conundrum: shell completion needs shtab: pip install shtab")
        return EXIT_BAD_INPUT
    out(shtab.complete(parser, shell=shell).rstrip("\n"))
    return EXIT_SOLVED


def fzn_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``conundrum-fzn`` (= ``conundrum fzn``), the executable that MiniZinc
    runs."""
    return main(["fzn", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
