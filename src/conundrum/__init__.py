"""conundrum: constraint logic programming for Python.

Finite-domain integer variables, exact arithmetic (rational `/`, `exact_div`, `integral`,
floor `//` and `%`), global constraints, propagation to a fixpoint and configurable search.

    import conundrum as cn
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 9)
    m += x + y == 10
    print(m.count())
"""

from conundrum.model.errors import ModelError
from conundrum.model.expr import Expr, Var
from conundrum.model.globals import (
    all_different,
    all_different_except_0,
    count,
    decreasing,
    element,
    exact_div,
    global_cardinality,
    implies,
    increasing,
    integral,
    lex_less,
    lex_lesseq,
    max,
    min,
    sum,
    table,
)
from conundrum.model.matrix import Matrix
from conundrum.model.model import Model, Solution
from conundrum.search.methods import bbs, lds
from conundrum.search.stats import SearchStats

__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    # SearchOptions lives with the search, which is imported at the first solve.
    if name == "SearchOptions":
        from conundrum.search.dfs import SearchOptions

        return SearchOptions
    raise AttributeError(f"module 'conundrum' has no attribute {name!r}")

__all__ = [
    "Expr", "Matrix", "Model", "ModelError", "SearchOptions", "SearchStats", "Solution", "Var",
    "all_different", "all_different_except_0", "bbs", "count", "decreasing", "element",
    "exact_div", "global_cardinality", "implies", "increasing", "integral", "lds",
    "lex_less", "lex_lesseq", "max", "min", "sum", "table",
]
