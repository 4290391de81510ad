"""FlatZinc text -> items: the tokenizer and the parser.

FlatZinc (what MiniZinc 2.6+ writes for a solver) is a flat list of items ended by `;`:
predicate declarations, parameters, variables, constraints and one solve item. Expressions
nest only in array and set literals and in annotations, and are parsed with an explicit
stack, so no input can exhaust Python's recursion limit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


class FznError(Exception):
    """A FlatZinc input that cannot be read or is not supported, with its line."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    def __str__(self) -> str:
        return self.message if self.line is None else f"line {self.line}: {self.message}"


# ------------------------------------------------------------------------------- values

@dataclass(frozen=True)
class Name:
    """An identifier used as a value (a parameter, a variable, an array, an annotation)."""

    name: str


@dataclass(frozen=True)
class Access:
    """`array[index]` with a literal index (1-based, as in FlatZinc)."""

    name: str
    index: int


@dataclass(frozen=True)
class Call:
    """`name(args)`: a constraint or an annotation with arguments."""

    name: str
    args: tuple


@dataclass(frozen=True)
class Range:
    """`lo..hi`, a set of integers (empty when lo > hi)."""

    lo: int
    hi: int

    def values(self) -> list[int]:
        return list(range(self.lo, self.hi + 1))


@dataclass(frozen=True)
class Str:
    """A string literal (only in annotations)."""

    text: str


# Sets written as {a, b, c} are frozensets of ints; arrays are lists; true/false are bools.


# --------------------------------------------------------------------------------- items

@dataclass
class VarDecl:
    """`var TYPE: name :: annotations [= value];` (`domain` None for `var int`; `is_bool`
    for `var bool`); arrays of variables have `length` and a list `value` (or None)."""

    name: str
    is_bool: bool
    domain: Range | frozenset | None
    annotations: list
    value: object
    line: int
    length: int | None = None


@dataclass
class ParDecl:
    """`TYPE: name = value;` a parameter (int, bool, set of int, or an array of them)."""

    name: str
    value: object
    line: int


@dataclass
class Constraint:
    """`constraint name(args) :: annotations;`"""

    name: str
    args: tuple
    annotations: list
    line: int


@dataclass
class SolveItem:
    """`solve :: annotations satisfy | minimize e | maximize e;`"""

    kind: str  # "satisfy", "minimize" or "maximize"
    objective: object
    annotations: list
    line: int


@dataclass
class FlatZinc:
    """The items of a FlatZinc file, in order."""

    declarations: list = field(default_factory=list)  # VarDecl and ParDecl, in order
    constraints: list[Constraint] = field(default_factory=list)
    solve: SolveItem | None = None


# ----------------------------------------------------------------------------- tokenizer

_TOKEN = re.compile(r"""
    (?P<space>\s+|%[^\n]*)
  | (?P<float>-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+)
  | (?P<int>-?(?:0x[0-9a-fA-F]+|0o[0-7]+|\d+))
  | (?P<dotdot>\.\.)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<punct>::|[\[\](){},:;=])
""", re.VERBOSE)

KEYWORDS = {"array", "bool", "constraint", "false", "float", "int", "maximize", "minimize",
            "of", "predicate", "satisfy", "set", "solve", "true", "var"}


@dataclass
class Token:
    kind: str  # int, float, ident, keyword, string, punct, dotdot, eof
    text: str
    pos: int


def tokenize(text: str) -> list[Token]:
    """The tokens of a FlatZinc text, ending with an `eof` token."""
    tokens = []
    pos, end = 0, len(text)
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos)
        if m is None:
            line = text.count("\n", 0, pos) + 1
            raise FznError(f"unexpected character {text[pos]!r}", line)
        kind = m.lastgroup
        if kind != "space":
            word = m.group()
            if kind == "ident" and word in KEYWORDS:
                kind = "keyword"
            tokens.append(Token(kind, word, pos))  # type: ignore[arg-type]
        pos = m.end()
    tokens.append(Token("eof", "", end))
    return tokens


# -------------------------------------------------------------------------------- parser

_CLOSER = {"array": "]", "set": "}", "call": ")"}


class Parser:
    """Recursive descent over items; an explicit stack for nested expressions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0

    # -- helpers
    def line(self, tok: Token | None = None) -> int:
        pos = (tok or self.tokens[self.i]).pos
        return self.text.count("\n", 0, pos) + 1

    def error(self, message: str, tok: Token | None = None) -> FznError:
        return FznError(message, self.line(tok))

    def peek(self) -> Token:
        return self.tokens[self.i]

    def next(self) -> Token:
        tok = self.tokens[self.i]
        if tok.kind != "eof":
            self.i += 1
        return tok

    def at(self, text: str) -> bool:
        tok = self.tokens[self.i]
        return tok.text == text and tok.kind in ("punct", "keyword", "dotdot")

    def expect(self, text: str) -> Token:
        tok = self.next()
        if tok.text != text or tok.kind not in ("punct", "keyword", "dotdot"):
            raise self.error(f"expected {text!r}, found {tok.text or 'the end'!r}", tok)
        return tok

    def int_literal(self) -> int:
        tok = self.next()
        if tok.kind == "float":
            raise self.error("float values are not supported (conundrum solves integer and "
                             "Boolean problems)", tok)
        if tok.kind != "int":
            raise self.error(f"expected an integer, found {tok.text or 'the end'!r}", tok)
        return int_value(tok.text)

    def ident(self) -> str:
        tok = self.next()
        if tok.kind != "ident":
            raise self.error(f"expected a name, found {tok.text or 'the end'!r}", tok)
        return tok.text

    # -- the file
    def parse(self) -> FlatZinc:
        fzn = FlatZinc()
        while self.peek().kind != "eof":
            tok = self.peek()
            if tok.text == "predicate":
                self.skip_item()
            elif tok.text == "constraint":
                fzn.constraints.append(self.constraint())
            elif tok.text == "solve":
                if fzn.solve is not None:
                    raise self.error("a second solve item", tok)
                fzn.solve = self.solve_item()
            else:
                fzn.declarations.append(self.declaration())
        if fzn.solve is None:
            raise FznError("no solve item (solve satisfy; minimize or maximize)")
        return fzn

    def skip_item(self) -> None:
        while self.peek().kind != "eof" and not self.at(";"):
            self.next()
        self.expect(";")

    def annotations(self) -> list:
        found = []
        while self.at("::"):
            self.next()
            found.append(self.expr())
        return found

    def constraint(self) -> Constraint:
        start = self.expect("constraint")
        name = self.ident()
        self.expect("(")
        args: list = []
        if not self.at(")"):
            args.append(self.expr())
            while self.at(","):
                self.next()
                args.append(self.expr())
        self.expect(")")
        ann = self.annotations()
        self.expect(";")
        return Constraint(name, tuple(args), ann, self.line(start))

    def solve_item(self) -> SolveItem:
        start = self.expect("solve")
        ann = self.annotations()
        tok = self.next()
        if tok.text == "satisfy":
            kind, objective = "satisfy", None
        elif tok.text in ("minimize", "maximize"):
            kind, objective = tok.text, self.expr()
        else:
            raise self.error(f"expected satisfy, minimize or maximize, found {tok.text!r}", tok)
        self.expect(";")
        return SolveItem(kind, objective, ann, self.line(start))

    def declaration(self) -> VarDecl | ParDecl:
        start = self.peek()
        line = self.line(start)
        length = None
        if self.at("array"):
            self.next()
            self.expect("[")
            lo = self.int_literal()
            self.expect("..")
            hi = self.int_literal()
            self.expect("]")
            self.expect("of")
            if lo != 1:
                raise self.error(f"array index set {lo}..{hi}: FlatZinc arrays start at 1")
            length = hi
        if self.at("var"):
            self.next()
            is_bool, domain = self.var_type()
            self.expect(":")
            name = self.ident()
            ann = self.annotations()
            value = None
            if self.at("="):
                self.next()
                value = self.expr()
            self.expect(";")
            return VarDecl(name, is_bool, domain, ann, value, line, length)
        self.par_type()
        self.expect(":")
        name = self.ident()
        self.annotations()
        self.expect("=")
        value = self.expr()
        self.expect(";")
        return ParDecl(name, value, line)

    def var_type(self) -> tuple[bool, Range | frozenset | None]:
        tok = self.peek()
        if tok.text == "bool":
            self.next()
            return True, None
        if tok.text == "int":
            self.next()
            return False, None
        if tok.text == "float" or tok.kind == "float":
            raise self.error("float variables are not supported (conundrum solves integer "
                             "and Boolean problems)")
        if tok.text == "set":
            raise self.error("set variables are not supported (conundrum solves integer and "
                             "Boolean problems)")
        if tok.kind == "int":
            lo = self.int_literal()
            if self.peek().kind == "float":
                raise self.error("float variables are not supported")
            self.expect("..")
            if self.peek().kind == "float":
                raise self.error("float variables are not supported")
            return False, Range(lo, self.int_literal())
        if tok.text == "{":
            value = self.expr()
            if not isinstance(value, frozenset):
                raise self.error("a variable's domain is a range or a set of integers", tok)
            return False, value
        raise self.error(f"unknown variable type {tok.text!r}", tok)

    def par_type(self) -> None:
        tok = self.next()
        if tok.text in ("int", "bool"):
            return
        if tok.text == "float":
            raise self.error("float parameters are not supported (conundrum solves integer "
                             "and Boolean problems)", tok)
        if tok.text == "set":
            self.expect("of")
            inner = self.next()
            if inner.text == "int":
                return
            if inner.kind == "int":  # set of 1..5
                self.expect("..")
                self.int_literal()
                return
            raise self.error(f"unsupported parameter type set of {inner.text}", inner)
        if tok.kind == "int":  # a par declared over a range: 1..5: n = 3;
            self.expect("..")
            self.int_literal()
            return
        raise self.error(f"expected a declaration, found {tok.text or 'the end'!r}", tok)

    # -- expressions
    def expr(self) -> object:
        """One expression; nested literals are parsed with an explicit stack."""
        stack: list[list] = []  # [kind, items, call name]
        while True:
            tok = self.next()
            value: object
            opened: list[Any] | None = None
            if tok.text == "[" and tok.kind == "punct":
                opened = ["array", [], ""]
            elif tok.text == "{" and tok.kind == "punct":
                opened = ["set", [], ""]
            elif tok.kind == "ident" and self.at("("):
                self.next()
                opened = ["call", [], tok.text]
            if opened is not None:
                if self.at(_CLOSER[opened[0]]):
                    self.next()
                    value = self._close(opened, tok)
                else:
                    stack.append(opened)
                    continue
            else:
                value = self.atom(tok)
            while True:  # reduce: attach the value to the innermost open literal
                if not stack:
                    return value
                frame = stack[-1]
                frame[1].append(value)
                sep = self.next()
                if sep.text == "," and sep.kind == "punct":
                    break
                if sep.text == _CLOSER[frame[0]] and sep.kind == "punct":
                    stack.pop()
                    value = self._close(frame, sep)
                    continue
                raise self.error(f"expected ',' or {_CLOSER[frame[0]]!r}, found "
                                 f"{sep.text or 'the end'!r}", sep)

    def _close(self, frame: list, tok: Token) -> object:
        kind, items, name = frame
        if kind == "array":
            return items
        if kind == "call":
            return Call(name, tuple(items))
        values: set[int] = set()
        for item in items:
            if isinstance(item, Range):
                values.update(item.values())
            elif isinstance(item, int) and not isinstance(item, bool):
                values.add(item)
            else:
                raise self.error("a set literal holds integers", tok)
        return frozenset(values)

    def atom(self, tok: Token) -> object:
        if tok.kind == "int":
            self.i -= 1
            lo = self.int_literal()
            if self.at(".."):
                self.next()
                return Range(lo, self.int_literal())
            return lo
        if tok.kind == "float":
            raise self.error("float values are not supported (conundrum solves integer and "
                             "Boolean problems)", tok)
        if tok.kind == "keyword" and tok.text in ("true", "false"):
            return tok.text == "true"
        if tok.kind == "string":
            return Str(bytes(tok.text[1:-1], "utf-8").decode("unicode_escape"))
        if tok.kind == "ident":
            if self.at("["):
                self.next()
                index = self.int_literal()
                self.expect("]")
                return Access(tok.text, index)
            return Name(tok.text)
        raise self.error(f"unexpected {tok.text or 'end of input'!r}", tok)


def int_value(text: str) -> int:
    """The value of an integer literal: decimal (leading zeros allowed), 0x hex, 0o octal."""
    digits = text.lstrip("-")
    base = {"0x": 16, "0o": 8}.get(digits[:2], 10)
    value = int(digits[2:] if base != 10 else digits, base)
    return -value if text.startswith("-") else value


def parse(text: str) -> FlatZinc:
    """Parse a FlatZinc text (FznError, with the line, on anything unreadable)."""
    return Parser(text).parse()
