"""Parsed FlatZinc -> a conundrum Model, with what to print and how to search.

Variables become model variables (`var bool` a 0/1 variable); a variable declared equal to
another is the same model variable (a domain of its own becomes a constraint on it).
Boolean constants are 0/1 throughout, as Boolean variables are. `var int` without bounds
ranges over -2**62..2**62 (documented in docs/minizinc.md): the engine needs bounds, and its
arithmetic is exact, so no value in that range overflows.
"""

from __future__ import annotations

import conundrum as cn
from conundrum.io.flatzinc.builtins import (
    STRENGTHS,
    Context,
    honours_strength,
    member,
    strength_fallback,
    translate,
)
from conundrum.io.flatzinc.inline import Inlining, expression, plan
from conundrum.io.flatzinc.parser import (
    Access,
    ArgumentError,
    Call,
    FlatZinc,
    FznError,
    IntSet,
    Name,
    ParDecl,
    Place,
    Range,
    SetOf,
    Str,
    VarDecl,
    parse,
)
from conundrum.io.flatzinc.problem import Output, Problem
from conundrum.io.flatzinc.setbuiltins import set_operand
from conundrum.io.flatzinc.setsearch import set_phase
from conundrum.search.restarts import GROWTH

UNBOUNDED = 2**62
# a domain with holes of at most this many values is given to the model as its values; a
# larger one is its bounds plus a membership constraint over its ranges
LISTED_DOMAIN = 1 << 18

# MiniZinc search annotation names -> conundrum option names
VAR_CHOICE = {"input_order": "input_order", "first_fail": "first_fail",
              "anti_first_fail": "anti_first_fail", "smallest": "smallest",
              "largest": "largest", "occurrence": "occurrence",
              "most_constrained": "most_constrained", "max_regret": "max_regret",
              "dom_w_deg": "dom_wdeg"}
VALUE_CHOICE = {"indomain_min": "min", "indomain_max": "max", "indomain_middle": "middle",
                "indomain_median": "median", "indomain": "min", "indomain_split": "split",
                "indomain_reverse_split": "reverse_split", "indomain_random": "random"}

# constraint annotations that ask nothing of a solver: MiniZinc's bookkeeping (which variable
# a constraint defines, the context it was flattened in, names for its tools) and
# properties that allow a solver to drop a constraint but never require it to
HARMLESS = frozenset({
    "defines_var", "is_defined_var", "var_is_introduced", "output_var", "output_array",
    "ctx_pos", "ctx_neg", "ctx_mix", "ctx_root", "promise_total", "maybe_partial",
    "mzn_constraint_name", "mzn_expression_name", "mzn_path", "mzn_break_here",
    "redundant_constraint", "symmetry_breaking_constraint", "is_reverse_map",
})


class Builder:
    """Turns FlatZinc items into model variables and constraints."""

    def __init__(self) -> None:
        self.model = cn.Model()
        self.ctx = Context(self.model)
        self.env: dict[str, object] = {}
        self.bool_names: set[str] = set()
        self.introduced: set[int] = set()  # model variable indices MiniZinc introduced
        self.set_members: list[cn.Var] = []  # the members of the sets MiniZinc did not
        self.warnings: list[str] = []
        self.warned: set[str] = set()  # annotation names already warned about
        self.restarts: str | None = None
        self.lns = False
        self.place: Place = (0, 0)  # what an error names: the item or argument at hand

    @property
    def line(self) -> int:
        return self.place[0]

    def at(self, line: int, column: int | None, place: Place | None = None) -> None:
        """Errors from now on name `place`, or else (line, column)."""
        self.place = place or (line, column or 1)

    def fail(self, message: str) -> FznError:
        return FznError(message, *self.place)

    # -- values
    def resolve(self, value: object) -> object:
        """Names to their values, Booleans to 0/1, arrays element by element (FlatZinc
        arrays are flat: an element is never an array)."""
        if isinstance(value, list):
            out = []
            for v in value:
                if isinstance(v, list):
                    raise self.fail("an array inside an array: FlatZinc arrays are flat")
                x = self.resolve(v)
                if isinstance(x, list):
                    raise self.fail(f"{_show(v)} is an array inside an array: FlatZinc "
                                    "arrays are flat")
                out.append(x)
            return out
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int | Range | IntSet):
            return value
        if isinstance(value, Name):
            if value.name not in self.env:
                raise self.fail(f"unknown name {value.name}")
            return self.env[value.name]
        if isinstance(value, Access):
            array = self.env.get(value.name)
            if not isinstance(array, list):
                raise self.fail(f"{value.name} is not an array")
            if not 1 <= value.index <= len(array):
                raise self.fail(f"{value.name}[{value.index}] is out of its range "
                                f"1..{len(array)}")
            return array[value.index - 1]
        if isinstance(value, Str):
            raise self.fail("a string is not a value")
        raise self.fail(f"unexpected value {value!r}")

    def new_var(self, name: str, is_bool: bool, domain: object) -> cn.Var | cn.SetVar:
        if isinstance(domain, SetOf):
            if domain.universe is None:
                raise self.fail(f"set variable {name} needs a finite universe: var set of "
                                "lo..hi or var set of {...}, not var set of int")
            # a set variable of its own (one 0/1 member per element of the universe)
            return self.model.set_var([], set_operand(domain.universe), name)
        if is_bool:
            return self.model.bool_var(name)
        if domain is None:
            return self.model.int_var(-UNBOUNDED, UNBOUNDED, name)
        if isinstance(domain, Range):
            if domain.lo > domain.hi:
                raise self.fail(f"variable {name} has an empty domain {domain.lo}..{domain.hi}")
            return self.model.int_var(domain.lo, domain.hi, name)
        assert isinstance(domain, IntSet)
        ranges = domain.ranges()
        if not ranges:
            raise self.fail(f"variable {name} has an empty domain")
        lo, hi = ranges[0][0], ranges[-1][1]
        if len(ranges) == 1 or domain.size() > LISTED_DOMAIN:
            # a huge domain with holes stays ranges: its bounds, and the holes as a constraint
            v = self.model.int_var(lo, hi, name)
            if len(ranges) > 1:
                self.model.add(member(v, domain))
            return v
        return self.model.int_var(list(domain), name)

    def restrict(self, x: object, is_bool: bool, domain: object) -> None:
        """x (a variable or a constant given as a declared variable's value) lies in the
        declared domain."""
        if isinstance(domain, SetOf):
            if not isinstance(x, cn.SetVar | Range | IntSet):
                raise self.fail(f"a set variable's value is a set, not {_show(x)}")
            if domain.universe is not None:
                self.model.add(cn.subset(set_operand(x), set_operand(domain.universe)))
            return
        if not isinstance(x, int | cn.Expr):  # (an expression: an inlined variable)
            raise self.fail(f"a variable's value is an integer, a Boolean or a variable, "
                            f"not {_show(x)}")
        if is_bool or domain is None:
            if is_bool and isinstance(x, int) and x not in (0, 1):
                raise self.fail(f"{x} is not a Boolean")
            return
        c = member(x, domain)
        if c is False:
            self.model.add(False)
        elif c is not True:
            self.model.add(c)

    # -- items
    def declare(self, item: VarDecl | ParDecl) -> None:
        self.at(item.line, item.column)
        if item.name in self.env:
            raise self.fail(f"{item.name} is declared twice")
        if item.value is not None:
            self.at(item.line, item.column, item.value_place)
        if isinstance(item, ParDecl):
            value = self.resolve(item.value)
            if (item.length is not None) != isinstance(value, list):
                raise self.fail(f"{item.name} is declared as an array but its value is not "
                                "one" if item.length is not None else
                                f"{item.name} is not an array but its value is one")
            if item.length is not None and len(value) != item.length:  # type: ignore[arg-type]
                raise self.fail(f"array {item.name} should have {item.length} elements")
            for x in value if isinstance(value, list) else [value]:
                self.check_par(item.name, x, item.kind)
            self.env[item.name] = value
            return
        introduced = any(isinstance(a, Name) and a.name == "var_is_introduced"
                         for a in item.annotations)
        if item.is_bool:
            self.bool_names.add(item.name)
        if item.length is None:
            if item.value is None:
                v = self.new_var(item.name, item.is_bool, item.domain)
                if introduced and isinstance(v, cn.Var):
                    self.introduced.add(v.index)
                elif isinstance(v, cn.SetVar) and not introduced:
                    self.set_members.extend(v.members)
                self.env[item.name] = v
            else:
                value = self.resolve(item.value)
                if isinstance(value, list):
                    raise self.fail(f"{item.name} is a single variable but is given an array")
                self.restrict(value, item.is_bool, item.domain)
                self.env[item.name] = value
            return
        if item.value is None:
            values = [self.new_var(f"{item.name}[{k + 1}]", item.is_bool, item.domain)
                      for k in range(item.length)]
        else:
            values = self.resolve(item.value)  # type: ignore[assignment]
            if not isinstance(values, list) or len(values) != item.length:
                raise self.fail(f"array {item.name} should have {item.length} elements")
            for x in values:
                self.restrict(x, item.is_bool, item.domain)
        self.env[item.name] = values

    def warn_once(self, key: str, message: str) -> None:
        """One warning per key (an annotation name), however often it occurs."""
        if key not in self.warned:
            self.warned.add(key)
            self.warnings.append(message)

    def strength(self, name: str, annotations: list, args: list) -> str | None:
        """The propagation strength the annotations ask for, if conundrum honours it on this
        constraint; a warning (once per annotation name) for every annotation ignored."""
        chosen = None
        for ann in annotations:
            key = ann.name if isinstance(ann, Name | Call) else repr(ann)
            if key in HARMLESS:
                continue
            if key not in STRENGTHS:
                self.warn_once(key, f"constraint annotation {_show(ann)} is not supported; "
                               f"ignored (first on {name}, line {self.line})")
            elif not honours_strength(name):
                self.warn_once(key, f"constraint annotation {key} is not supported on "
                               f"{name} (line {self.line}, and wherever else it is "
                               "ignored); ignored")
            else:
                why = strength_fallback(name, args, STRENGTHS[key])
                if why is not None:
                    self.warn_once(key + " span", f"{why} (first on line {self.line})")
                else:
                    chosen = STRENGTHS[key]
        return chosen

    def check_par(self, name: str, x: object, kind: str) -> None:
        """A parameter's value (or element) is of its declared type."""
        if kind == "set":
            if not isinstance(x, Range | IntSet):
                raise self.fail(f"{name} is a set of int, not {_show(x)}")
        elif not isinstance(x, int) or isinstance(x, cn.Var):
            raise self.fail(f"{name} is a parameter of type {kind}, not {_show(x)}")
        elif kind == "bool" and x not in (0, 1):
            raise self.fail(f"{name} is a bool, not {x}")

    def constrain(self, name: str, args: tuple, line: int, annotations: list,
                  column: int | None = None, places: tuple[Place, ...] = ()) -> None:
        self.at(line, column)
        start = self.place
        resolved = []
        for k, a in enumerate(args):
            self.at(line, column, places[k] if k < len(places) else None)
            resolved.append(self.resolve(a))
        self.place = start
        strength = self.strength(name, annotations, resolved) if annotations else None
        try:
            self.model.add(translate(self.ctx, name, resolved, strength))
        except FznError as e:
            if isinstance(e, ArgumentError) and 0 <= e.index < len(places):
                self.place = places[e.index]
            raise self.fail(e.message) from None
        except cn.ModelError as e:
            raise self.fail(f"{name}: {e}") from None

    def inline(self, inlining: Inlining) -> None:
        """Bind each inlined variable's name to the expression that defines it (operands
        first, so that a chain nests), in place of a variable (inline.py)."""
        for name in inlining.order:
            con = inlining.defining[name]
            self.at(con.line, con.column)
            if name in self.env:
                raise self.fail(f"{name} is declared twice")
            self.env[name] = expression(con, name, self.resolve)

    # -- output and search
    def outputs(self, fzn: FlatZinc) -> list[Output]:
        found = []
        for item in fzn.declarations:
            if not isinstance(item, VarDecl):
                continue
            for ann in item.annotations:
                self.at(item.line, item.column)
                value = self.env[item.name]
                if isinstance(ann, Name) and ann.name == "output_var":
                    if isinstance(value, list):
                        raise self.fail(f"output_var on the array {item.name} (arrays are "
                                        "output with output_array)")
                    found.append(Output(item.name, value, item.is_bool))
                elif isinstance(ann, Call) and ann.name == "output_array":
                    dims = ann.args[0] if len(ann.args) == 1 else None
                    if not isinstance(dims, list) or not dims or not all(
                            isinstance(d, Range) for d in dims):
                        raise self.fail(f"output_array of {item.name} needs index ranges")
                    if not isinstance(value, list):
                        raise self.fail(f"output_array on {item.name}, which is not an "
                                        "array (output_var outputs a variable)")
                    size = 1
                    for d in dims:
                        size *= d.size()
                    if size != len(value):
                        raise self.fail(f"output_array of {item.name}: index ranges of "
                                        f"{size} elements for an array of {len(value)}")
                    found.append(Output(item.name, value, item.is_bool, dims))
        return found

    def search_phases(self, annotations: list, warnings: list[str]) -> list:
        phases: list = []
        todo = list(reversed(annotations))
        while todo:
            ann = todo.pop()
            if isinstance(ann, Call) and ann.name == "seq_search" and ann.args \
                    and isinstance(ann.args[0], list):
                todo.extend(reversed(ann.args[0]))
            elif isinstance(ann, Call) and ann.name in ("int_search", "bool_search") \
                    and len(ann.args) >= 3:
                xs = self.resolve(ann.args[0])
                if not isinstance(xs, list):
                    xs = [xs]
                var_choice, value_choice = ann.args[1], ann.args[2]
                vs = VAR_CHOICE.get(var_choice.name if isinstance(var_choice, Name) else "")
                val = VALUE_CHOICE.get(value_choice.name
                                       if isinstance(value_choice, Name) else "")
                if vs is None:
                    warnings.append(f"variable choice {_show(var_choice)} is not supported; "
                                    "using dom_w_deg")
                    vs = "dom_wdeg"
                if val is None:
                    warnings.append(f"value choice {_show(value_choice)} is not supported; "
                                    "using indomain_min")
                    val = "min"
                variables = [x for x in xs if isinstance(x, cn.Var)]
                if variables:
                    phases.append((variables, vs, val))
            elif isinstance(ann, Call) and ann.name == "set_search" and len(ann.args) >= 3:
                sets = self.resolve(ann.args[0])
                phase = set_phase(sets if isinstance(sets, list) else [sets],
                                  _show(ann.args[1]), _show(ann.args[2]), warnings)
                if phase is not None:
                    phases.append(phase)
            elif isinstance(ann, Call | Name) and ann.name.startswith("restart_") or \
                    isinstance(ann, Call) and ann.name == "relax_and_reconstruct":
                self.restart_annotation(ann, warnings)
            else:
                warnings.append(f"search annotation {_show(ann)} is not supported; ignored")
        return phases

    def restart_annotation(self, ann: Call | Name, warnings: list[str]) -> None:
        """MiniZinc's restart and LNS annotations as the `restarts` and `lns` options."""
        args = ann.args if isinstance(ann, Call) else ()
        scale = args[-1] if args else None
        if ann.name == "restart_none":
            self.restarts = None
        elif ann.name in ("restart_luby", "restart_linear", "restart_constant") and \
                len(args) == 1 and _positive(scale):
            self.restarts = f"{ann.name.removeprefix('restart_')}:{scale}"
        elif ann.name == "restart_geometric" and len(args) == 2 and _positive(scale):
            if args[0] != GROWTH:
                warnings.append(f"restart_geometric: conundrum's ratio is {GROWTH}, not "
                                f"{_show(args[0])}")
            self.restarts = f"geometric:{scale}"
        elif ann.name == "relax_and_reconstruct":
            # the neighbourhoods are conundrum's own (compiler/lns.py): random parts of all
            # the decision variables, their share adapted to what each search finds
            warnings.append("relax_and_reconstruct: neighbourhoods are conundrum's own "
                            "(an adaptive share of all the variables)")
            self.lns = True
        else:
            warnings.append(f"search annotation {_show(ann)} is not supported; ignored")


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _show(ann: object) -> str:
    """A short text for a value or an annotation (never the whole of a nested one)."""
    if isinstance(ann, Name):
        return ann.name
    if isinstance(ann, Call):
        return ann.name + "(...)"
    if isinstance(ann, list):
        return "an array"
    if isinstance(ann, Range | IntSet):
        return "a set"
    if isinstance(ann, Access):
        return f"{ann.name}[{ann.index}]"
    if isinstance(ann, Str):
        return "a string"
    return str(ann) if isinstance(ann, int | float) else type(ann).__name__


def build(fzn: FlatZinc, free: bool = False) -> Problem:
    """The model of a parsed FlatZinc text (`free`: ignore its search annotations)."""
    b = Builder()
    lines: dict[int, int] = {}

    def came_from(line: int) -> None:  # the constraints just added come from `line`
        for k in range(len(lines), len(b.model.constraints)):
            lines[k] = line

    inlining = plan(fzn, HARMLESS)
    # the inlined variables are expressions made after the declarations; an array holding
    # one is declared once they are made
    later = []
    for item in fzn.declarations:
        if item.name in inlining.defining:
            continue
        if item.length is not None and isinstance(item.value, list) and any(
                isinstance(x, Name) and x.name in inlining.defining for x in item.value):
            later.append(item)
            continue
        b.declare(item)
        came_from(item.line)
    b.inline(inlining)
    for item in later:
        b.declare(item)
        came_from(item.line)
    for con in fzn.constraints:
        if inlining.defines(con):
            continue  # its variable is the expression in the constraint that uses it
        b.constrain(con.name, con.args, con.line, con.annotations, con.column, con.places)
        came_from(con.line)
    solve = fzn.solve
    assert solve is not None
    b.at(solve.line, solve.column, solve.objective_place)
    objective = None
    if solve.kind != "satisfy":
        objective = b.resolve(solve.objective)
        if not isinstance(objective, int | cn.Var):
            raise b.fail(f"the objective must be a variable or an integer, not "
                         f"{_show(objective)}")
    b.at(solve.line, solve.column)
    warnings = b.warnings
    phases = [] if free else b.search_phases(solve.annotations, warnings)
    default_vars = [v for v in b.model.variables if v.name and v.index not in b.introduced]
    default_vars += b.set_members
    return Problem(b.model, solve.kind, objective, b.outputs(fzn), phases, default_vars,
                   warnings, b.restarts, b.lns, lines)


def read(text: str, free: bool = False) -> Problem:
    """Parse and build a FlatZinc text (FznError with the line on anything not supported)."""
    return build(parse(text), free)
