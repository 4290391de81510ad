"""Search statistics, and the status words that say what a run established."""

from __future__ import annotations

from typing import Final

from conundrum._interrupt import poll

# What a run established, in MiniZinc's words (its status names in lower case; MiniZinc
# says OPTIMAL_SOLUTION where `status.upper()` gives it):
SATISFIED: Final = "satisfied"  # solutions found (the one asked for, or some before a limit)
ALL_SOLUTIONS: Final = "all_solutions"  # every solution found: the search covered the tree
OPTIMAL: Final = "optimal_solution"  # the last solution is proved optimal
UNSATISFIABLE: Final = "unsatisfiable"  # proved: there is no solution
UNKNOWN: Final = "unknown"  # nothing found before a limit stopped the run (or still running)
STATUSES: Final = (SATISFIED, ALL_SOLUTIONS, OPTIMAL, UNSATISFIABLE, UNKNOWN)

# What a run was asked for, which decides its status when nothing stopped it early:
# one solution (solve), all of them (solutions, count) or the best (minimize, maximize).
GOALS: Final = ("one", "all", "best")


class SearchStats:
    """What a run did, and what it established.

    `status` is one of STATUSES; `stopped_by` names the limit that cut the run short of
    what was asked ("time_limit", "node_limit", "limit" (the solutions asked for),
    "lds", "bbs", or "closed": the caller stopped reading), None when it ended as asked.
    `complete` is `stopped_by is None`: a missing solution then means "none exists",
    never "not found".

    An optimisation also says how good its answer is: `objective`, the value of the best
    solution found; `bound`, the best value proved possible (no solution is better: the
    objective's bound after propagation at the root, tightened by what the search proved;
    the objective itself once optimal); `gap`, their distance relative to the objective,
    |objective - bound| / max(|objective|, 1). Each is None when unknown (no objective, no
    solution yet, or an unsatisfiable model)."""

    FIELDS = ("status", "nodes", "fails", "propagations", "solutions", "seconds",
              "max_depth", "restarts", "complete", "stopped_by", "workers", "subproblems",
              "objective", "bound", "gap", "search")

    def __init__(self, stopped_by: str | None = None) -> None:
        self.status = UNKNOWN
        self.nodes = 0
        self.fails = 0
        self.propagations = 0
        self.solutions = 0
        self.seconds = 0.0
        self.max_depth = 0
        self.restarts = 0  # with the `restarts` option: how many times the search restarted
        # the search that ran ("classic" or "learning"; search="auto" says which it chose,
        # the last one if it switched)
        self.search = ""
        # depth_nodes[d - 1]: the nodes at depth d (d decisions from the root); a parallel
        # search leaves it empty (each worker has its own, below its subproblem)
        self.depth_nodes: list[int] = []
        self.stopped_by = stopped_by
        # a parallel search (conundrum.parallel): how many workers searched how many
        # subproblems; the seconds each subproblem took, and each worker was busy
        self.workers = 1
        self.subproblems = 0
        self.subproblem_seconds: list[float] = []
        self.worker_seconds: dict[str, float] = {}
        self.objective: int | None = None
        self.bound: int | None = None

    def count_node(self, depth: int) -> None:
        """One more node, at `depth` decisions from the root (nodes by depth are the
        tree's shape, for --plot: a new depth is rare). Every 1024 nodes Ctrl-C gets its
        chance (conundrum/_interrupt.py)."""
        self.nodes += 1
        if not self.nodes & 1023:
            poll()
        profile = self.depth_nodes
        if depth > len(profile):
            profile.extend([0] * (depth - len(profile)))
            if depth > self.max_depth:
                self.max_depth = depth
        profile[depth - 1] += 1

    @property
    def gap(self) -> float | None:
        """|objective - bound| / max(|objective|, 1): 0.0 when proved optimal, None
        while either is unknown."""
        if self.objective is None or self.bound is None:
            return None
        return abs(self.objective - self.bound) / max(abs(self.objective), 1)

    def tighten(self, bound: int, sense: int) -> None:
        """A proved bound on the objective when minimising (sense -1: no solution below
        it) or maximising (+1: none above it); kept if it is tighter than the one known."""
        known = self.bound
        if known is None or (bound > known if sense < 0 else bound < known):
            self.bound = bound

    @property
    def complete(self) -> bool:
        """True when the run ended as asked (nothing stopped it early): solve()'s solution
        or the proof there is none, every solution, a proved optimum."""
        return self.stopped_by is None

    def stop(self, reason: str) -> None:
        """Mark the run incomplete, stopped by `reason` unless a reason was given first."""
        if self.stopped_by is None:
            self.stopped_by = reason

    def conclude(self, goal: str) -> None:
        """Set `status` at the end of a run asked for `goal` (one of GOALS), from the
        solutions found and whether anything stopped it early."""
        if self.solutions == 0:
            self.status = UNSATISFIABLE if self.stopped_by is None else UNKNOWN
        elif self.stopped_by is not None or goal == "one":
            self.status = SATISFIED
        else:
            self.status = OPTIMAL if goal == "best" else ALL_SOLUTIONS
        if self.status == OPTIMAL:
            self.bound = self.objective  # proved: nothing better exists
        elif self.status == UNSATISFIABLE:
            self.bound = None  # nothing to bound

    def as_dict(self) -> dict[str, object]:
        """The statistics as a plain dict (for JSON and printing)."""
        return {name: getattr(self, name) for name in self.FIELDS}

    def __repr__(self) -> str:
        return f"SearchStats({', '.join(f'{k}={v!r}' for k, v in self.as_dict().items())})"

    def __str__(self) -> str:
        stopped = "" if self.stopped_by is None else f" (stopped by {self.stopped_by})"
        return (f"nodes={self.nodes} fails={self.fails} propagations={self.propagations} "
                f"solutions={self.solutions} seconds={self.seconds:.3f} "
                f"{self.status}{stopped}")
