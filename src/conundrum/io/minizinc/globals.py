"""The MiniZinc text of each global constraint, by its MiniZinc name (GLOBALS).

Each function takes the exporter, the global and the integer texts of its arguments, and
returns a Boolean text: the MiniZinc global of the same meaning, with conundrum's
conventions made explicit where MiniZinc's differ or leave a case open:

- 0-based successors, positions and bins are arrays indexed from 0 (`array1d(0..n-1,
  ...)`), MiniZinc's globals reading the index set;
- what MiniZinc assumes and conundrum states (durations, demands and sizes >= 0, a
  capacity >= 0, successors in range) is written as constraints beside the global, unless
  the argument is a constant or a variable whose domain already says so;
- the degenerate cases (no argument, one task, no tuple, ...) are written out, since
  MiniZinc's definitions do not all accept empty arrays.

A global with a rational argument, or one this table does not name, is exported through
its decomposition (`Global.decompose`), as the compiler posts it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from conundrum.io.minizinc.terms import (
    Substitute,
    Term,
    as_int,
    boolean,
    call,
    linear,
    listing,
    literal,
)
from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Global
from conundrum.lang.globals import (
    AllDifferent,
    AllDifferentExcept0,
    AllEqual,
    Among,
    AtMostOne,
    BinPacking,
    Circuit,
    Cumulative,
    ExactlyOne,
    GlobalCardinality,
    Inverse,
    Lex,
    LinearEquation,
    NoOverlap,
    NoOverlap2D,
    NValue,
    Ordered,
    Regular,
    Table,
    ValuePrecede,
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
    SetLt,
    SetNe,
    Subset,
    SymDiff,
    Union,
)
from conundrum.lang.tree import rule_for

if TYPE_CHECKING:
    from conundrum.io.minizinc.export import Exporter

GlobalRule = Callable[["Exporter", Any, list[str]], str]

REGULAR_LIMIT = 1_000_000  # cells of a transition table written for `regular`


_list = listing


def _all(parts: Sequence[str]) -> str:
    """The conjunction of parts (true for none)."""
    kept = [p for p in parts if p != "true"]
    if not kept:
        return "true"
    return kept[0] if len(kept) == 1 else "(" + " /\\ ".join(kept) + ")"


def _nonnegative(x: Exporter, items: Sequence[object], texts: list[str]) -> tuple[
        list[str], list[str]]:
    """(conditions, texts): `t >= 0` for each argument not known to be >= 0, and the
    texts to pass to a global that asserts its arguments' lower bounds are >= 0
    (`max(t, 0)`, equal to t wherever the condition holds)."""
    conditions, passed = [], []
    for item, t in zip(items, texts):
        if x.within(item, 0, None):
            passed.append(t)
        else:
            conditions.append(f"({t} >= 0)")
            passed.append(call("max", t, "0"))
    return conditions, passed


def _in_range(x: Exporter, items: Sequence[object], texts: list[str], lo: int,
              hi: int) -> list[str]:
    return [f"({t} in {lo}..{hi})" for item, t in zip(items, texts)
            if not x.within(item, lo, hi)]


def _simple(name: str, least: int = 2) -> GlobalRule:
    """A global over one array, true with fewer than `least` arguments."""
    return lambda x, g, t: f"{x.uses(name)}({_list(t)})" if len(t) >= least else "true"


def _global_cardinality(x: Exporter, g: GlobalCardinality, t: list[str]) -> str:
    xs, counts = t[:g.n], t[g.n:]
    if not g.values:
        return "true"
    if not xs:
        return _all([f"({c} = 0)" for c in counts])
    return f"{x.uses('global_cardinality')}({_list(xs)}, {_list([str(v) for v in g.values])}, " \
           f"{_list(counts)})"


def _among(x: Exporter, g: Among, t: list[str]) -> str:
    if len(t) == 1 or not g.values:
        return f"({t[0]} = 0)"
    return f"{x.uses('among')}({t[0]}, {_list(t[1:])}, {{{', '.join(map(str, g.values))}}})"


def _nvalue(x: Exporter, g: NValue, t: list[str]) -> str:
    return f"{x.uses('nvalue')}({t[0]}, {_list(t[1:])})" if len(t) > 1 else f"({t[0]} = 0)"


def _table(x: Exporter, g: Table, t: list[str]) -> str:
    if not g.tuples:
        return "false"
    if not t:
        return "true"
    rows = " | ".join(", ".join(map(str, row)) for row in g.tuples)
    return f"{x.uses('table')}({_list(t)}, [| {rows} |])"


def _regular(x: Exporter, g: Regular, t: list[str]) -> str:
    """MiniZinc's regular numbers states 1..Q and symbols 1..S: conundrum's states are
    renumbered, and each value v read as the symbol v - lo + 1 (lo the smallest value of
    a transition; the values between that no transition reads fail)."""
    if not g.transitions:
        return ("true" if g.start in g.accepting else "false") if not t else "false"
    states = sorted({g.start, *g.accepting, *(q for q, _ in g.transitions),
                     *g.transitions.values()})
    number = {q: k + 1 for k, q in enumerate(states)}
    lo = min(v for _, v in g.transitions)
    hi = max(v for _, v in g.transitions)
    width = hi - lo + 1
    if len(states) * width > REGULAR_LIMIT:
        raise ModelError(f"to_minizinc: regular's transition table would have "
                         f"{len(states)} states x {width} values (more than "
                         f"{REGULAR_LIMIT:,} cells)")
    if not t:
        return "true" if g.start in g.accepting else "false"
    rows = []
    for q in states:
        rows.append(", ".join(str(number.get(g.transitions.get((q, v)), 0))  # type: ignore[arg-type]
                              for v in range(lo, hi + 1)))
    symbols = [linear([(1, s)], 1 - lo) for s in t]  # value lo is symbol 1
    finals = ", ".join(str(number[q]) for q in sorted(g.accepting))
    return (f"{x.uses('regular')}({_list(symbols)}, {len(states)}, {width}, "
            f"[| {' | '.join(rows)} |], {number[g.start]}, {{{finals}}})")


def _circuit(x: Exporter, g: Circuit, t: list[str]) -> str:
    """0-based successors, as an array indexed from 0 (MiniZinc's circuit of one node
    refuses its loop, which conundrum's accepts)."""
    n = len(t)
    if n == 0:
        return "true"
    if n == 1:
        return f"({t[0]} = 0)"
    return _all([*_in_range(x, g.args, t, 0, n - 1), f"{x.uses(g.name)}({x.array(t)})"])


def _inverse(x: Exporter, g: Inverse, t: list[str]) -> str:
    n = len(t) // 2
    if n == 0:
        return "true"
    return f"{x.uses('inverse')}({x.array(t[:n])}, {x.array(t[n:])})"


def _bin_packing(x: Exporter, g: BinPacking, t: list[str]) -> str:
    k = len(t) - len(g.sizes)
    loads, bins = t[:k], t[k:]
    if not bins:
        return _all([f"({load} = 0)" for load in loads])
    if k == 0:
        return "false"
    return (f"{x.uses('bin_packing_load')}({x.array(loads)}, {_list(bins)}, "
            f"{_list([str(s) for s in g.sizes])})")


def _no_overlap(x: Exporter, g: NoOverlap, t: list[str]) -> str:
    n = len(t) // 2
    conditions, durations = _nonnegative(x, g.args[n:], t[n:])
    if n < 2:
        return _all(conditions)
    name = "disjunctive_strict" if g.strict else "disjunctive"
    return _all([*conditions, f"{x.uses(name)}({_list(t[:n])}, {_list(durations)})"])


def _cumulative(x: Exporter, g: Cumulative, t: list[str]) -> str:
    n = (len(t) - 1) // 3
    if n == 0:
        return "true"
    cd, durations = _nonnegative(x, g.args[n:2 * n], t[n:2 * n])
    cr, demands = _nonnegative(x, g.args[2 * n:3 * n], t[2 * n:3 * n])
    cc, _ = _nonnegative(x, g.args[-1:], t[-1:])
    return _all([*cd, *cr, *cc, f"{x.uses('cumulative')}({_list(t[:n])}, {_list(durations)}, "
                 f"{_list(demands)}, {t[-1]})"])


def _no_overlap_2d(x: Exporter, g: NoOverlap2D, t: list[str]) -> str:
    n = len(t) // 4
    conditions, _ = _nonnegative(x, g.args[2 * n:], t[2 * n:])
    if n < 2:
        return _all(conditions)
    boxes = ", ".join(_list(t[k * n:(k + 1) * n]) for k in range(4))
    return _all([*conditions, f"{x.uses('diffn')}({boxes})"])


def _ordered(x: Exporter, g: Ordered, t: list[str]) -> str:
    return f"{x.uses(g.name)}({_list(t)})" if len(t) >= 2 else "true"


def _lex(x: Exporter, g: Lex, t: list[str]) -> str:
    if g.n == 0:
        return "false" if g.strict else "true"
    return f"{x.uses(g.name)}({_list(t[:g.n])}, {_list(t[g.n:])})"


def _value_precede(x: Exporter, g: ValuePrecede, t: list[str]) -> str:
    if g.s == g.t or not t:
        return "true"
    return f"{x.uses('value_precede')}({g.s}, {g.t}, {_list(t)})"


def _linear_eq(x: Exporter, g: LinearEquation, t: list[str]) -> str:
    return f"({linear(list(zip(g.coefs, t)), 0)} = {literal(g.rhs)})"


GLOBALS: dict[type, GlobalRule] = {
    AllDifferent: _simple("all_different"),
    AllDifferentExcept0: _simple("alldifferent_except_0"),
    AllEqual: _simple("all_equal"),
    GlobalCardinality: _global_cardinality,
    Among: _among,
    NValue: _nvalue,
    Table: _table,
    Regular: _regular,
    Circuit: _circuit,
    Inverse: _inverse,
    BinPacking: _bin_packing,
    NoOverlap: _no_overlap,
    Cumulative: _cumulative,
    NoOverlap2D: _no_overlap_2d,
    Ordered: _ordered,
    Lex: _lex,
    ValuePrecede: _value_precede,
    LinearEquation: _linear_eq,
    AtMostOne: lambda x, g, t: f"(sum({_list(t)}) <= 1)",
    ExactlyOne: lambda x, g, t: f"(sum({_list(t)}) = 1)",
}


# The globals a solver's library may have no reified form of: used as a value, they are
# written as their decomposition. MiniZinc's standard library refuses circuit, subcircuit,
# regular and value_precede there (an `abort` in their fzn_*_reif.mzn); Gecode 6.2.0's
# library (Debian's flatzinc package, whose files shadow the standard ones of the same
# name) defines the others by native predicates that have no reified version ("... is
# used in a reified context but no reified version is available").
ROOT_ONLY: dict[type, bool] = dict.fromkeys([
    Circuit, Regular, ValuePrecede,  # the standard library's
    AllDifferentExcept0, GlobalCardinality, Among, NValue, Inverse, BinPacking, NoOverlap,
    Cumulative, NoOverlap2D,  # Gecode's
], True)


def global_term(x: Exporter, node: Global, args: list[Term]) -> Term | Substitute:
    """A global's term: its MiniZinc global, or its decomposition when an argument is
    rational, when GLOBALS does not name its class, or when it is used as a value and
    MiniZinc cannot reify it."""
    rule = rule_for(GLOBALS, node)
    if (rule is None or any(t.kind == "rat" for t in args)
            or (id(node) in x.reified and rule_for(ROOT_ONLY, node))):
        return Substitute(node.decompose())
    return boolean(rule(x, node, [as_int(t) for t in args]))


# ------------------------------------------------------------- set constraints
# Each set operand is its 0/1 membership terms (and its cardinality, tied to them where
# the set variable is declared), and each constraint is written element by element over
# them, as `holds` states it: union c = max(a, b), subset a <= b, and so on. Not as
# MiniZinc sets: MiniZinc 2.6.4's var set comprehensions ({u[j] | j in 1..n where
# b[j] = 1}) lose the link to the flags when n = 1 (two disjoint sets over {0}: 4
# solutions through Gecode, 3 in truth) and are refused on some mixes of constant and
# variable memberships ("array2set needs finite bounds").
def _members(g: SetGlobal, t: list[str]) -> list[dict[int, str]]:
    """Each set operand of g as {element: its membership term's text}."""
    out: list[dict[int, str]] = []
    at = 0
    for universe in g.universes:
        out.append(dict(zip(universe, t[at: at + len(universe)], strict=True)))
        at += len(universe) + 1
    return out


def _elementwise(form: str) -> GlobalRule:
    """form over the memberships {0}, {1}, ... of the operands, for every element of the
    union of their universes (0 where an element is outside an operand's universe)."""
    def rule(x: Exporter, g: SetGlobal, t: list[str]) -> str:
        sets = _members(g, t)
        return _all([form.format(*(m.get(e, "0") for m in sets)) for e in g.every()])
    return rule


def _subset(x: Exporter, g: SetGlobal, t: list[str]) -> str:
    a, b = _members(g, t)
    return _all([f"({m} <= {b.get(e, '0')})" for e, m in a.items()])


def _set_ne(x: Exporter, g: SetGlobal, t: list[str]) -> str:
    return f"(not {_elementwise('({0} = {1})')(x, g, t)})"


def _all_disjoint(x: Exporter, g: SetGlobal, t: list[str]) -> str:
    sets = _members(g, t)
    return _all([f"({' + '.join(m[e] for m in sets if e in m)} <= 1)" for e in g.every()
                 if sum(e in m for m in sets) > 1])


def _set_member(x: Exporter, g: SetGlobal, t: list[str]) -> str:
    (s,) = _members(g, t)
    options = [f"(({t[-1]} = {e}) /\\ ({m} = 1))" for e, m in s.items() if m != "0"]
    return "(" + " \\/ ".join(options) + ")" if options else "false"


def _set_element(x: Exporter, g: SetGlobal, t: list[str]) -> str:
    sets = _members(g, t)
    *options, result = sets
    i = t[-1]
    every = g.every()
    parts = [f"({i} in 0..{len(options) - 1})"]
    for j, s in enumerate(options):
        same = _all([f"({s.get(e, '0')} = {result.get(e, '0')})" for e in every])
        parts.append(f"(({i} = {j}) -> {same})")
    return _all(parts)


def _set_less(strict: bool) -> GlobalRule:
    """set_le / set_lt as the sets' decomposition states them (lang/globals/sets.py), over
    the memberships: one disjunct per element e where the sets first differ (MiniZinc's
    own set_le is over var set bounds, which the export does not declare)."""
    def rule(x: Exporter, g: SetGlobal, t: list[str]) -> str:
        a, b = _members(g, t)
        every = g.every()
        bits = [(a.get(e, "0"), b.get(e, "0")) for e in every]
        options: list[str] = []
        for k, (p, q) in enumerate(bits):
            later = bits[k + 1:]
            a_ends = f"({' + '.join(u for u, _ in later) or '0'} = 0)"
            b_goes_on = f"({' + '.join(v for _, v in later) or '0'} >= 1)"
            differs = (f"((({p} = 0) /\\ ({q} = 1) /\\ {a_ends}) \\/ "
                       f"(({p} = 1) /\\ ({q} = 0) /\\ {b_goes_on}))")
            options.append(_all([*(f"({u} = {v})" for u, v in bits[:k]), differs]))
        if not strict:
            options.append(_all([f"({u} = {v})" for u, v in bits]))
        return "(" + " \\/ ".join(options) + ")" if options else "false"
    return rule


def _abstract(x: Exporter, g: SetGlobal, t: list[str]) -> str:
    raise ModelError(f"{type(g).__name__} is not a set constraint of its own")


GLOBALS.update({
    SetGlobal: _abstract,  # the base class: each constraint has its rule below
    Subset: _subset,
    SetEq: _elementwise("({0} = {1})"),
    SetNe: _set_ne,
    SetLe: _set_less(False),
    SetLt: _set_less(True),
    Disjoint: _all_disjoint,
    Union: _elementwise("({2} = max({0}, {1}))"),
    Intersection: _elementwise("({2} = min({0}, {1}))"),
    Difference: _elementwise("({2} = min({0}, 1 - {1}))"),
    SymDiff: _elementwise("({2} = abs({0} - {1}))"),
    Member: _set_member,
    SetElement: _set_element,
})
