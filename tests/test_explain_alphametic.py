"""Alphametic explanations work column by column, with carries: the column model has the
same solutions as the whole-word equation (brute force on random small sums), its
explanations replay in the independent checker, and a new leading digit is explained as
people do ("M = 1: a carry into a new leading digit is 1")."""

from __future__ import annotations

import itertools
import subprocess
import sys

from hypothesis import event, given, settings
from hypothesis import strategies as st

from conundrum.explain import explain
from conundrum.explain.verify import verify
from conundrum.explain.wording import Wording, describe_all
from conundrum.puzzles.alphametic import Options, Source, parse


def puzzle(text: str, **options):
    return parse([Source(text, "test")], Options(**options))


def worded(p) -> list:
    steps = explain(p.explain_model)
    describe_all(steps, Wording(p.explain_model, p.names, reasons=p.reasons))
    return steps


def test_send_more_money_is_explained_by_columns_and_carries() -> None:
    p = puzzle("SEND + MORE = MONEY")
    steps = worded(p)
    verify(p.explain_model, steps)
    assert steps[0].text == "M = 1; c4 = 1: a carry into a new leading digit is 1"
    cited = {p.explain_model.labels.get(c, "") for s in steps for c in s.constraints}
    assert "the units column (D + E = Y + 10·c1)" in cited
    assert "the thousands column (c3 + S + M = O + 10·c4)" in cited
    # the explanation ends at the solution the word model finds
    final = {}
    for s in steps:
        final.update({p.explain_model.variables[f.var].name: f.value for f in s.derived
                      if f.equal})
    sol = p.model.solve()
    assert {ch: final[ch] for ch in "SENDMORY"} == {ch: sol[p.model.variable(ch)]
                                                    for ch in "SENDMORY"}


def test_donald_gerald_robert_replays() -> None:
    p = puzzle("DONALD + GERALD = ROBERT")
    steps = explain(p.explain_model)
    verify(p.explain_model, steps)


def test_other_equations_keep_the_word_model() -> None:
    for text in ("AB * C = DE", "A + B = C + D", "SEND + MORE = MONEY, S = 9", "AB - C = DE"):
        assert puzzle(text).explain_model is None
    assert puzzle("SEND + MORE = MONEY", digits=(0, 9)).explain_model is None
    # the sum may stand on the left, and three addends carry up to 2
    assert puzzle("MONEY = SEND + MORE").explain_model is not None
    three = puzzle("SO + SO + SO = TOO")
    labels = three.explain_model.labels.values()
    assert "the tens column (c1 + S + S + S = O + 10·c2)" in labels
    assert three.reasons == {}  # a carry of up to 2 does not settle the leading digit


WORDS = st.text(alphabet="ABCDE", min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(addends=st.lists(WORDS, min_size=2, max_size=3), total=WORDS,
       base=st.integers(min_value=3, max_value=7), leading_zeros=st.booleans(),
       distinct=st.booleans())
def test_columns_have_the_solutions_of_the_word_equation(addends, total, base, leading_zeros,
                                                         distinct) -> None:
    text = " + ".join(addends) + " = " + total
    try:
        p = puzzle(text, base=base, leading_zeros=leading_zeros, distinct=distinct)
    except ValueError:
        return  # e.g. more letters than digits
    letters = sorted(set("".join(addends) + total))

    def number(word: str, value: dict[str, int]) -> int:
        n = 0
        for ch in word:
            n = n * base + value[ch]
        return n

    brute = set()
    for digits in itertools.product(range(base), repeat=len(letters)):
        value = dict(zip(letters, digits, strict=True))
        if distinct and len(set(digits)) < len(digits):
            continue
        if not leading_zeros and any(len(w) > 1 and value[w[0]] == 0
                                     for w in [*addends, total]):
            continue
        if sum(number(w, value) for w in addends) == number(total, value):
            brute.add(digits)

    def projected(model) -> set[tuple[int, ...]]:
        return {tuple(sol[model.variable(ch)] for ch in letters)
                for sol in model.solutions()}

    event("solutions" if brute else "no solution")
    assert projected(p.model) == brute
    assert p.explain_model is not None
    # the carries follow from the letters: one column solution per letter solution
    assert p.explain_model.count() == len(brute) == len(projected(p.explain_model))


def test_cli_hint_of_an_alphametic() -> None:
    r = subprocess.run([sys.executable, "-m", "conundrum", "alphametic", "SEND+MORE=MONEY",
                        "--hint"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "1. M = 1; c4 = 1: a carry into a new leading digit is 1"
