"""The search options (SearchOptions) and the checks of their values."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from conundrum.search.restarts import parse_restarts
from conundrum.search.selectors import LEARNING_VAR_SELECTS, VALUE_SELECTS, VAR_SELECTS
from conundrum.search.stats import SearchStats

# the searches: depth-first, conflict-driven learning, both sharing the core in turns
# (compiler/portfolio.py), and the choice between them
SEARCHES: Final = ("classic", "learning", "portfolio", "auto")
# search="auto" and "portfolio": an optimisation searches depth-first for this many
# failures before the learning search takes its first turn ("auto:N" sets N); see auto.py
# and compiler/portfolio.py for the rules and their figures
AUTO_SWITCH_FAILS: Final = 10000


def parse_search(text: str) -> tuple[str, int]:
    """"classic", "learning", "portfolio", "auto", "auto:N" or "portfolio:N" as (search,
    failures of the classic search before the learning search takes its first turn; 0
    for classic and learning); ValueError otherwise."""
    if text in ("classic", "learning"):
        return text, 0
    if text in ("auto", "portfolio"):
        return text, AUTO_SWITCH_FAILS
    for name in ("auto", "portfolio"):
        if isinstance(text, str) and text.startswith(name + ":") and \
                text[len(name) + 1:].isdigit() and int(text[len(name) + 1:]) > 0:
            return name, int(text[len(name) + 1:])
    raise ValueError(f"unknown search {text!r}; choose from {', '.join(SEARCHES)} (or "
                     "auto:N and portfolio:N, N failures of the classic search before the "
                     "learning search takes its first turn)")


class SearchOptions:
    """How to search (names as in ECLiPSe's search/6)."""

    __slots__ = ("var_select", "value_select", "method", "time_limit", "node_limit", "seed",
                 "on_progress", "phases", "project", "restarts", "search", "hints", "lns",
                 "lp")

    def __init__(self, var_select: str = "dom_wdeg", value_select: str = "auto",
                 method: object = "complete", time_limit: float | None = None,
                 node_limit: int | None = None, seed: int = 0,
                 on_progress: Callable[[SearchStats], object] | None = None,
                 phases: object = None, project: object = None,
                 restarts: str | None = None, search: str = "auto",
                 hints: object = None, lns: bool | None = None,
                 lp: bool | None = None) -> None:
        self.var_select = var_select
        self.value_select = value_select
        self.method = method
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.seed = seed
        self.on_progress = on_progress
        # (variables, var_select, value_select) triples over the model's variables; the
        # model resolves them to engine variables (search() takes them as `phases`)
        self.phases = phases
        # the variables the solutions must be distinct on (projected enumeration), or None;
        # model variables, resolved by the model as the phases are
        self.project = project
        # None (no restarts), or a sequence of restarts.KINDS, with a scale: "luby:50"
        self.restarts = restarts
        # "classic" (depth-first, dfs.py), "learning" (conflict-driven nogood learning,
        # learning.py) or "auto", the default (auto.py: a hard optimisation switches from
        # the first to the second after a failure budget)
        self.search = search
        # Model.hint's values ({model variable: value}, resolved by the compiled model to
        # engine variables), or None: tried first by every value choice
        self.hints = hints
        # large neighbourhood search for an optimisation (True, compiler/lns.py), the exact
        # branch and bound (False), or None, the default: the first when a time limit is
        # given (compiler/lns.py `chosen`)
        self.lns = lns
        # the cut of the root's linear relaxation on the objective (compiler/relaxation.py):
        # None (the default) and True post it when it raises the root's bound, False never
        self.lp = lp

    def copy(self) -> SearchOptions:
        """A copy to change without changing the caller's."""
        return SearchOptions(self.var_select, self.value_select, self.method,
                             self.time_limit, self.node_limit, self.seed, self.on_progress,
                             self.phases, self.project, self.restarts, self.search,
                             self.hints, self.lns, self.lp)

    def validate(self) -> tuple[str, int | None]:
        """Check the options; return the method as (kind, N)."""
        check_options({"var_select": self.var_select, "value_select": self.value_select,
                       "time_limit": self.time_limit, "node_limit": self.node_limit,
                       "seed": self.seed, "on_progress": self.on_progress,
                       "method": self.method, "restarts": self.restarts,
                       "search": self.search})
        return parse_method(self.method)


def check_options(options: dict[str, object]) -> None:
    """Check the given options' values (ValueError naming the wrong one). The model calls
    this on the user's keywords before building SearchOptions, whose typed fields would
    otherwise reject a wrong type with a bare TypeError in the compiled engine."""
    var_select = options.get("var_select")
    search = options.get("search", "auto")
    kind = parse_search(search)[0]  # type: ignore[arg-type]
    if var_select in LEARNING_VAR_SELECTS:
        if kind == "classic":
            raise ValueError(f"var_select {var_select!r} belongs to the learning search: "
                             "add search='learning' (or 'auto')")
    elif "var_select" in options and var_select not in VAR_SELECTS:
        raise ValueError(f"unknown var_select {var_select!r}; choose from "
                         f"{', '.join(VAR_SELECTS)} (or, with search='learning', "
                         f"{', '.join(LEARNING_VAR_SELECTS)})")
    if "value_select" in options and options["value_select"] not in VALUE_SELECTS:
        raise ValueError(f"unknown value_select {options['value_select']!r}; choose from "
                         f"{', '.join(VALUE_SELECTS)}")
    t = options.get("time_limit")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or not t > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, not {t!r}")
    n = options.get("node_limit")
    if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
        raise ValueError(f"node_limit must be an integer >= 0, not {n!r}")
    seed = options.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    progress = options.get("on_progress")
    if progress is not None and not callable(progress):
        raise ValueError(f"on_progress must be a function of the statistics, not "
                         f"{progress!r}")
    if "method" in options:
        parse_method(options["method"])
    lns = options.get("lns")
    if lns is not None and not isinstance(lns, bool):
        raise ValueError(f"lns must be True, False or None, not {lns!r}")
    lp = options.get("lp")
    if lp is not None and not isinstance(lp, bool):
        raise ValueError(f"lp must be True, False or None, not {lp!r}")
    if lns and "method" in options and parse_method(options["method"])[0] != "complete":
        raise ValueError("lns cannot be combined with method lds or bbs (each neighbourhood "
                         "has a node budget of its own)")
    if kind == "learning" and "method" in options and \
            parse_method(options["method"])[0] == "lds":
        raise ValueError("search='learning' cannot be combined with method lds (a learned "
                         "nogood, not a discrepancy count, decides what is left to search)")
    if options.get("restarts") is not None:
        parse_restarts(options["restarts"])
        if "method" in options and parse_method(options["method"])[0] == "lds":
            raise ValueError("restarts cannot be combined with method lds (its iterations "
                             "restart already, and the branches it cuts are not refuted)")
    phases = options.get("phases")
    if phases is not None:
        if not isinstance(phases, list | tuple):
            raise ValueError(f"phases must be a list of (variables, var_select, value_select), "
                             f"not {phases!r}")
        for phase in phases:
            if not isinstance(phase, list | tuple) or len(phase) != 3:
                raise ValueError(f"a phase is (variables, var_select, value_select), not "
                                 f"{phase!r}")
            check_options({"var_select": phase[1], "value_select": phase[2]})


def parse_method(method: object) -> tuple[str, int | None]:
    """"complete", "lds:N", "bbs:N", or an object with `kind` and `n` (cn.lds(3))."""
    if hasattr(method, "kind") and hasattr(method, "n"):
        kind, n = method.kind, method.n
    elif isinstance(method, str):
        text = method.strip().lower().replace("(", ":").rstrip(")")
        if text == "complete":
            return "complete", None
        kind, _, num = text.partition(":")
        try:
            n = int(num)
        except ValueError:
            raise ValueError(f"bad method {method!r}: use complete, lds:N or bbs:N") from None
    else:
        raise ValueError(f"bad method {method!r}: use complete, lds:N or bbs:N")
    if kind not in ("lds", "bbs") or not isinstance(n, int) or n < 0:
        raise ValueError(f"bad method {method!r}: use complete, lds:N or bbs:N (N >= 0)")
    return kind, n
