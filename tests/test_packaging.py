"""Packaging: `python -m build` makes an sdist and a wheel that carry what the package
needs (annotations, the MiniZinc library, the licence, the changelog), and the wheel,
installed in a fresh virtual environment with nothing else, solves a puzzle.

The wheel is built without the C compiler here (CONUNDRUM_PURE_BUILD=1): the compiled
build is what `pip install .` made for the rest of the suite, and this test is about what
the archives hold and that they install on their own."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

import conundrum

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    env = dict(os.environ, CONUNDRUM_PURE_BUILD="1")
    env.pop("CONUNDRUM_PURE", None)
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
                       capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (sdist,) = out.glob("*.tar.gz")
    (wheel,) = out.glob("*.whl")
    return {"sdist": sdist, "wheel": wheel}


def test_the_archives_are_named_after_the_one_version(dist):
    version = conundrum.__version__
    assert dist["sdist"].name == f"conundrum-{version}.tar.gz"
    assert dist["wheel"].name.startswith(f"conundrum-{version}-")


def test_the_sdist_holds_the_sources_and_the_documents(dist):
    with tarfile.open(dist["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for needed in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "CHANGELOG.md",
                   "src/conundrum/py.typed", "src/conundrum/model/model.py",
                   "src/conundrum/io/flatzinc/mznlib/redefinitions.mzn"):
        assert needed in names, needed


def test_the_wheel_holds_the_package_its_data_and_its_commands(dist):
    with zipfile.ZipFile(dist["wheel"]) as whl:
        names = set(whl.namelist())
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = whl.read(info).decode()
        entry_points = whl.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert "conundrum/py.typed" in names
    assert any(n.startswith("conundrum/io/flatzinc/mznlib/") for n in names)
    # the puzzle page (conundrum serve) and its samples
    for page in ("index.html", "app.js", "style.css", "samples/sudoku.txt"):
        assert f"conundrum/serve/static/{page}" in names, page
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert f"Version: {conundrum.__version__}" in metadata
    assert "License-Expression: MIT" in metadata
    assert "conundrum = conundrum.cli:main" in entry_points
    assert "conundrum-fzn = conundrum.cli:fzn_main" in entry_points


def test_the_wheel_installs_and_solves_in_a_fresh_environment(dist, tmp_path):
    home = tmp_path / "venv"
    venv.create(home, with_pip=True)
    bin_dir = home / ("Scripts" if os.name == "nt" else "bin")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CONUNDRUM_PURE")}
    r = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--no-index",
                        "--quiet", str(dist["wheel"])], capture_output=True, text=True,
                       env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(bin_dir / "conundrum"), "alphametic", "SEND + MORE = MONEY"],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "9567 + 1085 = 10652", r.stderr
    r = subprocess.run([str(bin_dir / "conundrum"), "--version"], capture_output=True,
                       text=True, env=env, cwd=tmp_path, timeout=60)
    assert r.stdout.startswith(f"conundrum {conundrum.__version__} (pure-Python engine")
    probe = ("import conundrum, pathlib; print(conundrum.__file__); "
             "print(pathlib.Path(conundrum.__file__).with_name('py.typed').is_file())")
    r = subprocess.run([str(bin_dir / "python"), "-c", probe], capture_output=True, text=True,
                       env=env, cwd=tmp_path, timeout=60)
    where, typed = r.stdout.split()
    assert where.startswith(str(home)) and typed == "True"


def test_the_build_tells_the_terminal_that_it_compiles(tmp_path):
    # pip keeps a build's output to itself: setup.tell writes to the terminal as well, so
    # the person installing sees that the engine is being compiled. Checked under a
    # pseudo-terminal, with the build's standard error sent elsewhere as pip does.
    import pty

    probe = ("import runpy; runpy.run_path('setup.py', run_name='probe')['tell']"
             "('conundrum: compiling the engine')")
    pid, fd = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pseudo-terminal
        os.chdir(ROOT)
        os.execvp("sh", ["sh", "-c", f'"{sys.executable}" -c "{probe}" 2>/dev/null'])
    seen = b""
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert b"conundrum: compiling the engine" in seen
