"""Alphametics and equation puzzles: ``SEND + MORE = MONEY``, the Vietnam snake, equation grids.

Text -> tokens (:func:`tokenize`) -> one model per set of equations (:func:`parse`), with an
operator-precedence (shunting-yard) loop that uses explicit stacks: no recursion, so no input
can exhaust the interpreter stack.

Syntax (as the README describes it): literals are runs of decimal digits; a word is a run of
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

from conundrum.display.layout import Equations

from .base import Puzzle, PuzzleError
from .columns import add_columns, addition

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
_RELOPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}  # fmt: skip


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


def _error(msg: str, src: Source, pos: int) -> PuzzleError:
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
                raise _error(f"number too long (more than {MAX_NUMBER} digits)", src, i)
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
            raise _error("unknown operator '^' (write ** for a power)", src, i)
        elif c == "\\" and text.startswith("\\=", i):
            raise _error("unknown relation '\\=' (write !=)", src, i)
        elif unicodedata.category(c).startswith("N"):
            raise _error(f"unknown digit {c!r} (write digits 0-9)", src, i)
        else:
            raise _error(f"unknown symbol {c!r}", src, i)
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
    raise _error(f"unknown relation {run!r}{extra}", src, pos)


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
            raise _error("the exponent must be a constant (a number like 2)", src, right.tok.pos)
        if not 0 <= right.const <= MAX_EXPONENT:
            raise _error(f"the exponent must be between 0 and {MAX_EXPONENT}", src,
                         right.tok.pos)
    const = None
    if kind in _CONST_OPS and left.const is not None and right.const is not None:
        if kind == "**" and abs(left.const).bit_length() * right.const > 100_000:
            raise _error("number too large", src, op.pos)
        const = _CONST_OPS[kind](left.const, right.const)
    operands.append(Node(kind, op, [left, right], const))


def parse_equation(toks: list[Token], src: Source) -> Node:
    """Parse the tokens of one equation (ending with an ``end`` or ``sep`` token) to a tree.

    An explicit-stack operator-precedence loop: ``**`` binds tightest (right-associative),
    then unary minus, then ``* / // %``, then ``+ -``; exactly one relation, outside
    parentheses.
    """
    if len(toks) > MAX_TOKENS:
        raise _error(f"equation too long (more than {MAX_TOKENS} symbols)", src, toks[0].pos)
    operands: list[Node] = []
    ops: list[tuple[Token, str]] = []  # (token, kind) with kind an operator, neg/pos, "(" or rel
    expect_operand = True
    depth = 0
    relation: Token | None = None
    for tok in toks:
        if expect_operand:
            if tok.kind in ("num", "word"):
                if tok.kind == "word" and len(tok.text) > MAX_WORD:
                    raise _error(f"word too long (more than {MAX_WORD} letters)", src, tok.pos)
                const = int(tok.value) if tok.kind == "num" else None
                operands.append(Node(tok.kind, tok, [], const))
                expect_operand = False
            elif tok.kind == "op" and tok.value in ("-", "+"):
                ops.append((tok, "neg" if tok.value == "-" else "pos"))
            elif tok.kind == "(":
                depth += 1
                if depth > MAX_DEPTH:
                    raise _error(f"parentheses nested too deeply (over {MAX_DEPTH})", src, tok.pos)
                ops.append((tok, "("))
            elif tok.kind in ("end", "sep"):
                where = "after " + repr(ops[-1][0].text) if ops else "here"
                if not ops and not operands:
                    raise _error("empty equation", src, tok.pos)
                raise _error(f"the equation ends too early: a number or word is missing {where}",
                             src, tok.pos)
            else:
                raise _error(f"expected a number, a word or '(' but found {tok.text!r}",
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
                    raise _error(f"a second relation {tok.text!r}: write one relation per "
                                 "equation and separate equations with ','", src, tok.pos)
                if depth:
                    raise _error(f"relation {tok.text!r} inside parentheses", src, tok.pos)
                relation = tok
            ops.append((tok, kind))
            expect_operand = True
        elif tok.kind == ")":
            while ops and ops[-1][1] != "(":
                _reduce(*ops.pop(), operands, src)
            if not ops:
                raise _error("unbalanced ')': no '(' before it", src, tok.pos)
            ops.pop()
            depth -= 1
        elif tok.kind in ("end", "sep"):
            while ops:
                top_tok, top = ops.pop()
                if top == "(":
                    raise _error("unbalanced '(': it is never closed", src, top_tok.pos)
                _reduce(top_tok, top, operands, src)
            break
        else:
            raise _error(f"expected an operator or a relation but found {tok.text!r}",
                         src, tok.pos)
    if relation is None:
        raise _error("no relation: an equation needs one of = != < <= > >=", src,
                     toks[-1].pos if toks else 0)
    assert len(operands) == 1 and operands[0].kind == "rel"
    return operands[0]


# ----------------------------------------------------------------------------- the model

@dataclass
class Options:
    """Alphametic options (the command line's --digits, --base, ...)."""

    digits: tuple[int, int] | None = None  # default 0..base-1
    base: int = 10
    distinct: bool = True
    leading_zeros: bool = False
    integral: bool = False
    fix: list[tuple[str, int]] = field(default_factory=list)


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
            raise _error("empty equation", src, 0)
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
                    raise _error(f"empty equation before {tok.text or 'the end'!r}",
                                 src, tok.pos)
                chunk = []
                start = tok.pos + 1
    if not eqs:
        if sources:
            raise PuzzleError("no equation: the input is empty", source=sources[0].label)
        raise PuzzleError("no equation given")
    return eqs


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
                    raise _error(f"word {w.text!r} has {k} different letters but only "
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
    return Puzzle(m, render, values, explain_model=explained, reasons=reasons, layout=layout)


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
        m += var[name] == value
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
            raise _error(str(exc), eq.src, node.tok.pos) from None
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
