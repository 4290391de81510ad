"""The alphametic front-end: tokenizer, precedence parser, and counts compared with brute
force (exact arithmetic with fractions, written independently here)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from conundrum.puzzles.alphametic import Options, Source, parse, split_equations, tokenize
from conundrum.puzzles.base import PuzzleError


def tree(text: str) -> str:
    """The parse tree of one equation as a bracketed string (iterative walk)."""
    (eq,) = split_equations([Source(text, "t")])
    out: list[str] = []
    stack: list[object] = [eq.tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        if item.kind in ("num", "word"):
            out.append(item.tok.text)
            continue
        stack.append(")")
        for k, child in reversed(list(enumerate(item.args))):
            stack.append(child)
            if k:
                stack.append(" ")
        stack.append("(" + (item.tok.value if item.kind == "rel" else item.kind) + " ")
    return "".join(out)


@pytest.mark.parametrize(("text", "expected"), [
    ("A + B * C = D", "(== (+ A (* B C)) D)"),
    ("A - B - C = D", "(== (- (- A B) C) D)"),
    ("A ** 2 ** 3 = B", "(== (** A (** 2 3)) B)"),
    ("-A ** 2 = B", "(== (neg (** A 2)) B)"),
    ("A * -B = C", "(== (* A (neg B)) C)"),
    ("(A + B) * C = D", "(== (* (+ A B) C) D)"),
    ("A : B ÷ C × D − E = F", "(== (- (* (/ (/ A B) C) D) E) F)"),
    ("A // B % C = D", "(== (% (// A B) C) D)"),
    ("A #= B / C", "(#== A (/ B C))"),
    ("A $< B", "($< A B)"),
    ("A ≠ B", "(!= A B)"),
    ("A ≤ B", "(<= A B)"),
    ("A >= B", "(>= A B)"),
])
def test_precedence(text, expected):
    assert tree(text) == expected


def test_tokenizer_reads_unicode_words_and_columns():
    toks = tokenize(Source("ДВА + ΔΥΟ = 5", "t"))
    assert [(t.kind, t.text, t.pos) for t in toks] == [
        ("word", "ДВА", 0), ("op", "+", 4), ("word", "ΔΥΟ", 6), ("rel", "=", 10),
        ("num", "5", 12), ("end", "", 13)]


def test_deep_nesting_is_refused_not_a_recursion_error():
    with pytest.raises(PuzzleError, match="nested too deeply"):
        split_equations([Source("(" * 150 + "A" + ")" * 150 + " = B", "t")])
    # long flat input is fine (no recursion): 2000 terms
    tree_text = tree(" + ".join(["A"] * 2000) + " = B")
    assert tree_text.count("A") == 2000


def count(text: str, **opts) -> int:
    return parse([Source(text, "t")], Options(**opts)).model.count()


def brute(letters: str, digits: range, pred, distinct=True, nonzero: str = "") -> int:
    n = 0
    pool = itertools.permutations(digits, len(letters)) if distinct else itertools.product(
        digits, repeat=len(letters))
    for values in pool:
        env = dict(zip(letters, values, strict=True))
        if any(env[ch] == 0 for ch in nonzero):
            continue
        try:
            ok = pred(**env)
        except ZeroDivisionError:
            ok = False
        n += bool(ok)
    return n


F = Fraction


@pytest.mark.parametrize(("text", "opts", "letters", "digits", "pred", "distinct", "nonzero"), [
    ("AB + BA = CDC", {}, "ABCD", range(10),
     lambda A, B, C, D: 11 * (A + B) == 101 * C + 10 * D, True, "ABC"),
    ("AB + BA = CDC", {"leading_zeros": True}, "ABCD", range(10),
     lambda A, B, C, D: 11 * (A + B) == 101 * C + 10 * D, True, ""),
    ("AB + BA = CC", {"base": 6}, "ABC", range(6),
     lambda A, B, C: 7 * (A + B) == 7 * C, True, "ABC"),
    ("A/B + C/D = 1", {"digits": (1, 6)}, "ABCD", range(1, 7),
     lambda A, B, C, D: F(A, B) + F(C, D) == 1, True, ""),
    ("A/B + C/D = 1", {"digits": (1, 6), "integral": True}, "ABCD", range(1, 7),
     lambda A, B, C, D: A % B == 0 and C % D == 0 and A // B + C // D == 1, True, ""),
    ("A/B + C/D $= 1", {"digits": (1, 6), "integral": True}, "ABCD", range(1, 7),
     lambda A, B, C, D: F(A, B) + F(C, D) == 1, True, ""),
    ("A // B = C % 4", {"distinct": False}, "ABC", range(10),
     lambda A, B, C: A // B == C % 4, False, ""),
    ("A ** 2 + B ** 2 = C ** 2", {"digits": (1, 9)}, "ABC", range(1, 10),
     lambda A, B, C: A * A + B * B == C * C, True, ""),
    ("-A × B − C ÷ D = -5", {"digits": (1, 5)}, "ABCD", range(1, 6),
     lambda A, B, C, D: -A * B - F(C, D) == -5, True, ""),
    ("AB < BA", {}, "AB", range(10), lambda A, B: 10 * A + B < 10 * B + A, True, "AB"),
    ("A - B != 2, A >= B", {"digits": (0, 4)}, "AB", range(5),
     lambda A, B: A - B != 2 and A >= B, True, ""),
])
def test_counts_match_brute_force(text, opts, letters, digits, pred, distinct, nonzero):
    assert count(text, **opts) == brute(letters, digits, pred, distinct, nonzero)


def test_fix_and_distinct_letters():
    p = parse([Source("A + B = C", "t")], Options(fix=[("A", 2)], digits=(0, 4)))
    sols = [s.as_dict() for s in p.model.solutions()]
    assert sols and all(s["A"] == 2 and s["A"] + s["B"] == s["C"] for s in sols)
    assert all(len(set(s.values())) == 3 for s in sols)


def test_render_substitutes_digits_in_base():
    p = parse([Source("AB + BA = CC", "t")], Options(base=16, fix=[("A", 10), ("B", 3)]))
    sol = p.model.solve()
    assert sol is not None and sol["C"] == 13
    assert p.render(sol).splitlines() == ["A3 + 3A = DD", " A B  C", "10 3 13"]


def test_cyrillic_alphametic():
    p = parse([Source("ОДИН + ОДИН = МНОГО", "t")], Options())
    sol = p.model.solve()
    assert sol is not None
    v = p.to_json(sol)
    assert set(v) == set("ОДИНМГ")

    def num(word: str) -> int:
        return int("".join(str(v[ch]) for ch in word))

    assert num("ОДИН") * 2 == num("МНОГО")
