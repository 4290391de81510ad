"""Module constants of the compiled layers are declared `Final`.

Compiled by mypyc, a read of a plain module-level name is a lookup in the module's
dictionary (a hash of the name, every time); a `Final` one is a C static, or inlined when
its value is a literal. BinaryFunction read BOUNDS_ROUNDS that way at each of golf_puzzle's
five million calls. This test reads (with `ast`) every module of the compiled layers
(setup.py's COMPILED_LAYERS) and fails on an upper-case module-level assignment without
`Final`, except the few constants the tests set with monkeypatch (a `Final` one, inlined in
the compiled build, would not follow).
"""

from __future__ import annotations

import ast
import pathlib

CHECKOUT = pathlib.Path(__file__).resolve().parents[1]
ROOT = CHECKOUT / "src" / "conundrum"
SETUP = CHECKOUT / "setup.py"
COMPILED_LAYERS = ("state", "lp", "engine", "propagators", "search")

# set by tests through monkeypatch: test_journal (EXPLAIN_LIMIT), test_learning_search
# (KEEP_LBD, MAX_LEARNED)
PATCHED = {"EXPLAIN_LIMIT", "KEEP_LBD", "MAX_LEARNED"}


def _plain_constants(path: pathlib.Path) -> list[str]:
    """The upper-case names a module assigns at its top level without `Final`."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if "Final" in ast.unparse(node.annotation):
                continue
            names = [node.target.id]
        else:
            continue
        found += [n for n in names if n.isupper() and n not in PATCHED]
    return found


def test_the_layers_are_setup_pys() -> None:
    for node in ast.parse(SETUP.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "COMPILED_LAYERS":
            assert ast.literal_eval(node.value) == COMPILED_LAYERS
            return
    raise AssertionError("setup.py no longer names COMPILED_LAYERS")


def test_compiled_module_constants_are_final() -> None:
    plain = {}
    for layer in COMPILED_LAYERS:
        for path in sorted((ROOT / layer).glob("*.py")):
            if path.name != "__init__.py" and (names := _plain_constants(path)):
                plain[f"{layer}/{path.name}"] = names
    assert not plain, f"module constants without Final (a dict lookup per read): {plain}"


def test_the_patched_constants_are_still_plain() -> None:
    # the exemption only shrinks: a constant no test patches any more must be Final
    tests = pathlib.Path(__file__).parent
    patched = set()
    for path in tests.glob("test_*.py"):
        for name in PATCHED:
            if f'"{name}"' in path.read_text(encoding="utf-8"):
                patched.add(name)
    assert patched == PATCHED
