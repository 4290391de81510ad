"""Steps in words: variables by name, constraints by label, and the classic names of the
deductions on an all_different (a Sudoku row, column or box; a Futoshiki line; a cage).

Whatever the puzzle, a step on one all_different reads as a puzzle solver would say it:

* ``r1c5 = 3 rules 3 out of row 1: r1c2, r1c7`` (a placed value);
* ``r4c7 = 5: the only place left for 5 in box 6`` (a hidden single);
* ``r2c3, r2c4 hold {3, 7}: naked pair in row 2, so ...`` (a naked subset);
* ``3 and 7 can only go in r2c3, r2c4 in row 2: hidden pair, so ...`` (a hidden subset);

and a variable left with one value is named with it (``so r1c1 = 5, the only value
left``). Other constraints are cited by their label (``Model.add(..., label=...)``) or
their formula.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from conundrum.explain.facts import CASE_SPLIT, COMBINATION, SEARCH, Fact, Step
from conundrum.lang.expr import Expr, render
from conundrum.lang.globals import AllDifferent

_SUBSET = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


def _values(values: Sequence[int]) -> str:
    vals = [str(v) for v in sorted(values)]
    return vals[0] if len(vals) == 1 else ", ".join(vals[:-1]) + " and " + vals[-1]


class Wording:
    """Names for a model's variables and constraints, and the text of its steps."""

    def __init__(self, model: object, names: dict[int, str] | None = None,
                 labels: dict[int, str] | None = None,
                 reasons: dict[int, str] | None = None,
                 value_words: dict[int, str] | None = None) -> None:
        self.constraints: list[Expr] = list(model.constraints)  # type: ignore[attr-defined]
        variables = model.variables  # type: ignore[attr-defined]
        self.names = {v.index: v.name or f"x{v.index}" for v in variables}
        self.names.update(names or {})
        self.labels = dict(getattr(model, "labels", {}) or {})
        self.labels.update(labels or {})
        # why a constraint alone, with no earlier facts, settles a value (by position)
        self.reasons = dict(reasons or {})
        # the puzzle's words for the values of its cells: {1: "filled", 0: "empty"}
        self.value_words = dict(value_words or {})
        self.declared = {v.index: (set(v.domain_values) if v.domain_values is not None
                                   else None, v.lo, v.hi) for v in variables}

    # ------------------------------------------------------------------ pieces
    def label(self, pos: int) -> str:
        return self.labels.get(pos) or render(self.constraints[pos])

    def _state(self, f: Fact) -> str | None:
        """A fact in the puzzle's words (``filled``, ``empty``; ``x ≠ 1`` on a two-valued
        cell is the other value's word), or None when the puzzle has no word for it."""
        value, equal = f.value, f.equal
        if not equal:
            values, lo, hi = self.declared[f.var]
            both = values if values is not None else set(range(lo, hi + 1))
            if len(both) == 2 and value in both:
                value, equal = next(iter(both - {value})), True
        word = self.value_words.get(value)
        if word is None:
            return None
        return word if equal else f"not {word}"

    def fact(self, f: Fact) -> str:
        state = self._state(f) if self.value_words else None
        if state is not None:
            return f"{self.names[f.var]} {state}"
        return f"{self.names[f.var]} {'=' if f.equal else '≠'} {f.value}"

    def facts(self, facts: Sequence[Fact]) -> str:
        """Facts grouped per variable: ``a = 3, b ≠ 1, 2``; in a puzzle's words, grouped
        per state: ``r1c1, r1c2 filled; r1c3 empty``."""
        states = [self._state(f) for f in facts] if self.value_words else [None]
        if None not in states:
            by_state: dict[str, list[str]] = {}
            for f, state in zip(facts, states, strict=True):
                by_state.setdefault(str(state), []).append(self.names[f.var])
            return "; ".join(f"{', '.join(cells)} {state}" for state, cells in by_state.items())
        parts: list[str] = []
        by_var: dict[int, list[Fact]] = {}
        for f in facts:
            by_var.setdefault(f.var, []).append(f)
        for var, fs in by_var.items():
            eq = [f for f in fs if f.equal]
            ne = [f for f in fs if not f.equal]
            parts += [self.fact(f) for f in eq]
            if ne:
                parts.append(f"{self.names[var]} ≠ {', '.join(str(f.value) for f in ne)}")
        return "; ".join(parts)

    def cells(self, variables: Sequence[int]) -> str:
        return ", ".join(self.names[v] for v in variables)

    def _candidates(self, var: int, facts: Sequence[Fact]) -> set[int] | None:
        """The values the cited facts leave to a variable (None if unknown)."""
        values, lo, hi = self.declared[var]
        if values is None:
            if hi - lo > 4096:
                return None
            values = set(range(lo, hi + 1))
        left = set(values)
        for f in facts:
            if f.var == var:
                left = {f.value} & left if f.equal else left - {f.value}
        return left

    def _placed(self, step: Step) -> str:
        fixed = [f for f in step.derived if f.equal]
        if not fixed:
            return ""
        if len(fixed) == 1:
            return f"; so {self.fact(fixed[0])}, the only value left"
        return f"; so {', '.join(self.fact(f) for f in fixed)}, the only values left"

    # ------------------------------------------------------------------ steps
    def step(self, step: Step) -> str:
        """The step in words (one line)."""
        if step.kind == CASE_SPLIT:
            return self.case_split(step)
        if step.kind == SEARCH:
            return self.search(step)
        if step.contradiction:
            given = f"with {self.facts(step.facts)}" if step.facts else "whatever the values"
            return f"contradiction: {self._labels(step)} cannot hold {given}"
        if len(step.constraints) == 1 and not step.facts and \
                step.constraints[0] in self.reasons:
            return f"{self.facts(self._derived(step))}: {self.reasons[step.constraints[0]]}"
        if len(step.constraints) == 1:
            c = self.constraints[step.constraints[0]]
            if isinstance(c, AllDifferent):
                text = self.all_different(step)
                if text:
                    return text
        if step.kind == COMBINATION:
            text = self.pointing(step)
            if text:
                return text
        return self.generic(step)

    def _labels(self, step: Step) -> str:
        return " and ".join(self.label(p) for p in step.constraints)

    def generic(self, step: Step) -> str:
        given = f" from {self.facts(step.facts)}" if step.facts else ""
        return f"{self.facts(self._derived(step))}: by {self._labels(step)}{given}"

    @staticmethod
    def _derived(step: Step) -> Sequence[Fact]:
        return step.derived or step.removed

    def all_different(self, step: Step) -> str | None:
        unit = self.label(step.constraints[0])
        placed = [f for f in step.facts if f.equal]
        ruled = [f for f in step.facts if not f.equal]
        removed_values = {f.value for f in step.removed}
        if not ruled and len(placed) == 1 and removed_values == {placed[0].value}:
            v = placed[0].value
            return (f"{self.fact(placed[0])} rules {v} out of {unit}: "
                    f"{self.cells(sorted({f.var for f in step.removed}))}{self._placed(step)}")
        fixed = [f for f in step.derived if f.equal]
        ruled_values = {f.value for f in ruled}
        if len(fixed) == 1 and ruled_values == {fixed[0].value} and len(step.derived) == 1:
            f = fixed[0]
            return f"{self.fact(f)}: the only place left for {f.value} in {unit}"
        # subsets: k cells whose cited candidates are k values
        cited = sorted({f.var for f in ruled})
        touched = sorted({f.var for f in step.removed})
        cands = {v: self._candidates(v, step.facts) for v in cited}
        if cited and all(c is not None for c in cands.values()):
            union = set().union(*(c for c in cands.values() if c is not None))
            if len(union) == len(cited) and not set(touched) & set(cited):
                name = _SUBSET.get(len(cited), f"set of {len(cited)}")
                return (f"{self.cells(cited)} hold {{{', '.join(map(str, sorted(union)))}}}: "
                        f"naked {name} in {unit}, so {_values(sorted(removed_values))} "
                        f"{'is' if len(removed_values) == 1 else 'are'} ruled out of "
                        f"{self.cells(touched)}{self._placed(step)}")
        confined = {f.value for f in ruled if f.var not in touched}
        if touched and len(touched) == len(confined) <= 4 and not removed_values & confined:
            name = _SUBSET.get(len(touched), f"set of {len(touched)}")
            return (f"{_values(sorted(confined))} can only go in {self.cells(touched)} in "
                    f"{unit}: hidden {name}, so the other values are ruled out there"
                    f"{self._placed(step)}")
        return None

    def pointing(self, step: Step) -> str | None:
        """Two units and one value: within the first, the value lies only where it meets
        the second, so the rest of the second loses it."""
        values = {f.value for f in step.removed}
        if len(values) != 1 or any(f.equal for f in step.facts):
            return None
        v = next(iter(values))
        if any(f.value != v for f in step.facts):
            return None
        a, b = step.constraints
        removed_vars = {f.var for f in step.removed}
        # the unit the value was ruled out of is the one the removals lie in; the other is
        # where it is confined
        inside = [p for p in (a, b) if not removed_vars <= self._scope(p)]
        confined = inside[0] if inside else a
        other = b if confined == a else a
        return (f"{v} in {self.label(confined)} can only be where it meets "
                f"{self.label(other)}, so {v} is ruled out of "
                f"{self.cells(sorted(removed_vars))}{self._placed(step)}")

    def _scope(self, pos: int) -> set[int]:
        from conundrum.explain.entail import scope_of

        return {v.index for v in scope_of(self.constraints[pos])}

    def search(self, step: Step) -> str:
        """A refutation tree, branches in brackets: ``suppose x = 3: ...; y is 1 or 2:
        [if y = 1: ...; contradiction ...] [if y = 2: ...]; so x ≠ 3``."""
        assert step.assumption is not None
        parts = [f"no case split on one supposition is left; suppose "
                 f"{self.fact(step.assumption)}: "]
        stack: list[tuple[str, object]] = [("node", step)]
        while stack:
            kind, item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
                continue
            node = item
            assert isinstance(node, Step)
            parts.append("; ".join(self.step(link) for link in node.chain))
            if node.branches:
                first = node.branches[0].assumption
                assert first is not None
                values = [str(b.assumption.value) for b in node.branches
                          if b.assumption is not None]
                parts.append(f"{'; ' if node.chain else ''}{self.names[first.var]} is "
                             f"{' or '.join(values)}: ")
                seq: list[tuple[str, object]] = []
                for b in node.branches:
                    assert b.assumption is not None
                    seq += [("text", f"[if {self.fact(b.assumption)}: "), ("node", b),
                            ("text", "] ")]
                stack.extend(reversed(seq))
        parts.append(f"; so {self.fact(step.assumption.negation())}")
        return "".join(parts)

    def case_split(self, step: Step) -> str:
        assert step.assumption is not None
        links = "; ".join(self.step(link) for link in step.chain)
        return (f"no simpler step is left; suppose {self.fact(step.assumption)}: {links}; so "
                f"{self.fact(step.assumption.negation())}")


def describe_all(steps: Sequence[Step], wording: Wording) -> None:
    """Fill in each step's text (and its chain's)."""
    stack = list(steps)
    while stack:
        s = stack.pop()
        s.text = wording.step(s)
        stack.extend(s.chain)
        stack.extend(s.branches)


Describer = Callable[[Step], str]


def fact_json(f: Fact, names: dict[int, str]) -> dict[str, object]:
    """A fact as a JSON-ready dict: ``{"variable": "r1c3", "value": 2, "equal": true}``."""
    return {"variable": names[f.var], "value": f.value, "equal": f.equal}


def step_json(k: int, step: Step, names: dict[int, str],
              labels: Callable[[int], str]) -> dict[str, object]:
    """Step `k` (from 1) as a JSON-ready dict, as ``--explain --json`` prints it and the
    puzzle page shows it: its text, technique, derived facts, constraints (by `labels`)
    and the earlier facts it cites (variables by `names`)."""
    out: dict[str, object] = {
        "step": k, "text": step.text, "technique": step.technique,
        "derived": [fact_json(f, names) for f in step.derived],
        "constraints": [labels(p) for p in step.constraints],
        "facts": [fact_json(f, names) for f in step.facts]}
    if step.assumption is not None:
        out["supposition"] = fact_json(step.assumption, names)
    return out
