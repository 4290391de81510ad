"""No chain of `isinstance` tests over expression node types outside the language.

Issue 28's rule: a node's meaning lives with the node (its `compute`, `written`,
`decompose`, ... in `conundrum.lang`), and a pass outside `lang/` dispatches by a method of
the node or by a table keyed by class, never by a ladder of `isinstance` tests. This test
reads (with `ast`, without running anything) every module of `src/conundrum` outside
`lang/` and fails when one function tests a value against two or more different node
classes of `lang/`.

What counts as a test: `isinstance(x, C)` and `issubclass(x, C)` (C a class, a tuple of
classes or `A | B`), `type(x) is C` / `==` / `in (...)`, and `case C():` patterns. The
classes are resolved through the module's imports (`from conundrum.lang.expr import Rel`,
`import conundrum as cn` then `cn.Var`, relative imports). Each test belongs to the
innermost function around it (code outside any function to its module).

What does not count:
- `Expr` and `Node`, the base classes: "is this an expression at all" is a test on
  operands, not on meaning;
- `Var`, a leaf with no operation: "is this a variable" (collecting a scope, reading a
  value, a fast path for relations between variables) is not a meaning written again, so a
  function may test `Var` beside one other class. `BoolConst` does count: it has a value
  and a rendering of its own.

`PENDING` lists the parts not converted yet, exempt; the test also fails when a part
listed there no longer needs the exemption, so that the list only shrinks.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import pkgutil

import conundrum
import conundrum.lang
from conundrum.lang.expr import Expr, Var
from conundrum.lang.tree import Node

ROOT = pathlib.Path(conundrum.__file__).parent

# Parts not converted yet, exempt. It held "compiler" until the compiler's rewrite (posting
# by a table from global to propagator, passes in their own modules) landed: now empty.
PENDING: set[str] = set()

# The classes whose tests do not count (see the module docstring).
NOT_COUNTED = {Expr, Node, Var}


def _node_classes() -> set[type]:
    """Every expression node class defined in conundrum.lang (all its modules)."""
    found: set[type] = set()
    modules = [conundrum.lang]
    stack = [conundrum.lang]
    while stack:
        package = stack.pop()
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            modules.append(module)
            if info.ispkg:
                stack.append(module)
    for module in modules:
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if issubclass(obj, Node) and obj.__module__.startswith("conundrum.lang"):
                found.add(obj)
    return found


NODE_CLASSES = _node_classes() - NOT_COUNTED


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imported_names(tree: ast.Module, module: str, is_package: bool) -> dict[str, object]:
    """Local name -> the object of ours it names (a module or a class), from every import
    of the module (at any depth)."""
    names: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "conundrum":
                    continue
                if alias.asname:
                    names[alias.asname] = importlib.import_module(alias.name)
                else:
                    names["conundrum"] = conundrum
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                if not is_package:
                    parts.pop()
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            if base.split(".")[0] != "conundrum":
                continue
            source = importlib.import_module(base)
            for alias in node.names:
                try:
                    value = getattr(source, alias.name)
                except AttributeError:  # a submodule not yet imported
                    value = importlib.import_module(f"{base}.{alias.name}")
                names[alias.asname or alias.name] = value
    return names


def _resolve(expr: ast.expr, names: dict[str, object]) -> list[object]:
    """The objects a class expression names: C, mod.C, (A, B), A | B."""
    out: list[object] = []
    stack = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, ast.Tuple | ast.List | ast.Set):
            stack.extend(e.elts)
        elif isinstance(e, ast.BinOp) and isinstance(e.op, ast.BitOr):
            stack.extend((e.left, e.right))
        elif isinstance(e, ast.Name):
            if e.id in names:
                out.append(names[e.id])
        elif isinstance(e, ast.Attribute):
            chain = [e.attr]
            base: ast.expr = e.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in names:
                obj: object = names[base.id]
                for attr in reversed(chain):
                    obj = getattr(obj, attr, None)
                out.append(obj)
    return out


def _class_tests(node: ast.AST) -> list[ast.expr]:
    """The class expressions a node tests against, if it is a type test."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
        return [node.args[1]]
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Call) \
            and isinstance(node.left.func, ast.Name) and node.left.func.id == "type" \
            and all(isinstance(op, ast.Is | ast.Eq | ast.In) for op in node.ops):
        return list(node.comparators)
    if isinstance(node, ast.MatchClass):
        return [node.cls]
    return []


def dispatch_chains(source: str, module: str, is_package: bool = False
                    ) -> dict[str, list[str]]:
    """Function (qualified name) -> the node classes it tests, for every function of the
    source that tests two or more (walked with an explicit stack)."""
    tree = ast.parse(source)
    names = _imported_names(tree, module, is_package)
    tested: dict[str, set[str]] = {}
    stack: list[tuple[ast.AST, str]] = [(tree, "<module>")]
    while stack:
        node, scope = stack.pop()
        for expr in _class_tests(node):
            for obj in _resolve(expr, names):
                if obj in NODE_CLASSES:
                    tested.setdefault(scope, set()).add(obj.__name__)  # type: ignore[union-attr]
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = child.name if scope == "<module>" else f"{scope}.{child.name}"
            stack.append((child, inner))
    return {scope: sorted(classes) for scope, classes in tested.items() if len(classes) >= 2}


def _scan() -> dict[str, dict[str, list[str]]]:
    """Module -> its functions with isinstance chains, over src/conundrum outside lang/."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        module = module_name(path)
        if part_of(module) == "lang":
            continue
        chains = dispatch_chains(path.read_text(), module, path.name == "__init__.py")
        if chains:
            found[module] = chains
    return found


FOUND = _scan()


def test_the_node_classes_are_found():
    names = {c.__name__ for c in NODE_CLASSES}
    assert {"Sum", "BinOp", "Rel", "BoolOp", "BoolConst", "Global", "AllDifferent",
            "Table", "Circuit", "BinPacking"} <= names
    assert "Var" not in names and "Expr" not in names


def test_the_scan_sees_a_chain():
    source = (
        "import conundrum as cn\n"
        "from conundrum.lang.expr import Rel, Var\n"
        "from conundrum.lang import globals as g\n"
        "def meaning(c):\n"
        "    if isinstance(c, Rel): return 1\n"
        "    if isinstance(c, g.Table | cn.Var): return 2\n"
        "def scope(c):\n"
        "    return isinstance(c, Var) or type(c) is Rel\n"
        "def nested(c):\n"
        "    def inner(d):\n"
        "        match d:\n"
        "            case g.Circuit(): return 1\n"
        "    return isinstance(c, Rel)\n")
    assert dispatch_chains(source, "conundrum.example") == {"meaning": ["Rel", "Table"]}


def test_no_isinstance_chain_over_node_classes_outside_lang():
    bad = [f"{module}.{function}: {', '.join(classes)}"
           for module, chains in FOUND.items() if part_of(module) not in PENDING
           for function, classes in chains.items()]
    assert not bad, ("functions that test two or more expression node classes (give the "
                     "nodes a method, or dispatch by a table keyed by class):\n"
                     + "\n".join(bad))


def test_pending_parts_still_need_their_exemption():
    done = sorted(part for part in PENDING
                  if not any(part_of(module) == part for module in FOUND))
    assert not done, f"no isinstance chain is left in {done}: remove it from PENDING"
