"""Job-shop scheduling with conundrum: Fisher and Thompson's 6x6 instance ft06.

Every job is a sequence of tasks, each on a given machine for a given duration; a job's
tasks run in order, a machine runs one task at a time, and the makespan (the end of the
last task) is minimised. The model has one `cn.no_overlap` per machine and a precedence
between consecutive tasks of each job. The optimum of ft06 is 55.

    python examples/jobshop.py [--time-limit SECONDS]

Output (parsed by tests/test_examples_globals.py):

    makespan 55 (optimal)            or "(best found, stopped by time_limit)"
    job 0: m2 5-6 m0 6-9 ...         each task of the job in order: machine start-end
    ...                              (one line per job; end = start + duration)
    machine 0 |...000111...|         a Gantt chart, one character per time unit: the
    ...                              job's number, or '.' when the machine is idle
    search: N nodes, S s             the search statistics

The exit status is 0 when a schedule is printed (proven optimal or not), 1 when none was
found within the time limit.
"""

from __future__ import annotations

import argparse
import sys

import conundrum as cn

# ft06 (H. Fisher, G. L. Thompson, "Probabilistic learning combinations of local job-shop
# scheduling rules", in Industrial Scheduling, Prentice Hall, 1963), as given in
# J. E. Beasley's OR-Library file jobshop1.txt: one line per job, (machine, duration) per
# task in order, machines numbered from 0. Optimal makespan 55.
FT06 = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
]

Job = list[tuple[int, int]]


def build(jobs: list[Job]) -> tuple[cn.Model, list[list[cn.Var]], cn.Var]:
    """The model: a start time per task (starts[j][k] for task k of job j) and the makespan."""
    m = cn.Model()
    horizon = sum(d for job in jobs for _, d in job)  # every task one after the other
    starts = [[m.int_var(0, horizon - d, f"s{j}_{k}") for k, (_, d) in enumerate(job)]
              for j, job in enumerate(jobs)]
    makespan = m.int_var(0, horizon, "makespan")
    for j, job in enumerate(jobs):
        for k in range(len(job) - 1):
            m += starts[j][k] + job[k][1] <= starts[j][k + 1]
        m += starts[j][-1] + job[-1][1] <= makespan
    for machine in sorted({mach for job in jobs for mach, _ in job}):
        tasks = [(starts[j][k], d) for j, job in enumerate(jobs)
                 for k, (mach, d) in enumerate(job) if mach == machine]
        m += cn.no_overlap([s for s, _ in tasks], [d for _, d in tasks])
    return m, starts, makespan


def gantt(jobs: list[Job], times: list[list[int]], makespan: int) -> list[str]:
    """One line per machine: the job number in each time unit it works, '.' when idle."""
    machines = sorted({mach for job in jobs for mach, _ in job})
    rows = {mach: ["."] * makespan for mach in machines}
    for j, job in enumerate(jobs):
        for (mach, d), s in zip(job, times[j]):
            for t in range(s, s + d):
                rows[mach][t] = str(j % 10)
    return [f"machine {mach} |{''.join(rows[mach])}|" for mach in machines]


def main(argv: list[str] | None = None) -> int:
    """Solve ft06 and print the schedule."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time-limit", type=float, metavar="S",
                    help="stop after S seconds and print the best schedule found")
    args = ap.parse_args(argv)
    m, starts, makespan = build(FT06)
    options = {"time_limit": args.time_limit} if args.time_limit else {}
    sol = m.minimize(makespan, **options)  # branch and bound, default search options
    if sol is None:
        print("no schedule found" + (f" (stopped by {m.stats.stopped_by})"
                                     if not m.stats.complete else ""))
        return 1
    times = [[sol[s] for s in row] for row in starts]
    state = "optimal" if m.stats.complete else f"best found, stopped by {m.stats.stopped_by}"
    print(f"makespan {sol[makespan]} ({state})")
    for j, job in enumerate(FT06):
        tasks = " ".join(f"m{mach} {s}-{s + d}" for (mach, d), s in zip(job, times[j]))
        print(f"job {j}: {tasks}")
    print("\n".join(gantt(FT06, times, sol[makespan])))
    print(f"search: {m.stats.nodes} nodes, {m.stats.seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
