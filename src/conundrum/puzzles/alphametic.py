"""Alphametics and equation puzzles: ``SEND + MORE = MONEY``, the Vietnam snake, equation grids.

Text -> equation trees (equations.py: :func:`tokenize`, :func:`split_equations`, whose
syntax it describes) -> one model per set of equations (:func:`parse`, here): a variable per
letter, each tree turned into a constraint without recursion, the solution written back
into the text.
"""

from __future__ import annotations

import operator
import unicodedata
from dataclasses import dataclass, field

from conundrum.display.layout import Equations

from .base import Puzzle, PuzzleError
from .columns import add_columns, addition
from .equations import (
    MAX_DEPTH,
    MAX_EXPONENT,
    MAX_NUMBER,
    MAX_TOKENS,
    MAX_WORD,
    Equation,
    Node,
    Source,
    Token,
    error_at,
    parse_equation,
    split_equations,
    tokenize,
)

# the names that were defined here before equations.py held the reading half
__all__ = [
    "MAX_DEPTH", "MAX_EXPONENT", "MAX_NUMBER", "MAX_TOKENS", "MAX_WORD", "Equation", "Node",
    "Options", "Source", "Token", "digit_str", "parse", "parse_equation", "split_equations",
    "tokenize",
]

_RELOPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}  # fmt: skip


@dataclass
class Options:
    """Alphametic options (the command line's --digits, --base, ...)."""

    digits: tuple[int, int] | None = None  # default 0..base-1
    base: int = 10
    distinct: bool = True
    leading_zeros: bool = False
    integral: bool = False
    fix: list[tuple[str, int]] = field(default_factory=list)


def _letters(eqs: list[Equation]) -> list[str]:
    seen: dict[str, None] = {}
    for eq in eqs:
        for w in eq.words:
            for ch in _chars(w.text):
                seen.setdefault(ch, None)
    return list(seen)


def _chars(word: str) -> list[str]:
    """The letters of a word; a combining mark stays with the letter before it."""
    out: list[str] = []
    for ch in word:
        if out and unicodedata.category(ch).startswith("M"):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def digit_str(value: int) -> str:
    """A digit value (0 to 35) spelled as in number bases up to 36: 0-9 then A-Z."""
    return "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[value]


def parse(sources: list[Source], options: Options | None = None) -> Puzzle:
    """Build the puzzle for the equations in ``sources`` (PuzzleError on bad input)."""
    opt = options or Options()
    if not 2 <= opt.base <= 36:
        raise PuzzleError(f"--base must be between 2 and 36, got {opt.base}")
    lo, hi = opt.digits if opt.digits is not None else (0, opt.base - 1)
    if not 0 <= lo <= hi:
        raise PuzzleError(f"--digits {lo}-{hi}: need 0 <= LO <= HI")
    if hi >= opt.base:
        raise PuzzleError(f"--digits {lo}-{hi}: {hi} is not a digit in base {opt.base}")
    eqs = split_equations(sources)
    letters = _letters(eqs)
    n_digits = hi - lo + 1
    if opt.distinct and len(letters) > n_digits:
        for eq in eqs:
            for w in eq.words:
                k = len(set(_chars(w.text)))
                if k > n_digits:
                    raise error_at(f"word {w.text!r} has {k} different letters but only "
                                   f"{n_digits} digits are allowed ({lo}-{hi}); "
                                   "add --no-distinct to let letters share digits", eq.src, w.pos)
        raise PuzzleError(f"{len(letters)} different letters but only {n_digits} digits "
                          f"({lo}-{hi}); add --no-distinct to let letters share digits")
    leading: set[str] = set()
    if not opt.leading_zeros:
        for eq in eqs:
            for w in eq.words:
                chars = _chars(w.text)
                if len(chars) > 1:
                    leading.add(chars[0])
    m, var = _letters_model(letters, leading, lo, hi, opt)
    for eq in eqs:
        m += _build(eq, var, m, opt)
    explained, reasons = None, {}
    sums = addition(eqs[0].tree) if len(eqs) == 1 and opt.digits is None else None
    if sums is not None:
        # explanations reason column by column, with carries, as people do
        explained, columns_var = _letters_model(letters, leading, lo, hi, opt)
        addends, total = sums
        reasons = add_columns(explained, columns_var, [_chars(w) for w in addends],
                              _chars(total), opt.base)

    def values(sol) -> dict[str, int]:
        return {ch: sol[var[ch]] for ch in letters}

    def render(sol) -> str:
        vals = values(sol)
        lines = [_substitute(eq, vals, opt.base) for eq in eqs]
        if letters:
            width = [max(len(ch), len(str(vals[ch]))) for ch in letters]
            lines.append(" ".join(ch.rjust(w) for ch, w in zip(letters, width, strict=True)))
            lines.append(" ".join(str(vals[ch]).rjust(w)
                                  for ch, w in zip(letters, width, strict=True)))
        return "\n".join(lines)

    whole_sum = addition(eqs[0].tree) if len(eqs) == 1 else None
    layout = Equations(
        [_pieces(eq) for eq in eqs], var,
        lambda v: digit_str(v) if 0 <= v < opt.base else str(v),
        None if whole_sum is None else ([_chars(w) for w in whole_sum[0]], _chars(whole_sum[1])))
    return Puzzle(m, render, values, explain_model=explained, reasons=reasons, layout=layout,
                  clues=[f"{name} = {value}" for name, value in opt.fix])


def _pieces(eq: Equation) -> list[str | list[str]]:
    """An equation as a picture shows it: the text between words, and each word as its
    letters."""
    text = eq.src.text
    out: list[str | list[str]] = []
    pos = eq.start
    for w in eq.words:
        if text[pos : w.pos].strip():
            out.append(text[pos : w.pos].strip())
        out.append(_chars(w.text))
        pos = w.pos + len(w.text)
    if text[pos : eq.end].strip():
        out.append(text[pos : eq.end].strip())
    return out


def _letters_model(letters: list[str], leading: set[str], lo: int, hi: int, opt: Options):
    """A model with one variable per letter (a leading letter is not 0 unless allowed), the
    --fix values and, unless --no-distinct, all letters different."""
    import conundrum as cn

    m = cn.Model()
    var = {}
    for ch in letters:
        if ch in leading and lo == 0:
            if hi == 0:
                raise PuzzleError(f"letter {ch!r} starts a word, so it cannot be 0, but "
                                  f"--digits allows only 0 (add --leading-zeros)")
            var[ch] = m.int_var(1, hi, ch)
        else:
            var[ch] = m.int_var(lo, hi, ch)
    for name, value in opt.fix:
        if name not in var:
            raise PuzzleError(f"--fix {name}={value}: there is no letter {name!r} in the "
                              "equations")
        if not lo <= value <= hi:
            raise PuzzleError(f"--fix {name}={value}: {value} is not among the digits {lo}-{hi}")
        # labelled as explanations name the letter: a clash may blame it (issue 43)
        m.add(var[name] == value, label=f"{name} = {value}")
    if opt.distinct and len(letters) > 1:
        m += cn.all_different([var[ch] for ch in letters])
    return m, var


def _substitute(eq: Equation, vals: dict[str, int], base: int) -> str:
    text = eq.src.text
    out = []
    pos = eq.start
    for w in eq.words:
        out.append(text[pos : w.pos])
        chars = _chars(w.text)
        if all(vals[ch] < base for ch in chars):
            out.append("".join(digit_str(vals[ch]) for ch in chars))
        else:  # single letters may range beyond one digit (--digits wider than the base)
            out.append("".join(str(vals[ch]) for ch in chars))
        pos = w.pos + len(w.text)
    out.append(text[pos : eq.end])
    return "".join(out).strip()


def _build(eq: Equation, var: dict, m, opt: Options):
    """Turn one equation tree into a conundrum constraint, iteratively (post-order)."""
    import conundrum as cn

    def fixed(value):
        return m.int_var(value, value) if isinstance(value, int) else value

    results: dict[int, object] = {}
    stack: list[tuple[Node, bool]] = [(eq.tree, False)]
    while stack:
        node, done = stack.pop()
        if not done:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.args))
            continue
        args = [results.pop(id(child)) for child in node.args]
        try:
            results[id(node)] = _combine(node, args, var, opt.base, fixed, cn)
        except cn.ModelError as exc:
            raise error_at(str(exc), eq.src, node.tok.pos) from None
    rel = eq.tree.tok.value
    mode = rel[0] if rel[0] in "#$" else ("#" if opt.integral else "$")
    constraint = results[id(eq.tree)]
    return cn.integral(constraint) if mode == "#" else constraint  # type: ignore[arg-type]


def _combine(node: Node, args: list, var: dict, base: int, fixed, cn):
    kind = node.kind
    if kind == "num":
        return int(node.tok.value)
    if kind == "word":
        coef: dict[str, int] = {}
        chars = _chars(node.tok.text)
        for k, ch in enumerate(chars):
            coef[ch] = coef.get(ch, 0) + base ** (len(chars) - 1 - k)
        terms = [c * var[ch] if c != 1 else var[ch] for ch, c in coef.items()]
        return terms[0] if len(terms) == 1 else cn.sum(terms)
    if kind == "neg":
        return -args[0]
    if kind == "pos":
        return args[0]
    a, b = args
    if kind == "rel":
        rel = node.tok.value.lstrip("#$")
        a = fixed(a)
        return _RELOPS[rel](a, b)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if kind == "**":
        return a ** node.args[1].const
    a = fixed(a)  # / // % on two constants: let conundrum apply its own semantics
    if kind == "/":
        return a / b
    if kind == "//":
        return a // b
    return a % b
