"""Kakuro generation: a layout, a filling whose run sums pin it down, then minimal clues.

1. **Layout.** An N x N grid whose first row and column are blocks. Blocks are added in
   pairs symmetric about the centre of the white area, in a random order, each kept only if
   every run of white cells (across and down) still has at least 2 cells and the white
   cells stay connected; until 30% of the white area is blocked and no run is longer than
   MAX_RUN (short runs, as in published Kakuros, leave fewer fillings with the same sums).
   A layout that cannot get there is drawn again.
2. **Filling.** Random digits with no digit twice in a run, no swappable rectangle (see
   `rectangles`), and each run sum one that few sets of digits reach (WAYS). Their run sums
   are the clues. When the sums allow a second filling, that filling is remembered and the
   digits are drawn again, this time only in the runs where the two fillings differ
   (everything else stays), under the condition that no remembered filling has all the new
   sums: no filling comes back. After FILL_ROUNDS rounds the sums may be any, then the
   layout is drawn again.
3. **Minimal clues.** Every sum is taken away in a random order, for good if the puzzle
   stays unique. A run without its sum keeps no rule (the format's meaning of a missing
   clue), so most sums stay; the ones that go were implied by the others.

Uniqueness is decided on the text read back by the Kakuro parser, as for every family.
"""

from __future__ import annotations

import itertools
import random

from ..model.budget import Budget
from .unique import unique

Cell = tuple[int, int]
BLOCKED_SHARE = 0.3
MAX_RUN = 5
LAYOUT_TRIES = 200
FILL_ROUNDS = 40
# run sums allowed while filling: those reached by at most this many sets of digits, few
# first (such sums leave little room for a second filling), then any (9 digits: 12 sets)
WAYS = (2, 3, 12)
NODE_LIMIT = 20_000


def runs_of(white: set[Cell], n: int) -> list[list[Cell]]:
    """The maximal runs of white cells, across then down (runs of one cell included)."""
    runs: list[list[Cell]] = []
    for dr, dc in ((0, 1), (1, 0)):
        for start in sorted(white):
            before = (start[0] - dr, start[1] - dc)
            if before in white:
                continue
            run = []
            cell = start
            while cell in white:
                run.append(cell)
                cell = (cell[0] + dr, cell[1] + dc)
            runs.append(run)
    return runs


def _connected(white: set[Cell]) -> bool:
    if not white:
        return False
    start = next(iter(white))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in white and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(white)


def layout(n: int, rng: random.Random) -> set[Cell]:
    """The white cells of a random symmetric Kakuro layout of an n x n grid."""
    area = [(r, c) for r in range(1, n) for c in range(1, n)]
    for _ in range(LAYOUT_TRIES):
        white = set(area)
        order = list(area)
        rng.shuffle(order)
        target = int(BLOCKED_SHARE * len(area))
        for cell in order:
            if len(area) - len(white) >= target and \
                    max(len(run) for run in runs_of(white, n)) <= MAX_RUN:
                break
            pair = {cell, (n - cell[0], n - cell[1])}
            if not pair <= white:
                continue
            trial = white - pair
            if _connected(trial) and all(len(run) >= 2 for run in runs_of(trial, n)):
                white = trial
        if all(2 <= len(run) <= MAX_RUN for run in runs_of(white, n)):
            return white
    raise ValueError(f"no Kakuro layout of size {n} found in {LAYOUT_TRIES} tries")


def kakuro_text(n: int, white: set[Cell], sums: dict[tuple[Cell, str], int]) -> str:
    """The grid in the Kakuro format; `sums` maps (clue block, 'down' or 'across') to a sum
    (a run whose sum is missing gets none)."""
    rows = []
    for r in range(n):
        tokens = []
        for c in range(n):
            if (r, c) in white:
                tokens.append(".")
                continue
            down, across = sums.get(((r, c), "down")), sums.get(((r, c), "across"))
            if down is None and across is None:
                tokens.append("X")
            else:
                tokens.append(f"{'' if down is None else down}\\{'' if across is None else across}")
        rows.append(tokens)
    width = max(len(t) for row in rows for t in row)
    return "\n".join(" ".join(t.ljust(width) for t in row).rstrip() for row in rows) + "\n"


def _clue_block(run: list[Cell]) -> tuple[Cell, str]:
    """The block holding a run's sum, and the sum's direction."""
    (r, c), (r2, _) = run[0], run[1]
    return ((r, c - 1), "across") if r == r2 else ((r - 1, c), "down")


def _fillings(text: str, budget: Budget) -> list[dict[Cell, int]]:
    """At most two fillings of the Kakuro `text`, cell by cell."""
    from .kakuro import parse

    puzzle = parse(text, "generated")
    found = []
    for sol in puzzle.model.solutions(limit=2, **budget.search_limits()):
        grid = puzzle.to_json(sol)["grid"]
        found.append({(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row)
                      if v is not None})
    budget.charge(puzzle.model.stats)
    return found


def rectangles(runs: list[list[Cell]]) -> list[tuple[Cell, Cell, Cell, Cell]]:
    """Corners (top left, top right, bottom left, bottom right) of every rectangle whose two
    rows lie in one across run each and whose two columns in one down run each: the digits
    a b / b a there can swap to b a / a b, keeping all four sums."""
    across = {cell: i for i, run in enumerate(runs) if run[0][0] == run[1][0] for cell in run}
    down = {cell: i for i, run in enumerate(runs) if run[0][1] == run[1][1] for cell in run}
    found = []
    for (r, c) in across:
        for (r2, c2) in across:
            tr, bl = (r, c2), (r2, c)
            if r2 > r and c2 > c and tr in across and bl in across \
                    and across[(r, c)] == across[tr] and across[bl] == across[(r2, c2)] \
                    and down[(r, c)] == down[bl] and down[tr] == down[(r2, c2)]:
                found.append(((r, c), tr, bl, (r2, c2)))
    return found


def combinations(length: int) -> dict[int, int]:
    """How many sets of `length` different digits 1-9 add up to each sum."""
    count: dict[int, int] = {}
    for digits in itertools.combinations(range(1, 10), length):
        count[sum(digits)] = count.get(sum(digits), 0) + 1
    return count


def _draw(runs: list[list[Cell]], filling: dict[Cell, int], free: set[Cell],
          alternatives: list[dict[Cell, int]], rng: random.Random,
          ways: int, budget: Budget) -> dict[Cell, int] | None:
    """Digits for the `free` cells (the others keep theirs from `filling`), different in
    every run, no swappable rectangle (see `rectangles`), every free run's sum one that at
    most `ways` sets of digits reach, and such that no filling in `alternatives` has all
    the same run sums. None when there are none (or the search gives up)."""
    import conundrum as cn

    m = cn.Model()
    x = {cell: m.int_var(1, 9) if cell in free else m.int_var(v, v)
         for cell, v in filling.items()}
    for run in runs:
        m += cn.all_different([x[cell] for cell in run])
        if free & set(run):
            sums = [s for s, n in combinations(len(run)).items() if n <= ways]
            m += cn.sum([x[cell] for cell in run]) == m.int_var(sums)
    for tl, tr, bl, br in rectangles(runs):
        m += (x[tl] != x[br]) | (x[tr] != x[bl])
    for alt in alternatives:
        free_runs = [run for run in runs if free & set(run)]
        if any(sum(filling[cell] for cell in run) != sum(alt[cell] for cell in run)
               for run in runs if run not in free_runs):
            continue  # a run that stays as it is already tells the two apart
        if not free_runs:
            return None
        differ = [cn.sum([x[cell] for cell in run]) != sum(alt[cell] for cell in run)
                  for run in free_runs]
        clause: cn.Expr = differ[0]
        for ne in differ[1:]:
            clause = clause | ne
        m += clause
    limits = budget.search_limits()
    # its own node limit (giving up: None) unless the budget has fewer nodes left
    limits["node_limit"] = min(NODE_LIMIT, int(limits.get("node_limit", NODE_LIMIT)))
    sol = m.solve(value_select="random", seed=rng.randrange(2**31), **limits)
    budget.charge(m.stats)  # LimitReached only when the budget's own limit is reached
    return None if sol is None else {cell: sol[var] for cell, var in x.items()}


def _unique_filling(n: int, white: set[Cell], runs: list[list[Cell]], rng: random.Random,
                    ways: int, budget: Budget) -> dict[Cell, int] | None:
    """A filling of the layout whose run sums (each reached by at most `ways` sets of
    digits) allow no other; None if none was found within FILL_ROUNDS redraws."""
    every = set(white)
    filling = _draw(runs, {cell: 1 for cell in white}, every, [], rng, ways, budget)
    alternatives: list[dict[Cell, int]] = []
    for _ in range(FILL_ROUNDS):
        if filling is None:
            return None
        found = _fillings(kakuro_text(n, white, sums_of(runs, filling)), budget)
        if len(found) == 1:
            return filling
        other = next(f for f in found if f != filling)
        alternatives.append(other)
        differ = {cell for cell in white if other[cell] != filling[cell]}
        local = {cell for run in runs if differ & set(run) for cell in run}
        filling = (_draw(runs, filling, local, alternatives, rng, ways, budget)
                   or _draw(runs, filling, every, alternatives, rng, ways, budget))
    return None


def sums_of(runs: list[list[Cell]], filling: dict[Cell, int]) -> dict[tuple[Cell, str], int]:
    """The clues of a filling: each run's sum, keyed by its clue block and direction."""
    return {_clue_block(run): sum(filling[cell] for cell in run) for run in runs}


def make_kakuro(n: int, rng: random.Random, budget: Budget | None = None,
                ) -> tuple[str, int]:
    """A unique Kakuro of an n x n grid with minimal clues: its text and number of sums."""
    if budget is None:
        budget = Budget()

    for _ in range(LAYOUT_TRIES):
        white = layout(n, rng)
        runs = [run for run in runs_of(white, n) if len(run) >= 2]
        for ways in WAYS:
            filling = _unique_filling(n, white, runs, rng, ways, budget)
            if filling is not None:
                break
        else:
            continue  # no filling of this layout found: another layout
        sums = sums_of(runs, filling)
        order = sorted(sums)
        rng.shuffle(order)
        for clue in order:
            trial = {k: v for k, v in sums.items() if k != clue}
            if unique("kakuro", kakuro_text(n, white, trial), budget):
                sums = trial
        return kakuro_text(n, white, sums), len(sums)
    raise ValueError(f"no unique Kakuro of size {n} found on {LAYOUT_TRIES} layouts")
