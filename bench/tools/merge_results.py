"""Merge the results.json files of runs made side by side (one system each, say, on a
two-core machine) into one, for `run.py --report-only --results`.

    python bench/tools/merge_results.py OUT.json IN1.json IN2.json ...

Cells, systems, instances, versions and notes are united (a later file's cell wins);
the command is each run's command joined by ' ; '; the date and machine are the first's."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def merge(paths: list[Path]) -> dict:
    out: dict = {"meta": {}, "cells": []}
    cells: dict[tuple[str, str], dict] = {}
    commands = []
    for path in paths:
        data = json.loads(path.read_text())
        meta = data["meta"]
        if not out["meta"]:
            out["meta"] = dict(meta, systems=[], instances=[], notes=[], versions={})
        m = out["meta"]
        m["systems"] += [s for s in meta["systems"] if s not in m["systems"]]
        m["instances"] += [i for i in meta["instances"] if i not in m["instances"]]
        m["notes"] += meta.get("notes", [])
        m["versions"].update(meta.get("versions", {}))
        if "engine" in meta:
            m["engine"] = meta["engine"]
        commands.append(meta["command"])
        for c in data["cells"]:
            cells[(c["instance"], c["system"])] = c
    out["meta"]["command"] = " ; ".join(commands)
    out["cells"] = list(cells.values())
    return out


if __name__ == "__main__":
    target, *sources = sys.argv[1:]
    Path(target).write_text(json.dumps(merge([Path(s) for s in sources]), indent=1))
    print(f"wrote {target}")
