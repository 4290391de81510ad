"""The README's Python examples (```pycon blocks) are doctests: they run, and their printed
values must match, so the README cannot drift from the API."""

from __future__ import annotations

import doctest
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run_as_written():
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```pycon\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict = {"Fraction": __import__("fractions").Fraction}
    # one doctest for all blocks: later blocks build on the names of earlier ones
    test = parser.get_doctest("\n".join(blocks), globs, "README", str(README), 0)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    assert result.attempted >= 20
