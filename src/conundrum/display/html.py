"""HTML for notebooks: a solution's values, a model's summary, alphametic equations.

Fragments only (no <html>, no <style>: a style element would restyle the whole notebook),
inline styles, and every text that may come from users escaped by `esc`.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from conundrum.display.layout import Equations
from conundrum.lang.expr import Var
from conundrum.lang.kinds import constraint_kind as constraint_kind  # (importable here)

MAX_VALUES = 400  # values a solution table shows before "... and N more"
MAX_SIDE = 30  # rows or columns of one array shown
FONT = "font-family: Helvetica, Arial, sans-serif"
SOLVED = "#1f5fbf"  # the colour of found values, as in the grid pictures
COLLAPSE = 'style="border-collapse: collapse"'
CELL = "text-align: left; padding: 1px 8px 1px 0"  # notebooks align table cells right

# characters XML 1.0 forbids even escaped (controls but tab and newline, lone surrogates)
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_INDEXED = re.compile(r"^(.*?)((?:\[\d+\])+)$")


def esc(text: object) -> str:
    """Text safe inside HTML and SVG elements and quoted attributes."""
    return _NOT_XML.sub("\ufffd", html.escape(str(text), quote=True))


def table(rows: Iterable[Iterable[str]], head: Sequence[str] = (), cls: str = "") -> str:
    """A table of already escaped cells; `head` the header cells."""
    out = [f'<table class="{cls}" {COLLAPSE}>']
    if head:
        out.append("<tr>" + "".join(f'<th style="{CELL}">{h}</th>' for h in head)
                   + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f'<td style="{CELL}">{c}</td>' for c in row)
                   + "</tr>")
    out.append("</table>")
    return "".join(out)


# --------------------------------------------------------------------------- solutions

def _arrays(items: list[tuple[str, int]]) -> list[tuple[str, Any]]:
    """Group name[i] and name[i][j] values into lists and grids when their indices fill
    0..n-1 (and a whole rectangle); any other value stays (name, value)."""
    groups: dict[tuple[str, int], list[tuple[tuple[int, ...], int]]] = {}
    order: list[tuple[str, Any]] = []
    for name, value in items:
        match = _INDEXED.match(name)
        index = tuple(int(k) for k in match.group(2)[1:-1].split("][")) if match else ()
        if not match or len(index) > 2:
            order.append((name, value))
            continue
        key = (match.group(1), len(index))
        if key not in groups:
            groups[key] = []
            order.append(("", key))  # where the array is shown: at its first value
        groups[key].append((index, value))
    out: list[tuple[str, Any]] = []
    for name, item in order:
        if name:
            out.append((name, item))
            continue
        (base, dims), cells = item, groups[item]
        rows = 1 + max(ix[0] for ix, _ in cells)
        cols = 1 + max(ix[-1] for ix, _ in cells) if dims == 2 else 1
        if len({ix for ix, _ in cells}) == len(cells) == rows * cols:
            grid = [[0] * cols for _ in range(rows)]
            for ix, v in cells:
                grid[ix[0]][ix[-1] if dims == 2 else 0] = v
            out.append((base, grid if dims == 2 else [row[0] for row in grid]))
        else:  # not a full array: its values one by one
            out.extend((base + "".join(f"[{k}]" for k in ix), v) for ix, v in cells)
    return out


def _array_html(name: str, value: list[Any], shown: int) -> tuple[str, int]:
    """A list or grid as a table of at most MAX_SIDE x MAX_SIDE values (and `shown` + the
    values it shows)."""
    grid = value if value and isinstance(value[0], list) else [value]
    rows, cols = len(grid), len(grid[0])
    cell = 'style="border: 1px solid #bbb; padding: 1px 6px; text-align: center"'
    body = []
    for row in grid[:MAX_SIDE]:
        tds = "".join(f"<td {cell}>{v}</td>" for v in row[:MAX_SIDE])
        body.append(f"<tr>{tds}{'<td>…</td>' if cols > MAX_SIDE else ''}</tr>")
    if rows > MAX_SIDE:
        body.append("<tr><td>…</td></tr>")
    size = f"{rows}×{cols}" if grid is value else f"{cols}"
    title = f'<div style="margin: 6px 0 2px"><b>{esc(name)}</b> ({size})</div>'
    table_html = f'<table class="cn-array" {COLLAPSE}>{"".join(body)}</table>'
    return title + table_html, shown + min(rows, MAX_SIDE) * min(cols, MAX_SIDE)


def _count(value: Any) -> int:
    """How many values an entry of `_arrays` holds."""
    if not isinstance(value, list):
        return 1
    return sum(len(row) for row in value) if value and isinstance(value[0], list) else len(value)


def solution_html(sol: Any) -> str:
    """A solution's values: name = value, with name[i][j] variables as a grid and name[i]
    as a list; after MAX_VALUES values, "... and N more"."""
    items = [(v.name or f"_{v.index}", value) for v, value in sol]
    entries = _arrays(items)
    parts: list[str] = []
    scalars: list[tuple[str, str]] = []
    shown = k = 0
    while k < len(entries) and shown < MAX_VALUES:
        name, value = entries[k]
        k += 1
        if isinstance(value, list):
            if scalars:  # the values so far, then the array, in the variables' order
                parts.append(table(scalars, cls="cn-values"))
                scalars = []
            part, shown = _array_html(name, value, shown)
            parts.append(part)
        else:
            scalars.append((f"<b>{esc(name)}</b>", str(value)))
            shown += 1
    if scalars:
        parts.append(table(scalars, cls="cn-values"))
    rest = sum(_count(value) for _, value in entries[k:])
    if rest:
        parts.append(f"<div>… and {rest} more</div>")
    head = f"<div><b>Solution</b> ({_plural(len(items), 'variable')})</div>"
    return f'<div class="cn-solution" style="{FONT}">{head}{"".join(parts)}</div>'


# ------------------------------------------------------------------------------ models

def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _size(v: Var) -> int:
    return len(v.domain_values) if v.domain_values is not None else v.hi - v.lo + 1


def model_html(model: Any) -> str:
    """A model's summary: variables, domain sizes, constraints by kind, the last run."""
    variables, constraints = model.variables, model.constraints
    sizes = [_size(v) for v in variables]
    booleans = sum(v.boolean for v in variables)
    facts = [("variables", f"{len(variables)}" + (f" ({booleans} of them 0/1)" * bool(booleans)))]
    if sizes:
        facts.append(("domain sizes", f"min {min(sizes)}, max {max(sizes)}, "
                                      f"total {sum(sizes)}"))
        # log10 of the product of the sizes: the number of assignments, however large
        facts.append(("search space", f"10<sup>{sum(map(math.log10, sizes)):.1f}</sup> "
                                      "assignments"))
    facts.append(("constraints", f"{len(constraints)} ({len(model.labels)} labelled)"))
    stats = model.stats
    if stats.nodes or stats.solutions or stats.seconds:
        state = esc(stats.status)
        if not stats.complete:
            state += f", stopped by {esc(stats.stopped_by)}"
        facts.append(("last run", f"{_plural(stats.solutions, 'solution')}, {stats.nodes} nodes, "
                                  f"{stats.seconds:.3f} s, {state}"))
    kinds: dict[str, int] = {}
    for c in constraints:
        kind = constraint_kind(c)
        kinds[kind] = kinds.get(kind, 0) + 1
    by_kind = sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))
    parts = [
        f"<div><b>Model</b>: {_plural(len(variables), 'variable')}, "
        f"{_plural(len(constraints), 'constraint')}</div>",
        table([(f"<b>{k}</b>", v) for k, v in facts], cls="cn-facts"),
        table([(esc(k), str(n)) for k, n in by_kind], head=("constraint", "count"),
              cls="cn-kinds") if by_kind else "",
    ]
    return f'<div class="cn-model" style="{FONT}">{"".join(parts)}</div>'


# ---------------------------------------------------------------------------- alphametics

_PLACE = "padding: 0 4px; text-align: center; font-size: 1.3em; font-family: monospace"


def _place(text: str, colour: str = "inherit", extra: str = "") -> str:
    return f'<td class="cn-place" style="{_PLACE}; color: {colour}{extra}">{text}</td>'


def _column_addition(addends: list[list[str]], total: list[str],
                     show: dict[str, str], colour: str) -> str:
    """A column addition, right-aligned, a rule above the total; each letter shown as
    `show` writes it."""
    width = max(len(total), *(len(w) for w in addends))
    rows = []
    for k, word in enumerate([*addends, total]):
        rule = "; border-top: 2px solid #444" if k == len(addends) else ""
        sign = "+" if k == len(addends) - 1 else ""
        cells = [_place("", extra=rule)] * (width - len(word))
        cells += [_place(esc(show[ch]), colour, rule) for ch in word]
        rows.append(f"<tr>{_place(sign)}{''.join(cells)}</tr>")
    return f'<table class="cn-addition" {COLLAPSE}>{"".join(rows)}</table>'


def equations_html(eqs: Equations, sol: Any = None) -> str:
    """Alphametic equations with their letters and, given a solution, its digits: a
    single sum of words as a column addition beside the same in digits, other equations
    with the digit under each letter; then which letter is which digit."""
    letters = {ch: ch for ch in eqs.letters}
    digits = ({ch: eqs.spell(sol[v]) for ch, v in eqs.letters.items()} if sol is not None
              else {})
    if eqs.addition is not None:
        addends, total = eqs.addition
        parts = [_column_addition(addends, total, letters, "inherit")]
        if digits:
            parts += [_place("→"), _column_addition(addends, total, digits, SOLVED)]
        body = "".join(f'<td style="vertical-align: middle">{p}</td>' for p in parts)
        body = f"<table {COLLAPSE}><tr>{body}</tr></table>"
    else:
        body = ""
        for line in eqs.lines:
            tops = [_place(esc(p)) if isinstance(p, str) else
                    "".join(_place(esc(ch)) for ch in p) for p in line]
            rows = [f"<tr>{''.join(tops)}</tr>"]
            if digits:  # the digit under each letter, nothing under the operators
                unders = [_place("") if isinstance(p, str) else
                          "".join(_place(esc(digits[ch]), SOLVED) for ch in p) for p in line]
                rows.append(f"<tr>{''.join(unders)}</tr>")
            body += f'<table class="cn-equation" {COLLAPSE}>{"".join(rows)}</table>'
    key = ""
    if digits:
        box = 'style="border: 1px solid #bbb; padding: 1px 6px; text-align: center"'
        heads = "".join(f"<th {box}>{esc(ch)}</th>" for ch in digits)
        values = "".join(f'<td {box}><span style="color: {SOLVED}">{esc(d)}</span></td>'
                         for d in digits.values())
        key = (f'<table class="cn-key" style="border-collapse: collapse; margin-top: 6px">'
               f"<tr>{heads}</tr><tr>{values}</tr></table>")
    return f'<div class="cn-alphametic" style="{FONT}">{body}{key}</div>'


def text_html(text: str) -> str:
    """Text as it is printed (a puzzle without a picture)."""
    return f'<pre class="cn-text">{esc(text)}</pre>'
