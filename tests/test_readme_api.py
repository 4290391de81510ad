"""The README's Python examples (```pycon blocks) are doctests: they run, and their printed
values must match, so the README cannot drift from the API."""

from __future__ import annotations

import doctest
import fractions
from pathlib import Path

from docblocks import blocks, run_pycon

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run_as_written():
    pycon = [b.text for b in blocks(README) if b.lang == "pycon"]
    assert len(pycon) >= 2
    # one doctest for all blocks: later blocks build on the names of earlier ones
    globs: dict = {"Fraction": fractions.Fraction}
    result, report = run_pycon("\n".join(pycon), globs, "README", README,
                               optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, report
    assert result.attempted >= 20


def test_readme_python_scripts_run(monkeypatch):
    """The README's ```python blocks (the notebook example) run as written, from the
    repository root, as a reader would run them."""
    from docblocks import run_python

    scripts = [b for b in blocks(README) if b.lang == "python"]
    assert scripts
    monkeypatch.chdir(README.parent)
    for block in scripts:
        run_python(block, {"__name__": "__readme__"})
