"""Puzzle generation: a puzzle with exactly one solution (proved by search), minimal in its
clues, optionally of a given grade, written in its command's own input format.

Every family starts from a random solution (the family's empty grid solved with random
value selection) and a set of clues that pins it down:

* Sudoku: every cell given;
* Futoshiki: every < between neighbours (plus givens if those are not enough);
* Skyscrapers: every clue around the grid (plus givens if those are not enough);
* Kakuro: a random layout and a filling whose run sums allow no other (generate_kakuro);
* Killer and KenKen: every cell its own cage; their clues are the walls between cages.
  A merged cage has at most 5 cells (Killer: different digits) or 4 (KenKen, whose merge
  stands if any of its operations, + * and for two cells - /, keeps the puzzle unique).

Then the clues are taken away in a random order, each for good if the puzzle stays unique
(for cages: two neighbouring cages are merged, when their digits differ for Killer and up to
a size limit). Uniqueness is monotone in the clues, so one pass leaves a minimal puzzle: no
clue can be taken away (no two cages merged) without a second solution. With a difficulty,
puzzles are made and graded (Model.difficulty) until one has it, up to `attempts`.

All randomness comes from `random.Random(seed)`: the same seed gives the same puzzle; without
one, a seed is drawn at random and returned (Generated.seed), so that the puzzle can be made
again. Uniqueness is always checked on the text read back by the family's own parser
(unique.py, shared with generate_kakuro.py).

A time or node limit bounds the whole generation (every search it runs, the grading too,
through one Budget): past it, generate raises LimitReached.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from math import isqrt

from ..model.budget import Budget, LimitReached
from ..search.stats import SearchStats
from .base import value_char
from .generate_kakuro import make_kakuro
from .unique import pinned, remove_clues, unique

FAMILIES = ("sudoku", "killer", "kenken", "futoshiki", "skyscrapers", "kakuro")
DIFFICULTIES = ("easy", "medium", "hard", "fiendish")
DEFAULT_SIZE = {"sudoku": 9, "killer": 9, "kenken": 6, "futoshiki": 5, "skyscrapers": 5,
                "kakuro": 8}
SIZES: dict[str, tuple[int, ...]] = {"sudoku": (4, 9, 16), "killer": (4, 9),
                                     "kenken": tuple(range(3, 10)),
                                     "futoshiki": tuple(range(3, 10)),
                                     "skyscrapers": tuple(range(3, 8)),
                                     "kakuro": tuple(range(4, 13))}
MAX_CAGE = {"killer": 5, "kenken": 4}
# cage labels, in order of use: 96, enough for a 9x9 grid of one-cell cages
LABELS = ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
          "αβγδεζηθικλμνξοπρστυφχψωΓΔΘΛΞΠΣΦΨΩ")


@dataclass
class Generated:
    """A generated puzzle: its text (the family's input format), its clue count, its
    grade (None when no difficulty was asked) and the seed that makes it again."""

    text: str
    clues: int
    grade: str | None
    attempts: int
    seed: int = 0


def solution_grid(n: int, box: tuple[int, int] | None, rng: random.Random,
                  budget: Budget | None = None) -> list[list[int]]:
    """A random Latin square (a Sudoku grid with boxes)."""
    from .latin import latin_model

    m, x = latin_model(n, box)
    limits = {} if budget is None else budget.search_limits()
    sol = m.solve(value_select="random", var_select="input_order", seed=rng.randrange(2**31),
                  **limits)
    if budget is not None:
        budget.charge(m.stats)
    assert sol is not None
    return [[sol[v] for v in row] for row in x.rows]


# ------------------------------------------------------------------------ writers

def sudoku_text(grid: list[list[int | None]]) -> str:
    n = len(grid)
    b = isqrt(n)
    lines = []
    for r, row in enumerate(grid):
        cells = ["." if v is None else value_char(v) for v in row]
        lines.append(" | ".join(" ".join(cells[c:c + b]) for c in range(0, n, b)))
        if r % b == b - 1 and r < n - 1:
            lines.append("-+-".join("-" * (2 * b - 1) for _ in range(0, n, b)))
    return "\n".join(lines) + "\n"


def futoshiki_text(grid: list[list[int | None]], relations: set[tuple]) -> str:
    """Relation grid: relations are ((r, c), (r2, c2)) with the first cell smaller."""
    n = len(grid)
    sign: dict[tuple[int, int, int, int], str] = {}
    for (a, b) in relations:
        sign[(*a, *b)] = "<"
        sign[(*b, *a)] = ">"
    lines = []
    for r in range(n):
        s = "." if grid[r][0] is None else value_char(grid[r][0])  # type: ignore[arg-type]
        for c in range(1, n):
            s += sign.get((r, c - 1, r, c), " ")
            s += "." if grid[r][c] is None else value_char(grid[r][c])  # type: ignore[arg-type]
        lines.append(s.rstrip())
        if r < n - 1:
            marks = []
            for c in range(n):
                rel = sign.get((r, c, r + 1, c))
                marks.append("^" if rel == "<" else "v" if rel == ">" else " ")
            lines.append(" ".join(marks).rstrip())
    return "\n".join(lines) + "\n"


def skyscrapers_text(grid: list[list[int | None]], clues: dict[tuple[str, int], int]) -> str:
    n = len(grid)

    def c(side: str, i: int) -> str:
        v = clues.get((side, i))
        return "." if v is None else str(v)

    lines = ["  " + " ".join(c("top", i) for i in range(n))]
    for r in range(n):
        cells = " ".join("." if v is None else str(v) for v in grid[r])
        lines.append(f"{c('left', r)} {cells} {c('right', r)}")
    lines.append("  " + " ".join(c("bottom", i) for i in range(n)))
    return "\n".join(lines) + "\n"


def cage_text(region: list[list[int]], rules: dict[int, str]) -> str:
    """A cage map (labels a-z, A-Z, 0-9 in order of first appearance) and its rules."""
    label: dict[int, str] = {}
    for row in region:
        for cage in row:
            if cage not in label:
                label[cage] = LABELS[len(label)]
    lines = [" ".join(label[cage] for cage in row) for row in region]
    items = [f"{label[cage]}={rules[cage]}" for cage in label]
    lines.append("")
    lines += [" ".join(items[i:i + 9]) for i in range(0, len(items), 9)]
    return "\n".join(lines) + "\n"


def visible(line: list[int]) -> int:
    """How many buildings are seen from the start of the line."""
    seen, top = 0, 0
    for h in line:
        if h > top:
            seen, top = seen + 1, h
    return seen


# ------------------------------------------------------------------ one puzzle

def make_sudoku(n: int, rng: random.Random, budget: Budget | None = None) -> tuple[str, int]:
    b = isqrt(n)
    sol = solution_grid(n, (b, b), rng, budget)
    cells = [(r, c) for r in range(n) for c in range(n)]

    def write(kept: list[tuple[int, int]]) -> str:
        given = set(kept)
        return sudoku_text([[sol[r][c] if (r, c) in given else None for c in range(n)]
                            for r in range(n)])

    kept = remove_clues(cells, write, "sudoku", rng, budget)
    return write(kept), len(kept)


def make_futoshiki(n: int, rng: random.Random, budget: Budget | None = None,
                   ) -> tuple[str, int]:
    sol = solution_grid(n, None, rng, budget)
    relations = []
    for r in range(n):
        for c in range(n):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < n and c2 < n:
                    a, b = (r, c), (r2, c2)
                    relations.append(("rel", (a, b) if sol[r][c] < sol[r2][c2] else (b, a)))
    givens = [("given", (r, c)) for r in range(n) for c in range(n)]

    def write(kept: list[tuple]) -> str:
        given = {pos for kind, pos in kept if kind == "given"}
        rels = {pair for kind, pair in kept if kind == "rel"}
        return futoshiki_text([[sol[r][c] if (r, c) in given else None for c in range(n)]
                               for r in range(n)], rels)

    start = pinned(relations, givens, write, "futoshiki", rng, budget)
    kept = remove_clues(start, write, "futoshiki", rng, budget)
    return write(kept), len(kept)


def make_skyscrapers(n: int, rng: random.Random, budget: Budget | None = None,
                     ) -> tuple[str, int]:
    sol = solution_grid(n, None, rng, budget)
    cols = [[sol[r][c] for r in range(n)] for c in range(n)]
    edge = ([("top", i, visible(cols[i])) for i in range(n)]
            + [("bottom", i, visible(cols[i][::-1])) for i in range(n)]
            + [("left", i, visible(sol[i])) for i in range(n)]
            + [("right", i, visible(sol[i][::-1])) for i in range(n)])
    givens = [("given", r, c) for r in range(n) for c in range(n)]

    def write(kept: list[tuple]) -> str:
        given = {(k[1], k[2]) for k in kept if k[0] == "given"}
        clues = {(k[0], k[1]): k[2] for k in kept if k[0] != "given"}
        return skyscrapers_text([[sol[r][c] if (r, c) in given else None for c in range(n)]
                                 for r in range(n)], clues)

    start = pinned(edge, givens, write, "skyscrapers", rng, budget)
    kept = remove_clues(start, write, "skyscrapers", rng, budget)
    return write(kept), len(kept)


def make_caged(family: str, n: int, rng: random.Random, budget: Budget | None = None,
               ) -> tuple[str, int]:
    """Killer or KenKen: from one cage per cell, merge neighbouring cages while the puzzle
    stays unique; each merge that would lose uniqueness is refused for good."""
    box = (isqrt(n), isqrt(n)) if family == "killer" else None
    sol = solution_grid(n, box, rng, budget)
    cage = [[r * n + c for c in range(n)] for r in range(n)]
    ops: dict[int, str] = {}  # KenKen: a cage's operation, chosen when it forms

    def cells_of(k: int) -> list[tuple[int, int]]:
        return [(r, c) for r in range(n) for c in range(n) if cage[r][c] == k]

    def rule(k: int) -> str:
        vals = [sol[r][c] for r, c in cells_of(k)]
        if family == "killer":
            return str(sum(vals))
        if len(vals) == 1:
            return str(vals[0])
        op = ops[k]
        if op == "+":
            return f"{sum(vals)}+"
        if op == "*":
            prod = 1
            for v in vals:
                prod *= v
            return f"{prod}*"
        hi, lo = max(vals), min(vals)
        return f"{hi - lo}-" if op == "-" else f"{hi // lo}/"

    def write() -> str:
        return cage_text(cage, {k: rule(k) for row in cage for k in row})

    def operations(vals: list[int]) -> list[str]:
        """A merged KenKen cage's possible operations, in a random order."""
        found = ["+", "*"]
        if len(vals) == 2:
            found.append("-")
            if max(vals) % min(vals) == 0:
                found.append("/")
        rng.shuffle(found)
        return found

    walls = [((r, c), (r2, c2)) for r in range(n) for c in range(n)
             for r2, c2 in ((r, c + 1), (r + 1, c)) if r2 < n and c2 < n]
    rng.shuffle(walls)
    for (r, c), (r2, c2) in walls:
        a, b = cage[r][c], cage[r2][c2]
        if a == b:
            continue
        merged = cells_of(a) + cells_of(b)
        vals = [sol[i][j] for i, j in merged]
        if len(merged) > MAX_CAGE[family] or (family == "killer" and
                                               len(set(vals)) < len(vals)):
            continue
        saved, saved_ops = [row[:] for row in cage], dict(ops)
        for i, j in cells_of(b):
            cage[i][j] = a
        # a KenKen merge stands if any operation keeps the puzzle unique
        for op in operations(vals) if family == "kenken" else [""]:
            ops[a] = op
            if unique(family, write(), budget):
                break
        else:
            cage, ops = saved, saved_ops
    count = len({k for row in cage for k in row})
    return write(), count


def make(family: str, n: int, rng: random.Random, budget: Budget | None = None,
         ) -> tuple[str, int]:
    """One unique, minimal puzzle: its text and number of clues (cages for Killer and
    KenKen, run sums for Kakuro)."""
    if family == "sudoku":
        return make_sudoku(n, rng, budget)
    if family == "futoshiki":
        return make_futoshiki(n, rng, budget)
    if family == "skyscrapers":
        return make_skyscrapers(n, rng, budget)
    if family == "kakuro":
        return make_kakuro(n, rng, budget)
    return make_caged(family, n, rng, budget)


def draw_seed() -> int:
    """A seed drawn at random (from the system's entropy: no shared generator)."""
    return secrets.randbelow(2**31)


def generate(family: str, size: int | None = None, difficulty: str | None = None,
             seed: int | None = None, attempts: int = 50, *,
             time_limit: float | None = None, node_limit: int | None = None,
             on_progress: Callable[[SearchStats], object] | None = None) -> Generated:
    """A puzzle of `family` with exactly one solution and minimal clues; with a
    `difficulty`, one of that grade (ValueError after `attempts` puzzles of other grades).
    Without a `seed`, one is drawn at random; Generated.seed makes the puzzle again.

    `time_limit` (seconds from this call) and `node_limit` (the nodes of every search the
    generation runs) bound the whole: past one, LimitReached is raised (its `reason` is
    "time_limit" or "node_limit"), never a puzzle not known to be unique and minimal.
    `on_progress` is called with the statistics so far, as a search's."""
    if family not in FAMILIES:
        raise ValueError(f"cannot generate {family!r}; choose from {', '.join(FAMILIES)}")
    n = DEFAULT_SIZE[family] if size is None else size
    if n not in SIZES[family]:
        raise ValueError(f"a generated {family} has size "
                         f"{', '.join(map(str, SIZES[family]))}; not {n}")
    if difficulty is not None and difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose from "
                         f"{', '.join(DIFFICULTIES)}")
    budget = Budget(time_limit, node_limit, on_progress)
    if seed is None:
        seed = draw_seed()
    rng = random.Random(seed)
    for attempt in range(1, attempts + 1):
        text, clues = make(family, n, rng, budget)
        if difficulty is None:
            return Generated(text, clues, None, attempt, seed)
        from importlib import import_module

        from ..explain.rating import rate

        model = import_module(f".{family}", __package__).parse(text, "generated").model
        rating = rate(model, budget=budget)
        if not rating.complete:
            raise LimitReached(str(rating.stopped_by))
        if rating.grade == difficulty:
            return Generated(text, clues, rating.grade, attempt, seed)
    raise ValueError(f"no {difficulty} {family} of size {n} among {attempts} puzzles made "
                     f"from seed {seed}; try another seed")
