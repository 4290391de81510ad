"""What every command of the command line shares in its output: the exit statuses, the
words for a limit that stopped the work, a solution shown as the options ask (grid, plain
rows, JSON), the --json-stream status line, the --stats line, and error messages (coloured
on a terminal, long tokens cut, a caret under the place of a parse error).

Exit status: 0 solved, 1 no solution, 2 bad input, 3 a limit stopped the search.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TYPE_CHECKING, Any

from conundrum.cli.terminal import Palette

if TYPE_CHECKING:  # (conundrum-fzn imports this module: the puzzles stay unimported)
    from conundrum.puzzles.base import Puzzle, PuzzleError

EXIT_SOLVED, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_LIMIT = 0, 1, 2, 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C

# the limit that stopped a search or an explanation (stats.stopped_by), in words
STOP_REASON = {"time_limit": "the time limit", "node_limit": "the node limit",
               "lds": "limited discrepancy search (lds)", "bbs": "bounded backtracking (bbs)"}


def solutions_text(k: int) -> str:
    """``1 solution``, ``2 solutions``."""
    return f"{k} solution" if k == 1 else f"{k} solutions"


def show_solution(puzzle: Puzzle, sol: Any, args: argparse.Namespace) -> str:
    """A solution as the options ask: one JSON line, bare rows (--plain) or the drawn grid
    (its lines dimmed on a terminal)."""
    if args.json:
        return json.dumps(puzzle.to_json(sol), ensure_ascii=False)
    if args.plain:
        data = puzzle.to_json(sol)
        if "grid" in data:
            rows = data["grid"]
            sep = "" if all(0 <= v <= 9 for row in rows for v in row) else " "
            return "\n".join(sep.join(str(v) for v in row) for row in rows)
    return palette(args, "out").grid(puzzle.render(sol))


def palette(args: argparse.Namespace, stream: str) -> Palette:
    """The colours for standard output ("out") or standard error ("err")."""
    return getattr(args, f"{stream}_palette", None) or Palette(False)


def warn(args: argparse.Namespace, text: str) -> None:
    """A message on standard error (its ``conundrum:`` prefix coloured on a terminal)."""
    print(palette(args, "err").message(text), file=sys.stderr)


def status_line(status: str = "complete", **data: object) -> str:
    """The last line of a --json-stream, as MiniZinc's ends with a status: "complete" (the
    answer is final) or "incomplete" (a limit cut the search short), then what was found."""
    return json.dumps({"status": status, **data})


def summary_line(stats: Any, solutions: int, incomplete: bool, **extra: object) -> str:
    """The status line of a search: the limit that stopped it, if one did, what the search
    established in MiniZinc's words (`result`, as stats.status), and its cost."""
    stopped = {"stopped_by": stats.stopped_by} if incomplete else {}
    return status_line("incomplete" if incomplete else "complete", **stopped,
                       result=stats.status, **extra, solutions=solutions, nodes=stats.nodes,
                       fails=stats.fails, propagations=stats.propagations,
                       seconds=round(stats.seconds, 6))


def stats_line(stats: Any) -> str:
    """The --stats line: solutions, nodes, fails, propagations, seconds, status."""
    parts = [f"{getattr(stats, k, '?')} {k}" for k in ("solutions", "nodes", "fails",
                                                       "propagations")]
    line = ("stats: " + ", ".join(parts) + f", {getattr(stats, 'seconds', 0.0):.3f} s, "
            f"{getattr(stats, 'status', '?')}")
    stopped = getattr(stats, "stopped_by", None)
    if stopped:
        line += f", stopped by {stopped}"
    return line


LONG_TOKEN = 120  # characters: a longer word or number (not a path) in a message is cut


def shorten(message: str) -> str:
    """The message with every word or number longer than LONG_TOKEN characters cut to its
    ends (a 5,000-digit value is not echoed whole)."""
    return re.sub(rf"\S{{{LONG_TOKEN + 1},}}",
                  lambda m: f"{m.group()[:20]}...{m.group()[-20:]} ({len(m.group())} "
                            f"characters)", message)


def format_error(err: PuzzleError) -> str:
    """A bad input's message: one line, then the offending line with a caret under the
    column, when the error knows them."""
    msg = "conundrum: " + shorten(err.one_line())
    if err.text is not None and err.column is not None and len(err.text) <= 300:
        shown = "".join(" " if ch == "\t" else ch for ch in err.text)
        msg += f"\n  {shown}\n  {' ' * (err.column - 1)}^"
    return msg
