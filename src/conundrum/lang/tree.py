"""The tree under every expression: the node base class and the walks over trees.

A node states its own meaning in one place, as two methods over its operands, which the
walks feed bottom-up: `compute` (its exact value from its operands' values) and `written`
(its text from its operands' texts). Every walk uses an explicit stack (`postorder`), never
recursion, so a sum of ten thousand terms is fine. The operators that build trees are on
`Expr` (lang/expr.py), a subclass of `Node`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

if TYPE_CHECKING:
    from typing import Self

    from conundrum.lang.expr import Expr, ExprLike

# An exact value: an int, or a Fraction that is not whole (see `canonical`).
Number: TypeAlias = "int | Fraction"


def canonical(x: Number) -> Number:
    """x as an int when it is a whole Fraction: values are compared, hashed and used as
    indices as ints (an element index, a circuit successor)."""
    # an int first: isinstance against Fraction goes through the numbers ABCs, and the
    # checker asks this of every operand of every solution
    if type(x) is not int and isinstance(x, Fraction) and x.denominator == 1:
        return x.numerator
    return x



Rule = TypeVar("Rule")


def rule_for(table: Mapping[type, Rule], node: object) -> Rule | None:
    """The rule a table keyed by node class gives node: its class's, or the nearest base
    class's (walking the method resolution order, so a subclass needs no entry of its own);
    None when no class of node is in the table. How a pass outside the node classes
    dispatches on them, instead of a chain of isinstance tests."""
    for cls in type(node).__mro__:
        found = table.get(cls)
        if found is not None:
            return found
    return None

class Node:
    """A node of an expression tree: its operands `args` (nodes or exact constants)."""

    __slots__ = ("args",)

    def __init__(self, args: tuple[Any, ...]) -> None:
        self.args = args

    def with_args(self, args: tuple[Any, ...]) -> Self:
        """A copy of this node with other children (used by tree rewrites)."""
        node = object.__new__(type(self))
        for cls in type(self).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if hasattr(self, slot):
                    setattr(node, slot, getattr(self, slot))
        node.args = args
        return node

    def compute(self, values: list[Number]) -> Number:
        """The exact value of this node given the values of its args, in order; raises
        lang.errors.Undefined where the semantics (docs/arithmetic.md) void the assignment.
        A leaf without operands (a variable) has no value of its own."""
        raise TypeError(f"unknown node {type(self).__name__}")

    def written(self, texts: list[str]) -> str:
        """This node as text, given the texts of its args, in order."""
        return f"{getattr(self, 'name', type(self).__name__)}({', '.join(texts)})"


if TYPE_CHECKING:
    _Tree = Expr
else:
    _Tree = Node  # every Node is an Expr: the walks test Node, type checkers read Expr


def postorder(root: object, leaf: Callable[[Expr], bool] | None = None) -> Iterator[Expr]:
    """Every node below root, children before parents, each distinct node once. Nodes for
    which `leaf(node)` is true are yielded without their children."""
    seen: set[int] = set()
    stack: list[tuple[object, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if not isinstance(node, _Tree):
            continue
        if expanded:
            yield node
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        if leaf is not None and leaf(node):
            continue
        for child in reversed(node.args):
            if isinstance(child, _Tree) and id(child) not in seen:
                stack.append((child, False))


def transform(root: ExprLike, rewrite: Callable[[Expr], Expr]) -> ExprLike:
    """Rebuild root bottom-up, applying rewrite to every node (after its children)."""
    done: dict[int, ExprLike] = {}
    for node in postorder(root):
        args = tuple(done.get(id(a), a) if isinstance(a, _Tree) else a for a in node.args)
        new = node if all(x is y for x, y in zip(args, node.args)) else node.with_args(args)
        done[id(node)] = rewrite(new)
    return done.get(id(root), root)


def render(root: object) -> str:
    """A readable form of an expression (for messages and repr)."""
    text: dict[int, str] = {}

    def show(a: object) -> str:
        return text[id(a)] if isinstance(a, Node) else str(a)

    for node in postorder(root):
        text[id(node)] = node.written([show(a) for a in node.args])
    return show(root)

