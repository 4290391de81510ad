"""Global constraints and expression builders of the public API.

Each global constraint states its meaning once, in `holds`, used by the independent checker,
and gives a decomposition into relations, used when the constraint is reified (used as a
0/1 value) and as a readable reference. Posted at the top level, the compiler uses a
dedicated propagator instead.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Literal, get_args

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import (
    ArgExtreme,
    BinOp,
    BoolConst,
    BoolOp,
    Count,
    Element,
    Expr,
    ExprLike,
    Global,
    MinMax,
    Operands,
    Rel,
    as_constraint,
    const_or_expr,
    make_sum,
    transform,
)

# how hard all_different filters; the solutions are the same for each
AllDifferentStrength = Literal["value", "bounds", "domain"]
ALLDIFF_STRENGTHS: tuple[str, ...] = get_args(AllDifferentStrength)
# how hard linear_eq filters (domain: dynamic programming over the partial sums)
LinearStrength = Literal["bounds", "domain"]
LINEAR_STRENGTHS: tuple[str, ...] = get_args(LinearStrength)


def _flatten(items: object, what: str) -> tuple[ExprLike, ...]:
    """Accept a list, tuple, Matrix, generator or several arguments; flatten one level of
    nesting (a list of rows) so that all_different(grid) means every cell."""
    if isinstance(items, Expr) or isinstance(items, int | Fraction):
        return (const_or_expr(items, what),)
    if hasattr(items, "flat"):
        items = items.flat
    try:
        seq = list(items)  # type: ignore[call-overload]
    except TypeError:
        raise ModelError(
            f"{what} needs a list of variables or expressions, not {items!r}") from None
    out: list[ExprLike] = []
    for item in seq:
        if isinstance(item, list | tuple):
            out.extend(const_or_expr(x, what) for x in item)
        else:
            out.append(const_or_expr(item, what))
    return tuple(out)


def _pairwise_all(pairs: Iterable[Expr | bool]) -> Expr:
    # a relation between two constants (increasing([1, 2, x])) is already a Python bool
    items = [BoolConst(p) if isinstance(p, bool) else p for p in pairs]
    if not items:
        return BoolConst(True)
    return BoolOp("and", *items) if len(items) > 1 else items[0]


class AllDifferent(Global):
    """All arguments take pairwise different values."""

    __slots__ = ("strength",)
    name = "all_different"

    def __init__(self, args: tuple[ExprLike, ...], strength: str) -> None:
        super().__init__(args)
        self.strength = strength

    def holds(self, values: list[int]) -> bool:
        return len(set(values)) == len(values)

    def decompose(self) -> Expr:
        a = self.args
        return _pairwise_all(a[i] != a[j] for i in range(len(a)) for j in range(i + 1, len(a)))


class LinearEquation(Global):
    """sum(coefs[i] * args[i]) == rhs, filtered as `strength` says."""

    __slots__ = ("coefs", "rhs", "strength")
    name = "linear_eq"

    def __init__(self, args: tuple[ExprLike, ...], coefs: tuple[int, ...], rhs: int,
                 strength: str) -> None:
        super().__init__(args)
        self.coefs = coefs
        self.rhs = rhs
        self.strength = strength

    def holds(self, values: list[int]) -> bool:
        return builtins.sum(a * v for a, v in zip(self.coefs, values)) == self.rhs

    def decompose(self) -> Expr:
        total = make_sum(zip(self.coefs, self.args))
        return total == self.rhs


class AllDifferentExcept0(Global):
    """All non-zero arguments take pairwise different values."""

    __slots__ = ()
    name = "all_different_except_0"

    def holds(self, values: list[int]) -> bool:
        nonzero = [v for v in values if v != 0]
        return len(set(nonzero)) == len(nonzero)

    def decompose(self) -> Expr:
        a = self.args
        return _pairwise_all(
            (a[i] == 0) | (a[j] == 0) | (a[i] != a[j])
            for i in range(len(a)) for j in range(i + 1, len(a))
        )


class Table(Global):
    """The arguments, as a tuple, are one of the allowed tuples."""

    __slots__ = ("tuples",)
    name = "table"

    def __init__(self, args: tuple[ExprLike, ...], tuples: tuple[tuple[int, ...], ...]) -> None:
        super().__init__(args)
        self.tuples = tuples

    def holds(self, values: list[int]) -> bool:
        return tuple(values) in set(self.tuples)

    def decompose(self) -> Expr:
        if not self.tuples:
            return BoolConst(False)
        options = [_pairwise_all(x == v for x, v in zip(self.args, t)) for t in self.tuples]
        return BoolOp("or", *options) if len(options) > 1 else options[0]


class GlobalCardinality(Global):
    """For each i, exactly counts[i] of the variables equal values[i] (other values are
    allowed too, as in MiniZinc's global_cardinality). args = vars + counts."""

    __slots__ = ("values", "n")
    name = "global_cardinality"

    def __init__(self, args: tuple[ExprLike, ...], values: tuple[int, ...], n: int) -> None:
        super().__init__(args)
        self.values = values
        self.n = n

    def holds(self, values: list[int]) -> bool:
        xs, counts = values[: self.n], values[self.n:]
        return all(len([x for x in xs if x == v]) == c for v, c in zip(self.values, counts))

    def decompose(self) -> Expr:
        xs, counts = self.args[: self.n], self.args[self.n:]
        return _pairwise_all(
            make_sum((1, x == v) for x in xs) == c for v, c in zip(self.values, counts)
        )


class Ordered(Global):
    """Increasing or decreasing, strictly or not."""

    __slots__ = ("strict", "descending")

    def __init__(self, args: tuple[ExprLike, ...], strict: bool, descending: bool) -> None:
        super().__init__(args)
        self.strict = strict
        self.descending = descending

    @property
    def name(self) -> str:  # type: ignore[override]
        return ("strictly_" if self.strict else "") + (
            "decreasing" if self.descending else "increasing")

    def _ok(self, a: int, b: int) -> bool:
        if self.descending:
            a, b = b, a
        return a < b if self.strict else a <= b

    def holds(self, values: list[int]) -> bool:
        return all(self._ok(values[i], values[i + 1]) for i in range(len(values) - 1))

    def decompose(self) -> Expr:
        a = self.args
        rels = []
        for i in range(len(a) - 1):
            x, y = (a[i + 1], a[i]) if self.descending else (a[i], a[i + 1])
            rels.append(x < y if self.strict else x <= y)
        return _pairwise_all(rels)


class Lex(Global):
    """xs before ys lexicographically (strictly with lex_less). args = xs + ys."""

    __slots__ = ("n", "strict")

    def __init__(self, args: tuple[ExprLike, ...], n: int, strict: bool) -> None:
        super().__init__(args)
        self.n = n
        self.strict = strict

    @property
    def name(self) -> str:  # type: ignore[override]
        return "lex_less" if self.strict else "lex_lesseq"

    def holds(self, values: list[int]) -> bool:
        xs, ys = values[: self.n], values[self.n:]
        return xs < ys if self.strict else xs <= ys

    def decompose(self) -> Expr:
        xs, ys = self.args[: self.n], self.args[self.n:]
        # built from the back: rest_i = x_i < y_i | (x_i == y_i & rest_{i+1})
        rest: Expr = BoolConst(not self.strict)
        for x, y in zip(reversed(xs), reversed(ys)):
            rest = (x < y) | ((x == y) & rest)
        return rest


class Regular(Global):
    """The sequence is a word of a deterministic automaton. args = the sequence.

    Posted at the top level it becomes a chain of ternary tables (state_i, x_i, state_i+1)
    over auxiliary state variables: the chain is Berge-acyclic, so generalised arc
    consistency on each table is GAC on the whole constraint (Pesant's layered graph
    reached through tables). Reified, it is the table of its accepted words."""

    __slots__ = ("transitions", "start", "accepting")
    name = "regular"
    WORD_LIMIT = 100_000

    def __init__(self, args: tuple[ExprLike, ...], transitions: dict[tuple[int, int], int],
                 start: int, accepting: frozenset[int]) -> None:
        super().__init__(args)
        self.transitions = transitions
        self.start = start
        self.accepting = accepting

    def holds(self, values: list[int]) -> bool:
        q: int | None = self.start
        for v in values:
            q = self.transitions.get((q, v))  # type: ignore[arg-type]
            if q is None:
                return False
        return q in self.accepting

    def decompose(self) -> Expr:
        """The accepted words over the symbols of the automaton, as a table (refused when
        there are more than WORD_LIMIT of them)."""
        words: list[tuple[int, ...]] = []
        stack: list[tuple[int, tuple[int, ...]]] = [(self.start, ())]
        n = len(self.args)
        out_of: dict[int, list[tuple[int, int]]] = {}
        for (q, v), r in self.transitions.items():
            out_of.setdefault(q, []).append((v, r))
        while stack:
            q, word = stack.pop()
            if len(word) == n:
                if q in self.accepting:
                    words.append(word)
                    if len(words) > self.WORD_LIMIT:
                        raise ModelError(f"regular used as a value: more than "
                                         f"{self.WORD_LIMIT:,} accepted words")
                continue
            for v, r in out_of.get(q, ()):
                stack.append((r, word + (v,)))
        return Table(self.args, tuple(sorted(words))).decompose()


class Circuit(Global):
    """Successors xs (0-based) form one cycle through every node (sub=False), or through
    the nodes i with xs[i] != i, the others being left out (sub=True; no node at all is a
    valid subcircuit). Posted: all_different (domain) + no-subtour + reachability
    (propagators/circuit.py)."""

    __slots__ = ("sub",)

    def __init__(self, args: tuple[ExprLike, ...], sub: bool) -> None:
        super().__init__(args)
        self.sub = sub

    @property
    def name(self) -> str:  # type: ignore[override]
        return "subcircuit" if self.sub else "circuit"

    def holds(self, values: list[int]) -> bool:
        n = len(values)
        if any(not 0 <= v < n for v in values) or len(set(values)) != n:
            return False
        inside = [i for i in range(n) if values[i] != i] if self.sub else list(range(n))
        if not inside:
            return True
        length, k = 1, values[inside[0]]
        while k != inside[0]:
            k = values[k]
            length += 1
        return length == len(inside)

    def decompose(self) -> Expr:
        """Range and pairwise differences; then, following the successors from a node s
        (each step an element, its index clamped into range), s does not come back before
        the number of nodes in the cycle."""
        xs, n = self.args, len(self.args)
        parts: list[Expr | bool] = []
        for x in xs:
            parts += [x >= 0, x < n]
        parts.append(AllDifferent(xs, "domain").decompose())
        size = make_sum((1, x != i) for i, x in enumerate(xs)) if self.sub else n
        for s in range(n) if self.sub else range(1 if n else 0):
            returns: list[Expr | bool] = []
            at: ExprLike = s
            for k in range(1, n):
                at = Element((MinMax((0, MinMax((n - 1, at), False)), True), *xs))
                back = at != s
                returns.append(implies(size > k, back) if self.sub else back)
            cycle = _pairwise_all(returns)
            parts.append(implies(xs[s] != s, cycle) if self.sub else cycle)
        return _pairwise_all(parts)


class NoOverlap(Global):
    """Tasks [s_i, s_i + d_i) on a unary resource do not overlap; durations are >= 0. A
    task of duration 0 may sit anywhere unless strict. args = starts + durations."""

    __slots__ = ("strict",)
    name = "no_overlap"

    def __init__(self, args: tuple[ExprLike, ...], strict: bool) -> None:
        super().__init__(args)
        self.strict = strict

    def holds(self, values: list[int]) -> bool:
        n = len(values) // 2
        s, d = values[:n], values[n:]
        if any(x < 0 for x in d):
            return False
        return all((not self.strict and (d[i] == 0 or d[j] == 0))
                   or s[i] + d[i] <= s[j] or s[j] + d[j] <= s[i]
                   for i in range(n) for j in range(i + 1, n))

    def decompose(self) -> Expr:
        n = len(self.args) // 2
        s, d = self.args[:n], self.args[n:]
        parts: list[Expr | bool] = [x >= 0 for x in d]
        for i in range(n):
            for j in range(i + 1, n):
                apart = (s[i] + d[i] <= s[j]) | (s[j] + d[j] <= s[i])
                parts.append(apart if self.strict else (d[i] == 0) | (d[j] == 0) | apart)
        return _pairwise_all(parts)


class Cumulative(Global):
    """At every time, the demands of the running tasks add up to at most the capacity;
    durations and demands are >= 0, and so is the capacity when there is a task.
    args = starts + durations + demands + (capacity,)."""

    __slots__ = ()
    name = "cumulative"

    def holds(self, values: list[int]) -> bool:
        n = (len(values) - 1) // 3
        s, d, r, c = values[:n], values[n:2 * n], values[2 * n:3 * n], values[-1]
        if any(x < 0 for x in d + r) or (n and c < 0):
            return False
        # the load only grows when a task starts: check it at every start (this module's
        # sum builds expressions, hence the loop)
        for j in range(n):
            load = 0
            for i in range(n):
                if s[i] <= s[j] < s[i] + d[i]:
                    load += r[i]
            if load > c:
                return False
        return True

    def decompose(self) -> Expr:
        n = (len(self.args) - 1) // 3
        a = self.args
        s, d, r, c = a[:n], a[n:2 * n], a[2 * n:3 * n], a[-1]
        parts: list[Expr | bool] = [x >= 0 for x in d + r]
        if n:
            parts.append(c >= 0)
        for j in range(n):
            load = make_sum((1, r[i] * ((s[i] <= s[j]) & (s[j] < s[i] + d[i])))
                            for i in range(n) if i != j)
            parts.append(implies((d[j] > 0) & (r[j] > 0), load + r[j] <= c))
        return _pairwise_all(parts)


class NoOverlap2D(Global):
    """Rectangles (x_i, y_i, w_i, h_i) do not overlap: each pair is apart on x or on y;
    sizes are >= 0. args = xs + ys + widths + heights."""

    __slots__ = ()
    name = "no_overlap_2d"

    def holds(self, values: list[int]) -> bool:
        n = len(values) // 4
        x, y, w, h = (values[k * n:(k + 1) * n] for k in range(4))
        if any(v < 0 for v in w + h):
            return False
        return all(x[i] + w[i] <= x[j] or x[j] + w[j] <= x[i]
                   or y[i] + h[i] <= y[j] or y[j] + h[j] <= y[i]
                   for i in range(n) for j in range(i + 1, n))

    def decompose(self) -> Expr:
        n = len(self.args) // 4
        x, y, w, h = (self.args[k * n:(k + 1) * n] for k in range(4))
        parts: list[Expr | bool] = [v >= 0 for v in w + h]
        for i in range(n):
            for j in range(i + 1, n):
                parts.append((x[i] + w[i] <= x[j]) | (x[j] + w[j] <= x[i])
                             | (y[i] + h[i] <= y[j]) | (y[j] + h[j] <= y[i]))
        return _pairwise_all(parts)


# ------------------------------------------------------------------ public builders

def all_different(*items: Operands, strength: AllDifferentStrength = "domain") -> Expr:
    """All different values. strength: "domain" (matching, default), "bounds" (Hall
    intervals) or "value" (value elimination); the solution set is the same."""
    if strength not in ALLDIFF_STRENGTHS:
        raise ModelError(f"all_different strength must be one of {ALLDIFF_STRENGTHS}, "
                         f"not {strength!r}")
    return AllDifferent(_flatten(items[0] if len(items) == 1 else items, "all_different"),
                        strength)


def linear_eq(coefs: Iterable[int], variables: Operands, rhs: int,
              strength: LinearStrength = "bounds") -> Expr:
    """sum(coefs[i] * variables[i]) == rhs. strength: "bounds" (default, the filtering of
    `cn.sum(...) == rhs`) or "domain" (every value kept is part of a solution of this
    equation; for sums spanning at most 65,536 values, bounds above that with a warning);
    the solution set is the same."""
    if strength not in LINEAR_STRENGTHS:
        raise ModelError(f"linear_eq strength must be one of {LINEAR_STRENGTHS}, "
                         f"not {strength!r}")
    xs = _flatten(variables, "linear_eq")
    cs = tuple(coefs)
    for a in (*cs, rhs):
        if isinstance(a, bool) or not isinstance(a, int):
            raise ModelError(f"linear_eq: {a!r} is not an integer (coefficients and the "
                             "right-hand side are integers)")
    if len(cs) != len(xs):
        raise ModelError(f"linear_eq: {len(cs)} coefficients for {len(xs)} variables")
    return LinearEquation(xs, cs, rhs, strength)


def all_different_except_0(*items: Operands) -> Expr:
    """All non-zero values different (zeros may repeat)."""
    return AllDifferentExcept0(
        _flatten(items[0] if len(items) == 1 else items, "all_different_except_0"))


def table(variables: Operands, tuples: Iterable[Iterable[int]]) -> Expr:
    """The variables take the values of one of the tuples."""
    xs = _flatten(variables, "table")
    rows = []
    for t in tuples:
        row = tuple(t)
        if len(row) != len(xs):
            raise ModelError(f"table: tuple {row} has {len(row)} values for {len(xs)} variables")
        for v in row:
            if isinstance(v, bool) or not isinstance(v, int):
                raise ModelError(f"table: tuple {row} holds {v!r}; tuples hold integers")
        rows.append(row)
    return Table(xs, tuple(rows))


def element(array: Operands, index: ExprLike) -> Expr:
    """array[index] as an expression; index is 0-based and must be in range."""
    items = _flatten(array, "element")
    if not items:
        raise ModelError("element: the array is empty")
    for k, item in enumerate(items):
        if isinstance(item, Fraction):  # a whole Fraction arrives as an int already
            raise ModelError(f"element: array[{k}] = {item} is not an integer (the array "
                             "holds integers or integer expressions)")
    return Element((const_or_expr(index, "element index"), *items))


def count(variables: Operands, value: ExprLike) -> Expr:
    """How many of the variables equal value (an expression)."""
    return Count((const_or_expr(value, "count"), *_flatten(variables, "count")))


def global_cardinality(variables: Operands, values: Iterable[int], counts: Operands) -> Expr:
    """For each i, exactly counts[i] variables take values[i]."""
    xs = _flatten(variables, "global_cardinality")
    vals = tuple(values)
    cs = _flatten(counts, "global_cardinality")
    if len(vals) != len(cs):
        raise ModelError(f"global_cardinality: {len(vals)} values but {len(cs)} counts")
    if len(set(vals)) != len(vals):
        raise ModelError("global_cardinality: the values must be distinct")
    return GlobalCardinality(xs + cs, vals, len(xs))


def increasing(variables: Operands, strict: bool = False) -> Expr:
    """Each value <= the next (< with strict=True)."""
    return Ordered(_flatten(variables, "increasing"), strict, False)


def decreasing(variables: Operands, strict: bool = False) -> Expr:
    """Each value >= the next (> with strict=True)."""
    return Ordered(_flatten(variables, "decreasing"), strict, True)


def _lex(xs: object, ys: object, strict: bool) -> Expr:
    a, b = _flatten(xs, "lex"), _flatten(ys, "lex")
    if len(a) != len(b):
        raise ModelError(f"lex: sequences of different lengths ({len(a)} and {len(b)})")
    return Lex(a + b, len(a), strict)


def lex_less(xs: Operands, ys: Operands) -> Expr:
    """xs < ys lexicographically."""
    return _lex(xs, ys, True)


def lex_lesseq(xs: Operands, ys: Operands) -> Expr:
    """xs <= ys lexicographically."""
    return _lex(xs, ys, False)


def _min_max(args: tuple[Operands, ...], is_max: bool) -> Expr:
    items = _flatten(args[0] if len(args) == 1 else args, "max" if is_max else "min")
    if not items:
        raise ModelError(("max" if is_max else "min") + "() of nothing")
    return MinMax(items, is_max)


def min(*args: Operands) -> Expr:  # noqa: A001 - mirrors the builtin, as users expect
    """The smallest of the expressions (cn.min(a, b, c) or cn.min(list))."""
    return _min_max(args, False)


def max(*args: Operands) -> Expr:  # noqa: A001
    """The largest of the expressions."""
    return _min_max(args, True)


def exact_div(a: ExprLike, b: ExprLike) -> Expr:
    """The integer quotient a / b, where b must divide a exactly (ECLiPSe `/` under #=)."""
    return BinOp("exact_div", const_or_expr(a), const_or_expr(b))


def integral(constraint: Expr | bool) -> Expr:
    """The constraint with every / read as exact_div: ECLiPSe's #=."""
    c = as_constraint(constraint)

    def rewrite(node: Expr) -> Expr:
        if isinstance(node, BinOp) and node.op == "/":
            return BinOp("exact_div", *node.args)
        return node

    return transform(c, rewrite)  # type: ignore[return-value]


def implies(a: Expr | bool, b: Expr | bool) -> Expr:
    """a -> b."""
    return BoolOp("implies", as_constraint(a), as_constraint(b))


def sum(items: Iterable[ExprLike]) -> Expr:  # noqa: A001
    """A flat sum of many expressions (faster than the builtin on long lists)."""
    return make_sum((1, const_or_expr(x)) for x in items)


# ------------------------------------------- counting and channelling globals (issue 9)
# Each is posted as its standard decomposition, which is also its propagation strength (the
# relations it is made of are propagated one by one), except bin_packing, which has its
# own propagator (propagators/packing.py).

NVALUE_LIMIT = 10_000  # values in the union of the domains that nvalue enumerates


class AllEqual(Global):
    """Every argument the same value (domain consistent: the equalities to the first one
    merge into one engine variable)."""

    __slots__ = ()
    name = "all_equal"

    def holds(self, values: list[int]) -> bool:
        return len(set(values)) <= 1

    def decompose(self) -> Expr:
        xs = self.args
        return _pairwise_all(x == xs[0] for x in xs[1:])


class Among(Global):
    """args[0] arguments of the rest take a value in `values` (a sum of 0/1 memberships:
    bounds of n, and values pruned from the others once n is reached either way)."""

    __slots__ = ("values",)
    name = "among"

    def __init__(self, args: tuple[ExprLike, ...], values: tuple[int, ...]) -> None:
        super().__init__(args)
        self.values = values

    def holds(self, values: list[int]) -> bool:
        allowed = set(self.values)
        return values[0] == len([v for v in values[1:] if v in allowed])

    def decompose(self) -> Expr:
        return Rel("==", self.args[0], make_sum((1, _member(x, self.values))
                                               for x in self.args[1:]))


class Inverse(Global):
    """f and g (args = f + g) are inverse permutations, 0-based: f[i] == j exactly when
    g[j] == i (every pair channelled both ways: domain consistent on each pair)."""

    __slots__ = ()
    name = "inverse"

    def holds(self, values: list[int]) -> bool:
        n = len(values) // 2
        f, g = values[:n], values[n:]
        return (all(0 <= v < n for v in values)
                and all((f[i] == j) == (g[j] == i) for i in range(n) for j in range(n)))

    def decompose(self) -> Expr:
        n = len(self.args) // 2
        fs, gs = self.args[:n], self.args[n:]
        parts: list[Expr | bool] = []
        for x in self.args:
            parts += [x >= 0, x < n]
        parts += [_is(fs[i], j) == _is(gs[j], i) for i in range(n) for j in range(n)]
        return _pairwise_all(parts)


class ValuePrecede(Global):
    """If some argument takes t, an earlier one takes s (each occurrence of t implies an
    earlier s)."""

    __slots__ = ("s", "t")
    name = "value_precede"

    def __init__(self, args: tuple[ExprLike, ...], s: int, t: int) -> None:
        super().__init__(args)
        self.s, self.t = s, t

    def holds(self, values: list[int]) -> bool:
        if self.s == self.t or self.t not in values:
            return True
        return self.s in values[:values.index(self.t)]

    def decompose(self) -> Expr:
        xs, s, t = self.args, self.s, self.t
        if s == t:
            return BoolConst(True)
        parts: list[Expr | bool] = []
        for i, x in enumerate(xs):
            before = make_sum((1, _is(y, s)) for y in xs[:i])
            parts.append(implies(_is(x, t) == 1, before >= 1))
        return _pairwise_all(parts)


class NValue(Global):
    """args[0] is the number of distinct values of the rest (for each value of their
    domains, whether some argument takes it: a sum of 0/1 disjunctions)."""

    __slots__ = ("domain",)
    name = "nvalue"

    def __init__(self, args: tuple[ExprLike, ...], domain: tuple[int, ...]) -> None:
        super().__init__(args)
        self.domain = domain  # every value the arguments can take

    def holds(self, values: list[int]) -> bool:
        return values[0] == len(set(values[1:]))

    def decompose(self) -> Expr:
        xs = self.args[1:]
        used = (make_sum((1, _is(x, v)) for x in xs) >= 1 for v in self.domain)
        return Rel("==", self.args[0], make_sum((1, u) for u in used))


class BinPacking(Global):
    """Item i (of size sizes[i]) goes into bin bins[i] (0-based) and loads[b] is the total
    size in bin b. args = loads + bins. Posted: propagators/packing.py; reified: one
    linear sum per bin over 0/1 placements."""

    __slots__ = ("sizes",)
    name = "bin_packing"

    def __init__(self, args: tuple[ExprLike, ...], sizes: tuple[int, ...]) -> None:
        super().__init__(args)
        self.sizes = sizes

    def holds(self, values: list[int]) -> bool:
        k = len(values) - len(self.sizes)
        loads, bins = values[:k], values[k:]
        if any(not 0 <= b < k for b in bins):
            return False
        totals = [0] * k
        for w, b in zip(self.sizes, bins):
            totals[b] += w
        return totals == list(loads)

    def decompose(self) -> Expr:
        k = len(self.args) - len(self.sizes)
        ls, bs = self.args[:k], self.args[k:]
        parts: list[Expr | bool] = []
        for b in bs:
            parts += [b >= 0, b < k]
        for j, load in enumerate(ls):
            parts.append(load == make_sum((w, _is(b, j)) for w, b in zip(self.sizes, bs)))
        return _pairwise_all(parts)


def all_equal(*items: Operands) -> Expr:
    """Every value the same."""
    return AllEqual(_flatten(items[0] if len(items) == 1 else items, "all_equal"))


def _is(x: ExprLike, v: int) -> ExprLike:
    """x == v as a 0/1 term (a plain 0 or 1 when x is a constant)."""
    c = x == v
    return int(c) if isinstance(c, bool) else c


def _member(x: ExprLike, values: tuple[int, ...]) -> Expr:
    """x == v for one of the distinct values, as a 0/1 sum (no value counted twice)."""
    return make_sum((1, _is(x, v)) for v in values)


def _int_values(values: Iterable[int], what: str) -> tuple[int, ...]:
    out: list[int] = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ModelError(f"{what}: the values must be integers, not {v!r}")
        out.append(v)
    return tuple(sorted(set(out)))


def among(n: ExprLike, variables: Operands, values: Iterable[int]) -> Expr:
    """Exactly n of the variables take a value in `values`."""
    vals = _int_values(values, "among")
    return Among((const_or_expr(n, "among"), *_flatten(variables, "among")), vals)


def at_most(k: ExprLike, variables: Operands, value: ExprLike) -> Expr:
    """At most k of the variables equal value (a count, as cn.count)."""
    return count(variables, value) <= const_or_expr(k, "at_most")


def at_least(k: ExprLike, variables: Operands, value: ExprLike) -> Expr:
    """At least k of the variables equal value (a count, as cn.count)."""
    return count(variables, value) >= const_or_expr(k, "at_least")


def inverse(f: Operands, g: Operands) -> Expr:
    """f and g are inverse permutations, 0-based: f[i] == j exactly when g[j] == i."""
    fs, gs = _flatten(f, "inverse"), _flatten(g, "inverse")
    if len(fs) != len(gs):
        raise ModelError(f"inverse: f has {len(fs)} elements and g {len(gs)}")
    return Inverse(fs + gs)


def value_precede(s: int, t: int, variables: Operands) -> Expr:
    """If some variable takes t, an earlier one takes s (symmetry breaking of
    interchangeable values)."""
    for v in (s, t):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ModelError(f"value_precede: s and t are integers, not {v!r}")
    return ValuePrecede(_flatten(variables, "value_precede"), s, t)


def nvalue(n: ExprLike, variables: Operands) -> Expr:
    """n is the number of distinct values the variables take."""
    from conundrum.lang.expr import Var

    xs = _flatten(variables, "nvalue")
    values: set[int] = set()
    for x in xs:
        if isinstance(x, int):
            values.add(x)
        elif isinstance(x, Var):
            dom = x.domain_values
            if dom is None and x.hi - x.lo >= NVALUE_LIMIT:
                raise ModelError(f"nvalue: the domain of {x.name or 'a variable'} is too "
                                 f"wide (more than {NVALUE_LIMIT:,} values)")
            values.update(dom if dom is not None else range(x.lo, x.hi + 1))
        else:
            raise ModelError("nvalue: the arguments must be variables or integers")
        if len(values) > NVALUE_LIMIT:
            raise ModelError(f"nvalue: more than {NVALUE_LIMIT:,} values in the domains")
    return NValue((const_or_expr(n, "nvalue"), *xs), tuple(sorted(values)))


def bin_packing(loads: Operands, bins: Operands, sizes: Iterable[int]) -> Expr:
    """Item i (of size sizes[i]) goes into bin bins[i] (0-based), and loads[b] is the total
    size in bin b."""
    ls, bs = _flatten(loads, "bin_packing"), _flatten(bins, "bin_packing")
    ws = list(sizes)
    if len(ws) != len(bs):
        raise ModelError(f"bin_packing: {len(bs)} items but {len(ws)} sizes")
    for w in ws:
        if isinstance(w, bool) or not isinstance(w, int) or w < 0:
            raise ModelError(f"bin_packing: sizes are integers >= 0, not {w!r}")
    return BinPacking(ls + bs, tuple(ws))


def regular(variables: Operands,
            transitions: Mapping[tuple[int, int], int] | Iterable[tuple[int, int, int]],
            start: int,
            accepting: Iterable[int]) -> Expr:
    """The variables spell a word accepted by a deterministic automaton: `transitions` maps
    (state, value) to the next state (a dict, or (state, value, next) triples), `start` is
    the initial state, `accepting` the final ones. Generalised arc consistent (posted as a
    chain of tables over the states reachable at each position)."""
    xs = _flatten(variables, "regular")
    table: dict[tuple[int, int], int] = {}
    try:
        triples: Iterable[tuple[int, int, int]] = (
            [(q, v, r) for (q, v), r in transitions.items()]
            if isinstance(transitions, Mapping) else transitions)
        for q, v, r in triples:
            for k in (q, v, r):
                if isinstance(k, bool) or not isinstance(k, int):
                    raise ModelError(f"regular: states and values are integers, not {k!r}")
            if table.get((q, v), r) != r:
                raise ModelError(f"regular: state {q} has two transitions on {v} (the "
                                 "automaton must be deterministic)")
            table[(q, v)] = r
    except (TypeError, ValueError):
        raise ModelError("regular: transitions are a dict {(state, value): next} or "
                         "(state, value, next) triples") from None
    finals = frozenset(_int_values(accepting, "regular"))
    if isinstance(start, bool) or not isinstance(start, int):
        raise ModelError(f"regular: the start state is an integer, not {start!r}")
    return Regular(xs, table, start, finals)


def pattern_automaton(clues: Iterable[int]) -> tuple[dict[tuple[int, int], int], int,
                                                       frozenset[int]]:
    """(transitions, start, accepting) of a Nonogram line: blocks of 1s of the given
    lengths, in order, separated by at least one 0, with any 0s around them. Use with
    regular(row, *pattern_automaton([3, 1, 2]))."""
    blocks = list(clues)
    for b in blocks:
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise ModelError(f"pattern_automaton: block lengths are integers >= 1, not {b!r}")
    # states: 0 = before the first block; then one state per cell of every block, and for
    # each block but the last one "just after it" state that needs a 0
    transitions: dict[tuple[int, int], int] = {}
    state = 0
    transitions[(0, 0)] = 0
    for k, length in enumerate(blocks):
        for _ in range(length):
            transitions[(state, 1)] = state + 1
            state += 1
        last = k == len(blocks) - 1
        gap = state + 1  # a 0 after the block
        transitions[(state, 0)] = gap
        transitions[(gap, 0)] = gap
        if last:
            return transitions, 0, frozenset({state, gap})
        state = gap
    return transitions, 0, frozenset({0})


# ------------------------------------------- scheduling, routing and selection (issue 9)

def _tasks(what: str, *columns: object) -> list[tuple[ExprLike, ...]]:
    """The columns as tuples of one length (starts, durations, ...), or a ModelError."""
    out = [_flatten(c, what) for c in columns]
    if len({len(c) for c in out}) > 1:
        raise ModelError(f"{what}: the lists have different lengths "
                         f"({', '.join(str(len(c)) for c in out)})")
    return out


def circuit(successors: Operands) -> Expr:
    """successors[i] is the node after node i (0-based), and they form one cycle through
    every node (a Hamiltonian circuit). Propagation: domain-consistent all_different,
    no-subtour on chains of fixed successors, and a reachability (strong connectivity)
    check."""
    return Circuit(_flatten(successors, "circuit"), False)


def subcircuit(successors: Operands) -> Expr:
    """As circuit, over the nodes i with successors[i] != i; a node with
    successors[i] == i is left out (the cycle may also be empty). Nodes that cannot reach
    the nodes forced into the cycle are left out by propagation."""
    return Circuit(_flatten(successors, "subcircuit"), True)


def no_overlap(starts: Operands, durations: Operands, strict: bool = False) -> Expr:
    """Tasks [starts[i], starts[i] + durations[i]) on one machine do not overlap
    (MiniZinc's disjunctive). Durations are >= 0; a task of duration 0 may sit anywhere,
    unless strict=True (disjunctive_strict: not strictly inside another task).
    Propagation: detectable precedences, overload checking and edge-finding."""
    s, d = _tasks("no_overlap", starts, durations)
    return NoOverlap(s + d, bool(strict))


def cumulative(starts: Operands, durations: Operands, demands: Operands,
               capacity: object) -> Expr:
    """Tasks [starts[i], starts[i] + durations[i]) each use demands[i] of a resource:
    at every time the running tasks use at most `capacity`. Durations and demands must
    be >= 0 (and the capacity too, when there is a task). Propagation: timetabling on
    the compulsory parts and energetic overload checking."""
    s, d, r = _tasks("cumulative", starts, durations, demands)
    return Cumulative(s + d + r + (const_or_expr(capacity, "cumulative"),))


def no_overlap_2d(xs: Operands, ys: Operands, widths: Operands, heights: Operands) -> Expr:
    """Rectangles with lower-left corners (xs[i], ys[i]) and sizes widths[i] x heights[i]
    do not overlap (MiniZinc's diffn: a rectangle of size 0 may not lie strictly inside
    another). Sizes are >= 0. Propagation: pairwise, each pair's four separations."""
    x, y, w, h = _tasks("no_overlap_2d", xs, ys, widths, heights)
    return NoOverlap2D(x + y + w + h)


def _arg(items: object, is_max: bool) -> Expr:
    what = "arg_max" if is_max else "arg_min"
    xs = _flatten(items, what)
    if not xs:
        raise ModelError(f"{what}() of nothing")
    return ArgExtreme(xs, is_max)


def arg_max(items: Operands) -> Expr:
    """The 0-based position of the first largest of the items, as an expression
    (bounds-consistent propagator)."""
    return _arg(items, True)


def arg_min(items: Operands) -> Expr:
    """The 0-based position of the first smallest of the items, as an expression."""
    return _arg(items, False)
