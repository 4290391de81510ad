"""The dependency rule of DESIGN.md: state <- engine <- propagators <- search <- model
<- puzzles/io <- cli. A module may import only from its own layer or lower ones. `display`
(notebook pictures) sits beside `model`: Model and Solution draw themselves with it, and it
reads expressions; the puzzles describe their pictures with its layout classes."""

from __future__ import annotations

import ast
import pathlib

import conundrum

LAYERS = ["state", "engine", "propagators", "search", "model", "check", "display", "puzzles",
          "io", "cli", "__main__"]
RANK = {"state": 0, "engine": 1, "propagators": 2, "search": 3, "model": 4, "check": 4,
        "display": 4, "puzzles": 5, "io": 5, "cli": 6, "__main__": 7}
ROOT = pathlib.Path(conundrum.__file__).parent


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "conundrum" or len(parts) < 2:
        return None
    return parts[1]


def test_imports_point_one_way():
    bad = []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        own = rel.parts[0].removesuffix(".py")
        if own == "__init__":
            continue  # the package façade re-exports from every layer
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                target = layer_of(name)
                if target is None or target not in RANK or own not in RANK:
                    continue
                if RANK[target] > RANK[own]:
                    bad.append(f"{rel} imports {name}")
    assert not bad, bad
