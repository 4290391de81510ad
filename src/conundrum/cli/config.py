"""The commands that set conundrum up inside other tools: ``conundrum minizinc-config``
(the solver configuration that lets MiniZinc run conundrum, printed or installed) and
``conundrum completion SHELL`` (a shell's completion script, written by shtab).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from conundrum.cli.output import EXIT_BAD_INPUT, EXIT_SOLVED


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
