"""The README is the front door (issue 44): short, true, and a way to every page.

* its examples run: every ``$ command`` of a ```` ```console ```` block prints the output
  shown (``docblocks.py`` reads the blocks, as for the documentation site), and its
  ```` ```pycon ```` blocks are doctests;
* its two commands are the ones that work: the test command is, verbatim, the last line of
  ``.ci/run``, and the install command solves the puzzle an example shows;
* it fits on a few screens (at most ``MAX_LINES`` lines), every relative link in it points
  to a file that exists (and a ``#anchor`` to a heading of that file), and it links every
  page of the documentation's first level, so a newcomer finds each capability's page;
* its table of puzzle families has one row per family, with an example file under
  ``examples/`` that the family's page runs, and a link to that page (which gives the
  format): SPEC.md's "documented in the README with an example file under examples/".

Everything the README held before issue 44 moved to ``docs/``, where ``test_docs.py`` runs it.
"""

from __future__ import annotations

import doctest
import fractions
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

from conundrum.cli import FILE_COMMANDS, N_COMMANDS
from docblocks import (
    RUN,
    SHOWN_ONLY,
    blocks,
    console_env,
    console_examples,
    example_env,
    run_command,
    run_pycon,
    untimed,
)

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAX_LINES = 200
FAMILIES = ["alphametic", *FILE_COMMANDS, *N_COMMANDS]
INSTALL = 'pip install . && conundrum alphametic "SEND + MORE = MONEY"'

TEXT = README.read_text(encoding="utf-8")
BLOCKS = blocks(README)
EXAMPLES = [ex for b in BLOCKS if b.lang == "console" for ex in console_examples(b)]
# [text](target): the targets of the README's links, less the web addresses
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
LINKS = [t for t in LINK.findall(TEXT) if not re.match(r"[a-z]+:", t)]


def program(word: str) -> list[str]:
    """What runs the command ``word``: the installed ``conundrum`` (the command the README
    installs), or ``python -m conundrum``; cat and minizinc as they are."""
    if word == "conundrum":
        exe = shutil.which("conundrum")
        return [exe] if exe else [sys.executable, "-m", "conundrum"]
    assert word in ("cat", "minizinc"), f"the README runs {word}: not an allowed tool"
    found = shutil.which(word)
    assert found, f"the README runs {word}, which is not installed (.ci/run installs it)"
    return [found]


# ------------------------------------------------------------------ the examples

@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return console_env(tmp_path_factory.mktemp("home"))


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example(command, expected, env, tmp_path):
    got = run_command(command, ROOT, program, env=example_env(command, env, tmp_path))
    assert untimed(got.rstrip("\n")) == untimed(expected.rstrip("\n"))


def test_the_three_examples_are_a_puzzle_python_and_minizinc():
    commands = [shlex.split(cmd) for cmd, _ in EXAMPLES]
    assert any(c[0] == "conundrum" and c[1] in FAMILIES for c in commands)
    assert any(c[:3] == ["minizinc", "--solver", "conundrum"] for c in commands)
    pycon = "".join(b.text for b in BLOCKS if b.lang == "pycon")
    assert "cn.integral(" in pycon and " / " in pycon  # the snake, both ways


def test_readme_python_examples_run_as_written():
    pycon = [b.text for b in BLOCKS if b.lang == "pycon"]
    assert pycon
    # one doctest for all blocks: later blocks build on the names of earlier ones
    globs: dict = {"Fraction": fractions.Fraction}
    result, report = run_pycon("\n".join(pycon), globs, "README", README,
                               optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, report
    assert result.attempted >= 10


def test_every_block_is_an_example_or_shown_only():
    for b in BLOCKS:
        assert b.lang in RUN | SHOWN_ONLY, f"{b.where}: a ```{b.lang or '(no language)'} block"


# ------------------------------------------------------------------ the two commands

def test_the_test_command_is_what_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip("\n").split("\n")
    command = ci[-1]
    assert command.startswith('pip install ".[test]" && python -m pytest'), command
    shown = [b.text.strip() for b in BLOCKS if b.lang == "sh"]
    assert command in shown, "the README's test command is not, verbatim, .ci/run's"


def test_the_install_command_solves_the_puzzle_of_an_example():
    shown = [b.text.strip() for b in BLOCKS if b.lang == "sh"]
    assert INSTALL in shown
    solve = INSTALL.split(" && ", 1)[1]
    assert solve in [cmd for cmd, _ in EXAMPLES], "the README never shows what it prints"


# ------------------------------------------------------------------ the front door

def test_the_readme_is_short():
    lines = TEXT.count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines: the details go to docs/"


def headings(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings, as MkDocs (Python-Markdown's toc) and
    GitHub make them for the headings of these files."""
    found = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (m := re.match(r"#{1,6} (.+)", line)):
            found.add(slugify(m.group(1).replace("`", ""), "-"))
    return found


@pytest.mark.parametrize("target", LINKS)
def test_every_link_points_to_a_file_that_exists(target):
    path, _, anchor = target.partition("#")
    file = ROOT / path
    assert file.exists(), f"README.md links {target}: no such file"
    assert file.resolve().is_relative_to(ROOT), target
    if anchor:
        assert anchor in headings(file), f"README.md links {target}: no such heading"


def test_every_page_of_the_first_level_is_linked():
    """The capability table: a link to every page of docs/ (the puzzle and global pages
    are reached through their indexes, which are linked too)."""
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in LINKS}
    pages = [*DOCS.glob("*.md"), DOCS / "puzzles" / "index.md", DOCS / "globals" / "index.md"]
    missing = [p.relative_to(ROOT).as_posix() for p in pages if p.resolve() not in linked]
    assert not missing, f"README.md links no {missing}"


# ------------------------------------------------------------------ the puzzle families

def family_rows() -> dict[str, str]:
    """The rows of the table of puzzle families: family -> the rest of the row."""
    rows = {}
    for line in TEXT.split("\n"):
        if m := re.match(r"\| `(\w+)` \|(.*)\|$", line):
            rows[m.group(1)] = m.group(2)
    return rows


def test_the_family_table_has_a_row_per_family():
    assert sorted(family_rows()) == sorted(FAMILIES)


@pytest.mark.parametrize("family", FAMILIES)
def test_each_family_row_has_its_page_and_an_example_file_the_page_runs(family):
    row = family_rows()[family]
    page = f"docs/puzzles/{family}.md"
    assert f"({page})" in row, f"the {family} row does not link {page}"
    files = re.findall(r"\((examples/[^)]+)\)", row)
    if family in N_COMMANDS:  # queens, magic: a number, no file
        assert not files and f"`conundrum {family} " in row
        return
    assert len(files) == 1, row
    assert (ROOT / files[0]).is_file()
    page_runs = [shlex.split(cmd) for b in blocks(ROOT / page) if b.lang == "console"
                 for cmd, _ in console_examples(b)]
    assert any(c[:2] == ["conundrum", family] and files[0] in c for c in page_runs), \
        f"{page} never runs conundrum {family} on {files[0]}"
