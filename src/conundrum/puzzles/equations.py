"""Equation text -> equation trees: the reading half of the alphametic front end.

Text -> tokens (:func:`tokenize`) -> one tree per equation (:func:`parse_equation`,
:func:`split_equations`), with an operator-precedence (shunting-yard) loop that uses explicit
stacks: no recursion, so no input can exhaust the interpreter stack. alphametic.py builds the
model from the trees.

Syntax (docs/puzzles/alphametic.md): literals are runs of decimal digits; a word is a run of
letters (any Unicode letters), one letter per digit, most significant first; operators
``+ - * / : // % **`` and ``× ÷ − ·``; parentheses; unary minus; relations
``= == != ≠ < <= ≤ > >= ≥``, each optionally prefixed by ``#`` (integral: every ``/`` is
exact division) or ``$`` (rational ``/``).
Equations are separated by ``,`` or ``;`` (and by lines of a file).
"""

from __future__ import annotations

import operator
import unicodedata
from dataclasses import dataclass, field

from .base import PuzzleError

MAX_WORD = 60  # letters in one word
MAX_NUMBER = 100  # digits in one literal
MAX_EXPONENT = 100
MAX_DEPTH = 100  # nested parentheses
MAX_TOKENS = 5000  # per equation

_ARITH = {
    "+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "·": "*", "⋅": "*",
    "/": "/", "÷": "/", ":": "/", "//": "//", "%": "%", "**": "**",
}  # fmt: skip
_REL_BASE = {"=": "==", "==": "==", "!=": "!=", "≠": "!=", "<": "<", "<=": "<=", "≤": "<=",
             ">": ">", ">=": ">=", "≥": ">="}  # fmt: skip
_REL_CHARS = set("=<>!#$≠≤≥")
_REL_HINTS = {"=<": "<=", "=>": ">=", "<>": "!=", "=!": "!=", "\\=": "!=", "===": "=="}
_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "//": 2, "%": 2, "neg": 3, "pos": 3, "**": 4}
_RIGHT_ASSOC = {"**"}


@dataclass(frozen=True)
class Token:
    """One token: kind is num, word, op, rel, (, ), sep or end; pos is a 0-based column."""

    kind: str
    text: str
    pos: int
    value: str = ""  # normalised operator/relation, or the word/number text


@dataclass
class Source:
    """One piece of input text (an argument or a line of a file) and how to name it."""

    text: str
    label: str  # e.g. "argument 1" or "eq.txt, line 3"


def error_at(msg: str, src: Source, pos: int) -> PuzzleError:
    """A PuzzleError placed at a 0-based column of a source."""
    return PuzzleError(msg, source=src.label, column=pos + 1, text=src.text)


def tokenize(src: Source) -> list[Token]:
    """Split one source text into tokens; raise PuzzleError at the first unknown symbol."""
    text = src.text
    toks: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif "0" <= c <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            if j - i > MAX_NUMBER:
                raise error_at(f"number too long (more than {MAX_NUMBER} digits)", src, i)
            toks.append(Token("num", text[i:j], i, text[i:j]))
            i = j
        elif c.isalpha():
            j = i + 1
            while j < n and (text[j].isalpha() or unicodedata.category(text[j]).startswith("M")):
                j += 1
            toks.append(Token("word", text[i:j], i, text[i:j]))
            i = j
        elif c in _REL_CHARS:
            j = i
            while j < n and text[j] in _REL_CHARS:
                j += 1
            run = text[i:j]
            toks.append(_relation(run, src, i))
            i = j
        elif c in "()":
            toks.append(Token(c, c, i, c))
            i += 1
        elif c in ",;":
            toks.append(Token("sep", c, i, c))
            i += 1
        elif text.startswith(("**", "//"), i):
            toks.append(Token("op", text[i : i + 2], i, text[i : i + 2]))
            i += 2
        elif c in _ARITH:
            toks.append(Token("op", c, i, _ARITH[c]))
            i += 1
        elif c == "^":
            raise error_at("unknown operator '^' (write ** for a power)", src, i)
        elif c == "\\" and text.startswith("\\=", i):
            raise error_at("unknown relation '\\=' (write !=)", src, i)
        elif unicodedata.category(c).startswith("N"):
            raise error_at(f"unknown digit {c!r} (write digits 0-9)", src, i)
        else:
            raise error_at(f"unknown symbol {c!r}", src, i)
    toks.append(Token("end", "", n, ""))
    return toks


def _relation(run: str, src: Source, pos: int) -> Token:
    mode = ""
    body = run
    if body[:1] in "#$":
        mode, body = body[0], body[1:]
    if body in _REL_BASE:
        return Token("rel", run, pos, mode + _REL_BASE[body])
    hint = _REL_HINTS.get(body)
    extra = f" (write {hint})" if hint else " (use = != < <= > >=, or #= $=)"
    raise error_at(f"unknown relation {run!r}{extra}", src, pos)


# ----------------------------------------------------------------------------------- parsing

@dataclass
class Node:
    """An expression tree node: num/word leaves, unary neg/pos, binary ops, one relation."""

    kind: str  # "num", "word", "neg", "pos", an operator, or "rel"
    tok: Token
    args: list[Node] = field(default_factory=list)
    const: int | None = None  # the value of a word-free + - * ** subtree


_CONST_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "**": operator.pow}


def _reduce(op: Token, kind: str, operands: list[Node], src: Source) -> None:
    if kind in ("neg", "pos"):
        arg = operands.pop()
        const = None if arg.const is None else -arg.const if kind == "neg" else arg.const
        operands.append(Node(kind, op, [arg], const))
        return
    right = operands.pop()
    left = operands.pop()
    if kind == "**":
        if right.const is None:
            raise error_at("the exponent must be a constant (a number like 2)", src, right.tok.pos)
        if not 0 <= right.const <= MAX_EXPONENT:
            raise error_at(f"the exponent must be between 0 and {MAX_EXPONENT}", src,
                           right.tok.pos)
    const = None
    if kind in _CONST_OPS and left.const is not None and right.const is not None:
        if kind == "**" and abs(left.const).bit_length() * right.const > 100_000:
            raise error_at("number too large", src, op.pos)
        const = _CONST_OPS[kind](left.const, right.const)
    operands.append(Node(kind, op, [left, right], const))


def parse_equation(toks: list[Token], src: Source) -> Node:
    """Parse the tokens of one equation (ending with an ``end`` or ``sep`` token) to a tree.

    An explicit-stack operator-precedence loop: ``**`` binds tightest (right-associative),
    then unary minus, then ``* / // %``, then ``+ -``; exactly one relation, outside
    parentheses.
    """
    if len(toks) > MAX_TOKENS:
        raise error_at(f"equation too long (more than {MAX_TOKENS} symbols)", src, toks[0].pos)
    operands: list[Node] = []
    ops: list[tuple[Token, str]] = []  # (token, kind) with kind an operator, neg/pos, "(" or rel
    expect_operand = True
    depth = 0
    relation: Token | None = None
    for tok in toks:
        if expect_operand:
            if tok.kind in ("num", "word"):
                if tok.kind == "word" and len(tok.text) > MAX_WORD:
                    raise error_at(f"word too long (more than {MAX_WORD} letters)", src, tok.pos)
                const = int(tok.value) if tok.kind == "num" else None
                operands.append(Node(tok.kind, tok, [], const))
                expect_operand = False
            elif tok.kind == "op" and tok.value in ("-", "+"):
                ops.append((tok, "neg" if tok.value == "-" else "pos"))
            elif tok.kind == "(":
                depth += 1
                if depth > MAX_DEPTH:
                    raise error_at(f"parentheses nested too deeply (over {MAX_DEPTH})", src,
                                   tok.pos)
                ops.append((tok, "("))
            elif tok.kind in ("end", "sep"):
                where = "after " + repr(ops[-1][0].text) if ops else "here"
                if not ops and not operands:
                    raise error_at("empty equation", src, tok.pos)
                raise error_at(f"the equation ends too early: a number or word is missing {where}",
                               src, tok.pos)
            else:
                raise error_at(f"expected a number, a word or '(' but found {tok.text!r}",
                               src, tok.pos)
            continue
        if tok.kind in ("op", "rel"):
            kind = tok.value if tok.kind == "op" else "rel"
            prec = _PREC.get(kind, 0)
            while ops and ops[-1][1] != "(":
                top = ops[-1][1]
                top_prec = _PREC.get(top, 0)
                if top_prec > prec or (top_prec == prec and kind not in _RIGHT_ASSOC):
                    if top == "rel" and kind == "rel":
                        break
                    _reduce(*ops.pop(), operands, src)
                else:
                    break
            if kind == "rel":
                if relation is not None:
                    raise error_at(f"a second relation {tok.text!r}: write one relation per "
                                   "equation and separate equations with ','", src, tok.pos)
                if depth:
                    raise error_at(f"relation {tok.text!r} inside parentheses", src, tok.pos)
                relation = tok
            ops.append((tok, kind))
            expect_operand = True
        elif tok.kind == ")":
            while ops and ops[-1][1] != "(":
                _reduce(*ops.pop(), operands, src)
            if not ops:
                raise error_at("unbalanced ')': no '(' before it", src, tok.pos)
            ops.pop()
            depth -= 1
        elif tok.kind in ("end", "sep"):
            while ops:
                top_tok, top = ops.pop()
                if top == "(":
                    raise error_at("unbalanced '(': it is never closed", src, top_tok.pos)
                _reduce(top_tok, top, operands, src)
            break
        else:
            raise error_at(f"expected an operator or a relation but found {tok.text!r}",
                           src, tok.pos)
    if relation is None:
        raise error_at("no relation: an equation needs one of = != < <= > >=", src,
                       toks[-1].pos if toks else 0)
    assert len(operands) == 1 and operands[0].kind == "rel"
    return operands[0]


@dataclass
class Equation:
    """One parsed equation, with its source text for showing the solution."""

    src: Source
    start: int
    end: int
    tree: Node
    words: list[Token]


def split_equations(sources: list[Source]) -> list[Equation]:
    """Tokenize and parse every source; sources may hold several equations (``,`` ``;``)."""
    eqs: list[Equation] = []
    for src in sources:
        toks = tokenize(src)
        if len(toks) == 1:
            raise error_at("empty equation", src, 0)
        chunk: list[Token] = []
        start = 0
        for k, tok in enumerate(toks):
            chunk.append(tok)
            if tok.kind in ("sep", "end"):
                if len(chunk) > 1:
                    tree = parse_equation(chunk, src)
                    words = [t for t in chunk if t.kind == "word"]
                    eqs.append(Equation(src, start, tok.pos, tree, words))
                elif tok.kind == "sep" or toks[k - 1].kind != "sep":
                    raise error_at(f"empty equation before {tok.text or 'the end'!r}",
                                   src, tok.pos)
                chunk = []
                start = tok.pos + 1
    if not eqs:
        if sources:
            raise PuzzleError("no equation: the input is empty", source=sources[0].label)
        raise PuzzleError("no equation given")
    return eqs
