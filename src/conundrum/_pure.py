"""The switch to the pure-Python engine: CONUNDRUM_PURE=1 in the environment.

The engine layers may be installed twice: as the Python sources (the reference) and as
modules compiled from them by mypyc (setup.py). Python's import system prefers the compiled
module when both sit side by side, so this finder, put first on `sys.meta_path` by
`conundrum/__init__.py`, hands out the `.py` source of every `conundrum.*` module instead.
It is how the test suite runs everything a second time on the reference implementation.
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

_SOURCE_LOADER = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)


class SourceOnlyFinder:
    """Find `conundrum.*` modules as Python sources, never as extension modules."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("conundrum.") or not path:
            return None
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, _SOURCE_LOADER).find_spec(fullname)
            if spec is not None:
                return spec
        return None


def use_pure_sources() -> None:
    """Install the finder (once)."""
    if not any(isinstance(f, SourceOnlyFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceOnlyFinder())
