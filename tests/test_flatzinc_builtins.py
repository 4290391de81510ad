"""Every FlatZinc builtin, plain, reified and half-reified, against brute force.

Each case is a small FlatZinc text over variables with small domains; the solutions
conundrum finds (all of them, projected on the declared variables) must be exactly the
assignments that a reference definition written here accepts. The references follow the
FlatZinc specification and MiniZinc's documentation, not conundrum's code: `int_div` and
`int_mod` truncate toward zero, `int_pow` with a negative exponent is `1 div pow(x, -y)`.
"""

from __future__ import annotations

import itertools

import pytest

from conundrum.io.flatzinc.build import read

INT = (-3, 3)  # the domain of an integer argument
BOOL = (0, 1)


def tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def tmod(a: int, b: int) -> int:
    return a - b * tdiv(a, b)


def ipow(a: int, b: int) -> int | None:
    if b >= 0:
        return a ** b
    if a == 0:
        return None
    return tdiv(1, a ** -b)


SET = (-2, 0, 1, 3)

# name -> (argument kinds, reference). Kinds: i an integer variable, b a Boolean one,
# I / B an array of two of them, C the coefficients [2, -1], k the constant 1, S the set
# {-2, 0, 1, 3}, T the rows of TABLE flattened, V the values [0, 1], w a wide integer
# variable (-9..9) for results.
CASES = {
    "int_eq": ("ii", lambda a, b: a == b),
    "int_ne": ("ii", lambda a, b: a != b),
    "int_le": ("ii", lambda a, b: a <= b),
    "int_lt": ("ii", lambda a, b: a < b),
    "int_lin_eq": ("CIk", lambda xs: 2 * xs[0] - xs[1] == 1),
    "int_lin_ne": ("CIk", lambda xs: 2 * xs[0] - xs[1] != 1),
    "int_lin_le": ("CIk", lambda xs: 2 * xs[0] - xs[1] <= 1),
    "int_plus": ("iiw", lambda a, b, c: a + b == c),
    "int_times": ("iiw", lambda a, b, c: a * b == c),
    "int_div": ("iiw", lambda a, b, c: b != 0 and tdiv(a, b) == c),
    "int_mod": ("iiw", lambda a, b, c: b != 0 and tmod(a, b) == c),
    "int_pow": ("iiw", lambda a, b, c: ipow(a, b) is not None and ipow(a, b) == c),
    "int_abs": ("ii", lambda a, b: b == abs(a)),
    "int_min": ("iii", lambda a, b, c: c == min(a, b)),
    "int_max": ("iii", lambda a, b, c: c == max(a, b)),
    "array_int_minimum": ("iI", lambda m, xs: m == min(xs)),
    "array_int_maximum": ("iI", lambda m, xs: m == max(xs)),
    "array_var_int_element": ("iIi", lambda i, xs, c: 1 <= i <= 2 and xs[i - 1] == c),
    "array_int_element": ("iCi", lambda i, c: 1 <= i <= 2 and (2, -1)[i - 1] == c),
    "set_in": ("iS", lambda x: x in SET),
    "bool_eq": ("bb", lambda a, b: a == b),
    "bool_le": ("bb", lambda a, b: a <= b),
    "bool_lt": ("bb", lambda a, b: a < b),
    "bool_not": ("bb", lambda a, b: a != b),
    "bool2int": ("bi", lambda a, b: a == b),
    "bool_and": ("bbb", lambda a, b, r: r == (a and b)),
    "bool_or": ("bbb", lambda a, b, r: r == (a or b)),
    "bool_xor": ("bbb", lambda a, b, r: r == (a != b)),
    "bool_clause": ("BB", lambda ps, ns: any(ps) or not all(ns)),
    "bool_lin_eq": ("CBk", lambda xs: 2 * xs[0] - xs[1] == 1),
    "bool_lin_le": ("CBk", lambda xs: 2 * xs[0] - xs[1] <= 1),
    "array_bool_and": ("Bb", lambda xs, r: r == all(xs)),
    "array_bool_or": ("Bb", lambda xs, r: r == any(xs)),
    "array_bool_xor": ("B", lambda xs: sum(xs) % 2 == 1),
    "array_var_bool_element": ("iBb", lambda i, xs, c: 1 <= i <= 2 and xs[i - 1] == c),
    "fzn_all_different_int": ("I", lambda xs: xs[0] != xs[1]),
    "fzn_count_eq": ("Iii", lambda xs, y, c: sum(x == y for x in xs) == c),
    "fzn_increasing_int": ("I", lambda xs: xs[0] <= xs[1]),
    "fzn_decreasing_int": ("I", lambda xs: xs[0] >= xs[1]),
    "fzn_lex_less_int": ("II", lambda xs, ys: tuple(xs) < tuple(ys)),
    "fzn_lex_lesseq_int": ("II", lambda xs, ys: tuple(xs) <= tuple(ys)),
    "fzn_alldifferent_except_0": ("I", lambda xs: xs[0] != xs[1] or xs[0] == 0),
    "conundrum_table_int": ("IT", lambda xs: tuple(xs) in TABLE),
    "fzn_global_cardinality": ("IVI", lambda xs, cs: cs == [xs.count(0), xs.count(1)]),
    "fzn_global_cardinality_closed": ("IVI", lambda xs, cs: cs == [xs.count(0), xs.count(1)]
                                      and all(x in (0, 1) for x in xs)),
}
TABLE = ((1, 2), (-1, 0), (3, 3))
# builtins whose last argument is the truth value already: their _imp form is r -> C
TRUTH_LAST = {"bool_and", "bool_or", "bool_xor", "array_bool_and", "array_bool_or"}
NO_REIF = {"int_plus", "int_times", "int_div", "int_mod", "int_pow", "int_abs", "int_min",
           "int_max", "array_int_minimum", "array_int_maximum", "array_var_int_element",
           "array_int_element", "bool_not", "bool2int", "array_bool_xor",
           "array_var_bool_element", "fzn_count_eq", "conundrum_table_int",
           "fzn_global_cardinality", "fzn_global_cardinality_closed"} | TRUTH_LAST


def _case_text(name: str, kinds: str, reif: str | None) -> tuple[str, list[tuple[str, tuple]]]:
    """The FlatZinc text and the declared variables (name, domain) in order."""
    decls, args, variables = [], [], []
    for k, kind in enumerate(kinds):
        if kind in "ibw":
            dom = {"i": INT, "b": BOOL, "w": (-9, 9)}[kind]
            v = f"v{k}"
            variables.append((v, dom))
            typ = "bool" if kind == "b" else f"{dom[0]}..{dom[1]}"
            decls.append(f"var {typ}: {v} :: output_var;")
            args.append(v)
        elif kind in "IB":
            names = []
            for j in range(2):
                v = f"v{k}_{j}"
                dom = INT if kind == "I" else BOOL
                variables.append((v, dom))
                typ = "bool" if kind == "B" else f"{dom[0]}..{dom[1]}"
                decls.append(f"var {typ}: {v} :: output_var;")
                names.append(v)
            args.append("[" + ", ".join(names) + "]")
        elif kind == "C":
            args.append("[2, -1]")
        elif kind == "k":
            args.append("1")
        elif kind == "T":
            args.append("[" + ", ".join(str(v) for row in TABLE for v in row) + "]")
        elif kind == "V":
            args.append("[0, 1]")
        elif kind == "S":
            args.append("{" + ", ".join(map(str, SET)) + "}")
    if reif and name not in TRUTH_LAST:  # those have their truth value among the kinds
        variables.append(("r", BOOL))
        decls.append("var bool: r :: output_var;")
        args.append("r")
    suffix = f"_{reif}" if reif else ""
    text = "\n".join(decls) + f"\nconstraint {name}{suffix}({', '.join(args)});\nsolve satisfy;\n"
    return text, variables


def _reference(kinds: str, ref, values: dict[str, int]) -> bool:
    """The reference applied to the values, arrays passed as lists."""
    args = []
    for k, kind in enumerate(kinds):
        if kind in "ibw":
            args.append(values[f"v{k}"])
        elif kind in "IB":
            args.append([values[f"v{k}_0"], values[f"v{k}_1"]])
    return bool(ref(*args))


def _forms():
    for name in CASES:
        yield name, None
        if name in TRUTH_LAST:
            yield name, "imp"
        elif name not in NO_REIF:
            yield name, "reif"
            yield name, "imp"


@pytest.mark.parametrize(("name", "reif"), list(_forms()))
def test_builtin_matches_brute_force(name, reif):
    kinds, ref = CASES[name]
    text, variables = _case_text(name, kinds, reif)
    problem = read(text)
    m = problem.model
    found = {tuple(sol[v] for v, _ in ((m.variable(n), d) for n, d in variables))
             for sol in m.solutions()}
    assert m.stats.complete
    expected = set()
    for combo in itertools.product(*(range(lo, hi + 1) for _, (lo, hi) in variables)):
        values = dict(zip((n for n, _ in variables), combo))
        if name in TRUTH_LAST and reif == "imp":
            c = _reference(kinds, lambda *a: ref(*a[:-1], 1), values)
            ok = values[variables[-1][0]] == 0 or c
        elif reif is None:
            ok = _reference(kinds, ref, values)
        else:
            c = _reference(kinds, ref, values)
            r = values["r"]
            ok = (r == int(c)) if reif == "reif" else (r == 0 or c)
        if ok:
            expected.add(combo)
    assert found == expected, (name, reif, sorted(expected - found)[:5],
                               sorted(found - expected)[:5])


def test_truncating_division_examples():
    """The negative cases spelled out: -7 div 2 = -3, -7 mod 2 = -1, 7 mod -2 = 1."""
    for a, b, q, r in ((-7, 2, -3, -1), (7, -2, -3, 1), (-7, -2, 3, -1), (7, 2, 3, 1)):
        text = (f"var -9..9: q :: output_var;\nvar -9..9: r :: output_var;\n"
                f"constraint int_div({a}, {b}, q);\nconstraint int_mod({a}, {b}, r);\n"
                "solve satisfy;\n")
        m = read(text).model
        sols = [(s["q"], s["r"]) for s in m.solutions()]
        assert sols == [(q, r)], (a, b, sols)


def test_division_by_zero_has_no_solution():
    text = "var 0..0: z;\nvar -9..9: q;\nconstraint int_div(5, z, q);\nsolve satisfy;\n"
    assert read(text).model.count() == 0


def test_conundrum_regular_against_brute_force():
    """conundrum_regular(x, Q, symbols, d, q0, F): MiniZinc's DFA with states 1..Q and the
    transition table flattened row by row (0: no transition)."""
    d = [1, 2, 3, 1, 0, 3, 1, 2, 0]  # no two 2s or two 3s in a row
    text = ("\n".join(f"var 0..3: x{i} :: output_var;" for i in range(4))
            + f"\nconstraint conundrum_regular([x0, x1, x2, x3], 3, [1, 2, 3], {d}, 1, 1..3);"
            "\nsolve satisfy;\n")
    m = read(text).model
    found = {tuple(s[f"x{i}"] for i in range(4)) for s in m.solutions()}
    expected = set()
    for word in itertools.product(range(4), repeat=4):
        q = 1
        for v in word:
            q = d[(q - 1) * 3 + (v - 1)] if 1 <= v <= 3 else 0
            if q == 0:
                break
        if q:
            expected.add(word)
    assert found == expected and len(found) > 0


@pytest.mark.parametrize("items", ["[a, b, c]", "[a, b, c, true]", "[a, false]", "[a]",
                                   "[]"])
def test_array_bool_xor_is_the_parity_of_its_items(items):
    """array_bool_xor: an odd number of the items true (no item: false), read as cn.xor
    (the parity equation) rather than a modulo of their sum."""
    text = ("var bool: a :: output_var;\nvar bool: b :: output_var;\n"
            f"var bool: c :: output_var;\nconstraint array_bool_xor({items});\n"
            "solve satisfy;\n")
    problem = read(text)
    m = problem.model
    found = {(s["a"], s["b"], s["c"]) for s in m.solutions()}
    constants = {"true": 1, "false": 0}
    names = [x.strip() for x in items.strip("[]").split(",") if x.strip()]
    expected = {abc for abc in itertools.product((0, 1), repeat=3)
                if sum(dict(zip("abc", abc)).get(n, constants.get(n, 0)) for n in names) % 2}
    assert found == expected
    assert not any("%" in str(c) or "mod" in type(c).__name__.lower()
                   for c in m.constraints)
