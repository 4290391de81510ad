"""`run.py --profile INSTANCE`: one conundrum instance in-process under cProfile.

(Named profiling.py, not profile.py, so as not to shadow the standard library's `profile`,
which cProfile imports.)"""

from __future__ import annotations

import cProfile
import io
import pstats
import sys
import time

from instances import by_name
from verify import verify


def profile(name: str, top: int = 25, time_limit: float | None = None) -> int:
    insts = by_name()
    if name not in insts:
        print(f"unknown instance {name!r}; see --list", file=sys.stderr)
        return 2
    inst = insts[name]
    from models import cn_models  # imported outside the profile: import time is not search

    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    rep = cn_models.solve(inst, time_limit)
    prof.disable()
    wall = time.perf_counter() - t0
    problem = verify(inst, rep)
    if rep.notes:  # a time limit stopped the search: the answer cannot be complete
        verdict, problem = "; ".join(rep.notes), None
    else:
        verdict = "verified" if problem is None else "WRONG: " + problem
    print(f"{name}: {wall:.3f} s under the profiler; answer {verdict}")
    for key in ("cumulative", "tottime"):
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(key).print_stats(top)
        text = buf.getvalue()
        start = text.find("   ncalls")
        print(f"\n=== top {top} by {key} ===")
        print(text[start:] if start >= 0 else text)
    return 0 if problem is None else 1
