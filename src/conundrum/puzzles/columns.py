"""Column addition with carries: the model an alphametic sum is explained on.

People solve SEND + MORE = MONEY column by column, from the units: D + E = Y + 10·c1,
c1 + N + R = E + 10·c2, and so on, each carry a small number. An explanation over the
whole-word equation would cite one long sum at every step; over the columns, each step cites
one column and a carry, as a person would, and the first step reads "M = 1: a carry into a
new leading digit is 1".

The column model has the same letters (same domains, --fix and all-different) plus one carry
variable per column; the carries follow from the letters, so it has the same solutions.
It exists only for a single equation that adds words up to a word, with one letter per digit
(the default digits of the base).
"""

from __future__ import annotations

from typing import Any

# names of the columns, from the right, in base 10
PLACES = ("units", "tens", "hundreds", "thousands", "ten-thousands", "hundred-thousands",
          "millions", "ten-millions", "hundred-millions", "billions")


def addition(tree: Any) -> tuple[list[str], str] | None:
    """The addend words and the sum word of `tree` (``W1 + W2 + ... = W``, either side),
    or None for any other equation."""
    if tree.kind != "rel" or tree.tok.value.lstrip("#$") != "==":
        return None
    for words_side, sum_side in (tree.args, tree.args[::-1]):
        if sum_side.kind != "word":
            continue
        addends: list[str] = []
        todo = [words_side]
        while todo:
            node = todo.pop()
            if node.kind == "+":
                todo.extend(reversed(node.args))
            elif node.kind == "word":
                addends.append(node.tok.text)
            else:
                break
        else:
            if len(addends) >= 2:
                return addends, sum_side.tok.text
    return None


def column_name(i: int, base: int) -> str:
    """Column i (0 = rightmost) as people name it."""
    if base == 10 and i < len(PLACES):
        return f"{PLACES[i]} column"
    return f"column {i + 1} from the right"


def add_columns(m: Any, var: dict[str, Any], addends: list[list[str]], total: list[str],
                base: int) -> dict[int, str]:
    """Post the column equations of ``addends = total`` (letters most significant first)
    on model `m`, labelled by column. Returns the reason, per constraint position, of a
    column that alone settles a letter: the carry into a new leading digit."""
    import conundrum as cn

    width = max(len(total), *(len(w) for w in addends))
    carry_in: Any = 0
    carry_max = 0
    carry_name = ""
    reasons: dict[int, str] = {}
    for i in range(width):
        column = [w[-1 - i] for w in addends if i < len(w)]
        carry_out_max = ((base - 1) * len(column) + carry_max) // base
        last = i == width - 1
        carry_out: Any = 0
        if not last and carry_out_max > 0:
            carry_out = m.int_var(0, carry_out_max, f"c{i + 1}")
        left_terms = ([carry_in] if carry_name else []) + [var[ch] for ch in column]
        left_text = " + ".join(([carry_name] if carry_name else []) + column) or "0"
        digit = var[total[-1 - i]] if i < len(total) else 0
        right_text = total[-1 - i] if i < len(total) else "0"
        if isinstance(carry_out, int):
            right: Any = digit
        else:
            right = digit + base * carry_out
            right_text += f" + {base}·c{i + 1}"
        left = (0 if not left_terms else left_terms[0] if len(left_terms) == 1
                else cn.sum(left_terms))
        position = len(m.constraints)
        m.add(right == left,
              label=f"the {column_name(i, base)} ({left_text} = {right_text})")
        if not column and i < len(total) and carry_name and carry_max == 1:
            reasons[position] = "a carry into a new leading digit is 1"
        carry_in, carry_max = carry_out, carry_out_max
        carry_name = "" if isinstance(carry_out, int) else f"c{i + 1}"
    return reasons
