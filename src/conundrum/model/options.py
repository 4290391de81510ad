"""The keyword options of the solving methods, as one TypedDict.

`Model.solutions`, `solve`, `count`, `improving`, `minimize` and `maximize` take these
keywords (``**options: Unpack[SearchKeywords]``), so a type checker or an IDE completes their
names and flags a misspelt heuristic (``var_select="first-fail"``) before the model runs. At run
time the same mistakes raise a ModelError naming the choices: `search_options` checks the
keywords of a call and turns them into the engine's SearchOptions (and the parallel
settings when the search runs on several workers).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Var
from conundrum.lang.matrix import Matrix

if TYPE_CHECKING:
    from conundrum.lang.expr import Operands
    from conundrum.model.model import Model
    from conundrum.parallel.options import Parallel
    from conundrum.search.methods import Method
    from conundrum.search.options import SearchOptions
    from conundrum.search.selectors import ValueSelect, VarSelect
    from conundrum.search.stats import SearchStats

# the direction of Model.improving: "min" (each solution smaller) or "max" (larger)
Sense = Literal["min", "max"]


def checked_int(value: object, what: str) -> int:
    """`value` if it is an integer (not a bool), else a ModelError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ModelError(f"{what} must be an integer, not {value!r}")
    return value


def check_limit(limit: object) -> int | None:
    """The `limit=` of solutions(), count() and improving(): None, or a number of solutions
    >= 0."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise ModelError(f"limit must be an integer, not {limit!r}")
    if limit < 0:
        raise ModelError(f"limit must be >= 0, not {limit}")
    return limit


def sense_sign(sense: object) -> int:
    """The direction of an optimisation: -1 to minimise, 1 to maximise."""
    if sense == "min":
        return -1
    if sense == "max":
        return 1
    raise ModelError(f"sense must be 'min' or 'max', not {sense!r}")


class SearchKeywords(TypedDict, total=False):
    """How to search; every key is optional (names as in ECLiPSe's search/6).

    - ``var_select``: which variable to branch on (default ``"dom_wdeg"``; ``"activity"``
      with the learning search, or ``"auto"``, where it stands for ``"dom_wdeg"`` until
      the search learns);
    - ``value_select``: which value to try first (default ``"auto"``);
    - ``method``: ``"complete"`` (default), ``"lds:N"``, ``"bbs:N"``, or ``cn.lds(N)``,
      ``cn.bbs(N)``;
    - ``time_limit`` (seconds), ``node_limit``: stop early (``stats.stopped_by`` says so);
    - ``seed``: for ``value_select="random"``;
    - ``on_progress``: called with the statistics about five times a second;
    - ``phases``: ``[(variables, var_select, value_select), ...]`` searched in order;
    - ``project``: variables the solutions must be distinct on (projected enumeration):
      each assignment of them that extends to a solution is given once, with one
      completion of the other variables (counts count these assignments);
    - ``restarts``: ``"luby"``, ``"geometric"`` (ratio 1.5), ``"linear"`` or
      ``"constant"`` (optionally ``"luby:N"``: N failures per unit of the sequence, default
      100; a constant run grows by one failure a restart so that the search ends) restarts
      the search from the root, keeping its refuted branches as nogoods so that no
      solution is lost or repeated; off by default;
    - ``search``: ``"auto"`` (default: depth-first, except that an optimisation or one
      solution is a portfolio after 10,000 failures, ``"auto:N"`` after N, and a
      learning heuristic such as ``var_select="activity"`` learns from the start),
      ``"classic"`` (depth-first), ``"learning"`` (conflict-driven nogood learning with
      backjumping and Luby restarts) or ``"portfolio"`` (the two in turns on one core, sharing the
      incumbent; ``"portfolio:N"``); the same solutions, counts and optima;
    - ``lns``: ``True`` makes an optimisation a large neighbourhood search: after a first
      solution, random parts of the model are searched around the best solution with a
      small node budget each, growing to the whole model when they are exhausted (so a
      small model still ends with a proof), and with a time limit its second half goes to
      the exact search from the best solution. ``None`` (the default): with a
      ``time_limit``, neighbourhoods take turns with the exact searches of the portfolio
      (the default search of an optimisation); ``False`` never. With ``workers=`` or
      ``scheduler=`` every worker searches neighbourhoods of the shared incumbent, then
      the split search proves it;
    - ``lp``: ``None`` (the default) or ``True`` bounds an optimisation by the linear
      relaxation of its linear constraints, solved at the root: the cut it gives the
      objective proves the relaxation's bound and, under branch and bound, removes what
      cannot improve on the incumbent (reduced costs); ``False``: no relaxation;
    - ``workers``, ``scheduler``, ``ordered``: parallel search on worker processes or a
      Dask cluster (an address such as ``"tcp://host:8786"`` or a Client).
    """

    var_select: VarSelect
    value_select: ValueSelect
    method: str | Method
    time_limit: float
    node_limit: int
    seed: int
    on_progress: Callable[[SearchStats], object]
    phases: Sequence[tuple[Operands, VarSelect, ValueSelect]]
    project: Operands
    restarts: str
    search: Literal["classic", "learning", "portfolio", "auto"]
    lns: bool | None
    lp: bool | None
    workers: int
    scheduler: object
    ordered: bool


# The keywords of the solving methods are those of SearchKeywords (one list for the type
# checker and the run-time check); these three choose where the search runs.
PARALLEL_OPTIONS = ("workers", "scheduler", "ordered")
SEARCH_OPTIONS = tuple(k for k in SearchKeywords.__annotations__ if k not in PARALLEL_OPTIONS)


def search_options(model: Model, kwargs: Mapping[str, Any], mode: str = "solutions",
                   ) -> tuple[SearchOptions, Parallel | None]:
    """The search options of a call on `model`, and the parallel settings when the search
    is to run on several workers (None: sequential). `mode` is what the run is for:
    "solutions", "count" or "optimize"."""
    # the engine's options are imported at the first solve, not at `import conundrum`
    from conundrum.search.options import SearchOptions, check_options

    unknown = set(kwargs) - set(SEARCH_OPTIONS) - set(PARALLEL_OPTIONS)
    if unknown:
        raise ModelError(f"unknown search option(s): {', '.join(sorted(unknown))}; "
                         f"known: {', '.join(SEARCH_OPTIONS + PARALLEL_OPTIONS)}")
    search_kwargs = {k: v for k, v in kwargs.items() if k in SEARCH_OPTIONS}
    try:
        check_options(search_kwargs)  # before the typed SearchOptions sees a wrong type
    except ValueError as e:
        raise ModelError(str(e)) from None
    if search_kwargs.get("lns"):
        if mode != "optimize":
            raise ModelError("lns=True is for an optimisation (minimize, maximize, "
                             "improving): there is no incumbent to search around")
    parallel = None
    if any(k in kwargs for k in PARALLEL_OPTIONS):
        from conundrum.parallel.options import parallel_settings

        parallel = parallel_settings(kwargs, search_kwargs, mode)
    if search_kwargs.get("phases") is not None:
        search_kwargs["phases"] = [(model_vars(model, xs), vs, val)
                                   for xs, vs, val in search_kwargs["phases"]]
    if search_kwargs.get("project") is not None:
        search_kwargs["project"] = model_vars(model, search_kwargs["project"], "project")
    opts = SearchOptions(**search_kwargs)
    if model.hints:
        opts.hints = dict(model.hints)
    return opts, parallel


def model_vars(model: Model, items: object, what: str = "phases") -> list[Var]:
    """The variables of a search phase or of `project` (a variable, or any nesting of
    lists of them), each checked to be one of `model`'s."""
    stack, found = [items], []
    while stack:
        item = stack.pop()
        if isinstance(item, Var):
            if item.model is not model:
                raise ModelError(f"{what}: variable {item.name or item.index!r} belongs "
                                 "to another model")
            found.append(item)
        elif isinstance(item, list | tuple | Matrix):
            stack.extend(reversed(list(item)))
        else:
            raise ModelError(f"{what}: {item!r} is not a variable of the model")
    return found
