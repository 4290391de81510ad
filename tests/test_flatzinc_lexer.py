"""The FlatZinc lexer's places: a token keeps only its offset, and `Lines.place` gives the
line and column that counting the line breaks before it gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.io.flatzinc.lexer import Lines, tokenize


def counted(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="ab\n ;", max_size=60), data=st.data())
def test_place_counts_lines_and_columns(text: str, data: st.DataObject) -> None:
    pos = data.draw(st.integers(0, len(text)))
    assert Lines(text).place(pos) == counted(text, pos)


def test_tokens_start_where_their_text_does() -> None:
    text = "var 1..3: x;\n% a comment\n  constraint int_le(x, 2);\nsolve satisfy;\n"
    tokens = tokenize(text)
    assert tokens[-1].kind == "eof" and tokens[-1].pos == len(text)
    for tok in tokens[:-1]:
        assert text.startswith(tok.text, tok.pos)
    first = next(t for t in tokens if t.text == "constraint")
    assert Lines(text).place(first.pos) == (3, 3)
