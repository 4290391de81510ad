"""`print(model)`: what a model holds, readable however large it is.

The counts, the variables grouped by domain (a few names of each group), the constraints
counted by kind (`lang.kinds`), then the constraints themselves: all of them when there
are few, the first ones otherwise, each on one line cut to a width.
"""

from __future__ import annotations

from typing import Any

from conundrum.lang.expr import Var, render
from conundrum.lang.kinds import constraint_kind

SHOWN = 10  # constraints printed in full when the model has more
NAMES = 8  # names printed for a group of variables with one domain
WIDTH = 100  # characters of a line


def _cut(text: str) -> str:
    """text cut to WIDTH, after a comma when there is one in its second half."""
    if len(text) <= WIDTH:
        return text
    head = text[:WIDTH - 4]
    comma = head.rfind(", ")
    return (head[:comma + 1] if comma > WIDTH // 2 else head) + " ..."


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _domain(v: Var) -> str:
    values = v.domain_values
    if values is None or len(values) == v.hi - v.lo + 1:
        return f"{v.lo}..{v.hi}"
    return _cut("{" + ", ".join(map(str, values)) + "}")


def _names(start: str, group: list[Var]) -> str:
    """start then the group's names: the first ones, ..., the last one, in WIDTH."""
    names = [v.name or f"_{v.index}" for v in group]
    for first in range(min(len(names), NAMES), 0, -1):
        shown = names if first == len(names) else names[:first - 1] + ["...", names[-1]]
        line = start + ", ".join(shown)
        if len(line) <= WIDTH:
            return line
    return _cut(start + ", ".join(names))


def summary(model: Any) -> str:
    """The text of `print(model)`: counts, variables by domain, constraints by kind, and
    the constraints (the first SHOWN of them when there are more)."""
    variables, constraints = model.variables, model.constraints
    lines = [f"Model: {_plural(len(variables), 'variable')}, "
             f"{_plural(len(constraints), 'constraint')}"]
    if variables:
        lines.append("variables:")
    groups: dict[str, list[Var]] = {}
    for v in variables:
        groups.setdefault(_domain(v), []).append(v)
    for k, (domain, group) in enumerate(groups.items()):
        if k == SHOWN:
            lines.append(f"  ... and {len(groups) - SHOWN} more domains")
            break
        lines.append(_names(f"  {len(group)} in {domain}: ", group))
    kinds: dict[str, int] = {}
    for c in constraints:
        kind = constraint_kind(c)
        kinds[kind] = kinds.get(kind, 0) + 1
    if kinds:
        by_kind = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
        lines.append(_cut("constraints: " + ", ".join(f"{n} {k}" for k, n in by_kind)))
    for k, c in enumerate(constraints[:SHOWN]):
        label = model.labels.get(k)
        lines.append(_cut(f"  {label + ': ' if label else ''}{render(c)}"))
    if len(constraints) > SHOWN:
        lines.append(f"  ... and {len(constraints) - SHOWN} more")
    return "\n".join(lines)
