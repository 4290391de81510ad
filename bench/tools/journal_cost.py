"""The cost of the journal (engine/journal.py, issue 29 slice 4) on the classic search:
the same search without a journal and with one attached (every domain change recorded),
side by side in one process. Prints nodes, domain changes and microseconds per node and
per change.

    python bench/tools/journal_cost.py [--runs 3]
"""

from __future__ import annotations

import argparse
import time

import conundrum as cn
from conundrum.compiler.compiled import compile_model
from conundrum.engine.journal import Journal
from conundrum.search.dfs import ObjectiveBound, SearchOptions, search
from conundrum.search.stats import SearchStats


def queens(n: int) -> tuple[cn.Model, None]:
    m = cn.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += cn.all_different(q)
    m += cn.all_different([q[i] + i for i in range(n)])
    m += cn.all_different([q[i] - i for i in range(n)])
    return m, None


def golomb(n: int) -> tuple[cn.Model, object]:
    m = cn.Model()
    x = m.int_vars(n, 0, n * n, "m")
    m += x[0] == 0
    m += cn.increasing(x, strict=True)
    m += cn.all_different([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
    m += x[1] - x[0] < x[n - 1] - x[n - 2]
    return m, x[-1]


def run(build, journal: bool) -> tuple[int, int, float]:
    """(nodes, domain changes recorded, seconds) of one search."""
    m, objective = build()
    c = compile_model(m.variables, m.constraints, objective, 0 if objective is None else -1)
    assert c is not None
    j = Journal(c.solver) if journal else None
    if j is not None:
        j.attach()
    stats = SearchStats()
    bound = None if c.obj is None else ObjectiveBound(c.obj, -1, [])
    start = time.perf_counter()
    for _ in search(c.solver, c.decision, SearchOptions(), stats, bound, c.extra):
        if bound is not None:
            bound.best[:] = [c.obj.lo]
    seconds = time.perf_counter() - start
    if j is None:
        return stats.nodes, 0, seconds
    j.detach()
    return stats.nodes, j.recorded, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    print(f"engine: {'compiled' if cn.COMPILED else 'pure Python'}")
    print("| search | nodes | changes/node | µs/node, no journal | µs/node, journal | "
          "ns per change |")
    print("|---|---|---|---|---|---|")
    for label, build in (("queens-10 count", lambda: queens(10)),
                         ("golomb-9 minimize", lambda: golomb(9))):
        plain = min(run(build, False)[2] for _ in range(args.runs))
        journaled = [run(build, True) for _ in range(args.runs)]
        nodes, changes, _ = journaled[0]
        with_journal = min(r[2] for r in journaled)
        print(f"| {label} | {nodes:,} | {changes / nodes:.1f} | {plain / nodes * 1e6:.1f} | "
              f"{with_journal / nodes * 1e6:.1f} | "
              f"{(with_journal - plain) / changes * 1e9:.0f} |")


if __name__ == "__main__":
    main()
