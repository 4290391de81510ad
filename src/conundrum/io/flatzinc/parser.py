"""FlatZinc text -> items: the tokenizer and the parser.

FlatZinc (what MiniZinc 2.6+ writes for a solver) is a flat list of items ended by `;`:
predicate declarations, parameters, variables, constraints and one solve item. Expressions
nest only in annotations (a value is a scalar, a set, or a flat array of them), and are
parsed with an explicit stack, so no input can exhaust Python's recursion limit.

Sizes are checked before anything is allocated: sets stay lists of ranges (IntSet), an
array has at most MAX_ARRAY elements, the variable arrays of a file hold at most
MAX_ARRAY variables in all, and an integer literal has at most MAX_DIGITS digits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

MAX_ARRAY = 4_000_000  # elements of one array, and variables of all variable arrays
MAX_DIGITS = 100_000  # digits of an integer literal (read exactly, in chunks)


class FznError(Exception):
    """A FlatZinc input that cannot be read or is not supported, with its place (1-based
    line and column, when known)."""

    def __init__(self, message: str, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        if self.column is None:
            return f"line {self.line}: {self.message}"
        return f"line {self.line}, column {self.column}: {self.message}"


class ArgumentError(FznError):
    """A constraint's argument at fault, by its 0-based index (the reader adds the place)."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


Place = tuple[int, int]  # (line, column), both 1-based


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

    def ranges(self) -> tuple[tuple[int, int], ...]:
        """The set as a list of disjoint increasing ranges (none when empty)."""
        return ((self.lo, self.hi),) if self.lo <= self.hi else ()

    def size(self) -> int:
        return max(self.hi - self.lo + 1, 0)

    def __contains__(self, value: object) -> bool:
        return self.lo <= value <= self.hi  # type: ignore[operator]


@dataclass(frozen=True)
class IntSet:
    """A set literal `{1, 3..5, 9}`, kept as disjoint increasing ranges (lo, hi) with gaps
    between them, so `{1..1000000000}` costs one pair, not a billion values."""

    ranges_: tuple[tuple[int, int], ...]

    @staticmethod
    def of(pieces: list[tuple[int, int]]) -> IntSet:
        """The union of the ranges (lo, hi); empty ones are dropped."""
        merged: list[list[int]] = []
        for lo, hi in sorted(p for p in pieces if p[0] <= p[1]):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        return IntSet(tuple((lo, hi) for lo, hi in merged))

    def ranges(self) -> tuple[tuple[int, int], ...]:
        return self.ranges_

    def size(self) -> int:
        return sum(hi - lo + 1 for lo, hi in self.ranges_)

    def __iter__(self) -> Iterator[int]:
        for lo, hi in self.ranges_:
            yield from range(lo, hi + 1)

    def __contains__(self, value: object) -> bool:
        return any(lo <= value <= hi for lo, hi in self.ranges_)  # type: ignore[operator]

    def __len__(self) -> int:
        return self.size()


@dataclass(frozen=True)
class Str:
    """A string literal (only in annotations)."""

    text: str


# Sets written as {a, b, c} are IntSets; arrays are lists; true/false are bools.


# --------------------------------------------------------------------------------- items

@dataclass
class VarDecl:
    """`var TYPE: name :: annotations [= value];` (`domain` None for `var int`; `is_bool`
    for `var bool`); arrays of variables have `length` and a list `value` (or None)."""

    name: str
    is_bool: bool
    domain: Range | IntSet | None
    annotations: list
    value: object
    line: int
    length: int | None = None
    column: int | None = None  # where the declaration starts
    value_place: Place | None = None  # where its value starts


@dataclass
class ParDecl:
    """`TYPE: name = value;` a parameter (int, bool, set of int, or an array of them)."""

    name: str
    value: object
    line: int
    column: int | None = None
    kind: str = "int"  # int, bool or set (of int): the declared type of the elements
    value_place: Place | None = None
    length: int | None = None  # for an array


@dataclass
class Constraint:
    """`constraint name(args) :: annotations;`"""

    name: str
    args: tuple
    annotations: list
    line: int
    column: int | None = None
    places: tuple[Place, ...] = ()  # where each argument starts


@dataclass
class SolveItem:
    """`solve :: annotations satisfy | minimize e | maximize e;`"""

    kind: str  # "satisfy", "minimize" or "maximize"
    objective: object
    annotations: list
    line: int
    column: int | None = None
    objective_place: Place | None = None


@dataclass
class FlatZinc:
    """The items of a FlatZinc file, in order."""

    declarations: list = field(default_factory=list)  # VarDecl and ParDecl, in order
    constraints: list[Constraint] = field(default_factory=list)
    solve: SolveItem | None = None


# ----------------------------------------------------------------------------- tokenizer

# re.ASCII: only 0-9 are digits and only ASCII blanks are spaces (str.isdigit and \d would
# also take full-width or Arabic-Indic digits, which FlatZinc does not have)
_TOKEN = re.compile(r"""
    (?P<space>\s+|%[^\n]*)
  | (?P<float>-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+)
  | (?P<int>-?(?:0x[0-9a-fA-F]+|0o[0-7]+|\d+))
  | (?P<dotdot>\.\.)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<punct>::|[\[\](){},:;=])
""", re.VERBOSE | re.ASCII)

KEYWORDS = {"array", "bool", "constraint", "false", "float", "int", "maximize", "minimize",
            "of", "predicate", "satisfy", "set", "solve", "true", "var"}

# the escapes of MiniZinc strings
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}


@dataclass
class Token:
    kind: str  # int, float, ident, keyword, string, punct, dotdot, eof
    text: str
    pos: int
    line: int = 1
    column: int = 1


def tokenize(text: str) -> list[Token]:
    """The tokens of a FlatZinc text, ending with an `eof` token."""
    tokens = []
    pos, end = 0, len(text)
    line, line_start = 1, 0  # only spaces hold line breaks (comments stop before them)
    match = _TOKEN.match
    while pos < end:
        m = match(text, pos)
        if m is None:
            raise FznError(f"unexpected character {text[pos]!r}", line, pos - line_start + 1)
        kind = m.lastgroup
        if kind == "space":
            breaks = text.count("\n", pos, m.end())
            if breaks:
                line += breaks
                line_start = text.rindex("\n", pos, m.end()) + 1
        else:
            word = m.group()
            if kind == "ident" and word in KEYWORDS:
                kind = "keyword"
            tokens.append(Token(kind, word, pos, line, pos - line_start + 1))  # type: ignore[arg-type]
        pos = m.end()
    tokens.append(Token("eof", "", end, line, end - line_start + 1))
    return tokens


def unescape(tok: Token) -> str:
    """The text of a string literal token (FznError at an escape MiniZinc does not have)."""
    body = tok.text[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    k = 0
    while k < len(body):
        ch = body[k]
        if ch == "\\":
            nxt = body[k + 1]  # the token pattern puts a character after every backslash
            if nxt not in _ESCAPES:
                raise FznError(f"unknown escape \\{nxt} in a string (known: \\n \\t \\\\ "
                               "\\\" \\')", tok.line, tok.column + 1 + k)
            out.append(_ESCAPES[nxt])
            k += 2
        else:
            out.append(ch)
            k += 1
    return "".join(out)


# -------------------------------------------------------------------------------- parser

_CLOSER = {"array": "]", "set": "}", "call": ")"}


class Parser:
    """Recursive descent over items (whose depth is fixed); an explicit stack for nested
    expressions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.i = 0
        self.array_variables = 0  # variables declared by arrays without a value

    # -- helpers
    def line(self, tok: Token | None = None) -> int:
        return (tok or self.tokens[self.i]).line

    def place(self, tok: Token | None = None) -> Place:
        tok = tok or self.tokens[self.i]
        return tok.line, tok.column

    def error(self, message: str, tok: Token | None = None) -> FznError:
        tok = tok or self.tokens[self.i]
        return FznError(message, tok.line, tok.column)

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
        try:
            return int_value(tok.text)
        except ValueError as e:
            raise self.error(str(e), tok) from None

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
            raise self.error("no solve item (solve satisfy; minimize or maximize)")
        return fzn

    def skip_item(self) -> None:
        while self.peek().kind != "eof" and not self.at(";"):
            self.next()
        self.expect(";")

    def annotations(self) -> list:
        found = []
        while self.at("::"):
            self.next()
            found.append(self.expr(value=False))
        return found

    def constraint(self) -> Constraint:
        start = self.expect("constraint")
        name = self.ident()
        self.expect("(")
        args: list = []
        places: list[Place] = []
        if not self.at(")"):
            places.append(self.place())
            args.append(self.expr())
            while self.at(","):
                self.next()
                places.append(self.place())
                args.append(self.expr())
        self.expect(")")
        ann = self.annotations()
        self.expect(";")
        return Constraint(name, tuple(args), ann, start.line, start.column, tuple(places))

    def solve_item(self) -> SolveItem:
        start = self.expect("solve")
        ann = self.annotations()
        tok = self.next()
        place = None
        if tok.text == "satisfy":
            kind, objective = "satisfy", None
        elif tok.text in ("minimize", "maximize"):
            place = self.place()
            kind, objective = tok.text, self.expr()
        else:
            raise self.error(f"expected satisfy, minimize or maximize, found {tok.text!r}", tok)
        self.expect(";")
        return SolveItem(kind, objective, ann, start.line, start.column, place)

    def array_length(self) -> int:
        """`array [1..n] of`: n, checked before anything of that size exists."""
        self.next()
        self.expect("[")
        lo_tok = self.peek()
        lo = self.int_literal()
        self.expect("..")
        hi_tok = self.peek()
        hi = self.int_literal()
        self.expect("]")
        self.expect("of")
        if lo != 1:
            raise self.error(f"array index set {lo}..{hi}: FlatZinc arrays start at 1", lo_tok)
        if hi < 0:
            raise self.error(f"array index set 1..{hi}: an array has 0 or more elements",
                             hi_tok)
        if hi > MAX_ARRAY:
            raise self.error(f"an array of {hi} elements: at most {MAX_ARRAY:,} are "
                             "supported", hi_tok)
        return hi

    def declaration(self) -> VarDecl | ParDecl:
        start = self.peek()
        length = self.array_length() if self.at("array") else None
        if self.at("var"):
            self.next()
            is_bool, domain = self.var_type()
            self.expect(":")
            name = self.ident()
            ann = self.annotations()
            value = None
            place = None
            if self.at("="):
                self.next()
                place = self.place()
                value = self.expr()
                self.check_shape(name, value, length, place)
            elif length is not None:
                self.array_variables += length
                if self.array_variables > MAX_ARRAY:
                    raise self.error(f"array {name} brings the variables of the file's "
                                     f"arrays to {self.array_variables:,}: at most "
                                     f"{MAX_ARRAY:,} are supported", start)
            self.expect(";")
            return VarDecl(name, is_bool, domain, ann, value, start.line, length,
                           start.column, place)
        kind = self.par_type()
        self.expect(":")
        name = self.ident()
        self.annotations()
        self.expect("=")
        place = self.place()
        value = self.expr()
        self.check_shape(name, value, length, place)
        self.expect(";")
        return ParDecl(name, value, start.line, start.column, kind, place, length)

    def check_shape(self, name: str, value: object, length: int | None, place: Place) -> None:
        """A declared array's literal has its declared length; a scalar's value is no
        array literal."""
        if length is not None and isinstance(value, list) and len(value) != length:
            raise FznError(f"array {name} is declared with {length} elements but its value "
                           f"has {len(value)}", *place)
        if length is None and isinstance(value, list):
            raise FznError(f"{name} is not an array but its value is an array literal",
                           *place)

    def var_type(self) -> tuple[bool, Range | IntSet | None]:
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
            if not isinstance(value, IntSet):
                raise self.error("a variable's domain is a range or a set of integers", tok)
            return False, value
        raise self.error(f"unknown variable type {tok.text!r}", tok)

    def par_type(self) -> str:
        """The element type of a parameter: int, bool or set."""
        tok = self.next()
        if tok.text in ("int", "bool"):
            return tok.text
        if tok.text == "float":
            raise self.error("float parameters are not supported (conundrum solves integer "
                             "and Boolean problems)", tok)
        if tok.text == "set":
            self.expect("of")
            inner = self.next()
            if inner.text == "int":
                return "set"
            if inner.kind == "int":  # set of 1..5
                self.i -= 1
                self.int_literal()
                self.expect("..")
                self.int_literal()
                return "set"
            raise self.error(f"unsupported parameter type set of {inner.text}", inner)
        if tok.kind == "int":  # a par declared over a range: 1..5: n = 3;
            self.i -= 1
            self.int_literal()
            self.expect("..")
            self.int_literal()
            return "int"
        raise self.error(f"expected a declaration, found {tok.text or 'the end'!r}", tok)

    # -- expressions
    def expr(self, value: bool = True) -> object:
        """One expression; nested literals are parsed with an explicit stack. A `value` (an
        argument, a declaration's value, an objective) is a scalar, a set of integers, or a
        flat array of them; only annotations nest and call."""
        stack: list[list] = []  # [kind, items, call name, opening token]
        while True:
            tok = self.next()
            result: object
            opened: list[Any] | None = None
            if tok.text == "[" and tok.kind == "punct":
                opened = ["array", [], "", tok]
            elif tok.text == "{" and tok.kind == "punct":
                opened = ["set", [], "", tok]
            elif tok.kind == "ident" and self.at("("):
                if value:
                    raise self.error(f"{tok.text}(...) is an annotation, not a value", tok)
                self.next()
                opened = ["call", [], tok.text, tok]
            if opened is not None:
                if stack and (value or stack[-1][0] == "set"):
                    if stack[-1][0] == "set":
                        raise self.error(f"a set literal holds integers and ranges, not "
                                         f"{tok.text!r}", tok)
                    raise self.error(f"{'an array' if opened[0] == 'array' else 'a set'} "
                                     "inside an array: FlatZinc arrays are flat", tok)
                if self.at(_CLOSER[opened[0]]):
                    self.next()
                    result = self._close(opened)
                else:
                    stack.append(opened)
                    continue
            else:
                result = self.atom(tok, value)
                if stack and stack[-1][0] == "set" and not (
                        isinstance(result, int | Range) and not isinstance(result, bool)):
                    raise self.error("a set literal holds integers and ranges", tok)
            while True:  # reduce: attach the value to the innermost open literal
                if not stack:
                    return result
                frame = stack[-1]
                frame[1].append(result)
                sep = self.next()
                if sep.text == "," and sep.kind == "punct":
                    break
                if sep.text == _CLOSER[frame[0]] and sep.kind == "punct":
                    stack.pop()
                    result = self._close(frame)
                    continue
                raise self.error(f"expected ',' or {_CLOSER[frame[0]]!r}, found "
                                 f"{sep.text or 'the end'!r}", sep)

    @staticmethod
    def _close(frame: list) -> object:
        kind, items, name, _ = frame
        if kind == "array":
            return items
        if kind == "call":
            return Call(name, tuple(items))
        # a set: its elements were checked to be integers or ranges as they were read
        return IntSet.of([(x.lo, x.hi) if isinstance(x, Range) else (x, x) for x in items])

    def atom(self, tok: Token, value: bool = True) -> object:
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
            if value:
                raise self.error("a string is not a value (strings are for annotations)", tok)
            return Str(unescape(tok))
        if tok.kind == "ident":
            if self.at("["):
                self.next()
                index = self.int_literal()
                self.expect("]")
                return Access(tok.text, index)
            return Name(tok.text)
        raise self.error(f"unexpected {tok.text or 'end of input'!r}", tok)


_CHUNK = 4000  # decimal digits per int() call: under Python's limit of 4300 digits


def int_value(text: str) -> int:
    """The value of an integer literal: decimal (leading zeros allowed), 0x hex, 0o octal.
    Decimal literals longer than Python's own conversion limit are read in chunks, exactly;
    one of more than MAX_DIGITS digits is refused (ValueError) before any arithmetic."""
    digits = text.lstrip("-")
    base = {"0x": 16, "0o": 8}.get(digits[:2], 10)
    if base != 10:
        digits = digits[2:]
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(digits):,} digits: at most {MAX_DIGITS:,} are "
                         "supported")
    if base != 10 or len(digits) <= _CHUNK:
        value = int(digits, base)  # hex and octal have no length limit in Python
    else:
        value = 0
        for k in range(0, len(digits), _CHUNK):
            part = digits[k:k + _CHUNK]
            value = value * 10 ** len(part) + int(part)
    return -value if text.startswith("-") else value


def parse(text: str) -> FlatZinc:
    """Parse a FlatZinc text (FznError, with the line and column, on anything unreadable)."""
    return Parser(text).parse()
