"""The code blocks of Markdown documents, and how to run them: shared by the tests that
keep the README (``test_readme.py``) and the documentation site (``test_docs.py``) true to
what the code does.

* A ```` ```console ```` block holds examples: a line ``$ command`` is followed by its
  expected output (standard output and standard error together) up to the next ``$``
  line or the end of the block.
* A ```` ```pycon ```` block is a doctest: ``>>>`` lines and the values they print.
* A ```` ```python ```` block is a script, run as written.
* A ```` ```sh ```` block is shown only: install commands, a cluster's set-up.

The console examples run in an environment of their own (``console_env``): a home folder
where MiniZinc finds a ``conundrum`` solver that runs the sources under test.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import re
import shlex
import stat
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^```(\w*)")
RUN = {"console", "pycon", "python"}  # the languages of examples, which the tests run
SHOWN_ONLY = {"sh"}  # pip install, the test command, starting a Dask cluster: never run
# the example that installs the MiniZinc solver configuration into the home folder
INSTALL_SOLVER = "conundrum minizinc-config --install"


@dataclass(frozen=True)
class Block:
    """One fenced code block: its language, its text and where it starts."""

    lang: str
    text: str
    path: Path
    line: int  # of the opening fence, from 1

    @property
    def where(self) -> str:
        return f"{self.path.name}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """Every fenced code block of a Markdown file, in order (fences start a line)."""
    found: list[Block] = []
    lang: str | None = None
    body: list[str] = []
    start = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if lang is None:
            m = FENCE.match(line)
            if m:
                lang, body, start = m.group(1), [], number
        elif line.startswith("```"):
            found.append(Block(lang, "\n".join(body) + "\n", path, start))
            lang = None
        else:
            body.append(line)
    assert lang is None, f"{path.name}:{start}: a code block is never closed"
    return found


def console_examples(block: Block) -> list[tuple[str, str]]:
    """(command line, expected output) pairs of a console block."""
    found: list[tuple[str, list[str]]] = []
    for line in block.text.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            assert found, f"{block.where}: output before any '$ command' line"
            found[-1][1].append(line)
    return [(cmd, "\n".join(out)) for cmd, out in found]


def run_command(command: str, cwd: Path, program: Callable[[str], Sequence[str]],
                env: dict[str, str] | None = None, timeout: float = 300) -> str:
    """Run one example's command line (no shell) and return its standard output and
    standard error together. ``program`` maps the command's first word to what runs it,
    e.g. ``conundrum`` to ``[sys.executable, "-m", "conundrum"]``."""
    args = shlex.split(command)
    r = subprocess.run([*program(args[0]), *args[1:]], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, encoding="utf-8", cwd=cwd,
                       env=env, timeout=timeout)
    return r.stdout


def untimed(text: str) -> str:
    """The output with the seconds of --json summaries blanked: the only figure in the
    examples that differs from run to run (nodes and counts are deterministic)."""
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": ...', text)


def run_pycon(text: str, globs: dict, name: str, path: Path, line: int = 0,
              optionflags: int = 0) -> tuple[doctest.TestResults, str]:
    """Run doctest examples in the namespace ``globs``, which keeps their names (later
    blocks build on them). Returns the counts and doctest's report of the failures."""
    test = doctest.DocTestParser().get_doctest(text, globs, name, str(path), line)
    runner = doctest.DocTestRunner(optionflags=optionflags)
    report = io.StringIO()
    results = runner.run(test, out=report.write, clear_globs=False)
    globs.update(test.globs)  # the DocTest ran in a copy of globs
    return results, report.getvalue()


def run_python(block: Block, globs: dict) -> str:
    """Execute a python block in the namespace ``globs``; return what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.text, block.where, "exec"), globs)  # noqa: S102 - the docs' code
    return out.getvalue()


def console_env(home: Path) -> dict[str, str]:
    """The environment of console examples: ``home`` as the home folder, where MiniZinc
    finds a `conundrum` solver that runs these sources (``python -m conundrum fzn``)."""
    import conundrum as cn
    from conundrum.io.flatzinc import config as mzn_config

    wrapper = home / "conundrum-fzn"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m conundrum fzn "$@"\n',
                       encoding="utf-8")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    solvers = home / ".minizinc" / "solvers"
    solvers.mkdir(parents=True, exist_ok=True)
    msc = mzn_config.render(mzn_config.solver_config(str(wrapper), cn.__version__))
    (solvers / "conundrum.msc").write_text(msc, encoding="utf-8")
    # COLUMNS: argparse wraps --help text to the terminal's width
    return {**os.environ, "HOME": str(home), "COLUMNS": "80"}


def example_env(command: str, env: dict[str, str], spare_home: Path) -> dict[str, str]:
    """The environment one console example runs in: ``env``, except that the example that
    installs the MiniZinc solver gets a home folder of its own (``spare_home``), so that it
    never replaces the solver the other examples run (the one of these sources)."""
    if command == INSTALL_SOLVER:
        return {**env, "HOME": str(spare_home)}
    return env
