"""FlatZinc constraint names -> conundrum model constraints.

Each entry of BUILTINS takes the constraint's resolved arguments (ints, model variables, or
lists of them) and returns one constraint expression. A name ending in `_reif` takes one more
argument `r` and posts `r <-> C`; one ending in `_imp` posts `r -> C`; both are derived from
the plain entry, so every builtin has its reified forms. The arithmetic follows MiniZinc:
`int_div` and `int_mod` truncate toward zero (unlike Python's `//` and `%`); a division by
zero has no solution.

The `fzn_*` and `conundrum_*` entries are the globals that conundrum's mznlib (shipped
beside this module) declares without a body, so that MiniZinc passes them through to the
native propagators instead of decomposing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import conundrum as cn
from conundrum.io.flatzinc.parser import ArgumentError, FznError, IntSet, Range
from conundrum.io.flatzinc.setbuiltins import (
    SET_PLAIN,
    SET_SIGNATURES,
    is_set,
)
from conundrum.propagators.linear_domain import SPAN_LIMIT


class Context:
    """What a builtin may need besides its arguments: the model (for auxiliary variables)
    and the declared bounds of an argument."""

    def __init__(self, model: cn.Model) -> None:
        self.model = model

    @staticmethod
    def range_of(x: Any) -> tuple[int, int]:
        if isinstance(x, int):
            return x, x
        return x.lo, x.hi

    def aux(self, lo: int, hi: int) -> cn.Var:
        return self.model.int_var(lo, hi)


def _lin(coefs: list, xs: list) -> Any:
    if len(coefs) != len(xs):
        raise ArgumentError(f"{len(coefs)} coefficients for {len(xs)} variables", 1)
    return cn.sum(c * x for c, x in zip(coefs, xs))


def member(x: Any, values: Any) -> Any:
    """x in a constant set (a Range, an IntSet or a collection of ints), as one constraint
    over the set's ranges (never over its values one by one)."""
    if isinstance(values, Range):
        return (x >= values.lo) & (x <= values.hi)
    runs = values.ranges() if isinstance(values, IntSet) else IntSet.of(
        [(v, v) for v in values]).ranges()
    if not runs:
        return False
    parts = [(x == lo) if lo == hi else ((x >= lo) & (x <= hi))
             for lo, hi in runs]
    out = parts[0]
    for p in parts[1:]:
        out = out | p
    return out


def truncating_division(ctx: Context, a: Any, b: Any) -> tuple[Any, Any]:
    """(q, r) with a = q*b + r, |r| < |b| and r zero or of a's sign: MiniZinc's `div` and
    `mod`, which truncate toward zero. b = 0 has no (q, r)."""
    alo, ahi = ctx.range_of(a)
    blo, bhi = ctx.range_of(b)
    amag = max(abs(alo), abs(ahi))
    bmag = max(abs(blo), abs(bhi))
    q = ctx.aux(-amag, amag)
    rmag = min(amag, max(bmag - 1, 0))
    r = ctx.aux(-rmag if alo < 0 else 0, rmag if ahi > 0 else 0)
    m = ctx.model
    m += b != 0
    m += a == q * b + r
    m += abs(r) < abs(b)
    m += cn.implies(a > 0, r >= 0)
    m += cn.implies(a < 0, r <= 0)
    return q, r


def _int_div(ctx: Context, a: Any, b: Any, c: Any) -> Any:
    return truncating_division(ctx, a, b)[0] == c


def _int_mod(ctx: Context, a: Any, b: Any, c: Any) -> Any:
    return truncating_division(ctx, a, b)[1] == c


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _int_pow(ctx: Context, a: Any, b: Any, c: Any) -> Any:
    """c = a^b; a negative exponent gives 1 div a^-b (MiniZinc), undefined for a = 0."""
    if isinstance(b, int) and b >= 0:
        return c == a ** b
    alo, ahi = ctx.range_of(a)
    blo, bhi = ctx.range_of(b)
    if (ahi - alo + 1) * (bhi - blo + 1) > 100_000:
        raise FznError("int_pow with a variable or negative exponent over more than 100,000 "
                       "pairs of values is not supported")
    clo, chi = ctx.range_of(c)
    c_bits = max(abs(clo), abs(chi)).bit_length()
    rows = []
    for x in range(alo, ahi + 1):
        # |x| ** y >= 2 ** ((bits - 1) * y): a row whose power exceeds every value of c is
        # left out before it is computed (2 ** 100000 would take a while, and memory)
        low_bits = abs(x).bit_length() - 1
        for y in range(blo, bhi + 1):
            if y >= 0:
                if low_bits * y <= c_bits:
                    rows.append((x, y, x ** y))
            elif x != 0:
                # 1 div x^-y: 0 once |x| >= 2, without computing the power
                rows.append((x, y, 0 if low_bits else _trunc_div(1, x ** -y)))
    return cn.table([a, b, c], rows)


def _table(xs: list, flat: list) -> Any:
    n = len(xs)
    if n == 0 or len(flat) % n:
        raise ArgumentError(f"table: {len(flat)} values do not make rows of {n}", 1)
    rows = [tuple(int(v) for v in flat[i:i + n]) for i in range(0, len(flat), n)]
    return cn.table(xs, rows)


def _gcc_closed(xs: list, cover: list, counts: list) -> Any:
    allowed = frozenset(cover)
    c = cn.global_cardinality(xs, cover, counts)
    for x in xs:
        c = c & member(x, allowed)
    return c


def _regular(xs: list, states: int, symbols: list, d: list, start: int, final: Any) -> Any:
    """MiniZinc's DFA: states 1..Q, d[q, s] the next state (0: none), row by row over the
    symbols in order."""
    if len(d) != states * len(symbols):
        raise ArgumentError(f"regular: {len(d)} transitions for {states} states and "
                            f"{len(symbols)} symbols", 3)
    # the loops run over the given transitions, so a huge Q without symbols costs nothing
    width = len(symbols)
    transitions = {(k // width + 1, symbols[k % width]): nxt
                   for k, nxt in enumerate(d) if nxt != 0}
    # only a state the automaton can be in matters: the final set (maybe huge ranges) is
    # asked about those, never listed
    seen = {start, *(q for q, _ in transitions), *transitions.values()}
    accepting = sorted(q for q in seen if q in final)
    return cn.regular(xs, transitions, start, accepting)


def _circuit(xs: list, first: int, sub: bool) -> Any:
    """MiniZinc's (sub)circuit over an array whose first index is `first`. MiniZinc's
    circuit also forbids every x[i] = i, so a circuit of one node has no solution."""
    succ = [x - first for x in xs]
    if sub:
        return cn.subcircuit(succ)
    c = cn.circuit(succ)
    return c & (succ[0] != 0) if len(succ) == 1 else c


def _elem(i: Any, xs: list, c: Any) -> Any:
    return c == cn.element(xs, i - 1)


Builtin = Callable[..., Any]  # a constraint or an expression, as the model takes it

PLAIN: dict[str, Builtin] = {
    # integers
    "int_eq": lambda a, b: a == b,
    "int_ne": lambda a, b: a != b,
    "int_le": lambda a, b: a <= b,
    "int_lt": lambda a, b: a < b,
    "int_lin_eq": lambda cs, xs, k: _lin(cs, xs) == k,
    "int_lin_ne": lambda cs, xs, k: _lin(cs, xs) != k,
    "int_lin_le": lambda cs, xs, k: _lin(cs, xs) <= k,
    "int_lin_lt": lambda cs, xs, k: _lin(cs, xs) < k,
    "int_plus": lambda a, b, c: a + b == c,
    "int_minus": lambda a, b, c: a - b == c,
    "int_times": lambda a, b, c: a * b == c,
    "int_abs": lambda a, b: b == abs(a),
    "int_negate": lambda a, b: b == -a,
    "int_min": lambda a, b, c: c == cn.min(a, b),
    "int_max": lambda a, b, c: c == cn.max(a, b),
    "array_int_minimum": lambda m, xs: m == cn.min(xs),
    "array_int_maximum": lambda m, xs: m == cn.max(xs),
    "array_int_element": _elem,
    "array_var_int_element": _elem,
    "set_in": lambda x, s: cn.member(x, s) if isinstance(s, cn.SetVar) else member(x, s),
    **SET_PLAIN,
    # Booleans (0/1 variables)
    "bool_eq": lambda a, b: a == b,
    "bool_ne": lambda a, b: a != b,
    "bool_le": lambda a, b: a <= b,
    "bool_lt": lambda a, b: a < b,
    "bool_not": lambda a, b: a + b == 1,
    "bool2int": lambda a, b: a == b,
    "bool_clause": lambda ps, ns: cn.sum(ps) - cn.sum(ns) >= 1 - len(ns),
    "bool_lin_eq": lambda cs, xs, k: _lin(cs, xs) == k,
    "bool_lin_le": lambda cs, xs, k: _lin(cs, xs) <= k,
    "array_bool_xor": lambda xs: cn.xor(xs),  # one parity equation, no modulo
    "array_bool_element": _elem,
    "array_var_bool_element": _elem,
    # globals passed through by conundrum's mznlib
    "fzn_all_different_int": lambda xs: cn.all_different(xs),
    "fzn_alldifferent_except_0": lambda xs: cn.all_different_except_0(xs),
    "conundrum_table_int": _table,
    "conundrum_table_bool": _table,
    "fzn_count_eq": lambda xs, y, c: cn.count(xs, y) == c,
    "fzn_count_eq_par": lambda xs, y, c: cn.count(xs, y) == c,
    "fzn_global_cardinality": lambda xs, cover, counts: cn.global_cardinality(xs, cover,
                                                                              counts),
    "fzn_global_cardinality_closed": _gcc_closed,
    "fzn_lex_less_int": lambda xs, ys: cn.lex_less(xs, ys),
    "fzn_lex_lesseq_int": lambda xs, ys: cn.lex_lesseq(xs, ys),
    "fzn_lex_less_bool": lambda xs, ys: cn.lex_less(xs, ys),
    "fzn_lex_lesseq_bool": lambda xs, ys: cn.lex_lesseq(xs, ys),
    "fzn_increasing_int": lambda xs: cn.increasing(xs),
    "fzn_decreasing_int": lambda xs: cn.decreasing(xs),
    "fzn_increasing_bool": lambda xs: cn.increasing(xs),
    "conundrum_regular": _regular,
    "fzn_decreasing_bool": lambda xs: cn.decreasing(xs),
    "conundrum_circuit": lambda xs, first: _circuit(xs, first, False),
    "conundrum_subcircuit": lambda xs, first: _circuit(xs, first, True),
    "fzn_disjunctive": lambda s, d: cn.no_overlap(s, d),
    "fzn_disjunctive_strict": lambda s, d: cn.no_overlap(s, d, strict=True),
    "fzn_cumulative": lambda s, d, r, b: cn.cumulative(s, d, r, b),
    "fzn_diffn": lambda x, y, dx, dy: cn.no_overlap_2d(x, y, dx, dy),
    "conundrum_arg_max": lambda xs, z, first: z == cn.arg_max(xs) + first,
    "conundrum_arg_min": lambda xs, z, first: z == cn.arg_min(xs) + first,
    "conundrum_bin_packing_load": lambda load, bins, w, first: cn.bin_packing(
        load, [b - first for b in bins], w),
}

# builtins whose last argument is already the truth value r (r <-> C): their _imp form is
# r -> C, and they have no _reif form
TRUTH_LAST: dict[str, Builtin] = {
    "bool_and": lambda a, b: a + b == 2,
    "bool_or": lambda a, b: a + b >= 1,
    "bool_xor": lambda a, b: a != b,
    "array_bool_and": lambda xs: cn.sum(xs) == len(xs),
    "array_bool_or": lambda xs: cn.sum(xs) >= 1,
}

# builtins that need auxiliary variables: they get the Context first
WITH_CONTEXT: dict[str, Builtin] = {
    "int_div": _int_div,
    "int_mod": _int_mod,
    "int_pow": _int_pow,
    "int_pow_fixed": _int_pow,
}

# -- propagation-strength annotations (`:: domain`, `:: bounds`, `:: value`) ----------------
# MiniZinc 2.6 writes `domain`, `bounds` and `value_propagation`; later versions the
# `*_propagation` names: both spellings are read.
STRENGTHS = {"domain": "domain", "domain_propagation": "domain",
             "bounds": "bounds", "bounds_propagation": "bounds",
             "value": "value", "value_propagation": "value"}


def _lin_eq(strength: str, cs: list, xs: list, k: Any) -> Any:
    if strength != "domain":  # bounds (and value: no weaker linear filtering exists)
        return _lin(cs, xs) == k
    if len(cs) != len(xs):
        raise FznError(f"{len(cs)} coefficients for {len(xs)} variables")
    if not isinstance(k, int):  # bool_lin_eq's right-hand side may be a variable
        return cn.linear_eq([*cs, -1], [*xs, k], 0, strength="domain")
    return cn.linear_eq(cs, xs, k, strength="domain")


# constraints whose propagator the annotation chooses: (strength, *args) -> constraint
WITH_STRENGTH: dict[str, Builtin] = {
    "int_lin_eq": _lin_eq,
    "bool_lin_eq": _lin_eq,
    "int_plus": lambda s, a, b, c: _lin_eq(s, [1, 1, -1], [a, b, c], 0),
    "int_minus": lambda s, a, b, c: _lin_eq(s, [1, -1, -1], [a, b, c], 0),
    "fzn_all_different_int": lambda s, xs: cn.all_different(xs, strength=s),
}

# constraints that conundrum already propagates to domain consistency (on domains kept as
# bit sets), so that every strength annotation is met (domain) or exceeded (bounds, value,
# which ask for less filtering, never for other solutions):
# - comparisons and disequalities of two terms, linear inequalities (a bound of a sum is
#   supported exactly when the other terms sit at their own bounds), int_lin_ne (acts once
#   one term is left, and every value is supported before that);
# - element: over constants the index and the result are domain consistent; over
#   variables the index keeps the positions whose variable meets the result, the result
#   the union of those domains, and each array variable keeps all its values until the
#   index is fixed (another position supports them), so it is domain consistent too;
# - Boolean constraints: on 0/1 variables bounds and domain consistency are the same.
DOMAIN_CONSISTENT = frozenset({
    "int_eq", "int_ne", "int_le", "int_lt", "int_lin_ne", "int_lin_le", "int_lin_lt",
    "int_negate", "set_in",
    "array_int_element", "array_var_int_element", "array_bool_element",
    "array_var_bool_element",
    "bool_eq", "bool_ne", "bool_le", "bool_lt", "bool_not", "bool2int", "bool_clause",
    "bool_lin_le", "array_bool_xor", "bool_and", "bool_or", "bool_xor", "array_bool_and",
    "array_bool_or",
})


def honours_strength(name: str) -> bool:
    """Whether a strength annotation on the constraint `name` is met (its propagator is
    chosen by it, or is domain consistent already). Reified forms are not."""
    return name in WITH_STRENGTH or name in DOMAIN_CONSISTENT


def strength_fallback(name: str, args: list, strength: str) -> str | None:
    """Why `strength` cannot be had on this constraint (a sum spanning too many values for
    domain consistency), or None."""
    if strength != "domain" or name not in ("int_lin_eq", "bool_lin_eq", "int_plus",
                                            "int_minus"):
        return None
    if name in ("int_plus", "int_minus"):
        coefs, xs = [1, 1, 1], args
    else:
        coefs, xs = args[0], args[1]
    if not isinstance(coefs, list) or not isinstance(xs, list):
        return None
    span = 0
    for a, x in zip(coefs, xs):
        if isinstance(a, int) and not isinstance(x, int) and hasattr(x, "lo"):
            span += abs(a) * (x.hi - x.lo)
    if span <= SPAN_LIMIT:
        return None
    return (f"domain consistency on {name} needs a sum spanning at most {SPAN_LIMIT + 1} "
            f"values, not {span + 1}: bounds consistency instead")


# The argument types of each plain form (without r, which is a `v`), one letter each:
# v an integer or Boolean, constant or variable;  p a constant integer or Boolean;
# V an array of v;  P an array of p;  s a constant set of integers.
# translate() checks every constraint against this table before a builtin sees it.
SIGNATURES: dict[str, str] = {
    "int_eq": "vv", "int_ne": "vv", "int_le": "vv", "int_lt": "vv",
    "int_lin_eq": "PVv", "int_lin_ne": "PVv", "int_lin_le": "PVv", "int_lin_lt": "PVv",
    "int_plus": "vvv", "int_minus": "vvv", "int_times": "vvv", "int_abs": "vv",
    "int_negate": "vv", "int_min": "vvv", "int_max": "vvv",
    "array_int_minimum": "vV", "array_int_maximum": "vV",
    "array_int_element": "vVv", "array_var_int_element": "vVv", "set_in": "vS",
    "bool_eq": "vv", "bool_ne": "vv", "bool_le": "vv", "bool_lt": "vv", "bool_not": "vv",
    "bool2int": "vv", "bool_clause": "VV", "bool_lin_eq": "PVv", "bool_lin_le": "PVv",
    "array_bool_xor": "V", "array_bool_element": "vVv", "array_var_bool_element": "vVv",
    "fzn_all_different_int": "V", "fzn_alldifferent_except_0": "V",
    "conundrum_table_int": "VP", "conundrum_table_bool": "VP",
    "fzn_count_eq": "Vvv", "fzn_count_eq_par": "Vvv",
    "fzn_global_cardinality": "VPV", "fzn_global_cardinality_closed": "VPV",
    "fzn_lex_less_int": "VV", "fzn_lex_lesseq_int": "VV", "fzn_lex_less_bool": "VV",
    "fzn_lex_lesseq_bool": "VV", "fzn_increasing_int": "V", "fzn_decreasing_int": "V",
    "fzn_increasing_bool": "V", "fzn_decreasing_bool": "V",
    "conundrum_regular": "VpPPps", "conundrum_circuit": "Vp", "conundrum_subcircuit": "Vp",
    "fzn_disjunctive": "VV", "fzn_disjunctive_strict": "VV", "fzn_cumulative": "VVVv",
    "fzn_diffn": "VVVV", "conundrum_arg_max": "Vvp", "conundrum_arg_min": "Vvp",
    "conundrum_bin_packing_load": "VVPp",
    # TRUTH_LAST, without their last argument
    "bool_and": "vv", "bool_or": "vv", "bool_xor": "vv", "array_bool_and": "V",
    "array_bool_or": "V",
    # WITH_CONTEXT, without the context
    "int_div": "vvv", "int_mod": "vvv", "int_pow": "vvv", "int_pow_fixed": "vvv",
    **SET_SIGNATURES,
}

# the number of arguments of each plain form (without r)
ARITY = {name: len(kinds) for name, kinds in SIGNATURES.items()}

_WANTED = {"v": "an integer, a Boolean or a variable", "p": "a constant",
           "V": "an array", "P": "an array of constants", "s": "a constant set",
           "S": "a set", "Q": "an array of sets"}


def _fits(x: Any, kind: str) -> bool:
    if kind == "V":
        return isinstance(x, list)
    if kind == "P":
        return isinstance(x, list) and all(isinstance(v, int) for v in x)
    if kind == "s":
        return isinstance(x, Range | IntSet)
    if kind == "S":
        return is_set(x)
    if kind == "Q":
        return isinstance(x, list) and all(is_set(v) for v in x)
    if kind == "p":
        return isinstance(x, int)
    return isinstance(x, int | cn.Expr)  # v (an expression: an inlined variable, inline.py)


def _describe(x: Any) -> str:
    if isinstance(x, cn.Var):
        return f"the variable {x.name}" if x.name else "a variable"
    if isinstance(x, int):
        return f"the constant {x}"
    if isinstance(x, list):
        return "an array of variables" if any(isinstance(v, cn.Var) for v in x) else \
            "an array"
    if isinstance(x, Range | IntSet):
        return "a set"
    if isinstance(x, cn.SetVar):
        return "a set variable"
    return type(x).__name__


def check_args(name: str, kinds: str, args: list) -> None:
    """Every argument is of its kind in SIGNATURES (ArgumentError naming the first that
    is not). Elements of an array `V` are integers or variables, as resolved."""
    for k, (x, kind) in enumerate(zip(args, kinds)):
        if not _fits(x, kind):
            raise ArgumentError(f"{name}: argument {k + 1} must be {_WANTED[kind]}, not "
                                f"{_describe(x)}", k)
        if kind == "V" and not all(isinstance(v, int | cn.Expr) for v in x):
            raise ArgumentError(f"{name}: argument {k + 1} must be an array of integers, "
                                "Booleans or variables", k)


def translate(ctx: Context, name: str, args: list, strength: str | None = None) -> Any:
    """The constraint expression for one FlatZinc constraint (FznError if unknown or of the
    wrong arity); `strength` (domain, bounds, value) chooses the propagator of the
    constraints in WITH_STRENGTH."""
    base, mode = name, "plain"
    for suffix in ("_reif", "_imp"):
        if name.endswith(suffix) and name[: -len(suffix)] in ARITY:
            base, mode = name[: -len(suffix)], suffix[1:]
    if base not in ARITY:
        if name.startswith(("float_", "int2float", "array_float_", "array_var_float_")):
            raise FznError(f"unsupported constraint {name}: float constraints are not "
                           "supported (conundrum solves integer and Boolean problems)")
        if name.startswith(("set_", "array_set_", "array_var_set_")):
            raise FznError(f"unsupported set constraint {name}")
        raise FznError(f"unsupported constraint {name}")
    arity = ARITY[base]
    kinds = SIGNATURES[base]
    if base in TRUTH_LAST:
        if mode == "reif":
            raise FznError(f"unsupported constraint {name}")
        if base == "bool_xor" and len(args) == 2 and mode == "plain":
            check_args(name, kinds, args)
            return TRUTH_LAST[base](*args)  # bool_xor(a, b): a != b
        if len(args) != arity + 1:
            raise FznError(f"{name} takes {arity + 1} arguments, not {len(args)}")
        check_args(name, kinds + "v", args)
        c = TRUTH_LAST[base](*args[:-1])
        r = args[-1]
        return (r == c) if mode == "plain" else cn.implies(r == 1, c)
    want = arity + (mode != "plain")
    if len(args) != want:
        raise FznError(f"{name} takes {want} arguments, not {len(args)}")
    check_args(name, kinds + "v" * (mode != "plain"), args)
    main = args[:arity]
    if strength is not None and mode == "plain" and base in WITH_STRENGTH:
        c = WITH_STRENGTH[base](strength, *main)
    elif base in WITH_CONTEXT:
        c = WITH_CONTEXT[base](ctx, *main)
    else:
        c = PLAIN[base](*main)
    if mode == "plain":
        return c
    r = args[-1]
    return (r == c) if mode == "reif" else cn.implies(r == 1, c)
