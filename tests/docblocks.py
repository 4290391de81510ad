"""The code blocks of Markdown documents, and how to run them: shared by the tests that
keep the README (``test_cli_readme.py``, ``test_readme_api.py``) and the documentation
site (``test_docs.py``) true to what the code does.

* A ```` ```console ```` block holds examples: a line ``$ command`` is followed by its
  expected output (standard output and standard error together) up to the next ``$``
  line or the end of the block.
* A ```` ```pycon ```` block is a doctest: ``>>>`` lines and the values they print.
* A ```` ```python ```` block is a script, run as written.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import re
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

FENCE = re.compile(r"^```(\w*)")


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
