"""A Model as a MiniZinc model: `to_minizinc(model)`, behind `Model.to_minizinc`.

The text includes the library file of each global it writes (never globals.mzn),
declares each variable with its domain (a range, or a set literal when it has holes),
states each constraint with MiniZinc's globals by their MiniZinc names (rules in nodes.py
and globals.py, found by node class as the compiler finds its posting functions), the
definedness conditions of divisions and element indices as constraints of their own, the
objective when one is given, and an output item that prints every named variable as
`name = value`, one a line. Its solutions are exactly the model's: the same
assignments, the same optimum.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from conundrum.io.minizinc.globals import global_term
from conundrum.io.minizinc.nodes import NODES, Rule
from conundrum.io.minizinc.terms import (
    Substitute,
    Term,
    as_bool,
    as_int,
    bare,
    constant,
    listing,
    literal,
    numerator,
)
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import BoolOp, Expr, Global, Var, render
from conundrum.lang.tree import rule_for

RULES: dict[type, Rule] = {**NODES, Global: global_term}

# MiniZinc's reserved words: a variable so named gets a trailing underscore
KEYWORDS = frozenset(
    "ann annotation any array bool case constraint default diff div else elseif endif enum "
    "false float function if in include int intersect let list maybe mod not of op opt "
    "output par predicate record set solve string subset superset symdiff test then true "
    "tuple type union var where xor".split())

# the functions a model may need, by name (floor_div uses floor_mod)
HELPERS = {
    "floor_mod": ("% Python's a % b: the sign of b (MiniZinc's mod truncates toward zero)\n"
                  "function var int: floor_mod(var int: a, var int: b) =\n"
                  "    ((a mod b) + b) mod b;"),
    "floor_div": ("% Python's a // b: rounded toward minus infinity (MiniZinc's div "
                  "truncates)\n"
                  "function var int: floor_div(var int: a, var int: b) =\n"
                  "    (a - floor_mod(a, b)) div b;"),
    "sign": ("% -1, 0 or 1: a rational's numerator takes the divisor's sign\n"
             "function var int: sign(var int: a) =\n"
             "    if a > 0 then 1 elseif a < 0 then -1 else 0 endif;"),
}

# The files of MiniZinc's standard library (std/) that a global needs, where they are not
# just its name's file (`all_different` -> all_different.mzn). The export includes these
# and never globals.mzn: globals.mzn includes every global, and some do not compile with
# every solver's own library (with Debian's Gecode 6.2.0, inverse_fn.mzn calls an
# `inverse` over optional variables that Gecode's inverse.mzn, shadowing the standard one,
# does not declare).
LIBRARY = {
    "count": ("count_fn.mzn",),  # the function count(xs, v); count.mzn has the predicate
    # MiniZinc 2.6.4's arg_min.mzn calls arg_max_total (its version over optional Booleans)
    "arg_min": ("arg_min.mzn", "arg_max.mzn"),
}


def identifiers(variables: Sequence[Var]) -> dict[int, str]:
    """A MiniZinc identifier for each variable (by index): its name with every run of
    other characters than letters, digits and _ made one _ (x[0][1] is x_0_1), a name
    that does not start with a letter prefixed with v_, a reserved word suffixed with _,
    and a number added to a name already taken. Named variables choose first."""
    out: dict[int, str] = {}
    used: set[str] = set()
    for v in sorted(variables, key=lambda v: (not v.name, v.index)):
        base = re.sub(r"[^A-Za-z0-9_]+", "_", v.name).strip("_") or str(v.index)
        if not base[0].isascii() or not base[0].isalpha():
            base = "v_" + base
        if base in KEYWORDS:
            base += "_"
        name, k = base, 1
        while name in used:
            name, k = f"{base}_{k}", k + 1
        used.add(name)
        out[v.index] = name
    return out


class Exporter:
    """Translates expressions of one model to MiniZinc text, each node once (`translate`),
    collecting the definedness conditions (`require`) and the helper functions used."""

    def __init__(self, variables: Sequence[Var]) -> None:
        self.names = identifiers(variables)
        self.done: dict[int, tuple[object, Term]] = {}  # id -> (node kept alive, term)
        self.conditions: dict[str, None] = {}  # every condition, in order
        self.new: list[str] = []  # the conditions not written out yet
        self.helpers: set[str] = set()
        self.includes: set[str] = set()  # the library files of the globals used
        self.reified: set[int] = set()  # the nodes used as values (see `mark`)

    def mark(self, tree: object, posted: bool = True) -> None:
        """Note the nodes of a tree that are used as values: all of them but, when the
        tree is posted as a constraint, the tree itself and, through conjunctions, its
        conjuncts (a global there is posted, not reified). Call before translating it."""
        stack, seen = [(tree, posted)], set()
        while stack:
            node, posted = stack.pop()
            if not isinstance(node, Expr) or (id(node), posted) in seen:
                continue
            seen.add((id(node), posted))
            if not posted:
                self.reified.add(id(node))
            keeps = posted and isinstance(node, BoolOp) and node.op == "and"
            stack.extend((a, keeps) for a in node.args)

    def uses(self, name: str) -> str:
        """A MiniZinc global's name, its library file noted for an include."""
        self.includes.update(LIBRARY.get(name, (f"{name}.mzn",)))
        return name

    def require(self, condition: str) -> None:
        """A condition every solution must satisfy (where an operation is defined)."""
        if condition not in self.conditions:
            self.conditions[condition] = None
            self.new.append(condition)

    def require_nonzero(self, t: Term) -> None:
        """A divisor must not be 0 (nothing to write when its sign is known)."""
        if t.sign == 0:
            self.require(f"({numerator(t)} != 0)")

    def within(self, item: object, lo: int, hi: int | None) -> bool:
        """Whether an operand's every value is in lo..hi (hi None: no upper bound), as far
        as its declaration says: a constant, a variable's domain, a 0/1 expression."""
        if isinstance(item, Var):
            return item.lo >= lo and (hi is None or item.hi <= hi)
        if isinstance(item, Expr):
            return bool(item.boolean) and lo <= 0 and (hi is None or hi >= 1)
        return lo <= item and (hi is None or item <= hi)  # type: ignore[operator]

    def array(self, texts: Sequence[str]) -> str:
        """A MiniZinc array indexed from 0, as conundrum's positions are."""
        return f"array1d(0..{len(texts) - 1}, {listing(texts)})"

    def term(self, item: object) -> Term:
        """The term of a translated node, or of a constant."""
        if isinstance(item, Expr):
            return self.done[id(item)][1]
        return constant(item)  # type: ignore[arg-type]

    def translate(self, root: object) -> Term:
        """The term of an expression: its nodes translated children first, with an
        explicit stack; a node a rule substitutes (a decomposed global) gets the term of
        its substitute, translated on the same stack."""
        stack: list[tuple[Any, Any]] = [(root, None)]
        while stack:
            node, state = stack.pop()
            if not isinstance(node, Expr) or id(node) in self.done:
                continue
            if state is None:
                stack.append((node, "args"))
                stack.extend((a, None) for a in reversed(node.args))
            elif state == "args":
                rule = rule_for(RULES, node)
                if rule is None:
                    raise ModelError(f"to_minizinc: {type(node).__name__} ({render(node)}) "
                                     "has no MiniZinc form")
                out = rule(self, node, [self.term(a) for a in node.args])
                if isinstance(out, Substitute):
                    self.mark(out.tree, id(node) not in self.reified)
                    stack.append((node, out))
                    stack.append((out.tree, None))
                else:
                    self.done[id(node)] = (node, out)
            else:  # the substitute is done
                self.done[id(node)] = (node, self.term(state.tree))
        return self.term(root)


def _domain(v: Var) -> str:
    """A range, or a set literal when the domain has holes."""
    literal(v.lo), literal(v.hi)  # (a ModelError past 64 bits)
    values = v.domain_values
    if values is None or len(values) == v.hi - v.lo + 1:
        return f"{v.lo}..{v.hi}"
    return "{" + ", ".join(map(str, values)) + "}"


def _string(text: str) -> str:
    """A MiniZinc string literal."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def to_minizinc(model: Any, objective: object = None, sense: str = "min") -> str:
    """The MiniZinc model of `model` (its variables, constraints and labels) as text, with
    `solve minimize objective` (or maximize, for sense "max") when an objective is given,
    `solve satisfy` otherwise. Raises ModelError for what MiniZinc cannot say exactly: a
    rational objective, an integer past 64 bits."""
    if sense not in ("min", "max"):
        raise ModelError(f"sense must be 'min' or 'max', not {sense!r}")
    variables, constraints = list(model.variables), list(model.constraints)
    x = Exporter(variables)
    for c in constraints:
        x.mark(c)
    if objective is not None:
        x.mark(objective, posted=False)
    body: list[str] = []
    for k, c in enumerate(constraints):
        text = as_bool(x.translate(c))
        if k in model.labels:
            body.append(f"% {model.labels[k]}".replace("\n", " "))
        body += [f"constraint {bare(cond)};" for cond in x.new]
        x.new.clear()
        body.append(f"constraint {bare(text)};")
    solve = "solve satisfy;"
    if objective is not None:
        t = x.translate(objective)
        if t.kind == "rat":
            raise ModelError("to_minizinc: the objective must be integer-valued: use // or "
                             "cn.exact_div instead of / in it")
        body += [f"constraint {bare(cond)};" for cond in x.new]
        solve = f"solve {'minimize' if sense == 'min' else 'maximize'} {bare(as_int(t))};"
    helpers = sorted(x.helpers | ({"floor_mod"} if "floor_div" in x.helpers else set()))
    named = [v for v in variables if v.name]
    shown = [f"{_string(v.name + ' = ')}, show({x.names[v.index]}), \"\\n\"" for v in named]
    if objective is not None:
        shown.append('"objective = ", show(_objective), "\\n"')
    # sections headed by comments, no blank line (a doctest shows the text as it is)
    lines = [
        f"% conundrum model: {len(variables)} variable{'s' * (len(variables) != 1)}, "
        f"{len(constraints)} constraint{'s' * (len(constraints) != 1)}",
        "% (exported by Model.to_minizinc: / is exact, // and % are floor division and "
        "modulo)",
        *(f'include "{f}";' for f in sorted(x.includes)),
        *(HELPERS[h] for h in helpers),
        *(["% variables"] if variables else []),
        *(f"var {_domain(v)}: {x.names[v.index]};" for v in variables),
        *(["% constraints"] if body else []),
        *body,
        solve,
        "output [" + ",\n        ".join(shown) + "];" if shown else 'output [""];',
    ]
    return "\n".join(lines) + "\n"
