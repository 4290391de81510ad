"""The puzzle commands (``conundrum sudoku FILE``, ``conundrum queens N``, ...): read the
puzzle, run the search its options ask for (the first solution, --all, --count, --limit,
--unique), print the solutions, the statistics and the plot, and return the exit status;
--explain, --hint and --rate go to explaining.py instead of a search.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from conundrum.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_LIMIT,
    EXIT_NO_SOLUTION,
    EXIT_SOLVED,
    STOP_REASON,
    format_error,
    palette,
    shorten,
    show_solution,
    solutions_text,
    stats_line,
    summary_line,
    warn,
)
from conundrum.cli.reading import make_puzzle
from conundrum.cli.terminal import ProgressLine, progress_line, search_text
from conundrum.cli.why import why_not
from conundrum.puzzles.base import Puzzle, PuzzleError

if TYPE_CHECKING:
    from conundrum.cli.plotting import Timeline

def _search_options(args: argparse.Namespace) -> dict:
    """The search options given on the command line (the API's defaults otherwise)."""
    keys = ("var_select", "value_select", "method", "search", "restarts", "time_limit",
            "node_limit", "seed", "workers", "scheduler")
    opts = {key: getattr(args, key) for key in keys if getattr(args, key) is not None}
    if args.ordered:
        opts["ordered"] = True
    return opts


def _progress_callback(progress: ProgressLine | None,
                       timeline: Timeline | None) -> Callable[[Any], None]:
    """One progress callback for the live line on a terminal and the plot's timeline."""
    def report(stats: Any) -> None:
        if progress:
            progress(stats)
        if timeline:
            timeline.sample(stats)

    return report


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
                out(show_solution(puzzle, sol, args))
    finally:
        if progress:
            progress.clear()
    stats = m.stats
    if args.stats:
        print(stats_line(stats), file=sys.stderr)
    if timeline:
        source = getattr(args, "file", None) or getattr(args, "n", None) or ""
        write_plot(args.plot, f"conundrum {args.command} {source}".rstrip(),
                   timeline.samples, stats)
    stopped = getattr(stats, "stopped_by", None)
    # a --limit the user gave (stopped_by "limit") is an answer as asked, not a cut one
    incomplete = stopped not in (None, "limit")
    reason = STOP_REASON.get(str(stopped), str(stopped))
    if args.unique:
        return _report_unique(puzzle, shown, incomplete, reason, args, out)
    stream = args.json_stream
    if stream:
        # one summary line, whatever was asked: the count, or how many solutions came
        out(summary_line(stats, found, incomplete))
    if args.count:
        if incomplete:
            warn(args, f"conundrum: {reason} stopped the search after {solutions_text(found)}: "
                  "the count is incomplete")
            return EXIT_LIMIT
        if not stream:
            out(str(found))  # the last line is the count alone, --json or not
        return EXIT_SOLVED
    if found == 0:
        status = _nothing_found(args, incomplete, reason, out, ": the answer is incomplete")
        if status == EXIT_NO_SOLUTION:
            why_not(puzzle, args, out)
        return status
    wanted_more = args.all or (args.limit and found < args.limit)
    if wanted_more and incomplete:
        warn(args, f"conundrum: {reason} stopped the search after {solutions_text(found)}: there "
              "may be more")
        return EXIT_LIMIT
    return EXIT_SOLVED


def _nothing_found(args: argparse.Namespace, incomplete: bool, reason: str,
                   out: Callable[[str], None], tail: str = "") -> int:
    """No solution: a limit came first (said on standard error), or there is none."""
    if incomplete:
        warn(args, f"conundrum: {reason} stopped the search before any solution was found"
             + tail)
        return EXIT_LIMIT
    if not args.json_stream:
        out(palette(args, "out").paint("no solution", "warn"))
    return EXIT_NO_SOLUTION


def _report_unique(puzzle: Puzzle, shown: list[Any], incomplete: bool, reason: str,
                   args: argparse.Namespace, out: Callable[[str], None]) -> int:
    paint = palette(args, "out").paint
    undecided = incomplete and len(shown) < 2
    stream = args.json_stream
    if stream:
        for sol in shown:
            out(show_solution(puzzle, sol, args))
        extra = {} if undecided or not shown else {"unique": len(shown) == 1}
        out(summary_line(puzzle.model.stats, len(shown), undecided, **extra))
    elif shown:
        out(show_solution(puzzle, shown[0], args))
    if not shown:
        status = _nothing_found(args, incomplete, reason, out)
        if status == EXIT_NO_SOLUTION:
            why_not(puzzle, args, out)
        return status
    if undecided:
        warn(args, f"conundrum: {reason} stopped the search: cannot tell whether the "
              "solution is unique")
        return EXIT_LIMIT
    if stream:
        return EXIT_SOLVED
    if args.json:
        if len(shown) > 1:
            out(show_solution(puzzle, shown[1], args))
        out(json.dumps({"unique": len(shown) == 1}))
        return EXIT_SOLVED
    if len(shown) > 1:
        out("")
        out(paint("a second solution:", "bold"))
        out(show_solution(puzzle, shown[1], args))
        out("")
        out(paint("not unique", "warn"))
    else:
        out("")
        out(paint("unique", "good"))
    return EXIT_SOLVED


def puzzle_command(args: argparse.Namespace, out: Callable[[str], None]) -> int:
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
        warn(args, f"conundrum: {exc}")
        return EXIT_BAD_INPUT
    except PuzzleError as exc:
        warn(args, format_error(exc))
        return EXIT_BAD_INPUT
    except model_error as exc:
        warn(args, shorten(f"conundrum: {args.command}: {exc}"))
        return EXIT_BAD_INPUT
