"""conundrum: constraint logic programming for Python.

Finite-domain integer variables, exact arithmetic (rational `/`, `exact_div`, `integral`,
floor `//` and `%`), global constraints, propagation to a fixpoint and configurable search.

    import conundrum as cn
    m = cn.Model()
    x, y = m.int_vars("x y", 0, 9)
    m += x + y == 10
    print(m.count())

The engine is compiled by mypyc when the package is installed with a C compiler at hand;
`conundrum.COMPILED` says whether this process runs the compiled engine, and the
environment variable CONUNDRUM_PURE=1 selects the pure-Python reference (same answers).
"""

import os
from typing import TYPE_CHECKING

if os.environ.get("CONUNDRUM_PURE") == "1":  # before any engine module is imported
    from conundrum._pure import use_pure_sources

    use_pure_sources()

from conundrum.lang.array import Array  # noqa: E402
from conundrum.lang.errors import ModelError, WorkerError  # noqa: E402
from conundrum.lang.expr import Expr, ExprLike, Operands, Var  # noqa: E402
from conundrum.lang.globals import (  # noqa: E402
    all,
    all_different,
    all_different_except_0,
    all_disjoint,
    all_equal,
    alternative,
    among,
    any,
    arg_max,
    arg_min,
    at_least,
    at_most,
    at_most_one,
    bin_packing,
    card,
    circuit,
    count,
    cumulative,
    decreasing,
    disjoint,
    element,
    end_before_end,
    end_before_start,
    exact_div,
    exactly_one,
    global_cardinality,
    implies,
    increasing,
    integral,
    inverse,
    lex_less,
    lex_lesseq,
    linear_eq,
    max,
    member,
    min,
    no_overlap,
    no_overlap_2d,
    nvalue,
    pattern_automaton,
    regular,
    set_diff,
    set_element,
    set_eq,
    set_intersect,
    set_le,
    set_lt,
    set_ne,
    set_symdiff,
    set_union,
    span,
    start_before_end,
    start_before_start,
    subcircuit,
    subset,
    sum,
    superset,
    table,
    value_precede,
    xor,
)
from conundrum.lang.interval import Interval  # noqa: E402
from conundrum.lang.matrix import Matrix, array  # noqa: E402
from conundrum.lang.setvar import SetVar  # noqa: E402
from conundrum.model.model import Constraints, Model, Solution  # noqa: E402
from conundrum.model.options import SearchKeywords  # noqa: E402
from conundrum.search.methods import bbs, lds  # noqa: E402
from conundrum.search.stats import SearchStats  # noqa: E402

__version__ = "0.1.0"

# The public names: `from conundrum import *` and type checkers (which, under --strict,
# see only what a package exports explicitly) both read this list.
__all__ = [
    "Array", "COMPILED", "Constraints", "Expr", "ExprLike", "Interval", "Matrix", "Model",
    "ModelError", "Operands", "SearchKeywords", "SearchOptions", "SearchStats", "SetVar",
    "Solution", "ValueSelect", "Var", "VarSelect", "WorkerError", "__version__", "all",
    "all_different", "all_different_except_0", "all_disjoint", "all_equal", "alternative",
    "among", "any", "arg_max", "arg_min", "array", "at_least", "at_most", "at_most_one", "bbs",
    "bin_packing", "card", "circuit", "count", "cumulative", "decreasing", "disjoint",
    "element", "end_before_end", "end_before_start", "exact_div", "exactly_one",
    "global_cardinality", "implies", "increasing", "integral", "inverse", "lds", "lex_less",
    "lex_lesseq", "linear_eq", "max", "member", "min", "no_overlap", "no_overlap_2d", "nvalue",
    "pattern_automaton", "regular", "set_diff", "set_element", "set_eq", "set_intersect",
    "set_le", "set_lt", "set_ne", "set_symdiff", "set_union", "span", "start_before_end",
    "start_before_start", "subcircuit", "subset", "sum", "superset", "table", "value_precede",
    "xor",
]

# whether the engine running here is the compiled one (its modules are extension modules)
COMPILED = not str(getattr(__import__("sys").modules[SearchStats.__module__], "__file__",
                           ".py")).endswith(".py")


if TYPE_CHECKING:
    from conundrum.search.options import SearchOptions
    from conundrum.search.selectors import ValueSelect, VarSelect


def __getattr__(name: str) -> object:
    # These live with the search, which is imported at the first solve, not here.
    if name == "SearchOptions":
        from conundrum.search.options import SearchOptions

        return SearchOptions
    if name in ("VarSelect", "ValueSelect"):
        from conundrum.search import selectors

        return getattr(selectors, name)
    raise AttributeError(f"module 'conundrum' has no attribute {name!r}")
