"""What the FlatZinc reader hands the command line: the model ready to solve (`Problem`)
and its output items (`Output`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.io.flatzinc.items import Range, Record

if TYPE_CHECKING:
    import conundrum as cn


class Output(Record):
    """One output item: a variable (`dims` None) or an array with its index ranges."""

    __slots__ = ("name", "value", "is_bool", "dims")

    def __init__(self, name: str, value: object, is_bool: bool,
                 dims: list[Range] | None = None) -> None:
        self.name = name
        self.value = value  # a model variable, a constant, or a list of them
        self.is_bool = is_bool
        self.dims = dims


class Problem(Record):
    """A FlatZinc model ready to solve."""

    __slots__ = ("model", "kind", "objective", "outputs", "phases", "default_vars",
                 "warnings", "restarts", "lns", "lines")

    def __init__(self, model: cn.Model, kind: str, objective: object, outputs: list[Output],
                 phases: list, default_vars: list, warnings: list[str] | None = None,
                 restarts: str | None = None, lns: bool = False,
                 lines: dict[int, int] | None = None) -> None:
        self.model = model
        self.kind = kind  # satisfy, minimize, maximize
        self.objective = objective
        self.outputs = outputs
        self.phases = phases  # (variables, var_select, value_select) from the annotations
        self.default_vars = default_vars  # the variables MiniZinc did not introduce
        self.warnings = warnings if warnings is not None else []
        self.restarts = restarts  # from a restart_* annotation: the `restarts` option
        self.lns = lns  # a relax_and_reconstruct annotation asks for neighbourhood search
        # the FlatZinc line each model constraint comes from, by its position (`fzn --why`)
        self.lines = lines if lines is not None else {}
