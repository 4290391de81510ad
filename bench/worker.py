"""Run one instance on one Python-hosted system and print the result protocol.

    python bench/worker.py SYSTEM INSTANCE

SYSTEM is conundrum, python-constraint2, cpsat, cpsat-1w or cpmpy.  The runner starts
one such process per (instance, system) pair and times the whole process."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from instances import by_name  # noqa: E402


def solve(system: str, instance: str):
    inst = by_name()[instance]
    if system == "conundrum":
        from models import cn_models
        return cn_models.solve(inst)
    if system == "python-constraint2":
        from models import pc_models
        return pc_models.solve(inst)
    if system in ("cpsat", "cpsat-1w"):
        from models import cpsat_models
        return cpsat_models.solve(inst, workers=1 if system == "cpsat-1w" else None)
    if system == "cpmpy":
        from models import cpmpy_models
        return cpmpy_models.solve(inst)
    if system == "pumpkin":  # Pumpkin (TU Delft, LCG) through CPMpy's pumpkin backend
        from models import cpmpy_models
        return cpmpy_models.solve(inst, solver="pumpkin")
    raise SystemExit(f"unknown system {system!r}")


def main() -> None:
    system, instance = sys.argv[1], sys.argv[2]
    for line in solve(system, instance).lines():
        print(line)


if __name__ == "__main__":
    main()
