"""The layering of ARCHITECTURE.md, checked on every module of `src/conundrum`.

Every import (absolute or relative, at module level or inside a function) is read from the
sources. A module may import its own part and the parts ranked below it; an import of a
part ranked higher, or of a sibling part of the same rank, fails, unless it is one of the
few imports listed in `LAZY_UPWARD` (convenience methods such as `Model.explain`), which
must then sit inside a function. Imports under `if TYPE_CHECKING:` are for type checkers
only and never run. Separately, the imports that run when a module is loaded (module level,
not under TYPE_CHECKING) form no cycle between modules.
"""

from __future__ import annotations

import ast
import pathlib
from dataclasses import dataclass

import conundrum

ROOT = pathlib.Path(conundrum.__file__).parent

# part of the package -> rank; a part imports only parts of a lower rank (and itself)
RANK = {
    "_pure": 0,          # the switch to the pure-Python engine: imports nothing of ours
    "_interrupt": 0,     # Ctrl-C for the compiled loops: interpreted, imports nothing
    "state": 0,          # the trail of stamped cells
    "lp": 0,             # the simplex of the linear relaxation: floats, imports nothing
    "engine": 1,         # variables, domains, the fixpoint
    "propagators": 2,    # one family per module
    "search": 3,         # decisions as data, depth-first search, statistics
    "lang": 4,           # the modelling language: needs no engine at all
    "check": 5,          # the independent checker: reads the language, nothing else
    "compiler": 6,       # language -> engine
    "model": 7,          # Model and Solution, the front door
    "display": 7,        # notebook pictures of models and puzzles: reads the language
    "__init__": 7.5,     # `import conundrum as cn`: the public façade over lang and model
    "explain": 8,        # step-by-step explanations and ratings
    "parallel": 8,       # parallel and Dask search
    "io": 9,             # FlatZinc
    "puzzles": 9,        # puzzle front ends
    "serve": 9.5,        # the puzzle page: an HTTP server over the puzzles, never printing
    "cli": 10,           # the command line: the only part that prints or picks an exit status
    "__main__": 11,      # `python -m conundrum`
}

# The imports that run upward or sideways, on purpose: lazily, inside one function each,
# so that building a model loads none of them (ARCHITECTURE.md lists them and says why).
LAZY_UPWARD = {
    ("model", "display"),    # Model._repr_html_, Solution._repr_html_: notebook pictures
    ("model", "explain"),    # Model.explain, Model.difficulty: convenience methods
    ("model", "parallel"),   # workers= / scheduler= on the solving methods
    ("model", "io"),         # Model.to_minizinc: the MiniZinc export
}


@dataclass(frozen=True)
class Import:
    """One import statement of a module: the module it names, and when it runs."""

    source: str     # importing module, e.g. "conundrum.model.model"
    target: str     # imported module, e.g. "conundrum.lang.expr"
    line: int
    when: str       # "module" (at load), "lazy" (inside a function) or "typing"


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _resolve(node: ast.ImportFrom, source: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = source.split(".")
    if not is_package:
        base.pop()
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(node: ast.stmt, source: str, is_package: bool) -> list[str]:
    """The modules of ours one import statement loads (a name taken from a package is
    its submodule when there is one)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        assert isinstance(node, ast.ImportFrom)
        base = _resolve(node, source, is_package)
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                 for a in node.names]
    return sorted({n for n in names if n == "conundrum" or n.startswith("conundrum.")})


def _is_type_checking(node: ast.If) -> bool:
    return "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(module: str) -> list[Import]:
    """Every import of a module, walked without recursion."""
    path = MODULES[module]
    is_package = path.name == "__init__.py"
    found = []
    stack: list[tuple[ast.AST, str]] = [(ast.parse(path.read_text()), "module")]
    while stack:
        node, when = stack.pop()
        for child in ast.iter_child_nodes(node):
            inner = when
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = "lazy" if when == "module" else when
            elif isinstance(child, ast.If) and _is_type_checking(child):
                # the branches are walked as blocks of their own, so that the imports
                # standing directly in them are read too
                stack.append((ast.Module(body=child.body, type_ignores=[]), "typing"))
                stack.append((ast.Module(body=child.orelse, type_ignores=[]), when))
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                for target in _targets(child, module, is_package):
                    found.append(Import(module, target, child.lineno, inner))
            else:
                stack.append((child, inner))
    return found


ALL_IMPORTS = [imp for module in MODULES for imp in imports_of(module)]


def test_every_module_has_a_rank():
    unknown = sorted(m for m in MODULES if part_of(m) not in RANK)
    assert not unknown, ("modules of no known part (add the part to RANK and "
                         f"ARCHITECTURE.md): {unknown}")


def test_imports_point_down():
    bad = []
    for imp in ALL_IMPORTS:
        own, target = part_of(imp.source), part_of(imp.target)
        if imp.when == "typing" or own == target:
            continue
        if RANK[target] < RANK[own]:
            continue
        if (own, target) in LAZY_UPWARD and imp.when == "lazy":
            continue
        where = "sideways" if RANK[target] == RANK[own] else "up"
        bad.append(f"{MODULES[imp.source].relative_to(ROOT)}:{imp.line} imports "
                   f"{imp.target} ({where}, {imp.when})")
    assert not bad, "\n".join(bad)


def test_the_listed_exceptions_are_still_needed():
    used = {(part_of(i.source), part_of(i.target)) for i in ALL_IMPORTS if i.when == "lazy"}
    assert LAZY_UPWARD <= used, f"no longer imported, remove from the list: {LAZY_UPWARD - used}"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm,
    iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return components


def test_no_import_cycle_between_modules():
    """Counting the imports inside functions too: only the listed convenience imports
    may close a loop."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for imp in ALL_IMPORTS:
        if imp.when == "typing" or imp.target not in MODULES or imp.target == imp.source:
            continue
        if (part_of(imp.source), part_of(imp.target)) in LAZY_UPWARD:
            continue
        graph[imp.source].add(imp.target)
    assert _cycles(graph) == []


def test_no_cycle_between_parts():
    graph: dict[str, set[str]] = {p: set() for p in RANK}
    for imp in ALL_IMPORTS:
        own, target = part_of(imp.source), part_of(imp.target)
        if imp.when == "module" and own != target:
            graph[own].add(target)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_architecture_file_names_every_part():
    text = (pathlib.Path(__file__).parents[1] / "ARCHITECTURE.md").read_text()
    missing = [p for p in RANK if p not in ("__init__", "__main__") and p not in text]
    assert not missing, missing


MAX_LINES = 500  # one screenful of ideas: a module past this is doing more than one job


def test_no_module_over_the_size_limit():
    long = {str(path.relative_to(ROOT)): n for path in MODULES.values()
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long, long
