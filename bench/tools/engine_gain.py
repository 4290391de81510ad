"""Search time of the compiled engine against the pure-Python reference, per instance.

    python bench/tools/engine_gain.py [INSTANCE ...]

Each (instance, engine) pair runs in its own process (`CONUNDRUM_PURE=1` selects the Python
sources) and reports the solver time measured by bench/models/cn_models.py, so model
building and start-up are left out. Prints a Markdown table; nodes must agree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent
DEFAULT = ["snake-rational", "snake-integral", "alpha-planets", "sudoku25", "queens-11",
           "golomb-9", "magic-4x4"]
CHILD = """
import json, sys
sys.path.insert(0, {bench!r})
import conundrum
from instances import by_name
from models import cn_models
rep = cn_models.solve(by_name()[{name!r}])
print(json.dumps({{"time": rep.solver_time, "nodes": rep.nodes,
                  "compiled": conundrum.COMPILED}}))
"""


def measure(name: str, pure: bool) -> dict:
    """One run of one instance on one engine, in a fresh process."""
    env = dict(os.environ)
    env.pop("CONUNDRUM_PURE", None)
    if pure:
        env["CONUNDRUM_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", CHILD.format(bench=str(BENCH), name=name)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(names: list[str]) -> int:
    print("| instance | nodes | Python engine | compiled | gain |")
    print("|---|---:|---:|---:|---:|")
    for name in names or DEFAULT:
        pure, fast = measure(name, True), measure(name, False)
        if not fast["compiled"]:
            print("the compiled engine is not installed (pip install . with a C compiler)",
                  file=sys.stderr)
            return 1
        if pure["nodes"] != fast["nodes"]:
            print(f"{name}: nodes differ ({pure['nodes']} vs {fast['nodes']})", file=sys.stderr)
            return 1
        print(f"| {name} | {fast['nodes']:,} | {pure['time']:.3f} s | {fast['time']:.3f} s "
              f"| {pure['time'] / fast['time']:.1f}x |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
