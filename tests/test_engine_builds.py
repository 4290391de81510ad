"""The compiled engine and its pure-Python reference (setup.py, src/conundrum/_pure.py).

The README's install compiles the engine with mypyc; CONUNDRUM_PURE=1 runs the same sources
as Python. The whole suite runs under both (README: the test command), and here the two are
compared directly on a corpus of models under many search options: the same solutions in
the same order, and the same search tree (nodes, fails, propagations)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import conundrum as cn

CORPUS = Path(__file__).resolve().parent / "engine_corpus.py"


def corpus(pure: bool) -> dict:
    env = {**os.environ, "CONUNDRUM_PURE": "1" if pure else "0"}
    out = subprocess.run([sys.executable, str(CORPUS)], env=env, capture_output=True,
                         text=True, check=True, timeout=600)
    return json.loads(out.stdout)


def test_the_engine_running_is_the_one_asked_for():
    # a failure here without CONUNDRUM_PURE means the compiled engine was not built (no C
    # compiler at install time): the package still works, but this suite must test both
    assert cn.COMPILED is (os.environ.get("CONUNDRUM_PURE") != "1")


def test_pure_switch_loads_python_sources():
    code = "import conundrum.engine.var as v, conundrum; print(v.__file__, conundrum.COMPILED)"
    env = {**os.environ, "CONUNDRUM_PURE": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[0].endswith("var.py") and out[1] == "False"


def test_compiled_and_pure_engines_agree():
    compiled, pure = corpus(pure=False), corpus(pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert len(compiled["runs"]) == len(pure["runs"]) > 50
    for a, b in zip(compiled["runs"], pure["runs"], strict=True):
        assert a == b, f"{a['model']} {a['options']}: compiled and pure engines differ"
    # the corpus is not trivial: it finds solutions and searches
    assert sum(len(r["solutions"]) for r in pure["runs"]) > 1000
    assert sum(r["nodes"] for r in pure["runs"]) > 10000


def _engine_frames(exc: BaseException, module_file: str) -> int:
    """How many entries of the exception's traceback are in the engine module named."""
    tb, count = exc.__traceback__, 0
    while tb is not None:
        count += tb.tb_frame.f_code.co_filename.endswith(module_file)
        tb = tb.tb_next
    return count


def test_a_failure_skips_the_compiled_traceback_and_other_errors_keep_it():
    # setup.py makes mypyc's runtime skip the traceback entries of the engine's failure
    # signal (it is always caught inside the engine): the compiled build records none of
    # its compiled frames, the pure build all of them; any other exception keeps them all
    from conundrum.engine.errors import Inconsistency
    from conundrum.engine.solver import Solver
    from conundrum.engine.var import IntVar
    from conundrum.search.selectors import make_var_select

    x = IntVar(Solver(), 0, 5)
    x.set_min(3)
    try:
        x.set_max(2)
    except Inconsistency as failure:
        assert _engine_frames(failure, "var.py") == (0 if cn.COMPILED else 1)
    else:
        raise AssertionError("an empty domain must fail")
    try:
        make_var_select("no such heuristic")
    except ValueError as error:
        assert _engine_frames(error, "selectors.py") == 1
    else:
        raise AssertionError("an unknown heuristic must be refused")
