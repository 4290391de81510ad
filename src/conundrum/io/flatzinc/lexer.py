"""FlatZinc text -> tokens, and the exact value of an integer literal.

An integer literal has at most MAX_DIGITS digits, checked before any arithmetic.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from conundrum.io.flatzinc.errors import FznError
from conundrum.io.flatzinc.items import Record

MAX_DIGITS = 100_000  # digits of an integer literal (read exactly, in chunks)

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


class Token(Record):
    """One token: its kind (int, float, ident, keyword, string, punct, dotdot, eof), its
    text, and the offset where it starts (its line and column: `Lines.place`, computed
    only for the few tokens that need them, not counted for every token)."""

    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind: str, text: str, pos: int) -> None:
        self.kind = kind
        self.text = text
        self.pos = pos


class Lines:
    """The line and column of an offset in a text, by bisection over its line breaks."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def place(self, pos: int) -> tuple[int, int]:
        """(line, column) of the offset pos, both counted from 1."""
        line = bisect_right(self.starts, pos)
        return line, pos - self.starts[line - 1] + 1


def tokenize(text: str) -> list[Token]:
    """The tokens of a FlatZinc text, ending with an `eof` token. (Large models have
    hundreds of thousands of tokens: one regular-expression scan, one small object each.)"""
    tokens: list[Token] = []
    append = tokens.append
    keywords = KEYWORDS
    end = 0
    for m in _TOKEN.finditer(text):
        if m.start() != end:  # finditer skipped something no token matches
            break
        end = m.end()
        kind = m.lastgroup
        if kind == "space":
            continue
        word = m.group()
        if kind == "ident" and word in keywords:
            kind = "keyword"
        append(Token(kind, word, m.start()))  # type: ignore[arg-type]
    if end < len(text):
        line, column = Lines(text).place(end)
        raise FznError(f"unexpected character {text[end]!r}", line, column)
    append(Token("eof", "", len(text)))
    return tokens


def unescape(tok: Token, lines: Lines) -> str:
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
                               "\\\" \\')", *lines.place(tok.pos + 1 + k))
            out.append(_ESCAPES[nxt])
            k += 2
        else:
            out.append(ch)
            k += 1
    return "".join(out)


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
