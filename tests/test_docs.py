"""The documentation site (``docs/``, built by MkDocs from ``mkdocs.yml``) says only what the
code does: every example in it runs here, and the site builds without a warning.

* ```` ```console ```` blocks: each ``$ command`` runs (``conundrum`` as ``python -m
  conundrum``, so the sources on ``PYTHONPATH`` are the ones tested) and its output must be
  the one shown, exactly;
* ```` ```pycon ```` blocks are doctests and ```` ```python ```` blocks scripts; the blocks of
  one page run in order in one namespace, so a page can build a model up step by step;
* ``mkdocs build --strict`` succeeds, and the API reference holds the docstrings.

Blocks in any other language are not examples (install commands, a cluster's set-up): only
the languages in ``SHOWN_ONLY`` may appear, so an example cannot escape the tests by a typo
in its language.

The pages hold what the README held until issue 44 (the README is now a front door,
checked by ``test_readme.py``): its examples run here, from the page each moved to.
"""

from __future__ import annotations

import html
import inspect
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import conundrum as cn
from conundrum.cli import FILE_COMMANDS, N_COMMANDS
from conundrum.lang import globals as cn_globals
from docblocks import (
    RUN,
    SHOWN_ONLY,
    Block,
    blocks,
    console_env,
    console_examples,
    example_env,
    run_command,
    run_pycon,
    run_python,
    untimed,
)

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
FAMILIES = ["alphametic", *FILE_COMMANDS, *N_COMMANDS]
# exported builders that are not global constraints, and the page that shows them at work
BUILDERS = {"exact_div": "arithmetic.md", "integral": "arithmetic.md", "implies": "tutorial.md",
            "array": "arrays.md", "any": "booleans.md", "all": "booleans.md",
            "xor": "booleans.md"}


def page_name(path: Path) -> str:
    return path.relative_to(DOCS).as_posix()


BLOCKS: dict[str, list[Block]] = {page_name(p): blocks(p) for p in PAGES}
CONSOLE = [(page, cmd, out) for page, bs in BLOCKS.items() for b in bs if b.lang == "console"
           for cmd, out in console_examples(b)]
CODE_PAGES = [page for page, bs in BLOCKS.items() if any(b.lang in ("pycon", "python")
                                                         for b in bs)]


# ------------------------------------------------------------------ console examples

@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of the console examples (``docblocks.console_env``)."""
    return console_env(tmp_path_factory.mktemp("home"))


def program(word: str) -> list[str]:
    """What runs a console example's first word."""
    if word == "conundrum":
        return [sys.executable, "-m", "conundrum"]
    # cat, head, minizinc: tools the docs may use (CI installs MiniZinc)
    assert word in ("cat", "head", "minizinc"), f"the docs run {word}: not an allowed tool"
    found = shutil.which(word)
    assert found, f"the docs run {word}, which is not installed"
    return [found]


@pytest.mark.parametrize(("page", "command", "expected"), CONSOLE,
                         ids=[f"{page}: {cmd[:50]}" for page, cmd, _ in CONSOLE])
def test_console_example(page, command, expected, env, tmp_path):
    got = run_command(command, ROOT, program, env=example_env(command, env, tmp_path),
                      timeout=120)
    assert untimed(got.rstrip("\n")) == untimed(expected.rstrip("\n"))


# ------------------------------------------------------------------ Python examples

@pytest.mark.parametrize("page", CODE_PAGES)
def test_python_examples(page, monkeypatch):
    monkeypatch.chdir(ROOT)  # examples name files as examples/...
    globs: dict = {"__name__": "__docs__"}
    for block in BLOCKS[page]:
        if block.lang == "pycon":
            result, report = run_pycon(block.text, globs, block.where, block.path, block.line)
            assert result.failed == 0, report
        elif block.lang == "python":
            run_python(block, globs)


def test_every_block_is_an_example_or_shown_only():
    for bs in BLOCKS.values():
        for b in bs:
            assert b.lang in RUN | SHOWN_ONLY, f"{b.where}: a ```{b.lang or '(no language)'} block"


def test_the_examples_are_many():
    counts = {lang: sum(b.lang == lang for bs in BLOCKS.values() for b in bs) for lang in RUN}
    assert len(CONSOLE) >= 60 and counts["pycon"] >= 30 and counts["python"] >= 5, counts


# ------------------------------------------------------------------ coverage of the pages

@pytest.mark.parametrize("family", FAMILIES)
def test_every_puzzle_family_has_a_page_with_a_run(family):
    page = f"puzzles/{family}.md"
    assert page in BLOCKS, f"no docs/{page}"
    assert any(shlex.split(cmd)[:2] == ["conundrum", family] for p, cmd, _ in CONSOLE
               if p == page), f"docs/{page} never runs conundrum {family}"


def exported_globals() -> list[str]:
    """The global constraints (and expression builders) exported by `conundrum`."""
    return [name for name in cn.__all__
            if inspect.isfunction(getattr(cn, name))
            and getattr(cn, name).__module__.startswith(cn_globals.__name__ + ".")
            and name not in BUILDERS]


def plain_signature(function: object) -> inspect.Signature:
    """The signature without annotations, as the pages write it: (xs, strict=False)."""
    sig = inspect.signature(function)
    empty = inspect.Parameter.empty
    return sig.replace(parameters=[p.replace(annotation=empty) for p in sig.parameters.values()],
                       return_annotation=empty)


@pytest.mark.parametrize("name", exported_globals())
def test_every_global_has_a_page_with_its_signature_and_an_example(name):
    pages = {page: (DOCS / page).read_text(encoding="utf-8") for page in BLOCKS
             if page.startswith("globals/")}
    signature = f"cn.{name}{plain_signature(getattr(cn, name))}"
    where = [page for page, text in pages.items() if f"`{signature}`" in text]
    assert where, f"no page of docs/globals/ gives the signature `{signature}`"
    runs = f"cn.{name}("
    assert any(runs in b.text for page in where for b in BLOCKS[page] if b.lang == "pycon"), \
        f"docs/{where[0]} has no pycon example calling {runs}...)"


@pytest.mark.parametrize(("name", "page"), sorted(BUILDERS.items()))
def test_the_other_builders_are_shown_at_work(name, page):
    assert any(f"cn.{name}(" in b.text for b in BLOCKS[page] if b.lang == "pycon")


def test_the_api_page_lists_every_search_statistic():
    text = (DOCS / "api.md").read_text(encoding="utf-8")
    stats = cn.SearchStats()  # an instance: the compiled class keeps FIELDS per object
    fields = [a for a in dir(stats)
              if not a.startswith("_") and a != "FIELDS" and not callable(getattr(stats, a))]
    assert set(stats.FIELDS) <= set(fields) and "depth_nodes" in fields
    missing = [f for f in fields if f"`{f}`" not in text]
    assert not missing, f"docs/api.md does not describe SearchStats.{missing}"


# ------------------------------------------------------------------ the site

def text_of(page: Path) -> str:
    """The visible text of a built HTML page."""
    return html.unescape(re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8")))


def built_path(page: str) -> str:
    """Where MkDocs writes a page: tutorial.md -> tutorial/index.html, a/index.md ->
    a/index.html."""
    stem = page.removesuffix(".md")
    return f"{stem}.html" if stem == "index" or stem.endswith("/index") else f"{stem}/index.html"


def test_the_site_builds_strictly(tmp_path):
    site = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                        str(site)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       # NO_MKDOCS_2_WARNING: no notice from Material about MkDocs 2.0
                       text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=300)
    assert r.returncode == 0, r.stdout
    assert "WARNING" not in r.stdout, r.stdout
    for page in BLOCKS:  # every page was built (and --strict: mkdocs.yml's nav lists it)
        assert (site / built_path(page)).exists(), f"{page} was not built"
    api = text_of(site / "api" / "index.html")
    for documented in (cn.Model.solutions, cn.Model.count, cn.Solution.value, cn.Matrix,
                       cn.all_different, cn.cumulative, cn.SearchStats, cn.ModelError):
        first_line = inspect.getdoc(documented).split("\n")[0].replace("`", "")  # Markdown
        assert " ".join(first_line.split()) in " ".join(api.split()), first_line
    search = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert any("136" in doc["text"] for doc in search["docs"]
               if doc["location"].startswith("arithmetic/"))
