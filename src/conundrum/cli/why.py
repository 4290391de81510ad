"""What the puzzle commands say after "no solution" (issue 43, item 5): the clues that
clash, the fewest to drop and how many solutions the puzzle then has, and with --explain
the steps from the clashing clues to a contradiction (conundrum.puzzles.clash finds them;
this module prints them, as text or as one JSON line)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from conundrum.cli.output import STOP_REASON, palette
from conundrum.puzzles.base import Puzzle

# after "no solution": seconds for each of the clash, the correction, the count and the
# steps (unless --time-limit says otherwise), and the solutions counted once the
# correction is made
WHY_SECONDS = 10.0
WHY_COUNT = 1000


def why_not(puzzle: Puzzle, args: argparse.Namespace, out: Callable[[str], None],
             steps: bool = False) -> None:
    """After "no solution": the clues that clash (a minimal set, the rules kept) and the
    fewest clues to drop, with how many solutions the puzzle then has (issue 43); with
    `steps` (--explain), the steps from the clashing clues to a contradiction. Said only
    when each answer comes within the budget (--time-limit, else WHY_SECONDS)."""
    from conundrum.lang.errors import ModelError
    from conundrum.puzzles.clash import find_clash

    budget = args.time_limit or WHY_SECONDS
    try:
        clash = find_clash(puzzle, budget, WHY_COUNT)
    except ModelError:  # undecided within the budget
        return
    if clash is None:
        return
    as_json = args.json or args.json_stream
    if not clash.labels:
        if not as_json:
            out("the rules clash without any given")
        return
    explained = clash_steps(clash, args, budget) if steps else None
    if as_json:
        data = clash.json()
        if explained is not None:
            data.update(explained)
        out(json.dumps(data, ensure_ascii=False))
        return
    paint = palette(args, "out").paint
    text = str(clash).split("\n")
    head = "these clues cannot all hold: "
    out(paint(head, "bold") + text[0].removeprefix(head))
    if len(text) > 1:
        out(paint("without ", "bold") + text[1].removeprefix("without "))
    if explained is not None:
        out(paint("why:", "bold"))
        texts = [s["text"] for s in explained["steps"]]
        width = len(str(len(texts)))
        for k, line in enumerate(texts, 1):
            out(f"{k:>{width}}. {line}")
        if explained.get("note"):
            out(str(explained["note"]))


def clash_steps(clash: Any, args: argparse.Namespace, budget: float) -> dict[str, Any]:
    """The steps from the clashing clues to a contradiction, as --json writes them
    ("steps", "contradiction"), and a "note" when they do not reach it."""
    from conundrum.explain.entail import scope_of
    from conundrum.explain.wording import step_json

    steps = clash.explain(budget, getattr(args, "node_limit", None))
    wording = clash.wording()
    records = [step_json(k, step, wording.names, wording.label)
               for k, step in enumerate(steps, 1)]
    if steps.empty:  # a clue alone leaves a cell without a value: no step is needed
        model = clash.restricted()
        one = [p for p, c in enumerate(model.constraints)
               if {v.index for v in scope_of(c)} <= set(steps.empty)]
        cells = ", ".join(wording.names[k] for k in steps.empty)
        by = " and ".join(wording.label(p) for p in one)
        records.append({"step": 1, "text": f"{cells} has no possible value: by {by}",
                        "technique": "basic", "derived": [],
                        "constraints": [wording.label(p) for p in one], "facts": []})
    data: dict[str, Any] = {"steps": records, "contradiction": steps.reached}
    if not steps.reached:
        limit = STOP_REASON.get(str(steps.stopped_by), str(steps.stopped_by))
        data["note"] = (f"{limit} stopped the explanation after {len(steps)} steps, "
                        "before a contradiction")
    return data
