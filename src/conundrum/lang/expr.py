"""The symbolic layer: expressions built with Python operators.

An expression is a tree of nodes whose `args` are expressions or exact constants (int or
fractions.Fraction). Relations (==, <, ...), Boolean combinations (&, |, ~) and global
constraints are expressions too: used as a value they are 0 or 1 (reification).

Nodes know nothing of the engine. Walks over trees use explicit stacks (`postorder`), never
recursion, so a sum of ten thousand terms is fine.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from numbers import Rational
from typing import TYPE_CHECKING, TypeAlias

from conundrum.lang.errors import ModelError

if TYPE_CHECKING:
    from conundrum.lang.matrix import Matrix
    from conundrum.model.model import Model

# What the operators and the globals accept, for type checkers: an expression or an exact
# number (a bool is 0 or 1). At run time anything else is refused with a ModelError.
ExprLike: TypeAlias = "Expr | int | Fraction"
# A collection of operands: one operand, a Matrix, or a list of them or of rows of them
# (the globals flatten one level of nesting, so all_different(grid) means every cell).
Operands: TypeAlias = "ExprLike | Matrix | Iterable[ExprLike | Iterable[ExprLike]]"

TRAP_MESSAGE = (
    "a constraint has no truth value while the model is being built: use & | ~ instead of "
    "and/or/not, write a < b < c as (a < b) & (b < c), use cn.implies(a, b) for implication, "
    "and do not test constraints with `if`, `in` or bool(); evaluate them on a solution "
    "with sol.value(...)"
)


def const_or_expr(value: object, where: str = "expression") -> Expr | int | Fraction:
    """Check an operand: expressions and exact numbers pass; floats and others are refused."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else value
    if isinstance(value, Rational):
        return Fraction(int(value.numerator), int(value.denominator))
    if isinstance(value, float):
        raise ModelError(
            f"float {value!r} in an {where}: floats are inexact; write a fraction such as "
            "Fraction(1, 3) or an integer division a / b"
        )
    raise ModelError(f"{value!r} ({type(value).__name__}) cannot be used in an {where}")


class Expr:
    """Base of every expression node."""

    __slots__ = ("args",)
    __hash__ = object.__hash__
    boolean = False  # True for nodes whose value is always 0 or 1 (relations, connectives)

    def __init__(self, args: tuple[ExprLike, ...]) -> None:
        self.args = args

    def with_args(self, args: tuple[ExprLike, ...]) -> Expr:
        """A copy of this node with other children (used by tree rewrites)."""
        node = object.__new__(type(self))
        for cls in type(self).__mro__:
            for slot in getattr(cls, "__slots__", ()):
                if hasattr(self, slot):
                    setattr(node, slot, getattr(self, slot))
        node.args = args
        return node

    # ---------------------------------------------------------------- traps
    def __bool__(self) -> bool:
        raise ModelError(TRAP_MESSAGE)

    __iter__ = None  # an expression is not a sequence

    # ---------------------------------------------------------- arithmetic
    def __add__(self, other: ExprLike) -> Expr:
        return make_sum(((1, self), (1, const_or_expr(other))))

    def __radd__(self, other: ExprLike) -> Expr:
        return make_sum(((1, const_or_expr(other)), (1, self)))

    def __sub__(self, other: ExprLike) -> Expr:
        return make_sum(((1, self), (-1, const_or_expr(other))))

    def __rsub__(self, other: ExprLike) -> Expr:
        return make_sum(((1, const_or_expr(other)), (-1, self)))

    def __neg__(self) -> Expr:
        return make_sum(((-1, self),))

    def __pos__(self) -> Expr:
        return self

    def __mul__(self, other: ExprLike) -> Expr:
        return make_product(self, const_or_expr(other))

    def __rmul__(self, other: ExprLike) -> Expr:
        return make_product(const_or_expr(other), self)

    def __truediv__(self, other: ExprLike) -> Expr:
        return BinOp("/", self, const_or_expr(other))

    def __rtruediv__(self, other: ExprLike) -> Expr:
        return BinOp("/", const_or_expr(other), self)

    def __floordiv__(self, other: ExprLike) -> Expr:
        return BinOp("//", self, const_or_expr(other))

    def __rfloordiv__(self, other: ExprLike) -> Expr:
        return BinOp("//", const_or_expr(other), self)

    def __mod__(self, other: ExprLike) -> Expr:
        return BinOp("%", self, const_or_expr(other))

    def __rmod__(self, other: ExprLike) -> Expr:
        return BinOp("%", const_or_expr(other), self)

    def __pow__(self, k: int) -> Expr:
        if isinstance(k, bool) or not isinstance(k, int):
            raise ModelError(
                f"the exponent of ** must be a constant integer >= 0, not {k!r}"
            )
        if k < 0:
            raise ModelError(f"negative exponent {k}: write 1 / x ** {-k} for exact rationals")
        return Pow(self, k)

    def __rpow__(self, base: object) -> Expr:
        raise ModelError("a variable exponent is not supported: ** needs a constant exponent")

    def __abs__(self) -> Expr:
        return Abs(self)

    # ----------------------------------------------------------- relations
    def __eq__(self, other: object) -> Rel:  # type: ignore[override]
        return Rel("==", self, const_or_expr(other, "equation"))

    def __ne__(self, other: object) -> Rel:  # type: ignore[override]
        return Rel("!=", self, const_or_expr(other, "equation"))

    def __lt__(self, other: ExprLike) -> Rel:
        return Rel("<", self, const_or_expr(other, "inequality"))

    def __le__(self, other: ExprLike) -> Rel:
        return Rel("<=", self, const_or_expr(other, "inequality"))

    def __gt__(self, other: ExprLike) -> Rel:
        return Rel(">", self, const_or_expr(other, "inequality"))

    def __ge__(self, other: ExprLike) -> Rel:
        return Rel(">=", self, const_or_expr(other, "inequality"))

    # ------------------------------------------------------------- logic
    def __and__(self, other: Expr | bool) -> Expr:
        return BoolOp("and", as_constraint(self), as_constraint(other))

    def __rand__(self, other: Expr | bool) -> Expr:
        return BoolOp("and", as_constraint(other), as_constraint(self))

    def __or__(self, other: Expr | bool) -> Expr:
        return BoolOp("or", as_constraint(self), as_constraint(other))

    def __ror__(self, other: Expr | bool) -> Expr:
        return BoolOp("or", as_constraint(other), as_constraint(self))

    def __xor__(self, other: Expr | bool) -> Expr:
        return BoolOp("xor", as_constraint(self), as_constraint(other))

    def __rxor__(self, other: Expr | bool) -> Expr:
        return BoolOp("xor", as_constraint(other), as_constraint(self))

    def __invert__(self) -> Expr:
        return BoolOp("not", as_constraint(self))

    def __repr__(self) -> str:
        return render(self)


class Var(Expr):
    """A decision variable of a Model."""

    __slots__ = ("model", "index", "name", "lo", "hi", "domain_values")

    def __init__(self, model: Model, index: int, name: str, lo: int, hi: int,
                 domain_values: tuple[int, ...] | None) -> None:
        super().__init__(())
        self.model = model
        self.index = index
        self.name = name
        self.lo = lo
        self.hi = hi
        self.domain_values = domain_values

    @property
    def boolean(self) -> bool:  # type: ignore[override]
        return self.lo >= 0 and self.hi <= 1

    def in_domain(self, value: int) -> bool:
        """Is value in this variable's declared domain?"""
        if self.domain_values is not None:
            return value in self.domain_values
        return self.lo <= value <= self.hi


class Sum(Expr):
    """sum(coef_i * term_i) + const, coefficients exact constants."""

    __slots__ = ("coefs", "const")
    args: tuple[Expr, ...]  # the terms; constants are folded into const

    def __init__(self, terms: tuple[Expr, ...], coefs: tuple[int | Fraction, ...],
                 const: int | Fraction) -> None:
        super().__init__(terms)
        self.coefs = coefs
        self.const = const


def make_sum(pairs: Iterable[tuple[int | Fraction, ExprLike]]) -> Expr:
    """Build a flat Sum from (coef, operand) pairs, merging nested sums one level deep."""
    terms: list[Expr] = []
    coefs: list[int | Fraction] = []
    const: int | Fraction = 0
    for coef, item in pairs:
        if isinstance(item, Sum):
            for c, t in zip(item.coefs, item.args):
                terms.append(t)
                coefs.append(coef * c)
            const += coef * item.const
        elif isinstance(item, Expr):
            terms.append(item)
            coefs.append(coef)
        else:
            const += coef * item
    return Sum(tuple(terms), tuple(coefs), const)


def make_product(a: ExprLike, b: ExprLike) -> Expr:
    """a * b; a constant factor becomes a coefficient of a Sum."""
    if not isinstance(a, Expr):
        return make_sum(((a, b),))
    if not isinstance(b, Expr):
        return make_sum(((b, a),))
    return BinOp("*", a, b)


class BinOp(Expr):
    """a OP b for OP in * / // % exact_div."""

    __slots__ = ("op",)

    def __init__(self, op: str, a: ExprLike, b: ExprLike) -> None:
        super().__init__((a, b))
        self.op = op


class Pow(Expr):
    """a ** k, k a constant >= 0."""

    __slots__ = ("k",)

    def __init__(self, a: Expr, k: int) -> None:
        super().__init__((a,))
        self.k = k


class Abs(Expr):
    """|a|."""

    __slots__ = ()

    def __init__(self, a: Expr) -> None:
        super().__init__((a,))


class MinMax(Expr):
    """min(args) or max(args)."""

    __slots__ = ("is_max",)

    def __init__(self, args: tuple[ExprLike, ...], is_max: bool) -> None:
        super().__init__(args)
        self.is_max = is_max


class ArgExtreme(Expr):
    """The 0-based position of the first largest (is_max) or smallest of args."""

    __slots__ = ("is_max",)

    def __init__(self, args: tuple[ExprLike, ...], is_max: bool) -> None:
        super().__init__(args)
        self.is_max = is_max

    @property
    def name(self) -> str:
        """arg_max or arg_min (for messages)."""
        return "arg_max" if self.is_max else "arg_min"

    def position(self, values: list[int]) -> int:
        """The meaning, on the values of args."""
        best = max(values) if self.is_max else min(values)
        return values.index(best)

    def decompose(self) -> Expr:
        """How many prefixes fall short of the extreme: the first extreme's position."""
        items = self.args
        best = MinMax(items, self.is_max)
        op = "<" if self.is_max else ">"
        return make_sum((1, Rel(op, MinMax(items[:j + 1], self.is_max), best))
                        for j in range(len(items) - 1))


class Rel(Expr):
    """a OP b for OP in == != < <= > >=; a 0/1 value when used in arithmetic."""

    __slots__ = ("op",)
    boolean = True

    def __init__(self, op: str, a: ExprLike, b: ExprLike) -> None:
        super().__init__((a, b))
        self.op = op

    def __bool__(self) -> bool:
        if self.op in ("<", ">"):
            # Python's min(), max() and sorted() compare their items with < and > and ask
            # for the truth of the result: the other usual way into this trap
            raise ModelError(TRAP_MESSAGE + "; Python's min(), max() and sorted() cannot "
                             "compare variables either: use cn.min(...), cn.max(...), or "
                             "cn.increasing(...) to order them")
        raise ModelError(TRAP_MESSAGE)


class BoolOp(Expr):
    """and, or, xor, not, implies over constraints."""

    __slots__ = ("op",)
    boolean = True

    def __init__(self, op: str, *args: ExprLike) -> None:
        super().__init__(args)
        self.op = op


class Element(Expr):
    """array[index] with a 0-based index expression; args = (index, *array)."""

    __slots__ = ()


class Count(Expr):
    """How many of the expressions equal value; args = (value, *exprs)."""

    __slots__ = ()


class Global(Expr):
    """A global constraint: carries its meaning (`holds`) and a decomposition."""

    __slots__ = ()
    boolean = True
    name = "global"

    def holds(self, values: list[int]) -> bool:
        """The constraint's meaning on the values of its args (exact)."""
        raise NotImplementedError

    def decompose(self) -> Expr:
        """An equivalent constraint built from relations and connectives."""
        raise NotImplementedError


def as_constraint(value: object) -> Expr:
    """Check that value can be used as a constraint (0/1 valued)."""
    if isinstance(value, bool):
        return BoolConst(value)
    if isinstance(value, Expr):
        if value.boolean:
            return value
        raise ModelError(
            f"{render(value)} is not a constraint: & | ~ combine relations such as x == 1, "
            "or 0/1 variables made with bool_var()"
        )
    raise ModelError(f"{value!r} is not a constraint")


class BoolConst(Expr):
    """A constant truth value (from Python comparisons of constants)."""

    __slots__ = ("value",)
    boolean = True

    def __init__(self, value: bool) -> None:
        super().__init__(())
        self.value = bool(value)


def postorder(root: object, leaf: Callable[[Expr], bool] | None = None) -> Iterator[Expr]:
    """Every node below root, children before parents, each distinct node once. Nodes for
    which `leaf(node)` is true are yielded without their children."""
    seen: set[int] = set()
    stack: list[tuple[object, bool]] = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if not isinstance(node, Expr):
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
            if isinstance(child, Expr) and id(child) not in seen:
                stack.append((child, False))


def transform(root: ExprLike, rewrite: Callable[[Expr], Expr]) -> ExprLike:
    """Rebuild root bottom-up, applying rewrite to every node (after its children)."""
    done: dict[int, ExprLike] = {}
    for node in postorder(root):
        args = tuple(done.get(id(a), a) if isinstance(a, Expr) else a for a in node.args)
        new = node if all(x is y for x, y in zip(args, node.args)) else node.with_args(args)
        done[id(node)] = rewrite(new)
    return done.get(id(root), root)


def render(root: object) -> str:
    """A readable form of an expression (for messages and repr)."""
    text: dict[int, str] = {}

    def show(a: object) -> str:
        return text[id(a)] if isinstance(a, Expr) else str(a)

    for node in postorder(root):
        if isinstance(node, Var):
            s = node.name or f"_{node.index}"
        elif isinstance(node, Sum):
            parts = []
            for c, t in zip(node.coefs, node.args):
                parts.append(show(t) if c == 1 else f"-{show(t)}" if c == -1 else f"{c}*{show(t)}")
            if node.const or not parts:
                parts.append(str(node.const))
            s = "(" + " + ".join(parts) + ")" if len(parts) > 1 else parts[0]
        elif isinstance(node, BinOp):
            a, b = (show(x) for x in node.args)
            s = f"exact_div({a}, {b})" if node.op == "exact_div" else f"({a} {node.op} {b})"
        elif isinstance(node, Pow):
            s = f"{show(node.args[0])}**{node.k}"
        elif isinstance(node, Abs):
            s = f"abs({show(node.args[0])})"
        elif isinstance(node, MinMax):
            s = ("max(" if node.is_max else "min(") + ", ".join(map(show, node.args)) + ")"
        elif isinstance(node, Rel):
            s = f"{show(node.args[0])} {node.op} {show(node.args[1])}"
        elif isinstance(node, BoolOp):
            if node.op == "not":
                s = f"~({show(node.args[0])})"
            else:
                s = "(" + f" {node.op} ".join(show(a) for a in node.args) + ")"
        elif isinstance(node, BoolConst):
            s = str(node.value)
        elif isinstance(node, Element):
            s = f"element([{', '.join(map(show, node.args[1:]))}], {show(node.args[0])})"
        elif isinstance(node, Count):
            s = f"count([{', '.join(map(show, node.args[1:]))}], {show(node.args[0])})"
        else:
            s = f"{getattr(node, 'name', type(node).__name__)}({', '.join(map(show, node.args))})"
        text[id(node)] = s
    return show(root)
