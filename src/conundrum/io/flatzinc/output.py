"""Solutions and statuses in the FlatZinc output format (what MiniZinc's solns2out reads)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from conundrum.io.flatzinc.parser import IntSet, Range
from conundrum.io.flatzinc.problem import Output
from conundrum.search.stats import SearchStats

SOLUTION_END = "----------"
SEARCH_COMPLETE = "=========="
UNSATISFIABLE = "=====UNSATISFIABLE====="
UNKNOWN = "=====UNKNOWN====="


def int_text(v: int) -> str:
    """The decimal text of v, however long (str() refuses over 4300 digits; the reader
    accepts longer literals, so a solution may hold one)."""
    if v.bit_length() < 14_000:  # under 4300 digits
        return str(v)
    chunk = 10 ** 4000
    n, parts = abs(v), []
    while n:
        n, r = divmod(n, chunk)
        parts.append(r)
    text = str(parts[-1]) + "".join(str(p).zfill(4000) for p in reversed(parts[:-1]))
    return "-" + text if v < 0 else text


def set_text(values: Iterable[int]) -> str:
    """A set in FlatZinc's syntax: `{1,3,5}`, a run of consecutive values as `1..3`."""
    items = sorted(values)
    if not items:
        return "{}"
    if len(items) > 1 and items[-1] - items[0] == len(items) - 1:
        return f"{int_text(items[0])}..{int_text(items[-1])}"
    return "{" + ",".join(int_text(v) for v in items) + "}"


def _value(item: object, is_bool: bool, value_of: Callable[[object], Any]) -> str:
    if isinstance(item, Range | IntSet):
        return set_text(item.values() if isinstance(item, Range) else item)
    v = item if isinstance(item, int) else value_of(item)
    if isinstance(v, frozenset):  # a set variable's value
        return set_text(v)
    return ("true" if v else "false") if is_bool else int_text(v)


def format_solution(outputs: list[Output], value_of: Callable[[Any], int]) -> str:
    """The output items of one solution, then the `----------` line."""
    lines = []
    for out in outputs:
        if out.dims is None:
            lines.append(f"{out.name} = {_value(out.value, out.is_bool, value_of)};")
        else:
            items = ",".join(_value(x, out.is_bool, value_of)
                             for x in out.value)  # type: ignore[attr-defined]
            dims = ", ".join(f"{d.lo}..{d.hi}" for d in out.dims)
            lines.append(f"{out.name} = array{len(out.dims)}d({dims}, [{items}]);")
    lines.append(SOLUTION_END)
    return "\n".join(lines)


def format_progress(stats: SearchStats) -> str:
    """After an improving solution (with -s and -a/-i): its objective and the bound proved
    so far, so that `minizinc --json-stream` gives both with every solution (its
    `--output-time` gives the time)."""
    fields = {"objective": stats.objective}
    if stats.bound is not None:
        fields["objectiveBound"] = stats.bound
    return "\n".join([*(f"%%%mzn-stat: {k}={v}" for k, v in fields.items()),
                      "%%%mzn-stat-end"])


def format_stats(stats: SearchStats) -> str:
    """`%%%mzn-stat: key=value` lines for the search statistics, then `%%%mzn-stat-end`."""
    fields = {"nodes": stats.nodes, "failures": stats.fails, "restarts": stats.restarts,
              "propagations": stats.propagations, "solutions": stats.solutions,
              "peakDepth": stats.max_depth, "solveTime": f"{stats.seconds:.6f}"}
    # an optimisation's best value and proved bound, under MiniZinc's standard names
    if stats.objective is not None:
        fields["objective"] = stats.objective
    if stats.bound is not None:
        fields["objectiveBound"] = stats.bound
    return "\n".join([*(f"%%%mzn-stat: {k}={v}" for k, v in fields.items()),
                      "%%%mzn-stat-end"])
