"""Every example in the README's ``console`` blocks is run and its output compared, so the
README cannot drift. A line ``$ command`` is followed by its expected output (standard
output and standard error together) up to the next ``$`` line or the end of the block."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def examples() -> list[tuple[str, str]]:
    """(command line, expected output) pairs from the README's console blocks."""
    found: list[tuple[str, list[str]]] = []
    in_block = False
    for line in README.read_text(encoding="utf-8").split("\n"):
        if line.startswith("```console"):
            in_block = True
        elif line.startswith("```"):
            in_block = False
        elif in_block and line.startswith("$ "):
            found.append((line[2:], []))
        elif in_block and found:
            found[-1][1].append(line)
    return [(cmd, "\n".join(out)) for cmd, out in found]


EXAMPLES = examples()


def test_the_readme_has_an_example_per_command():
    commands = {shlex.split(cmd)[1] for cmd, _ in EXAMPLES if cmd.startswith("conundrum ")}
    assert commands >= {"alphametic", "sudoku", "futoshiki", "killer", "kenken", "skyscrapers",
                        "queens", "magic"}


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example(command, expected):
    args = shlex.split(command)
    if args[0] == "conundrum":
        exe = shutil.which("conundrum")
        args = ([exe] if exe else [sys.executable, "-m", "conundrum"]) + args[1:]
    else:  # cat, head: the README must only use commands every machine has
        assert shutil.which(args[0]), f"the README runs {args[0]}, which is not installed"
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       encoding="utf-8", cwd=ROOT, timeout=300)
    assert untimed(r.stdout.rstrip("\n")) == untimed(expected.rstrip("\n"))


def untimed(text: str) -> str:
    """The output with the seconds of --json summaries blanked: the only figure in the
    examples that differs from run to run (nodes and counts are deterministic)."""
    return re.sub(r'"seconds": [0-9.e-]+', '"seconds": ...', text)
