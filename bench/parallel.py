"""Parallel search benchmark (issue 10): speed-up of workers=N over the sequential search,
and the same run on a Dask LocalCluster.

    python bench/parallel.py                       # 1-4 local workers + Dask, 3 runs each
    python bench/parallel.py --runs 1 --workers 1,2 --no-dask   # a quick look

Each measurement is its own process (`--one`), timing the solving call only (not the
interpreter's start-up, nor starting the Dask cluster, which a user does once); the
medians go to bench/PARALLEL.md and the chart bench/parallel.png. Every answer is checked
against the instance's known one. The load balance is the busiest worker's time over the
mean busy time (1.0 is perfect), and the largest subproblem's time over the mean one.
bench/parallel-notes.md, if present, is appended (the analysis of the run).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

# (instance, what is asked): the four problems
PROBLEMS = [("queens-13", "count"), ("magic-4x4", "count"), ("golomb-10", "minimize"),
            ("sudoku25", "unique")]


def run_one(name: str, workers: int, dask: bool) -> dict:
    """Solve one instance in this process; the timing and the statistics."""
    from instances import by_name
    from models import cn_models

    inst = by_name()[name]
    m, _, obj = cn_models.build(inst)
    cluster = client = None
    if dask:
        from dask.distributed import Client, LocalCluster

        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
        opts: dict = {"scheduler": client}
    else:
        opts = {"workers": workers}
    what = dict(PROBLEMS)[name]
    t = time.perf_counter()
    if what == "count":
        answer = m.count(**opts)
        ok = answer == inst.expected
    elif what == "minimize":
        sol = m.minimize(obj, **opts)
        answer = None if sol is None else int(sol.value(obj))
        ok = answer == inst.expected
    else:
        answer = len(list(m.solutions(limit=2, **opts)))
        ok = answer == 1
    seconds = time.perf_counter() - t
    stats = m.stats
    if client is not None:
        client.close()
        cluster.close()  # type: ignore[union-attr]
    busy = list(stats.worker_seconds.values())
    parts = stats.subproblem_seconds
    return {"seconds": seconds, "answer": answer, "ok": ok, "nodes": stats.nodes,
            "complete": stats.complete, "subproblems": stats.subproblems,
            "busy": max(busy) / statistics.mean(busy) if busy else None,
            "largest": max(parts) / statistics.mean(parts) if parts else None}


def measure(name: str, workers: int, dask: bool, runs: int) -> dict:
    """The median of `runs` separate processes."""
    results = []
    for _ in range(runs):
        cmd = [sys.executable, __file__, "--one", name, "--workers", str(workers)]
        if dask:
            cmd.append("--dask")
        out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                             env=dict(os.environ, PYTHONWARNINGS="ignore"))
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    best = sorted(results, key=lambda r: r["seconds"])[len(results) // 2]
    best["ok"] = all(r["ok"] for r in results)
    return best


def report(table: dict, workers: list[int], dask: bool, runs: int) -> str:
    import conundrum

    lines = ["# Parallel search: speed-up on this machine", "",
             f"`python bench/parallel.py --runs {runs} --workers "
             f"{','.join(map(str, workers))}{'' if dask else ' --no-dask'}`, "
             f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores, conundrum "
             f"{'compiled' if conundrum.COMPILED else 'pure Python'}. Solving call only "
             f"(median of {runs} processes); speed-up against `workers=1`, the sequential "
             "search. Load balance: busiest worker over the mean (1.00 is perfect); the "
             "largest subproblem over the mean one.", ""]
    head = "| instance | workers | seconds | speed-up | nodes | subproblems | busiest/mean " \
           "| largest/mean subproblem | answer |"
    lines += [head, "|" + "---|" * 9]
    for name, _ in PROBLEMS:
        base = table[(name, 1, False)]["seconds"]
        for key in sorted((k for k in table if k[0] == name), key=lambda k: (k[2], k[1])):
            r = table[key]
            label = f"{key[1]} (Dask LocalCluster)" if key[2] else str(key[1])
            busy = "" if r["busy"] is None else f"{r['busy']:.2f}"
            largest = "" if r["largest"] is None else f"{r['largest']:.1f}"
            check = "ok" if r["ok"] else "WRONG"
            lines.append(f"| {name} | {label} | {r['seconds']:.2f} | {base / r['seconds']:.2f}x "
                         f"| {r['nodes']:,} | {r['subproblems']} | {busy} | {largest} "
                         f"| {r['answer']} {check} |")
    return "\n".join(lines) + "\n"


def chart(table: dict, workers: list[int], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, _ in PROBLEMS:
        base = table[(name, 1, False)]["seconds"]
        xs = [w for w in workers if (name, w, False) in table]
        ax.plot(xs, [base / table[(name, w, False)]["seconds"] for w in xs], marker="o",
                label=name)
        if (name, 2, True) in table:
            ax.plot([2], [base / table[(name, 2, True)]["seconds"]], marker="x", color="gray")
    ax.plot(workers, [min(w, os.cpu_count() or 1) for w in workers], ls="--", color="k",
            lw=0.8, label="ideal on this machine")
    ax.set_xlabel("worker processes (x: Dask LocalCluster, 2 workers)")
    ax.set_ylabel("speed-up over the sequential search")
    ax.set_xticks(workers)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workers", default="1,2,3,4", help="comma-separated worker counts")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster run")
    ap.add_argument("--output", default=str(HERE / "PARALLEL.md"))
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--dask", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, int(args.workers), args.dask)))
        return 0
    workers = sorted({1, *map(int, args.workers.split(","))})
    table: dict = {}
    for name, _ in PROBLEMS:
        for w in workers:
            table[(name, w, False)] = measure(name, w, False, args.runs)
            print(name, w, table[(name, w, False)], flush=True)
        if not args.no_dask:
            table[(name, 2, True)] = measure(name, 2, True, args.runs)
            print(name, "dask", table[(name, 2, True)], flush=True)
    out = Path(args.output)
    text = report(table, workers, not args.no_dask, args.runs)
    notes = HERE / "parallel-notes.md"  # the analysis of a run, written by hand
    if notes.exists():
        text += notes.read_text()
    out.write_text(text)
    chart(table, workers, out.with_suffix(".png") if out.name != "PARALLEL.md"
          else HERE / "parallel.png")
    print(f"wrote {out}")
    return 0 if all(r["ok"] for r in table.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
