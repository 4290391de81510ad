"""`conundrum fzn`: solve a FlatZinc file and print as a FlatZinc solver does.

Flags follow the FlatZinc solver conventions that MiniZinc passes on (see the solver
configuration in conundrum.io.flatzinc.config): -a, -n N, -f, -t MS, -s, -r SEED, -i, -p N.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from conundrum.cli.argtypes import add_search_arguments
from conundrum.parallel.options import MAX_WORKERS  # -p: worker processes at most

WHY_SECONDS = 30.0  # --why: the time for the conflict when -t gives none

if TYPE_CHECKING:  # the reader is imported when the command runs, not to build the CLI
    from conundrum.io.flatzinc.problem import Problem


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The FlatZinc solver flags."""
    p.add_argument("file", metavar="FILE.fzn", help="the FlatZinc file, or - for standard "
                   "input")
    p.add_argument("-a", "--all-solutions", action="store_true", dest="all",
                   help="every solution (satisfaction) or every improving solution "
                   "(optimisation)")
    p.add_argument("-n", "--num-solutions", type=int, metavar="N", dest="num",
                   help="stop after N solutions")
    p.add_argument("-i", "--intermediate", action="store_true", dest="intermediate",
                   help="print each improving solution when optimising")
    p.add_argument("-f", "--free-search", action="store_true", dest="free",
                   help="ignore the search annotations (conundrum's own heuristics)")
    p.add_argument("-t", "--time-limit", type=int, metavar="MS", dest="time_ms",
                   help="stop after MS milliseconds")
    p.add_argument("-s", "--statistics", action="store_true", dest="stats",
                   help="print %%%%%%mzn-stat lines (with -a or -i: the objective and "
                   "the bound proved so far after each improving solution)")
    p.add_argument("-r", "--random-seed", type=int, metavar="SEED", dest="seed", default=0,
                   help="seed for random value choices")
    p.add_argument("-p", "--parallel", type=int, metavar="N", dest="workers", default=1,
                   help="search on N worker processes (default 1)")
    lns = p.add_mutually_exclusive_group()
    lns.add_argument("--lns", action="store_true",
                     help="optimise by large neighbourhood search alone (with -t it is "
                     "one of the default portfolio's searches; a satisfaction model "
                     "ignores it)")
    lns.add_argument("--no-lns", action="store_true",
                     help="no large neighbourhood search, even with -t (the portfolio's "
                     "exact searches only)")
    p.add_argument("--no-lp", action="store_true",
                   help="no linear relaxation: by default an optimisation is bounded by the "
                   "relaxation of its linear constraints, solved at the root (a cut on the "
                   "objective)")
    p.add_argument("--why", action="store_true",
                   help="on an unsatisfiable model, also print a minimal set of its "
                   "constraints that cannot hold together, as %% comments (searched for "
                   f"up to {WHY_SECONDS:g} s, or -t)")
    p.add_argument("--paths", metavar="FILE",
                   help="with --why: MiniZinc's symbol table for this FlatZinc (minizinc "
                   "-c --output-paths-to-file FILE), to name the MiniZinc source line of "
                   "each constraint")
    add_search_arguments(p)


def why(problem: Problem, text: str, budget: float, out: Callable[[str], None],
        origins: dict[int, str] | None = None) -> None:
    """After =====UNSATISFIABLE=====: a minimal set of the FlatZinc's constraints that
    cannot hold together (each line's constraints blamed together), as comments quoting
    the lines, and with `origins` (io/flatzinc/paths.py: constraint position -> MiniZinc
    source place) where each came from."""
    import conundrum as cn
    from conundrum.io.flatzinc.paths import constraint_positions

    m = problem.model
    for k, line in problem.lines.items():
        m.labels[k] = f"line {line}"
    try:
        conflict = m.conflict(time_limit=budget)
    except cn.ModelError:  # not shown unsatisfiable again within the budget
        out("% why: the time limit ran out before a conflict was found")
        return
    if conflict is None:  # pragma: no cover - the search said unsatisfiable
        return
    source = text.splitlines()
    shown = "a minimal set" if conflict.minimal else "a set (the time limit stopped the " \
        "shrinking: maybe not minimal)"
    n = len(conflict.labels)
    out(f"% why: {shown} of {n} constraint{'' if n == 1 else 's'} that cannot hold "
        "together:")
    positions = constraint_positions(text) if origins else {}
    for label in conflict.labels:
        number = int(label.removeprefix("line "))
        quoted = source[number - 1].strip() if 0 < number <= len(source) else ""
        place = (origins or {}).get(positions.get(number, -1))
        out(f"% {label}: {quoted}" + (f" (from {place})" if place else ""))


def read_source(path: str) -> str:
    """The text of the file (- for standard input)."""
    from conundrum.io.flatzinc.parser import FznError

    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise FznError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise FznError(f"{path} is not a UTF-8 text file") from None


def output_vars(problem: Problem) -> list:
    """The model variables the output items print, each once, in the order printed."""
    from conundrum.lang.expr import Var
    from conundrum.lang.setvar import SetVar

    found: dict[int, Var] = {}
    for out in problem.outputs:
        items = out.value if isinstance(out.value, list) else [out.value]
        for item in items:
            if isinstance(item, Var):  # (a constant prints as itself)
                found.setdefault(item.index, item)
            elif isinstance(item, SetVar):  # a set prints as its members
                for member in item.members:
                    found.setdefault(member.index, member)
    return list(found.values())


def search_options(problem: Problem, args: argparse.Namespace) -> dict:
    """The model's search options: the annotations' phases, then MiniZinc's own variables
    (not the ones it introduced) under conundrum's defaults, then everything else; the
    solutions projected on the output variables (MiniZinc's convention: each assignment of
    them is printed once, the other variables completed once)."""
    phases = list(problem.phases)
    # the objective is left to branch and bound, as through the API: branched on with the
    # others, dom_wdeg tried its smallest values first, a proof of no solution each (the
    # hard section's bin packing: no solution in 25 s through FlatZinc, 52 bins without)
    objective = problem.objective
    own = [v for v in problem.default_vars if v is not objective]
    if own:
        phases.append((own, "dom_wdeg", "auto"))
    project = output_vars(problem)
    if len(project) > 1:  # (an optimisation's solutions differ in the objective anyway)
        project = [v for v in project if v is not objective]
    opts: dict = {"phases": phases, "seed": args.seed, "project": project}
    if args.time_ms is not None:
        opts["time_limit"] = args.time_ms / 1000
    if args.workers > 1:
        opts["workers"] = args.workers
    restarts = args.restarts if args.restarts is not None else problem.restarts
    if restarts is not None:
        opts["restarts"] = restarts
    if args.search is not None:
        opts["search"] = args.search
    if args.no_lp:
        opts["lp"] = False
    if args.no_lns:
        opts["lns"] = False
    elif (args.lns or problem.lns) and problem.kind != "satisfy" and \
            not isinstance(problem.objective, int):
        opts["lns"] = True
    return opts


def solve(problem: Problem, args: argparse.Namespace, out: Callable[[str], None]) -> bool:
    """Search and print solutions, the final status line and (-s) the statistics; whether
    the model was shown unsatisfiable."""
    from conundrum.io.flatzinc.output import (
        SEARCH_COMPLETE,
        UNKNOWN,
        UNSATISFIABLE,
        format_progress,
        format_solution,
        format_stats,
    )
    from conundrum.lang.expr import Var
    from conundrum.search import stats as cn_stats

    m = problem.model
    opts = search_options(problem, args)
    outputs = problem.outputs
    found = 0
    objective = problem.objective
    if problem.kind == "satisfy" or isinstance(objective, int):
        limit = args.num if args.num is not None else (None if args.all else 1)
        for sol in m.solutions(limit=limit, **opts):
            found += 1
            out(format_solution(outputs, sol.__getitem__))
        stats = m.stats
        if problem.kind != "satisfy" and found and stats.stopped_by == "limit":
            stats.stopped_by = None  # a constant objective: the first solution is optimal
            stats.conclude("best")
    else:
        # each improving solution, in order; -n N stops after N of them
        assert isinstance(objective, Var)  # read(): a variable, or an integer (above)
        every = args.all or args.intermediate
        last = None
        run = m.improving(objective, "min" if problem.kind == "minimize" else "max",
                          limit=args.num, **opts)
        try:
            for sol in run:
                found += 1
                last = sol
                if every:
                    out(format_solution(outputs, sol.__getitem__))
                    if args.stats:
                        out(format_progress(m.stats))
        except KeyboardInterrupt:
            # Ctrl-C (MiniZinc's own time limit sends SIGINT): the best found stands, and
            # is printed below as an unproved answer
            m.stats.stop("interrupted")
            m.stats.conclude("best")
        finally:
            run.close()
        stats = m.stats
        if last is not None and not every:
            out(format_solution(outputs, last.__getitem__))
    if found == 0:
        out(UNSATISFIABLE if stats.status == cn_stats.UNSATISFIABLE else UNKNOWN)
    elif stats.status in (cn_stats.ALL_SOLUTIONS, cn_stats.OPTIMAL):
        out(SEARCH_COMPLETE)  # every solution printed, or the last one proved optimal
    if args.stats:
        out(format_stats(stats))
    return found == 0 and stats.status == cn_stats.UNSATISFIABLE


def run(args: argparse.Namespace, out: Callable[[str], None],
        err: Callable[[str], None]) -> int:
    """The `fzn` command: 0 when the search ran (whatever it found), 2 on bad input."""
    if args.num is not None and args.num < 1:
        err("conundrum fzn: -n needs a number of solutions >= 1")
        return 2
    if args.time_ms is not None and args.time_ms < 1:
        err("conundrum fzn: -t needs a number of milliseconds >= 1")
        return 2
    if not 1 <= args.workers <= MAX_WORKERS:
        # each worker is a process: an absurd -p is refused before any is started
        err(f"conundrum fzn: -p needs a number of workers from 1 to {MAX_WORKERS}, "
            f"not {args.workers}")
        return 2
    import conundrum as cn
    from conundrum.io.flatzinc.parser import FznError

    where = "<stdin>" if args.file == "-" else args.file
    try:
        text = read_source(args.file)
        origins = None
        if args.paths is not None:
            from conundrum.io.flatzinc.paths import read_paths

            if not args.why:
                raise FznError("--paths names the MiniZinc source for --why: add --why")
            origins = read_paths(read_source(args.paths), args.paths)
        problem = read_paused(text, args.free)
    except FznError as e:
        err(f"conundrum fzn: {where}: {e}")
        return 2
    except cn.ModelError as e:
        err(f"conundrum fzn: {where}: {e}")
        return 2
    try:
        for w in problem.warnings:
            err(f"conundrum fzn: warning: {w}")
        unsatisfiable = solve(problem, args, out)
        if unsatisfiable and args.why:
            why(problem, text, args.time_ms / 1000 if args.time_ms else WHY_SECONDS, out,
                origins)
    except cn.ModelError as e:
        err(f"conundrum fzn: {where}: {e}")
        return 2
    finally:
        gc.unfreeze()
    return 0


def read_paused(text: str, free: bool) -> Problem:
    """`read` with the cyclic garbage collector paused, and what it read then set aside
    from later collections (`gc.freeze`; `run` undoes it when the search ends). Reading
    makes no cyclic garbage, only objects that live as long as the model, and on a large
    FlatZinc (queens+200: 4.9 MB, 59,700 constraints) the full collections that their
    number triggers cost a fifth of the reading, and their scans of the model slow every
    later collection of the compiler and the search."""
    from conundrum.io.flatzinc.build import read

    enabled = gc.isenabled()
    gc.disable()
    try:
        problem = read(text, free=free)
    finally:
        if enabled:
            gc.enable()
    gc.freeze()
    return problem
