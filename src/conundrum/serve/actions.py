"""What the page's buttons do, as functions from a checked request to a JSON-ready answer:
draw, solve (with the clashing clues when there is no solution), unique, explain (the
steps as ``--explain --json`` writes them, with the cells and units to highlight), rate and
generate. They run in a worker process (pool.py); they read no file and print nothing: bad
input is an ActionError carrying the HTTP status to answer."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from conundrum.puzzles.base import Puzzle, PuzzleError
from conundrum.puzzles.clash import CELL, cell_key, cells_of
from conundrum.serve.families import BY_NAME, MAX_CELLS, MAX_EQUATION_LINES, MAX_N, MAX_TEXT

WHY_SECONDS = 5.0  # for each of the clash and the correction after "no solution"


class ActionError(Exception):
    """A request the page cannot answer with a result: the HTTP status and a message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def check_request(action: str, body: Any) -> dict[str, Any]:
    """The request's fields once checked (cheap, in the server's process): a known family,
    a text of puzzle size, a board size N within the page's limits; ActionError if not."""
    if action not in ACTIONS:
        raise ActionError(404, f"no such action: {action[:40]!r}")
    if not isinstance(body, dict):
        raise ActionError(400, "the request must be a JSON object")
    family = body.get("family")
    if not isinstance(family, str) or family not in BY_NAME:
        raise ActionError(400, f"unknown puzzle family: {str(family)[:40]!r}")
    if action == "generate":
        return _check_generate(family, body)
    text = body.get("text")
    if not isinstance(text, str):
        raise ActionError(400, "the request needs the puzzle as \"text\" (a string)")
    if len(text) > MAX_TEXT:
        raise ActionError(413, f"the puzzle is too large: {len(text)} characters, the page "
                          f"takes at most {MAX_TEXT}")
    if not text.strip():
        raise ActionError(400, "no puzzle: type or paste one, or load the sample")
    if family in MAX_N:
        n = text.strip()
        if n.isdigit() and len(n) < 12 and int(n) > MAX_N[family]:
            raise ActionError(413, f"N = {int(n)} is too large for the page: {family} takes "
                              f"N up to {MAX_N[family]}")
    if family == "alphametic" and len(text.splitlines()) > MAX_EQUATION_LINES:
        raise ActionError(413, f"too many lines: the page takes at most "
                          f"{MAX_EQUATION_LINES} equations")
    distinct = body.get("distinct", True)
    if not isinstance(distinct, bool):
        raise ActionError(400, "\"distinct\" must be true or false")
    return {"family": family, "text": text, "distinct": distinct}


def _check_generate(family: str, body: dict[str, Any]) -> dict[str, Any]:
    from conundrum.puzzles.generate import DIFFICULTIES, SIZES

    if family not in SIZES:
        raise ActionError(400, f"{family} puzzles cannot be generated")
    size, grade, seed = body.get("size"), body.get("difficulty"), body.get("seed")
    if size is not None and (type(size) is not int or size not in SIZES[family]):
        raise ActionError(400, f"size must be one of {list(SIZES[family])} for {family}")
    if grade not in (None, "", *DIFFICULTIES):
        raise ActionError(400, f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**31):
        raise ActionError(400, "seed must be a whole number from 0 to 2**31 - 1")
    return {"family": family, "size": size, "difficulty": grade or None, "seed": seed}


def parse(request: dict[str, Any]) -> Puzzle:
    """The request's puzzle, read as the command line reads it (ActionError if it is
    malformed, 413 if its grid is larger than the page takes)."""
    from importlib import import_module

    family, text = request["family"], request["text"]
    try:
        if family == "alphametic":
            from conundrum.puzzles import alphametic as al

            lines = [(k, line.strip()) for k, line in enumerate(text.splitlines(), 1)]
            sources = [al.Source(line, f"line {k}") for k, line in lines
                       if line and not line.startswith("#")]
            puzzle = al.parse(sources, al.Options(distinct=request.get("distinct", True)))
        else:
            module = import_module(f"conundrum.puzzles.{family}")
            puzzle = module.parse(text.strip() if family in MAX_N else text, "the puzzle")
    except PuzzleError as exc:
        raise ActionError(400, exc.one_line()) from None
    except ValueError as exc:  # a model error: the puzzle's numbers make no model
        raise ActionError(400, str(exc)) from None
    shape = getattr(puzzle.layout, "shape", (0, 0))
    if shape[0] * shape[1] > MAX_CELLS:
        raise ActionError(413, f"the grid is too large for the page: {shape[0]}x{shape[1]} "
                          f"cells, at most {MAX_CELLS} in all")
    return puzzle


# ----------------------------------------------------------------------------- pictures

def picture(puzzle: Puzzle, solution: Any = None, view: Any = None) -> dict[str, Any]:
    """The puzzle (or a solution of it) as the notebook draws it: SVG for a grid, HTML for
    equations, the solution's text otherwise; with the grid's shape for the page to place
    its highlights. `view`: a PuzzleView to draw instead (a clash's, marked)."""
    view = view or puzzle.display(solution)
    svg = view.svg()
    if svg is not None:
        rows, cols = puzzle.layout.shape
        return {"kind": "svg", "markup": svg, "rows": rows, "cols": cols,
                "filled": puzzle.layout.filled}
    return {"kind": "html", "markup": view.html()}


def _cells_texts(puzzle: Puzzle, solution: Any) -> dict[str, str]:
    """What a solution shows in each cell of the grid, by cell name."""
    board = puzzle.layout
    if getattr(board, "solved", None) is None or solution is None:
        return {}
    return {f"r{r + 1}c{c + 1}": text for r, row in enumerate(board.solved(solution))
            for c, text in enumerate(row)}


# ------------------------------------------------------------------------------ actions

def draw(request: dict[str, Any]) -> dict[str, Any]:
    """The puzzle's givens drawn: what the page shows as the puzzle is typed."""
    puzzle = parse(request)
    return {"picture": picture(puzzle), "clues": len(puzzle.clues)}


def solve(request: dict[str, Any]) -> dict[str, Any]:
    """The first solution, drawn; without one, the clues that clash (a minimal set, the
    rules kept hard) with their cells, and the fewest clues to drop."""
    puzzle = parse(request)
    sol = puzzle.model.solve()
    if sol is not None:
        return {"found": True, "picture": picture(puzzle, sol),
                "solution": puzzle.to_json(sol)}
    return {"found": False, **why_not(puzzle)}


def why_not(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle's "picture", with the clashing clues marked (as the notebook draws a
    clash), the "conflict" and "correction" of ``--json`` after "no solution" and the
    cells of the clashing clues; only the picture when the puzzle has no clues to blame,
    or no answer came within WHY_SECONDS."""
    from conundrum.lang.errors import ModelError
    from conundrum.puzzles.clash import find_clash

    try:
        clash = find_clash(puzzle, WHY_SECONDS, count_limit=1)
    except ModelError:
        clash = None
    if clash is None:
        return {"picture": picture(puzzle)}
    cor = clash.correction
    return {"picture": picture(puzzle, view=clash.display()), "conflict": clash.labels,
            "minimal": clash.conflict.minimal, "conflict_cells": clash.cells,
            "correction": cor.labels if cor is not None else None}


def unique(request: dict[str, Any]) -> dict[str, Any]:
    """Up to two solutions, drawn: the second one, if any, shows the puzzle is not unique."""
    puzzle = parse(request)
    found = list(puzzle.model.solutions(limit=2))
    out: dict[str, Any] = {"solutions": len(found), "unique": len(found) == 1,
                           "pictures": [picture(puzzle, s) for s in found]}
    if not found:
        out.update(why_not(puzzle))
    return out


def explain(request: dict[str, Any]) -> dict[str, Any]:
    """Every step of the explanation, as ``--explain --json`` writes it, plus per step the
    cells it settles or narrows (``cells``), the cells of the units it uses (``units``),
    the cells of the facts it cites (``cited``), and what each cell settled shows
    (``shows``); then the solution, drawn."""
    from conundrum.explain import ExplainError
    from conundrum.explain import explain as explain_steps
    from conundrum.explain.wording import Wording, describe_all, step_json

    puzzle = parse(request)
    m = puzzle.model if puzzle.explain_model is None else puzzle.explain_model
    try:
        steps = explain_steps(m)
    except ExplainError as exc:
        return {"unique": False, "solutions": "none" if exc.solutions == 0 else "several"}
    wording = Wording(m, puzzle.names, reasons=puzzle.reasons, value_words=puzzle.value_words)
    describe_all(steps, wording)
    sol = puzzle.model.solve()
    texts = _cells_texts(puzzle, sol)
    records = []
    for k, step in enumerate(steps, 1):
        record = step_json(k, step, wording.names, wording.label)
        settled = [wording.names[f.var] for f in step.derived if f.equal]
        record["cells"] = _only_cells(wording.names[f.var] for f in step.derived)
        record["cited"] = _only_cells(wording.names[f.var] for f in step.facts)
        record["units"] = cells_of((m.constraints[p] for p in step.constraints),
                                   wording.names)
        record["shows"] = {name: texts[name] for name in settled if name in texts}
        records.append(record)
    return {"unique": True, "steps": records, "picture": picture(puzzle),
            "solved": picture(puzzle, sol), "solution": puzzle.to_json(sol)}


def _only_cells(names: Iterable[str]) -> list[str]:
    return sorted({n for n in names if CELL.fullmatch(n)}, key=cell_key)


def rate(request: dict[str, Any]) -> dict[str, Any]:
    """The grade, as ``--rate --json`` says it (or that the solution is not unique)."""
    from conundrum.explain import ExplainError
    from conundrum.explain import explain as explain_steps
    from conundrum.explain.rating import rating_of

    puzzle = parse(request)
    m = puzzle.model if puzzle.explain_model is None else puzzle.explain_model
    try:
        rating = rating_of(explain_steps(m))
    except ExplainError as exc:
        return {"unique": False, "solutions": "none" if exc.solutions == 0 else "several"}
    return {"unique": rating.unique, "grade": rating.grade, "score": rating.score,
            "hardest": rating.hardest, "steps": rating.steps,
            "techniques": rating.techniques}


def generate(request: dict[str, Any]) -> dict[str, Any]:
    """A new puzzle of the family, as ``conundrum generate`` makes it, in its input format."""
    from conundrum.puzzles.generate import draw_seed
    from conundrum.puzzles.generate import generate as make

    seed = request["seed"] if request["seed"] is not None else draw_seed()
    try:
        made = make(request["family"], request["size"], request["difficulty"], seed)
    except ValueError as exc:
        raise ActionError(422, f"{exc}") from None
    return {"text": made.text, "seed": made.seed, "grade": made.grade, "clues": made.clues}


ACTIONS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "draw": draw, "solve": solve, "unique": unique, "explain": explain, "rate": rate,
    "generate": generate}


def run(action: str, request: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """Do a checked request: (HTTP status, JSON-ready answer). Never raises: a bug is
    answered as one (500), with its type and message, never a traceback."""
    try:
        return 200, ACTIONS[action](request)
    except ActionError as exc:
        return exc.status, {"error": exc.message}
    except MemoryError:
        return 413, {"error": "the puzzle needs more memory than the page allows"}
    except Exception as exc:  # the last guard: the server must go on serving
        return 500, {"error": f"internal error, this is a bug (please report it): "
                              f"{type(exc).__name__}: {str(exc)[:300]}"}
