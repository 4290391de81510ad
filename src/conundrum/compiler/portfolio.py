"""The portfolio search (issue 42, `search="portfolio"`): the depth-first search and the
learning search share one core in turns, each on an engine of its own and keeping its
state between turns, so that a run is never much slower than the better of the two.

- **Arms**: the classic search runs on the compiled model; the learning search on a
  second compilation of the same snapshot, made when its first turn comes (a model the
  classic search finishes in its first turn, every puzzle of the benchmark, is compiled
  once and searched exactly as `search="classic"` searches it).
- **Turns**: the classic arm goes first for its first `first_fails` failures (10,000
  unless "auto:N" or "portfolio:N" says N: the budget of search="auto" before the
  portfolio, search/auto.py), so that every model it finishes within them, the
  benchmark's puzzle and optimisation rows among them, is searched exactly as
  `search="classic"` searches it, in both builds. Then the arms take turns of SLICE
  seconds, each round's GROWTH times longer than the last's up to MAX_SLICE. In the
  first round no turn is longer than that first turn took (unless the objective is
  wide: that turn ends early, see below): a model the classic search nearly finished in
  its first turn pays each other arm about as much again, not a fixed SLICE (golomb-9
  under a time limit: 0.23 s alone, 0.74 s as the default, 0.52 s now). Large
  neighbourhood search keeps its turn in the first round: on rel2onto its first
  neighbourhoods found the incumbent that made the classic arm's proof short (1.6 s;
  2.4 s when it waited for the second round).
- **Shares follow progress** (`Shares`): the exact search that made the latest progress
  (found a better solution, or tightened the proved bound) takes turns LEAD times as long
  as the others', and large neighbourhood search, which proves only by chance (a
  neighbourhood grown to the whole model and searched to its end within its budget:
  compiler/lns.py), fades after each turn without an improvement (its improvements do
  not take the lead from the exact searches: the lead is a bet on which of them will
  prove; one taken by a tighter bound alone lasts while that bound moves, then goes back
  to the arm that found the incumbent). Equal turns
  would make a run of n arms n times slower than the arm that ends it alone; on the
  corpus's optimisations the exact search that found the last solutions is mostly the
  one that then proves it optimal, and with it leading the run takes about
  1 + (n - 1) / LEAD times what it needs alone (notes/ISSUE-42-PLAN.md, thirteenth
  session). Past the first turn the turns are spans of time (search/slicing.py says
  why), and an arm that overran its turn (a slow step between two checks of the clock;
  not its compilation) owes the excess, taken off its next turns, so that the shares
  hold in time (home_improvement: the learning arm had taken 60% of the run without a
  turn of progress). The counts of a run (nodes, failures, which arm found which
  solution) vary from run to run; the answers do not (the optimum, the proof, a
  solution or the proof there is none).
- **Bisection**: on an objective wide enough for it (compiler/bisection.py), its probes
  are an arm, second in turn, and the classic arm's first turn ends once it has gone on
  after its first solution for a quarter as many nodes again (GRACE_PART, GRACE_MIN), or
  to its next improvement (a classic search may improve by one at a time for ever
  without a failure), and the probes start from its incumbent. Where the first solution
  ends most of the tree the classic arm proves the optimum in that turn, as Gecode's
  branch and bound does (hakank's euler_52: 8,050 nodes, Gecode 8,049; 23,000 when the
  probes came first). Not in `bisect` alone (search="classic"): there the probes end in
  a branch and bound from the root, whose tree changes with the incumbent it starts from
  (fair_split_into_3_groups: 74,000 nodes from the first solution, 1.7 million from the
  one a grace reached). The classic search has then chosen its top decisions under no
  bound, as branch and bound from scratch does: a model's search annotation may be tuned
  to that tree and lost from a tight bound (bisection.py). The arm is bisection's whole
  search after its first solution, its last part included (the plain branch and bound
  from the incumbent); in that part it is a second search of the classic arm's kind, and
  takes LAST_PART of its turns. Large neighbourhood search comes last.
- **Shared incumbent**: both branch and bounds hold the same incumbent list; the classic
  search applies it at its next node, the learning search by a restart when it resumes
  (its learned nogoods stay valid: bounds only tighten).
- **Ends** when an arm ends: a proof of optimality (or of no solution) by any of them
  stands for the whole run, as does a limit (time, nodes). With one solution asked for
  (`single`), the first found ends it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from conundrum.search.options import AUTO_SWITCH_FAILS
from conundrum.search.slicing import Slice
from conundrum.search.stats import SearchStats

if TYPE_CHECKING:
    from conundrum.compiler.compiled import CompiledModel
    from conundrum.lang.expr import Expr, Var
    from conundrum.search.options import SearchOptions

SLICE = 0.25  # seconds: every turn of the first round after the classic arm's first
GROWTH = 1.25  # each round's turns are this much longer than the round's before
MAX_SLICE = 2.0  # up to this: the arm that ends the run waits at most one turn per other
LEAD = 2.0  # the exact arm that progressed last takes turns this many times as long
# the probes' arm once only their last part, plain branch and bound, is left: a second
# search of the classic arm's kind, at this fraction of its turn (scene_allocation under a
# time limit: four arms, 2.5x the classic search alone with whole turns)
LAST_PART = 0.5
FADE = 0.5  # LNS's turn shrinks by this after each turn of its without an improvement
MIN_FADE = 0.125  # down to this (it stays an arm: it may improve again)
# on a wide objective the classic arm's first turn goes on after its first solution for a
# GRACE_PART-th of the nodes that took, and at least GRACE_MIN nodes, for a proof, and ends
# at its next improvement (a crawl: the probes start from that incumbent): where it proves
# nothing, the first phase costs at most 1/GRACE_PART more. (Crawling on through the
# grace changed the probes' start: routing_GCM 12,100 -> 23,000 nodes.)
GRACE_PART = 4
GRACE_MIN = 250


class Shares:
    """How long each arm's next turn is, relative to the round's (see the module): the
    exact search that made the latest progress (an improving solution, or a tighter
    proved bound) takes LEAD times the turn of the others; large neighbourhood search,
    which proves only by chance, leads none of them and fades by FADE a turn without an
    improvement, to MIN_FADE."""

    __slots__ = ("leader", "finder", "by_bound", "misses", "plain", "owed")

    def __init__(self) -> None:
        self.leader = ""  # the name of the exact arm that progressed last ("": none yet)
        self.finder = ""  # the exact arm that found the latest better solution
        self.by_bound = False  # the leader leads by a tighter bound, not a solution
        self.misses = 0  # LNS's turns since its last improvement
        self.plain = False  # the probes have reached their last part
        self.owed: dict[str, float] = {}  # seconds an arm's turns overran

    def repaid(self, name: str, length: float) -> float:
        """The arm's turn of `length` seconds less what its earlier turns overran, or -1
        when that is more than the whole turn: it skips this one, which pays for as much.
        A turn of 0 (a pause at every point: the tests' node-by-node alternation) stays."""
        owed = self.owed.get(name, 0.0)
        if length <= 0 or owed <= 0:
            return length
        if owed >= length:
            self.owed[name] = owed - length
            return -1.0
        self.owed[name] = 0.0
        return length - owed

    def took(self, name: str, length: float, seconds: float) -> None:
        """After a turn of `length` seconds that took `seconds` (its clock is checked
        between steps, and a step may be slow)."""
        if length > 0:
            self.owed[name] = max(0.0, seconds - length)

    def factor(self, name: str) -> float:
        """The arm's next turn, as a multiple of the round's turn."""
        if name == "lns":
            return max(MIN_FADE, FADE ** self.misses)
        share = LEAD if name == self.leader else 1.0
        if name == "bisection" and self.plain:
            share *= LAST_PART
        return share

    def last_part(self) -> None:
        """The probes' arm is now plain branch and bound (compiler/bisection.py)."""
        self.plain = True

    def record(self, name: str, improved: bool, tightened: bool) -> None:
        """After the arm's turn: whether it found a better solution, and whether the
        run's proved bound tightened during it. A lead taken by the bound alone lasts
        while the bound moves: a turn of the leader that leaves it where it was gives the
        lead back to the arm that found the incumbent (golomb-10: the learning arm's
        first turn lifted the bound from 10 to 32 under the incumbent 55, and no further;
        leading, it took two thirds of the run the classic arm needed for its proof, 3.6
        to 4.7 s against 1.5 s alone)."""
        if name == "lns":
            self.misses = 0 if improved else self.misses + 1
        elif improved:
            self.leader = self.finder = name
            self.by_bound = False
        elif tightened:
            self.leader = name
            self.by_bound = True
        elif name == self.leader and self.by_bound:
            self.leader = self.finder
            self.by_bound = False


def turn_length(k: int, arms: int, factor: float, first_turn: float, wide: bool) -> float:
    """The seconds of the k-th turn (k > 0) among `arms` arms, for an arm whose share is
    `factor` (Shares.factor), before what it owes: each round's turns a little longer
    than the last's, and in the first round no longer than the first turn took
    (`first_turn`), unless the objective is wide (its first turn ends early)."""
    length = min(MAX_SLICE, SLICE * GROWTH ** (k // arms)) * factor
    if k < arms and not wide:
        length = min(length, first_turn)
    return length


class _Arm:
    """One search of the portfolio: its compiled model, options, statistics, slice and
    (once started) its run."""

    __slots__ = ("name", "compiled", "opts", "stats", "slice", "run")

    def __init__(self, name: str, opts: SearchOptions) -> None:
        self.name = name
        self.compiled: CompiledModel | None = None
        self.opts = opts
        self.stats = SearchStats()
        self.slice = Slice()
        self.run: Generator[list[int] | None, None, None] | None = None

    def begin(self, start: float, best: list[int], incumbent: list[list[int]],
              shares: Shares) -> None:
        """Start the arm's run on its compiled model (see the module)."""
        assert self.compiled is not None
        if self.name == "lns":
            from conundrum.compiler.lns import neighbourhood_turns

            self.run = neighbourhood_turns(self.compiled, self.opts, self.stats, start, best,
                                           incumbent, self.slice)
        elif self.name == "bisection":
            from conundrum.compiler.bisection import probe_turns

            self.run = probe_turns(self.compiled, self.opts, self.stats, start, best,
                                   self.slice, shares.last_part)
        else:
            self.run = self.compiled.sliced_run(self.opts, self.stats, start, best, (),
                                               self.slice)


def arm_options(opts: SearchOptions, name: str) -> SearchOptions:
    """The options of the arm `name`: the caller's, with its own search, and no node
    limit (the portfolio counts the nodes of all); the neighbourhoods are searched
    depth-first. The learning arm keeps the caller's heuristic (dom_wdeg by default):
    on the hard section the learning search with dom_wdeg found all-interval 16 and 20
    and the quasigroup 25 in 0.6 to 6 s, where with activity it found none in 30 s
    (bench/HARD-portfolio.md)."""
    sub = opts.copy()
    sub.search = "classic" if name in ("lns", "bisection") else name
    sub.node_limit = None
    return sub


def portfolio(compiled: CompiledModel, snapshot: tuple[list[Var], list[Expr]],
              objective: object, sense: int, opts: SearchOptions, stats: SearchStats,
              start: float, single: bool, neighbourhoods: bool = False,
              first_fails: int = AUTO_SWITCH_FAILS) -> Generator[list[int], None, None]:
    """The values of each solution, as CompiledModel.run gives them (each improving, with
    an objective); `stats` holds the sum of the arms' (see the module). With
    `neighbourhoods`, large neighbourhood search is an arm once there is a solution; an
    objective wide enough for bisection (compiler/bisection.py) has its probes as one."""
    from conundrum.compiler.bisection import is_wide
    from conundrum.compiler.compiled import compile_model
    from conundrum.engine import TimeUp

    wide = is_wide(compiled)
    # the probes before the learning search: they end a crawl at once (two rows 10**24
    # wide: 2,500 nodes where a turn of the learning search first crawls 35,000)
    names = ["classic", "bisection", "learning"] if wide else ["classic", "learning"]
    if neighbourhoods:
        names.append("lns")
    arms = [_Arm(name, arm_options(opts, name)) for name in names]
    report = opts.on_progress
    if report is not None:
        def progress(_part: SearchStats) -> None:
            _sum(stats, arms, start)
            report(stats)

        for arm in arms:
            arm.opts.on_progress = progress
    arms[0].compiled = compiled
    best: list[int] = []  # the incumbent's objective value, which every arm bounds with
    incumbent: list[list[int]] = []  # its values: the neighbourhoods' centre
    turn = 0
    first_turn = math.inf  # how long the classic arm's first turn took
    shares = Shares()
    try:
        while True:
            k = turn
            turn += 1
            arm = arms[k % len(arms)]
            if arm.name in ("lns", "bisection") and not incumbent:
                continue  # nothing to draw neighbourhoods around or to probe from yet
            length = turn_length(k, len(arms), shares.factor(arm.name), first_turn, wide)
            length = shares.repaid(arm.name, length)
            if length < 0:
                continue  # it overran its turns by a whole one: it waits for this one
            if arm.run is None:
                if arm.compiled is None:
                    variables, constraints = snapshot
                    deadline = 0.0 if opts.time_limit is None else start + opts.time_limit
                    try:
                        arm.compiled = compile_model(variables, constraints, objective, sense,
                                                     deadline=deadline, relax=opts.lp is not False,
                                                     twin=compiled)
                    except TimeUp:
                        stats.stop("time_limit")
                        return
                    if arm.compiled is None:  # cannot happen: the first one compiled
                        raise AssertionError("a second compilation failed at the root")
                arm.begin(start, best, incumbent, shares)
            assert arm.run is not None
            # the turn's clock starts after the arm's compilation, its entry fee: charged,
            # it made the learning arm skip its first turns where it was the one to win
            # (queens+200's 4.9 MB: 6.9 -> 7.8 s; shopping_basket5 1.8 or 2.6 s by run)
            began = time.perf_counter()
            if k == 0:  # a failure budget, the same on every run
                arm.slice.fail_cap = first_fails
                arm.slice.until = math.inf
            else:  # (0.0: a pause at every point, the tests' node-by-node alternation)
                arm.slice.fail_cap = -1
                arm.slice.until = 0.0 if length <= 0 else time.perf_counter() + length
            arm.slice.node_cap = -1 if opts.node_limit is None else (
                arm.stats.nodes + max(0, opts.node_limit - _nodes(arms)))
            ended = True
            improved = False
            graced = False
            bound = stats.bound
            for values in arm.run:
                if values is None:  # the slice is spent
                    ended = False
                    break
                improved = True
                incumbent[:] = [values]
                _sum(stats, arms, start)
                stats.search = arm.name
                yield values
                if single:
                    return
                if k == 0 and wide:
                    if graced:  # an improvement in the grace: a crawl, the probes' turn
                        ended = False
                        break
                    # the branch and bound goes on a while (GRACE_PART, GRACE_MIN) for a
                    # proof; then the probes' turn, from its incumbent
                    graced = True
                    cap = arm.stats.nodes + max(arm.stats.nodes // GRACE_PART, GRACE_MIN)
                    node_cap = arm.slice.node_cap
                    arm.slice.node_cap = cap if node_cap < 0 else min(cap, node_cap)
            _sum(stats, arms, start)
            if k:
                shares.took(arm.name, length, time.perf_counter() - began)
            else:
                first_turn = time.perf_counter() - began
            shares.record(arm.name, improved, stats.bound != bound)
            if ended:  # a proof, or a limit: either stands for the whole run
                stats.search = arm.name
                if arm.stats.stopped_by is not None:
                    stats.stop(arm.stats.stopped_by)
                return
            if opts.node_limit is not None and stats.nodes >= opts.node_limit:
                stats.stop("node_limit")
                return
    except GeneratorExit:
        stats.stop("closed")
        raise
    finally:
        for arm in arms:
            if arm.run is not None:
                arm.run.close()
        _sum(stats, arms, start)


def _nodes(arms: Sequence[_Arm]) -> int:
    return sum(arm.stats.nodes for arm in arms)


def _sum(stats: SearchStats, arms: Sequence[_Arm], start: float) -> None:
    """The whole run's counts: the sum of the arms', and the tightest bound either
    proved."""
    stats.nodes = _nodes(arms)
    stats.fails = sum(arm.stats.fails for arm in arms)
    stats.solutions = sum(arm.stats.solutions for arm in arms)
    stats.restarts = sum(arm.stats.restarts for arm in arms)
    stats.max_depth = max(arm.stats.max_depth for arm in arms)
    stats.propagations = sum(arm.compiled.solver.propagations for arm in arms
                             if arm.compiled is not None)
    depth_nodes: list[int] = []
    for arm in arms:
        for d, n in enumerate(arm.stats.depth_nodes):
            if d < len(depth_nodes):
                depth_nodes[d] += n
            else:
                depth_nodes.append(n)
    stats.depth_nodes = depth_nodes
    compiled = arms[0].compiled
    sense = 0 if compiled is None else compiled.sense
    for arm in arms:
        if arm.stats.bound is not None and sense:
            stats.tighten(arm.stats.bound, sense)
    stats.seconds = time.perf_counter() - start


def chosen(compiled: CompiledModel, opts: SearchOptions, single: bool) -> bool:
    """Whether a run is a portfolio: with the complete method and no large neighbourhood
    search asked for (lns=True), search="portfolio" for an optimisation or one solution
    (an enumeration of every solution is searched once, depth-first), and search="auto"
    or "auto:N" likewise unless a learning heuristic asks for the learning search."""
    from conundrum.search.options import parse_search

    if compiled.obj is None and not single:
        return False
    if parse_search(opts.search)[0] == "portfolio":
        return opts.method == "complete" and not opts.lns
    return auto_portfolio(opts)


def auto_portfolio(opts: SearchOptions) -> bool:
    """Whether search="auto" (or "auto:N") runs the portfolio where it runs one search:
    the complete method, no large neighbourhood search asked for alone, no learning
    heuristic."""
    from conundrum.search.options import parse_search
    from conundrum.search.selectors import LEARNING_VAR_SELECTS

    return (opts.method == "complete" and not opts.lns and parse_search(opts.search)[0] == "auto"
            and opts.var_select not in LEARNING_VAR_SELECTS)


def with_neighbourhoods(compiled: CompiledModel, opts: SearchOptions) -> bool:
    """Whether the portfolio takes large neighbourhood search as a third arm: for an
    optimisation under a time limit (where the default was LNS alone, compiler/lns.py),
    unless lns=False, when some variable is left for a neighbourhood to free."""
    from conundrum.compiler.lns import free_positions

    return (compiled.obj is not None and opts.time_limit is not None
            and opts.lns is None and len(free_positions(compiled)) > 1)
