"""Helpers shared by every system's models: reading an instance's structure, and the
line protocol every system prints (COUNT n | SOL v1 v2 ... | OBJ v | TIME s | NODES n)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from instances import Instance, letters_of, words_of


@dataclass
class Report:
    """What one run printed, parsed back."""

    count: int | None = None
    solutions: list[tuple[int, ...]] = field(default_factory=list)
    objective: int | None = None
    solver_time: float | None = None
    nodes: int | None = None  # search nodes as the system counts them (see README)
    search_time: float | None = None  # the solver's time without a separate compile step
    notes: list[str] = field(default_factory=list)
    proved: bool | None = None  # hard section: optimality (or the answer) proved

    def lines(self) -> list[str]:
        out = [f"SOL {' '.join(map(str, s))}" for s in self.solutions]
        if self.count is not None:
            out.append(f"COUNT {self.count}")
        if self.objective is not None:
            out.append(f"OBJ {self.objective}")
        if self.solver_time is not None:
            out.append(f"TIME {self.solver_time:.6f}")
        if self.nodes is not None:
            out.append(f"NODES {self.nodes}")
        if self.proved is not None:
            out.append(f"PROVED {int(self.proved)}")
        return out


def parse_report(text: str) -> Report:
    """Read the protocol lines out of a process's standard output."""
    rep = Report()
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        tag, rest = parts[0], parts[1:]
        try:
            if tag == "SOL":
                rep.solutions.append(tuple(int(v) for v in rest))
            elif tag == "COUNT":
                rep.count = int(rest[0])
            elif tag == "OBJ":
                rep.objective = int(rest[0])
            elif tag == "TIME":
                rep.solver_time = float(rest[0])
            elif tag == "NODES":
                rep.nodes = int(rest[0])
            elif tag == "PROVED":
                rep.proved = bool(int(rest[0]))
        except (ValueError, IndexError):
            rep.notes.append(f"unparsable line: {line[:80]}")
    return rep


# ------------------------------------------------------------------ alphametics

@dataclass
class Alpha:
    """An additive alphametic WORD+...+WORD=WORD."""

    letters: tuple[str, ...]
    addends: list[str]
    result: str
    leading: set[str]

    def coefficients(self) -> dict[str, int]:
        """Letter -> coefficient of the equation sum(addends) - result == 0."""
        coef = dict.fromkeys(self.letters, 0)
        for w in self.addends:
            for k, ch in enumerate(reversed(w)):
                coef[ch] += 10 ** k
        for k, ch in enumerate(reversed(self.result)):
            coef[ch] -= 10 ** k
        return coef


def alpha(inst: Instance) -> Alpha:
    eq = inst.params["equation"]
    addends, result = words_of(eq)
    lead = {w[0] for w in [*addends, result] if len(w) > 1}
    return Alpha(letters_of(eq), addends, result, lead)


def word_terms(word: str) -> list[tuple[int, str]]:
    """'SEND' -> [(1000, 'S'), (100, 'E'), (10, 'N'), (1, 'D')]."""
    return [(10 ** (len(word) - 1 - k), ch) for k, ch in enumerate(word)]


# ------------------------------------------------------------------ equation grid

EQ_RE = re.compile(r"^\s*([A-Z]+)\s*([-+*/])\s*([A-Z]+)\s*=\s*([A-Z]+)\s*$")


def eq_parts(equation: str) -> tuple[str, str, str, str]:
    """'P*XYZ = XUTU' -> ('P', '*', 'XYZ', 'XUTU')."""
    m = EQ_RE.match(equation)
    assert m, equation
    return m.group(1), m.group(2), m.group(3), m.group(4)


def eq_leading(equations: Iterable[str]) -> set[str]:
    """First letters of words of two or more letters."""
    out = set()
    for eq in equations:
        for w in re.findall(r"[A-Z]+", eq):
            if len(w) > 1:
                out.add(w[0])
    return out


def eq_words(equations: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for eq in equations:
        for w in re.findall(r"[A-Z]+", eq):
            if w not in seen:
                seen.append(w)
    return seen


# ------------------------------------------------------------------ sudoku

def boxes(n: int) -> list[list[tuple[int, int]]]:
    b = int(round(n ** 0.5))
    return [[(br + i, bc + j) for i in range(b) for j in range(b)]
            for br in range(0, n, b) for bc in range(0, n, b)]


def announce(objective: int) -> None:
    """Print an improving solution's objective at once (`IMPROVE v`): the runner stamps
    each line as it arrives, which gives the objective-over-time of the hard section."""
    print(f"IMPROVE {objective}", flush=True)


def time_limit() -> float | None:
    """The hard section's limit inside a run (BENCH_TIME_LIMIT, set by run.py a few seconds
    under --timeout), so that a model reports its best solution instead of being killed."""
    import os
    v = os.environ.get("BENCH_TIME_LIMIT")
    return float(v) if v else None


def extra_options() -> dict:
    """Search options for conundrum's models from BENCH_CN_OPTIONS (a JSON object, set by
    run.py --cn-options), e.g. {"restarts": "luby"}; none by default."""
    import json
    import os
    v = os.environ.get("BENCH_CN_OPTIONS")
    return json.loads(v) if v else {}


def golomb_ub(n: int) -> int:
    return n * n
