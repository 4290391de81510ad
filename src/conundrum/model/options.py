"""The keyword options of the solving methods, as one TypedDict.

`Model.solutions`, `solve`, `count`, `improving`, `minimize` and `maximize` take these
keywords (``**options: Unpack[SearchKeywords]``), so a type checker or an IDE completes their
names and flags a misspelt heuristic (``var_select="first-fail"``) before the model runs. At run
time the same mistakes raise a ModelError naming the choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal, TypedDict

if TYPE_CHECKING:
    from conundrum.lang.expr import Operands
    from conundrum.search.methods import Method
    from conundrum.search.selectors import ValueSelect, VarSelect
    from conundrum.search.stats import SearchStats

# the direction of Model.improving: "min" (each solution smaller) or "max" (larger)
Sense = Literal["min", "max"]


class SearchKeywords(TypedDict, total=False):
    """How to search; every key is optional (names as in ECLiPSe's search/6).

    - ``var_select``: which variable to branch on (default ``"dom_wdeg"``);
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
    workers: int
    scheduler: object
    ordered: bool
