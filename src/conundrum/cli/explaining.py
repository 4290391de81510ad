"""The command line's explanations: --explain, --hint, --rate, ``conundrum rate`` and
``conundrum generate``.

Like the rest of cli/, this prints and chooses exit codes: 0 explained, rated or made; 1 no
solution or more than one (an explanation leads to a unique solution), or no generated
puzzle of the asked grade; 2 bad input; 3 --time-limit or --node-limit stopped the work
first (the steps made so far are printed, never a grade or a puzzle from part of the
work). On a terminal, a live line on standard error shows the nodes and seconds while it
runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from conundrum.cli.output import (
    EXIT_BAD_INPUT,
    EXIT_LIMIT,
    EXIT_NO_SOLUTION,
    EXIT_SOLVED,
    STOP_REASON,
    format_error,
    status_line,
)
from conundrum.cli.reading import read_text
from conundrum.cli.terminal import progress_line
from conundrum.explain.wording import step_json
from conundrum.puzzles.base import Puzzle, PuzzleError

# the shared statuses under the names of what they mean here: 1 is "no unique solution"
# (none, or more than one) and "no puzzle of the asked grade"
EXIT_OK, EXIT_NOT_UNIQUE = EXIT_SOLVED, EXIT_NO_SOLUTION


def _limits(args: argparse.Namespace) -> tuple[float | None, int | None]:
    """--time-limit and --node-limit (None when not given)."""
    return getattr(args, "time_limit", None), getattr(args, "node_limit", None)


def _stopped_by(reason: str | None, what: str, done: str) -> None:
    """The message of a limit that stopped the work: exit status 3 follows."""
    limit = STOP_REASON.get(str(reason), str(reason))
    print(f"conundrum: {limit} stopped the {what} {done}", file=sys.stderr)


def _not_unique(exc: Any, stream: bool, out: Callable[[str], None]) -> int:
    if stream:
        out(status_line(unique=False, solutions="none" if exc.solutions == 0 else "several"))
    elif exc.solutions == 0:
        out("no solution")
    if exc.solutions != 0:
        print("conundrum: the puzzle has more than one solution; an explanation leads to a "
              "unique one (--unique shows two)", file=sys.stderr)
    return EXIT_NOT_UNIQUE


def explain_command(puzzle: Puzzle, args: argparse.Namespace,
                    out: Callable[[str], None]) -> int:
    """--explain (every step, then the solution), --hint (the first step) or --rate."""
    from conundrum.explain import ExplainError, explain
    from conundrum.explain.rating import rating_of
    from conundrum.explain.wording import Wording, describe_all

    m = puzzle.model if puzzle.explain_model is None else puzzle.explain_model
    stream = bool(getattr(args, "json_stream", False))
    progress = progress_line(sys.stderr, "rating" if args.rate else "explaining")
    try:
        steps = explain(m, *_limits(args), on_progress=progress)
    except ExplainError as exc:
        if args.rate:
            found = "none" if exc.solutions == 0 else "several"
            out(status_line(unique=False, solutions=found) if stream else
                json.dumps({"unique": False, "solutions": found}) if args.json else
                "no solution" if exc.solutions == 0 else "not unique: more than one solution")
            return EXIT_NOT_UNIQUE
        status = _not_unique(exc, stream, out)
        if exc.solutions == 0:  # the clash, and with --explain the steps to it
            from conundrum.cli.why import why_not

            why_not(puzzle, args, out, steps=bool(args.explain))
        return status
    finally:
        if progress:
            progress.clear()
    if args.rate and not steps.complete:
        if stream:
            out(status_line("incomplete", stopped_by=steps.stopped_by, steps=len(steps)))
        elif args.json:
            out(json.dumps({"unique": steps.unique, "grade": None,
                            "stopped_by": steps.stopped_by}))
        _stopped_by(steps.stopped_by, "explanation", f"after {len(steps)} steps: no grade")
        return EXIT_LIMIT
    if args.rate:
        _print_rating(rating_of(steps), args.json, out, stream=stream)
        return EXIT_OK
    wording = Wording(m, puzzle.names, reasons=puzzle.reasons,
                      value_words=puzzle.value_words)
    describe_all(steps, wording)
    shown = steps[:1] if args.hint else steps
    width = len(str(len(shown)))
    for k, step in enumerate(shown, 1):
        if args.json:
            out(json.dumps(step_json(k, step, wording.names, wording.label),
                           ensure_ascii=False))
        else:
            out(f"{k:>{width}}. {step.text}")
    if not steps.complete:  # the steps above hold, but do not reach the solution
        if stream:
            out(status_line("incomplete", stopped_by=steps.stopped_by, steps=len(steps),
                            shown=len(shown)))
        _stopped_by(steps.stopped_by, "explanation",
                    f"after {len(steps)} steps: it is incomplete")
        return EXIT_LIMIT
    if args.hint:
        if stream:
            out(status_line(unique=True, steps=len(steps), shown=len(shown)))
        elif not steps:
            out("nothing to deduce: the givens settle every value")
        return EXIT_OK
    sol = puzzle.model.solve()
    if args.json:
        out(json.dumps(puzzle.to_json(sol), ensure_ascii=False))
        if stream:
            out(status_line(unique=True, steps=len(steps)))
    else:
        if steps:
            out("")
        out(puzzle.render(sol))
    return EXIT_OK


def _print_rating(rating: Any, as_json: bool, out: Callable[[str], None],
                  prefix: str = "", stream: bool = False) -> None:
    if as_json:
        data = {"unique": rating.unique, "grade": rating.grade, "score": rating.score,
                "hardest": rating.hardest, "steps": rating.steps,
                "techniques": rating.techniques}
        if prefix:
            out(json.dumps({"puzzle": prefix, **data}))
        elif stream:  # the whole answer of --rate: its one line is the summary
            out(status_line(**data))
        else:
            out(json.dumps(data))
    elif prefix:
        out(f"{prefix}: {rating}")
    else:
        out(f"grade: {rating.grade}")
        out("unique: yes")
        out(f"score: {rating.score}")
        out(f"hardest step: {rating.hardest}")
        counts = ", ".join(f"{n} {name}" for name, n in rating.techniques.items())
        out(f"steps: {rating.steps} ({counts})")


def rate_command(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    """``conundrum rate [--as FAMILY] FILE``: grade one puzzle, or each line of a file of
    one-line Sudokus."""
    from importlib import import_module

    from conundrum.explain.rating import rate
    from conundrum.lang.errors import ModelError
    from conundrum.model.budget import Budget

    try:
        text = read_text(args.file)
        source = "standard input" if args.file == "-" else args.file
        module = import_module(f"conundrum.puzzles.{args.family}")
        lines = [(i, line.strip()) for i, line in enumerate(text.split("\n"), 1)
                 if line.strip() and not line.lstrip().startswith("#")]
        one_liners = (args.family == "sudoku" and len(lines) > 1
                      and all(any(len(f) in (16, 81) for f in line.split())
                              for _, line in lines))
        if not one_liners:
            return _rate_one(module.parse(text, source), args, out)
        status = EXIT_OK
        progress = progress_line(sys.stderr, "rating")
        # one budget for the whole file: the command, not each line, keeps the limit
        budget = Budget(*_limits(args), on_progress=progress)
        for i, line in lines:
            # a line may carry a name and a solution too (bench/data/hard9.txt): the
            # puzzle is the 81 (or 16) character field
            fields = line.split()
            field = next((f for f in fields if len(f) in (16, 81)), fields[0])
            name = fields[0] if fields[0] != field else f"line {i}"
            try:
                rating = rate(module.parse(field, f"{source}, line {i}").model, budget=budget)
            finally:
                if progress:
                    progress.clear()
            if not rating.complete:
                _stopped_by(rating.stopped_by, "rating", f"at {name}: it and the puzzles "
                            "after it are not rated")
                return EXIT_LIMIT
            if not rating.unique:
                status = EXIT_NOT_UNIQUE
            _print_rating(rating, args.json, out, name)
        return status
    except PuzzleError as exc:
        print(format_error(exc), file=sys.stderr)
        return EXIT_BAD_INPUT
    except ModelError as exc:
        print(f"conundrum: rate: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _rate_one(puzzle: Puzzle, args: argparse.Namespace, out: Callable[[str], None]) -> int:
    args.rate, args.hint, args.explain = True, False, False
    return explain_command(puzzle, args, out)


def generate_command(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    """``conundrum generate FAMILY [--size N] [--difficulty D] [--seed S]``; without a
    seed, one drawn at random, printed in the header so that --seed makes it again."""
    from conundrum.model.budget import LimitReached
    from conundrum.puzzles.generate import draw_seed, generate

    seed = args.seed if args.seed is not None else draw_seed()
    progress = progress_line(sys.stderr, "generating")
    try:
        try:
            made = generate(args.family, args.size, args.difficulty, seed, args.attempts,
                            time_limit=args.time_limit, node_limit=args.node_limit,
                            on_progress=progress)
        finally:  # erased before anything else is printed
            if progress:
                progress.clear()
    except LimitReached as exc:
        _stopped_by(exc.reason, "generation", f"before a puzzle was made (seed {seed})")
        return EXIT_LIMIT
    except ValueError as exc:
        print(f"conundrum: generate: {exc}", file=sys.stderr)
        return EXIT_NOT_UNIQUE if "try another seed" in str(exc) else EXIT_BAD_INPUT
    what = "cages" if args.family in ("killer", "kenken") else "clues"
    grade = f", {made.grade}" if made.grade else ""
    out(f"# {args.family}, seed {made.seed}: {made.clues} {what}{grade}, one solution")
    out(made.text.rstrip("\n"))
    return EXIT_OK
