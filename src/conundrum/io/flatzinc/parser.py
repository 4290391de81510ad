"""FlatZinc text -> items: the grammar of a file, read from the tokens of lexer.py into the
data classes of items.py.

FlatZinc (what MiniZinc 2.6+ writes for a solver) is a flat list of items ended by `;`:
predicate declarations, parameters, variables, constraints and one solve item. Expressions
nest only in annotations (a value is a scalar, a set, or a flat array of them), and are
parsed with an explicit stack, so no input can exhaust Python's recursion limit.

Sizes are checked before anything is allocated: sets stay lists of ranges (IntSet), an
array has at most MAX_ARRAY elements, the variable arrays of a file hold at most
MAX_ARRAY variables in all, and an integer literal has at most MAX_DIGITS digits (lexer.py).

The names of errors.py, items.py and lexer.py are importable from here too, as they were
when this module held them all.
"""

from __future__ import annotations

from typing import Any

from conundrum.io.flatzinc.errors import ArgumentError, FznError
from conundrum.io.flatzinc.items import (
    MAX_SET_UNIVERSE,
    Access,
    Call,
    Constraint,
    FlatZinc,
    IntSet,
    Name,
    ParDecl,
    Place,
    Range,
    SetOf,
    SolveItem,
    Str,
    VarDecl,
)
from conundrum.io.flatzinc.lexer import (
    KEYWORDS,
    MAX_DIGITS,
    Lines,
    Token,
    int_value,
    tokenize,
    unescape,
)

__all__ = [
    "KEYWORDS", "MAX_ARRAY", "MAX_DIGITS", "Access", "ArgumentError", "Call", "Constraint",
    "FlatZinc", "FznError", "IntSet", "Lines", "Name", "ParDecl", "Parser", "Place", "Range",
    "SetOf", "SolveItem", "Str", "Token", "VarDecl", "int_value", "parse", "tokenize",
    "unescape",
]

MAX_ARRAY = 4_000_000  # elements of one array, and variables of all variable arrays

_CLOSER = {"array": "]", "set": "}", "call": ")"}


class Parser:
    """Recursive descent over items (whose depth is fixed); an explicit stack for nested
    expressions."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = tokenize(text)
        self.lines = Lines(text)
        self.i = 0
        self.array_variables = 0  # variables declared by arrays without a value

    # -- helpers
    def line(self, tok: Token | None = None) -> int:
        return self.place(tok)[0]

    def place(self, tok: Token | None = None) -> Place:
        return self.lines.place((tok or self.tokens[self.i]).pos)

    def error(self, message: str, tok: Token | None = None) -> FznError:
        return FznError(message, *self.place(tok))

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
        line, column = self.place(start)
        return Constraint(name, tuple(args), ann, line, column, tuple(places))

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
        return SolveItem(kind, objective, ann, *self.place(start), place)

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
            line, column = self.place(start)
            return VarDecl(name, is_bool, domain, ann, value, line, length, column, place)
        kind = self.par_type()
        self.expect(":")
        name = self.ident()
        self.annotations()
        self.expect("=")
        place = self.place()
        value = self.expr()
        self.check_shape(name, value, length, place)
        self.expect(";")
        line, column = self.place(start)
        return ParDecl(name, value, line, column, kind, place, length)

    def check_shape(self, name: str, value: object, length: int | None, place: Place) -> None:
        """A declared array's literal has its declared length; a scalar's value is no
        array literal."""
        if length is not None and isinstance(value, list) and len(value) != length:
            raise FznError(f"array {name} is declared with {length} elements but its value "
                           f"has {len(value)}", *place)
        if length is None and isinstance(value, list):
            raise FznError(f"{name} is not an array but its value is an array literal",
                           *place)

    def var_type(self) -> tuple[bool, Range | IntSet | SetOf | None]:
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
            self.next()
            self.expect("of")
            inner = self.peek()
            if inner.text in ("set", "bool", "float") or inner.kind == "float":
                raise self.error(f"a set variable holds integers, not {inner.text}", inner)
            if inner.text == "int":
                self.next()
                return False, SetOf(None)
            is_bool, universe = self.var_type()
            if is_bool or not isinstance(universe, Range | IntSet):
                raise self.error("a set variable's universe is a range or a set of integers",
                                 inner)
            if universe.size() > MAX_SET_UNIVERSE:
                raise self.error(f"a set variable over {universe.size():,} elements: at most "
                                 f"{MAX_SET_UNIVERSE:,} are supported", inner)
            return False, SetOf(universe)
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
                # a set literal may sit in an array (an array of sets); nothing else nests
                nested_set = opened[0] == "set" and stack and stack[-1][0] == "array"
                if stack and (value or stack[-1][0] == "set") and not nested_set:
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
            if not value:  # an annotation's argument: restart_geometric(1.5, 100)
                return float(tok.text)
            raise self.error("float values are not supported (conundrum solves integer and "
                             "Boolean problems)", tok)
        if tok.kind == "keyword" and tok.text in ("true", "false"):
            return tok.text == "true"
        if tok.kind == "string":
            if value:
                raise self.error("a string is not a value (strings are for annotations)", tok)
            return Str(unescape(tok, self.lines))
        if tok.kind == "ident":
            if self.at("["):
                self.next()
                index = self.int_literal()
                self.expect("]")
                return Access(tok.text, index)
            return Name(tok.text)
        raise self.error(f"unexpected {tok.text or 'end of input'!r}", tok)


def parse(text: str) -> FlatZinc:
    """Parse a FlatZinc text (FznError, with the line and column, on anything unreadable)."""
    return Parser(text).parse()
