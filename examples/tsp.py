"""A small symmetric travelling salesman problem with conundrum: `cn.circuit` over the
successor of each city, `cn.element` for the length of each leg, the tour length minimised.

    python examples/tsp.py [--time-limit SECONDS]

The ten cities are embedded below (CITIES); distances are Euclidean, rounded to the
nearest integer. The shortest tour has length 271.

Output (parsed by tests/test_examples_globals.py):

    tour 0 2 5 ... 0                 the cities in visiting order, from city 0 back to it
    length 271 (optimal)             or "(best found, stopped by time_limit)"
    search: N nodes, S s             the search statistics

The exit status is 0 when a tour is printed (proven optimal or not), 1 when none was found
within the time limit.
"""

from __future__ import annotations

import argparse
import math
import sys

import conundrum as cn

# Ten cities in a 100 x 100 square, drawn once with random.Random(10).randint(0, 99) and
# written out here, so that no change of Python's random module can change the instance.
CITIES = [(73, 4), (54, 61), (73, 1), (26, 59), (62, 35), (83, 20), (4, 66), (62, 41),
          (9, 31), (95, 46)]


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Euclidean distance rounded to the nearest integer, in exact integer arithmetic
    (sqrt(n) is never exactly k + 1/2 for an integer n, so there are no ties)."""
    n = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    k = math.isqrt(n)
    return k + 1 if n - k * k > k else k


def distances(cities: list[tuple[int, int]]) -> list[list[int]]:
    """The symmetric distance matrix."""
    return [[distance(a, b) for b in cities] for a in cities]


def build(dist: list[list[int]]) -> tuple[cn.Model, list[cn.Var], cn.Expr]:
    """The model: succ[i] is the city visited after city i; the objective is the length."""
    n = len(dist)
    m = cn.Model()
    succ = m.int_vars(n, 0, n - 1, "succ")
    m += cn.circuit(succ)
    legs = [cn.element(dist[i], succ[i]) for i in range(n)]  # length of the leg leaving i
    return m, succ, cn.sum(legs)


def tour_of(successors: list[int]) -> list[int]:
    """The cities in visiting order from city 0, back to city 0."""
    tour = [0]
    for _ in successors:
        tour.append(successors[tour[-1]])
    return tour


def main(argv: list[str] | None = None) -> int:
    """Solve the embedded instance and print the shortest tour."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--time-limit", type=float, metavar="S",
                    help="stop after S seconds and print the best tour found")
    args = ap.parse_args(argv)
    dist = distances(CITIES)
    m, succ, length = build(dist)
    options = {"time_limit": args.time_limit} if args.time_limit else {}
    sol = m.minimize(length, **options)  # branch and bound, default search options
    if sol is None:
        print("no tour found" + (f" (stopped by {m.stats.stopped_by})"
                                 if not m.stats.complete else ""))
        return 1
    state = "optimal" if m.stats.complete else f"best found, stopped by {m.stats.stopped_by}"
    print("tour " + " ".join(map(str, tour_of([sol[x] for x in succ]))))
    print(f"length {int(sol.value(length))} ({state})")
    print(f"search: {m.stats.nodes} nodes, {m.stats.seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
