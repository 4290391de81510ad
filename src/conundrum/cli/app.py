"""The entry points of the command line, ``conundrum`` and ``conundrum-fzn``: parse the
arguments, set up the output (colours, the print functions), hand the command to its
module, and turn what escapes it (a broken pipe, Ctrl-C, a bug) into an exit status.

Exit status: 0 solved, 1 no solution, 2 bad input, 3 a limit stopped the search.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from conundrum.cli.output import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_SOLVED, shorten
from conundrum.cli.parser import UsageError, build_fzn_parser, build_parser
from conundrum.cli.terminal import Palette, wants_color

# A run of the command owns its process, so it sets the garbage collector's thresholds:
# the young generation is collected every 50,000 net allocations instead of 700. Reading
# and compiling a large model make millions of objects that live to the end of the run,
# and the default thresholds spent about a third of a 60,000-constraint FlatZinc run
# (MiniZinc's queens, n = 200) collecting them again and again: 11.2 s -> 8.0 s. Only the
# executables do this (argv None), never a call of `main` from a program or a test.
GC_THRESHOLDS = (50_000, 10, 10)

# Each command's module is imported when it runs: MiniZinc starts `conundrum-fzn` afresh
# for every model, and waits for the imports of the puzzle families if they are made here.


def main(argv: Sequence[str] | None = None, fzn_only: bool = False) -> int:
    """Entry point of the ``conundrum`` command; returns the exit status. `fzn_only`: the
    arguments are those of `conundrum fzn` alone (conundrum-fzn), parsed without building
    the other commands' parsers."""
    if argv is None:
        _own_process()
    try:
        return _main(argv, fzn_only)
    except BrokenPipeError:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_SOLVED
    except KeyboardInterrupt:
        print("conundrum: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None, fzn_only: bool) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if fzn_only:
        parser = build_fzn_parser()
    elif words[:1] == ["fzn"]:
        # `conundrum fzn`: its own arguments alone, as conundrum-fzn parses them (building
        # every command's parser imports the puzzle generator: 15 ms of a 0.15 s run)
        parser = build_fzn_parser("conundrum fzn")
        argv = words[1:]
        fzn_only = True
    else:
        parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if fzn_only:
            args.command = "fzn"
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
        from conundrum.cli.fzn import run

        return _guarded(lambda: run(args, out, err))
    if args.command == "minizinc-config":
        from conundrum.cli.config import minizinc_config

        return _guarded(lambda: minizinc_config(args, out, err))
    if args.command == "completion":
        from conundrum.cli.config import completion

        return _guarded(lambda: completion(args.shell, parser, out, err))
    if args.command == "rate":
        from conundrum.cli.explaining import rate_command

        return _guarded(lambda: rate_command(args, out))
    if args.command == "generate":
        from conundrum.cli.explaining import generate_command

        return _guarded(lambda: generate_command(args, out))
    if args.command == "serve":
        from conundrum.cli.serving import serve_command

        return _guarded(lambda: serve_command(args, out))
    from conundrum.cli.solving import puzzle_command

    return _guarded(lambda: puzzle_command(args, out))


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


def fzn_main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``conundrum-fzn`` (= ``conundrum fzn``), the executable that MiniZinc
    runs."""
    if argv is None:
        _own_process()
    return main(sys.argv[1:] if argv is None else argv, fzn_only=True)


def _own_process() -> None:
    """Settings for a process that the command line owns (see GC_THRESHOLDS)."""
    import gc

    gc.set_threshold(*GC_THRESHOLDS)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
