"""The MiniZinc text of one expression, and the exact arithmetic between such texts.

A translated expression is a `Term` of one of three kinds:

- "bool": a MiniZinc `var bool` (relations, connectives, global constraints);
- "int": a MiniZinc `var int` (variables, sums, products, floor quotients, ...);
- "rat": an exact rational, the quotient of an int text by a positive `Den` (what `/`
  makes: conundrum's division is rational, MiniZinc has none).

A `Den` is a positive constant times a product of factor texts each known to be positive
(`abs(b)` of a divisor b known to be non-zero, or a variable whose domain is positive), so
that comparing two rationals is comparing cross products, with no case on signs, and a
common denominator keeps each factor once.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from conundrum.lang.errors import ModelError

INT64 = 2**63 - 1  # MiniZinc's integers are 64-bit


def literal(k: int) -> str:
    """An integer as MiniZinc text (MiniZinc's unary minus binds tightest: `x * -1` is
    x * (-1)); a ModelError past MiniZinc's 64-bit integers."""
    if not -INT64 <= k <= INT64:
        raise ModelError(f"to_minizinc: {k} does not fit in MiniZinc's 64-bit integers")
    return str(k)


def bare(text: str) -> str:
    """text without parentheses around the whole of it."""
    if not (text.startswith("(") and text.endswith(")")):
        return text
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and k < len(text) - 1:
            return text  # (a) + (b): the first one closes before the end
    return text[1:-1]


def call(name: str, *args: str) -> str:
    """A call of a MiniZinc function, its arguments without outer parentheses."""
    return f"{name}({', '.join(bare(a) for a in args)})"


def listing(texts: Sequence[str]) -> str:
    """A MiniZinc array literal."""
    return "[" + ", ".join(bare(t) for t in texts) + "]"


@dataclass(frozen=True, slots=True)
class Den:
    """A positive denominator: const * the product of factors (texts of positive values)."""

    const: int = 1
    factors: tuple[str, ...] = ()

    @property
    def one(self) -> bool:
        """Whether this is the denominator 1 (the value is an integer)."""
        return self.const == 1 and not self.factors

    def times(self, other: Den) -> Den:
        """The product of two denominators."""
        return Den(self.const * other.const, tuple(sorted(self.factors + other.factors)))

    def text(self) -> str:
        """The denominator as MiniZinc text."""
        parts = ([str(self.const)] if self.const != 1 or not self.factors else []) + list(
            self.factors)
        return parts[0] if len(parts) == 1 else "(" + " * ".join(parts) + ")"


ONE = Den()


@dataclass(frozen=True, slots=True)
class Term:
    """A translated expression: its kind, its text (the numerator of a "rat"), its
    denominator, its sign when known (1 positive, -1 negative, 0 unknown or zero) and its
    value when it is a constant."""

    kind: str
    text: str
    den: Den = ONE
    sign: int = 0
    value: int | Fraction | None = None


@dataclass(frozen=True, slots=True)
class Substitute:
    """What a rule returns for a node exported through another tree (a global's
    decomposition): the term of `tree` stands for the node."""

    tree: object


def constant(value: int | Fraction) -> Term:
    """The term of a constant operand (an int, or a Fraction that is not whole)."""
    sign = (value > 0) - (value < 0)
    if isinstance(value, Fraction) and value.denominator != 1:
        return Term("rat", literal(value.numerator), Den(value.denominator), sign, value)
    return Term("int", literal(int(value)), ONE, sign, int(value))


def boolean(text: str) -> Term:
    """A "bool" term."""
    return Term("bool", text)


def integer(text: str, sign: int = 0) -> Term:
    """An "int" term."""
    return Term("int", text, ONE, sign)


def as_int(t: Term) -> str:
    """The text of an integer term, a truth value read as 0 or 1: `if p then 1 else 0
    endif`, not `bool2int(p)`. Where the solver's library has half-reified constraints
    (Gecode's does), MiniZinc 2.6.4 may half-reify the argument of a bool2int under a
    negation or a product the wrong way round: `not (3 * bool2int(y < 0) > 1)` becomes
    `int_le_imp(y, -1, false)`, true for every y. The condition of an if-then-else is
    always fully reified."""
    if t.kind == "bool":
        return f"(if {bare(t.text)} then 1 else 0 endif)"
    if t.kind == "rat":  # (callers test the kind first: a bug, not a user error)
        raise TypeError("a rational where an integer is needed")
    return t.text


def as_bool(t: Term) -> str:
    """The text of a truth value: a number is true when it is not 0 (a rational when its
    numerator is not)."""
    return t.text if t.kind == "bool" else f"({t.text} != 0)"


def numerator(t: Term) -> str:
    """The numerator of any term (an int term is its own; a truth value 0 or 1)."""
    return t.text if t.kind == "rat" else as_int(t)


def times(a: str, b: str) -> str:
    """a * b, with a factor 1 left out."""
    if a == "1":
        return b
    if b == "1":
        return a
    return f"({a} * {b})"


def product(factors: Sequence[str]) -> str:
    """The product of texts (1 for none)."""
    kept = [f for f in factors if f != "1"]
    if not kept:
        return "1"
    return kept[0] if len(kept) == 1 else "(" + " * ".join(kept) + ")"


def scale(text: str, k: int) -> str:
    """text * k for a constant k."""
    if text.lstrip("-").isdigit():
        return literal(int(text) * k)
    if k == 1:
        return text
    if k == -1:
        return f"(-{text})"
    return f"({literal(k)} * {text})"


def common(terms: Sequence[Term]) -> tuple[list[str], Den]:
    """The numerators of terms over one common positive denominator (the least common
    multiple of the constants, each factor as often as the most any term has it)."""
    const = 1
    most: Counter[str] = Counter()
    for t in terms:
        const = math.lcm(const, t.den.const)
        most |= Counter(t.den.factors)
    den = Den(const, tuple(sorted(most.elements())))
    nums = []
    for t in terms:
        missing = most - Counter(t.den.factors)
        nums.append(times(scale(numerator(t), const // t.den.const),
                          product(sorted(missing.elements()))))
    return nums, den


def rational(num: str, den: Den, sign: int = 0) -> Term:
    """num / den as a term: an "int" term when den is 1."""
    if den.one:
        return Term("int", num, ONE, sign)
    return Term("rat", num, den, sign)


def linear(parts: Sequence[tuple[int, str]], const: int) -> str:
    """sum(k * text) + const as readable text, parenthesised unless it is one term or a
    constant: (3*x - y + 2)."""
    kept = [(k, text) for k, text in parts if k]
    if not kept:
        return literal(const)
    if len(kept) == 1 and kept[0][0] == 1 and not const:
        return kept[0][1]
    out: list[str] = []
    for k, text in kept:
        body = text if abs(k) == 1 else f"{literal(abs(k))}*{text}"
        out.append(("" if k > 0 else "-") + body if not out else
                   ("+ " if k > 0 else "- ") + body)
    if const:
        out.append(f"+ {literal(const)}" if const > 0 else f"- {literal(-const)}")
    return "(" + " ".join(out) + ")"
