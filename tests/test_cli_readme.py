"""Every example in the README's ``console`` blocks is run and its output compared, so the
README cannot drift. A line ``$ command`` is followed by its expected output (standard
output and standard error together) up to the next ``$`` line or the end of the block
(the blocks are read by ``docblocks.py``, shared with the documentation's tests)."""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

import pytest

from docblocks import blocks, console_examples, run_command, untimed

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

EXAMPLES = [ex for b in blocks(README) if b.lang == "console" for ex in console_examples(b)]


def program(word: str) -> list[str]:
    """What runs the command ``word``: the installed ``conundrum``, or ``python -m``."""
    if word == "conundrum":
        exe = shutil.which("conundrum")
        return [exe] if exe else [sys.executable, "-m", "conundrum"]
    # cat, head: the README must only use commands every machine has
    assert shutil.which(word), f"the README runs {word}, which is not installed"
    return [word]


def test_the_readme_has_an_example_per_command():
    commands = {shlex.split(cmd)[1] for cmd, _ in EXAMPLES if cmd.startswith("conundrum ")}
    assert commands >= {"alphametic", "sudoku", "futoshiki", "killer", "kenken", "skyscrapers",
                        "queens", "magic"}


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example(command, expected):
    got = run_command(command, ROOT, program)
    assert untimed(got.rstrip("\n")) == untimed(expected.rstrip("\n"))
