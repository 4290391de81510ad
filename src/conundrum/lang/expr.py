"""The symbolic layer: expressions built with Python operators.

An expression is a tree of nodes whose `args` are expressions or exact constants (int or
fractions.Fraction). Relations (==, <, ...), Boolean combinations (&, |, ~) and global
constraints are expressions too: used as a value they are 0 or 1 (reification).

Nodes know nothing of the engine. Each node class states its meaning in one place: `compute`
(its exact value from its operands' values) and `written` (its text from theirs), which the
iterative walks of lang/tree.py (`postorder`, `transform`, `render`) drive bottom-up.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from fractions import Fraction
from numbers import Rational
from typing import TYPE_CHECKING, TypeAlias

from conundrum.lang.errors import TRAP_MESSAGE as TRAP_MESSAGE
from conundrum.lang.errors import ModelError, Undefined
from conundrum.lang.tree import Node, Number, canonical
from conundrum.lang.tree import postorder as postorder  # (importers find the walks here)
from conundrum.lang.tree import render as render
from conundrum.lang.tree import transform as transform

if TYPE_CHECKING:
    from conundrum.lang.matrix import Matrix

# What the operators and the globals accept, for type checkers: an expression or an exact
# number (a bool is 0 or 1). At run time anything else is refused with a ModelError.
ExprLike: TypeAlias = "Expr | int | Fraction"
# A collection of operands: one operand, a Matrix, or a list of them or of rows of them
# (the globals flatten one level of nesting, so all_different(grid) means every cell).
Operands: TypeAlias = "ExprLike | Matrix | Iterable[ExprLike | Iterable[ExprLike]]"


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


class Expr(Node):
    """Base of every expression node: the operators that build trees."""

    __slots__ = ()
    __hash__ = object.__hash__
    boolean = False  # True for nodes whose value is always 0 or 1 (relations, connectives)
    args: tuple[ExprLike, ...]

    def kept_apart(self) -> list[Expr]:
        """The terms (variables or expressions) this constraint, posted as it is, keeps
        pairwise apart (a disequality's are read by the compiler: normalise.kept_apart)."""
        return []

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

    def __init__(self, model: object, index: int, name: str, lo: int, hi: int,
                 domain_values: tuple[int, ...] | None) -> None:
        super().__init__(())
        # its Model, compared by identity only: the language names no Model (layers above)
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

    def written(self, texts: list[str]) -> str:
        return self.name or f"_{self.index}"


class Sum(Expr):
    """sum(coef_i * term_i) + const, coefficients exact constants."""

    __slots__ = ("coefs", "const")
    args: tuple[Expr, ...]  # the terms; constants are folded into const

    def __init__(self, terms: tuple[Expr, ...], coefs: tuple[int | Fraction, ...],
                 const: int | Fraction) -> None:
        super().__init__(terms)
        self.coefs = coefs
        self.const = const

    def compute(self, values: list[Number]) -> Number:
        r = self.const
        for c, v in zip(self.coefs, values):
            r += c * v
        return canonical(r)

    def written(self, texts: list[str]) -> str:
        parts = [t if c == 1 else f"-{t}" if c == -1 else f"{c}*{t}"
                 for c, t in zip(self.coefs, texts)]
        if self.const or not parts:
            parts.append(str(self.const))
        return "(" + " + ".join(parts) + ")" if len(parts) > 1 else parts[0]


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

    def compute(self, values: list[Number]) -> Number:
        a, b = values
        if self.op == "*":
            return canonical(a * b)
        if b == 0:
            raise Undefined("division by zero")
        if self.op == "/":
            return canonical(Fraction(a) / b)
        if self.op == "//":
            return canonical(a // b)
        if self.op == "%":
            return canonical(a % b)
        q = Fraction(a) / b  # exact_div
        if q.denominator != 1:
            raise Undefined("inexact division")
        return q.numerator

    def written(self, texts: list[str]) -> str:
        a, b = texts
        return f"exact_div({a}, {b})" if self.op == "exact_div" else f"({a} {self.op} {b})"


class Pow(Expr):
    """a ** k, k a constant >= 0."""

    __slots__ = ("k",)

    def __init__(self, a: Expr, k: int) -> None:
        super().__init__((a,))
        self.k = k

    def compute(self, values: list[Number]) -> Number:
        return canonical(values[0] ** self.k)

    def written(self, texts: list[str]) -> str:
        return f"{texts[0]}**{self.k}"


class Abs(Expr):
    """|a|."""

    __slots__ = ()

    def __init__(self, a: Expr) -> None:
        super().__init__((a,))

    def compute(self, values: list[Number]) -> Number:
        return abs(values[0])  # type: ignore[return-value]  # int or Fraction

    def written(self, texts: list[str]) -> str:
        return f"abs({texts[0]})"


class MinMax(Expr):
    """min(args) or max(args)."""

    __slots__ = ("is_max",)

    def __init__(self, args: tuple[ExprLike, ...], is_max: bool) -> None:
        super().__init__(args)
        self.is_max = is_max

    def compute(self, values: list[Number]) -> Number:
        return max(values) if self.is_max else min(values)

    def written(self, texts: list[str]) -> str:
        return ("max(" if self.is_max else "min(") + ", ".join(texts) + ")"


# the meaning of each relation on exact values
RELATIONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
             ">": operator.gt, ">=": operator.ge}


class Rel(Expr):
    """a OP b for OP in == != < <= > >=; a 0/1 value when used in arithmetic."""

    __slots__ = ("op",)
    boolean = True

    def __init__(self, op: str, a: ExprLike, b: ExprLike) -> None:
        super().__init__((a, b))
        self.op = op

    def compute(self, values: list[Number]) -> Number:
        return int(RELATIONS[self.op](values[0], values[1]))

    def written(self, texts: list[str]) -> str:
        return f"{texts[0]} {self.op} {texts[1]}"

    def __bool__(self) -> bool:
        if self.op in ("<", ">"):
            # Python's min(), max() and sorted() compare their items with < and > and ask
            # for the truth of the result: the other usual way into this trap
            raise ModelError(TRAP_MESSAGE + "; Python's min(), max() and sorted() cannot "
                             "compare variables either: use cn.min(...), cn.max(...), or "
                             "cn.increasing(...) to order them")
        raise ModelError(TRAP_MESSAGE)


# the meaning of each connective on the truth of its operands
CONNECTIVES: dict[str, Callable[[list[bool]], bool]] = {
    "and": all, "or": any, "not": lambda t: not t[0], "implies": lambda t: not t[0] or t[1],
    "xor": lambda t: sum(t) % 2 == 1}  # parity: a != b for two, cn.xor(a, b, c) for more


class BoolOp(Expr):
    """and, or, xor (odd parity), not, implies over constraints; and, or, xor n-ary."""

    __slots__ = ("op",)
    boolean = True

    def __init__(self, op: str, *args: ExprLike) -> None:
        super().__init__(args)
        self.op = op

    def compute(self, values: list[Number]) -> Number:
        return int(CONNECTIVES[self.op]([v != 0 for v in values]))

    def written(self, texts: list[str]) -> str:
        if self.op == "not":
            return f"~({texts[0]})"
        return "(" + f" {self.op} ".join(texts) + ")"


def zero_one(items: tuple[object, ...]) -> bool:
    """Whether every item is 0/1 valued (a Boolean node, or the constant 0 or 1): an
    element of them is a Boolean too, usable in cn.any, &, | and as a constraint."""
    return all(e.boolean if isinstance(e, Expr) else e in (0, 1) for e in items)


class Element(Expr):
    """array[index] with a 0-based index expression; args = (index, *array). An array of
    Booleans gives a Boolean."""

    __slots__ = ()

    @property
    def boolean(self) -> bool:  # type: ignore[override]
        return zero_one(self.args[1:])

    def compute(self, values: list[Number]) -> Number:
        index = values[0]
        if not (isinstance(index, int) and 0 <= index < len(values) - 1):
            raise Undefined("element index out of range")
        return values[1 + index]

    def written(self, texts: list[str]) -> str:
        return f"element([{', '.join(texts[1:])}], {texts[0]})"


class Count(Expr):
    """How many of the expressions equal value; args = (value, *exprs)."""

    __slots__ = ()

    def compute(self, values: list[Number]) -> Number:
        return sum(1 for v in values[1:] if v == values[0])

    def written(self, texts: list[str]) -> str:
        return f"count([{', '.join(texts[1:])}], {texts[0]})"


class Global(Expr):
    """A global constraint: carries its meaning (`holds`) and a decomposition."""

    __slots__ = ()
    boolean = True
    name = "global"

    def holds(self, values: list[int]) -> bool:
        """The constraint's meaning on the values of its args (exact)."""
        raise NotImplementedError

    def compute(self, values: list[Number]) -> Number:
        return int(self.holds(values))  # type: ignore[arg-type]  # (the values are exact)

    def decompose(self) -> Expr:
        """An equivalent constraint built from relations and connectives."""
        raise NotImplementedError


def as_constraint(value: object) -> Expr:
    """Check that value can be used as a constraint (0/1 valued; a constant 0 or 1 too)."""
    if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
        return BoolConst(bool(value))
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

    def compute(self, values: list[Number]) -> Number:
        return int(self.value)

    def written(self, texts: list[str]) -> str:
        return str(self.value)

