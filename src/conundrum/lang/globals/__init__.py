"""Global constraints and expression builders of the public API, one module per kind:

- counting: all_different (and _except_0), global_cardinality, among, nvalue, all_equal,
  count, at_most, at_least;
- sequencing: increasing, decreasing, lex_less, lex_lesseq, value_precede;
- scheduling: no_overlap, cumulative, no_overlap_2d;
- intervals: end_before_start (and its kin), alternative, span;
- packing: bin_packing;
- graph: circuit, subcircuit, inverse;
- extensional: table, regular, pattern_automaton;
- arithmetic: min, max, arg_max, arg_min, element, sum, exact_div, integral, implies,
  linear_eq;
- logic: any, all, xor, at_most_one, exactly_one (Booleans and constraints);
- sets: subset, superset, set_eq, set_ne, set_le, set_lt, disjoint, all_disjoint, set_union,
  set_intersect, set_diff, set_symdiff, member, set_element, card (over set variables).

Each global constraint states its meaning once, in `holds`, used by the independent checker,
and gives a decomposition into relations, used when the constraint is reified (used as a
0/1 value) and as a readable reference. Posted at the top level, the compiler uses a
dedicated propagator instead.

This package re-exports every name that `conundrum.lang.globals` had as a single module.
"""

from conundrum.lang.globals.arithmetic import (
    LINEAR_STRENGTHS,
    LinearEquation,
    LinearStrength,
    arg_max,
    arg_min,
    element,
    exact_div,
    implies,
    integral,
    linear_eq,
    max,
    min,
    sum,
)
from conundrum.lang.globals.base import (  # noqa: F401  (the helpers were importable here)
    _flatten,
    _int_values,
    _is,
    _member,
    _pairwise_all,
)
from conundrum.lang.globals.counting import (
    ALLDIFF_STRENGTHS,
    NVALUE_LIMIT,
    AllDifferent,
    AllDifferentExcept0,
    AllDifferentStrength,
    AllEqual,
    Among,
    GlobalCardinality,
    NValue,
    all_different,
    all_different_except_0,
    all_equal,
    among,
    at_least,
    at_most,
    count,
    global_cardinality,
    nvalue,
)
from conundrum.lang.globals.extensional import (
    Regular,
    Table,
    pattern_automaton,
    regular,
    table,
)
from conundrum.lang.globals.graph import (
    Circuit,
    Inverse,
    circuit,
    inverse,
    subcircuit,
)
from conundrum.lang.globals.intervals import (
    alternative,
    end_before_end,
    end_before_start,
    span,
    start_before_end,
    start_before_start,
)
from conundrum.lang.globals.logic import (
    AtMostOne,
    ExactlyOne,
    all,
    any,
    at_most_one,
    exactly_one,
    xor,
)
from conundrum.lang.globals.packing import (
    BinPacking,
    bin_packing,
)
from conundrum.lang.globals.scheduling import (
    Cumulative,
    NoOverlap,
    NoOverlap2D,
    cumulative,
    no_overlap,
    no_overlap_2d,
)
from conundrum.lang.globals.sequencing import (
    Lex,
    Ordered,
    ValuePrecede,
    decreasing,
    increasing,
    lex_less,
    lex_lesseq,
    value_precede,
)
from conundrum.lang.globals.sets import (
    Difference,
    Disjoint,
    Intersection,
    Member,
    SetElement,
    SetEq,
    SetGlobal,
    SetLe,
    SetLike,
    SetLt,
    SetNe,
    Subset,
    SymDiff,
    Union,
    all_disjoint,
    card,
    disjoint,
    member,
    set_diff,
    set_element,
    set_eq,
    set_intersect,
    set_le,
    set_lt,
    set_ne,
    set_symdiff,
    set_union,
    subset,
    superset,
)

__all__ = [
    "alternative", "end_before_end", "end_before_start", "span", "start_before_end",
    "start_before_start",
    "all", "any", "at_most_one", "AtMostOne", "exactly_one", "ExactlyOne", "xor",
    "all_different", "all_different_except_0", "all_equal", "ALLDIFF_STRENGTHS",
    "AllDifferent", "AllDifferentExcept0", "AllDifferentStrength", "AllEqual", "Among",
    "among", "arg_max", "arg_min", "at_least", "at_most", "bin_packing", "BinPacking",
    "Circuit", "circuit", "count", "Cumulative", "cumulative", "decreasing", "element",
    "exact_div", "global_cardinality", "GlobalCardinality", "implies", "increasing",
    "integral", "Inverse", "inverse", "Lex", "lex_less", "lex_lesseq", "linear_eq",
    "LINEAR_STRENGTHS", "LinearEquation", "LinearStrength", "max", "min", "no_overlap",
    "no_overlap_2d", "NoOverlap", "NoOverlap2D", "NValue", "nvalue", "NVALUE_LIMIT",
    "Ordered", "pattern_automaton", "Regular", "regular", "subcircuit", "sum", "Table",
    "table", "value_precede", "ValuePrecede",
    "all_disjoint", "card", "Difference", "Disjoint", "disjoint", "Intersection", "Member",
    "member", "set_diff", "set_element", "set_eq", "set_intersect", "set_le", "set_lt",
    "set_ne", "set_symdiff", "set_union", "SetElement", "SetEq", "SetGlobal", "SetLe",
    "SetLike", "SetLt", "SetNe", "subset", "Subset",
    "superset", "SymDiff", "Union",
]

