"""Build: the engine layers (state, lp, engine, propagators, search) are compiled by mypyc from
the same typed Python sources, which stay in the package as the reference implementation.

The compiled modules are an acceleration only: without a C compiler (or with
CONUNDRUM_PURE_BUILD=1) the build falls back to the pure-Python package, and at run time
CONUNDRUM_PURE=1 makes `import conundrum` use the Python sources even where the compiled
modules are installed (see src/conundrum/_pure.py). Both forms give identical answers and
identical search trees; the test suite runs under both.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
COMPILED_LAYERS = ("state", "lp", "engine", "propagators", "search")


def compiled_sources() -> list[str]:
    """The engine modules to compile (package __init__ files stay interpreted)."""
    root = HERE / "src" / "conundrum"
    return sorted(str(p.relative_to(HERE)) for layer in COMPILED_LAYERS
                  for p in (root / layer).glob("*.py") if p.name != "__init__.py")


def tell(message: str) -> None:
    """Say what the build is doing where the person installing sees it: pip keeps a build's
    output to itself unless -v is given, so the terminal itself is written to when there
    is one (nothing happens without one, as in CI)."""
    print(message, file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        return
    try:
        with open("/dev/tty", "w", encoding="utf-8") as tty:
            tty.write(message + "\n")
    except OSError:
        pass  # no terminal: the message stays in the build log (pip -v shows it)


class OptionalBuildExt(build_ext):
    """Build the compiled engine if possible; otherwise say so and install pure Python."""

    def run(self) -> None:
        if self.extensions:
            tell("conundrum: compiling the engine with mypyc (about a minute on two cores; "
                 "CONUNDRUM_PURE_BUILD=1 installs the pure-Python engine without it)")
        try:
            super().run()
        except Exception as exc:  # no compiler, missing headers, ...
            tell(f"conundrum: compiled engine not built ({exc}); using pure Python")

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            tell(f"conundrum: {ext.name} not compiled ({exc}); using pure Python")


def extensions() -> list:
    if os.environ.get("CONUNDRUM_PURE_BUILD") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("conundrum: mypyc not available; installing the pure-Python engine",
              file=sys.stderr)
        return []
    # opt_level 3 and one C file per module keep the build fast enough for CI (~1 min)
    # the model layer is type-checked too when imported, but only the engine is compiled
    modules = mypycify(["--follow-imports=silent", *compiled_sources()], opt_level="3",
                       multi_file=True, group_name="conundrum", target_dir=BUILD_DIR)
    skip_failure_tracebacks(Path(BUILD_DIR) / "exc_ops.c")
    return modules


BUILD_DIR = "build"
# mypyc's runtime (copied beside the generated C in multi-file mode) records a traceback
# entry, a new code object and frame, at every compiled frame an exception crosses. The
# engine's failure signal (engine/errors.py Inconsistency) crosses about six on its way to
# the search, which always catches it and never shows its traceback: 10-20% of a
# failure-heavy search went there (bench/COMPILED-SLOWPATHS.md). This check, put at the
# top of the runtime's CPy_AddTraceback, skips the entry for that one exception type;
# every other exception keeps its full traceback.
TRACEBACK_HOOK = ("void CPy_AddTraceback(const char *filename, const char *funcname, int line, "
                  "PyObject *globals) {")
FAILURE_CHECK = """
/* conundrum (setup.py): whether the exception being raised is the engine's failure signal,
   conundrum.engine.errors.Inconsistency; its type is remembered at the first sight */
static PyObject *conundrum_failure_type = NULL;

static int conundrum_failure_pending(void) {
    PyObject *type = PyErr_Occurred();
    if (type == NULL || !PyType_Check(type)) return 0;
    if (type == conundrum_failure_type) return 1;
    if (conundrum_failure_type != NULL) return 0;
    if (strcmp(((PyTypeObject *)type)->tp_name, "Inconsistency") != 0) return 0;
    PyObject *exc, *val, *tb;
    PyErr_Fetch(&exc, &val, &tb);  /* the attribute lookup must not see the pending error */
    PyObject *module = PyObject_GetAttrString(type, "__module__");
    int ours = module != NULL && PyUnicode_Check(module)
        && PyUnicode_CompareWithASCIIString(module, "conundrum.engine.errors") == 0;
    Py_XDECREF(module);
    PyErr_Clear();
    PyErr_Restore(exc, val, tb);
    if (ours) {
        Py_INCREF(type);
        conundrum_failure_type = type;
    }
    return ours;
}

"""


def skip_failure_tracebacks(runtime_file: Path) -> None:
    """Put the failure check (TRACEBACK_HOOK, FAILURE_CHECK) into mypyc's copy of its
    runtime. A runtime whose CPy_AddTraceback reads differently (another mypyc than the
    pinned one) is left as it is, and said: the engine is then correct, only slower."""
    try:
        text = runtime_file.read_text(encoding="utf-8")
    except OSError:
        text = ""
    if FAILURE_CHECK in text:
        return
    if text.count(TRACEBACK_HOOK) != 1:
        tell(f"conundrum: {runtime_file} has no CPy_AddTraceback to adjust; failures keep "
             "their tracebacks (slower)")
        return
    patched = text.replace(TRACEBACK_HOOK, FAILURE_CHECK + TRACEBACK_HOOK
                           + "\n    if (conundrum_failure_pending()) return;")
    runtime_file.write_text(patched, encoding="utf-8")


if __name__ == "__main__":  # as setuptools' build backend and `python setup.py` run it
    setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
