"""Engine-level tests of the arithmetic propagators (times, exact_div, //, %, abs, powers)
against brute force, and API-level tests that wide non-linear constraints are solved by
propagation (a handful of search nodes), in the style of test_propagators_globals.py.

Each property test builds a Solver with random small domains (values in -6..6, the result's
domain drawn from the operation's image and some noise) or bounds-only ranges wider than
BITSET_LIMIT placed all negative, around 0 or all positive, posts one propagator, runs the
fixpoint and compares with the truth:

(a) soundness: no solution was removed;
(b) completeness: in enumeration mode (small bit sets) every remaining value has a support;
    in bounds mode (limit=0: interval reasoning even on bit sets) the bounds the propagator
    claims are supported when the domains are read as intervals;
(c) failure exactly when there is no solution, checked by (d): a depth-first search over
    the representative values enumerates exactly the brute-force solutions.

A bounds-only variable cannot be enumerated: it is represented by -8..8, its bounds and
their neighbours, two generic values, and every value that solves the constraint for the
other variables' representative values (computed by the independent solvers below, which
use Fraction and explicit case analysis, not the code under test). A result variable is
determined by the arguments, so brute force enumerates the arguments only.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conundrum as cn
from conundrum.engine import Inconsistency, Solver
from conundrum.engine.var import BITSET_LIMIT
from conundrum.propagators.arith import (
    Abs,
    BinaryFunction,
    Power,
    iroot,
    iroot_ceil,
    quotient_hull,
    root_ceil,
    root_floor,
)

BIG = BITSET_LIMIT + 5
GENERIC = (1000, 1001)
BIG_LOWS = (-BIG - 2, -BIG // 2, -3, 0, 2)  # all negative, around 0, mostly/all positive
OPS = ("*", "exact_div", "//", "%")

# ------------------------------------------------------------- the operations, exactly


def apply(op: str, a: int, b: int) -> int | None:
    """SPEC 2: None where the operation is undefined (divisor 0, inexact exact_div)."""
    if op == "*":
        return a * b
    if b == 0:
        return None
    if op == "exact_div":
        return a // b if a % b == 0 else None
    if op == "//":
        return a // b
    return a % b


def _floor(q: Fraction) -> int:
    return math.floor(q)


def _ceil(q: Fraction) -> int:
    return math.ceil(q)


def _linear_range(lo: int, hi: int, rows: list[tuple[int, int]]) -> tuple[int, int]:
    """The integers y in lo..hi with a*y <= c for every (a, c) in rows (by Fractions)."""
    for a, c in rows:
        if a > 0:
            hi = min(hi, _floor(Fraction(c, a)))
        elif a < 0:
            lo = max(lo, _ceil(Fraction(c, a)))
        elif c < 0:
            return lo, lo - 1
    return lo, hi


def _divisors(n: int) -> list[int]:
    """Every positive divisor of n != 0."""
    n = abs(n)
    out = []
    d = 1
    while d * d <= n:
        if n % d == 0:
            out += [d, n // d]
        d += 1
    return out


def solve_binary(op: str, pos: int, known: tuple[int, int], lo: int, hi: int) -> list[tuple]:
    """The values v in lo..hi that solve z = x OP y at position `pos` (0: x, 1: y, 2: z)
    when the other two positions hold `known` (in order), as a list of ranges (l, h)."""
    if pos == 2:
        r = apply(op, *known)
        return [(r, r)] if r is not None and lo <= r <= hi else []
    other, c = known  # the other argument and the result
    ranges: list[tuple[int, int]] = []
    if op == "*":
        if other == 0:
            ranges = [(lo, hi)] if c == 0 else []
        elif c % other == 0:
            ranges = [(c // other, c // other)]
    elif op == "exact_div" and pos == 0:  # x / other == c
        ranges = [(other * c, other * c)] if other != 0 else []
    elif op == "exact_div":  # other / y == c, y != 0
        if c == 0:
            ranges = [(lo, min(hi, -1)), (max(lo, 1), hi)] if other == 0 else []
        elif other % c == 0 and other != 0:
            ranges = [(other // c, other // c)]
    elif op == "//" and pos == 0:  # x // other == c
        if other > 0:
            ranges = [(other * c, other * c + other - 1)]
        elif other < 0:
            ranges = [(other * c + other + 1, other * c)]
    elif op == "//":  # other // y == c: y*c <= other < y*(c+1) (y > 0), reversed (y < 0)
        ranges = [_linear_range(max(lo, 1), hi, [(c, other), (-(c + 1), -other - 1)]),
                  _linear_range(lo, min(hi, -1), [(-c, -other), (c + 1, other - 1)])]
    elif op == "%" and pos == 0:  # x % other == c: x = c + k*|other|, c on other's side
        if other != 0 and (0 <= c < other or other < c <= 0):
            m = abs(other)
            first = lo + (c - lo) % m
            last = hi - (hi - c) % m
            ranges = [(v, v) for v in {first, first + m, last - m, last} if first <= v <= last]
    elif op == "%":  # other % y == c: y | other - c, 0 <= c < y or y < c <= 0
        if other == c:
            ranges = [(max(lo, 1, c + 1), hi) if c >= 0 else (1, 0),
                      (lo, min(hi, -1, c - 1)) if c <= 0 else (1, 0)]
        else:
            ranges = [(y, y) for d in _divisors(other - c) for y in (d, -d)
                      if 0 <= c < y or y < c <= 0]
    out = []
    for l, h in ranges:
        l, h = max(l, lo), min(h, hi)
        if l <= h:
            out.append((l, h))
    for l, h in out:  # the solver checks itself on the ends of its ranges
        for v in (l, h):
            args = _place(pos, v, known)
            assert apply(op, args[0], args[1]) == args[2], (op, pos, known, v)
    return out


def _place(pos: int, v: int, known: tuple[int, int]) -> tuple[int, int, int]:
    vals = list(known)
    vals.insert(pos, v)
    return vals[0], vals[1], vals[2]


def _int_root(c: int, k: int) -> int | None:
    """r >= 0 with r**k == c, by bisection (independent of iroot), else None."""
    if c < 0:
        return None
    lo, hi = 0, 1
    while hi ** k < c:
        hi *= 2
    while lo < hi:
        mid = (lo + hi) // 2
        if mid ** k < c:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo ** k == c else None


def solve_unary(k: int, pos: int, known: int, lo: int, hi: int) -> list[tuple]:
    """The values in lo..hi solving z = x**k (k = 1 stands for z = |x|) at position pos."""
    if pos == 1:
        r = abs(known) if k == 1 else known ** k
        return [(r, r)] if lo <= r <= hi else []
    cands = set()
    if k == 1 or k % 2 == 0:
        r = _int_root(known, k)
        if r is not None:
            cands = {r, -r}
    else:
        r = _int_root(abs(known), k)
        if r is not None:
            cands = {r if known >= 0 else -r}
    return [(v, v) for v in sorted(cands) if lo <= v <= hi]


def sample(ranges: list[tuple]) -> set[int]:
    """Representatives of ranges: both ends, their neighbours inside, everything if short."""
    out = set()
    for l, h in ranges:
        if h - l <= 12:
            out.update(range(l, h + 1))
        else:
            out.update((l, l + 1, h - 1, h))
    return out


# ---------------------------------------------------------------------------- harness


def build(specs):
    """A solver and one variable per spec: a set of values, or ("big", lo) for lo..lo+BIG."""
    s = Solver()
    xs = []
    for k, spec in enumerate(specs):
        if isinstance(spec, tuple):
            xs.append(s.int_var(spec[1], spec[1] + BIG, f"x{k}"))
        else:
            xs.append(s.int_var_values(sorted(spec), f"x{k}"))
    return s, xs


def base_reps(x) -> set[int]:
    vals = set(range(-8, 9)) | set(GENERIC) | {x.lo, x.lo + 1, x.hi - 1, x.hi}
    return {v for v in vals if x.lo <= v <= x.hi}


class Case:
    """One propagator on one set of domains, with the brute-force machinery for it:
    `solve(pos, known, lo, hi)` gives the solutions at one position as ranges, the other
    positions holding `known`; the result is the last variable."""

    def __init__(self, specs, make, solve):
        self.specs, self.make, self.solve = specs, make, solve
        self.n = len(specs)

    def reps(self, xs) -> list[list[int]]:
        """Representative values of each variable (all of them for bit sets); a lone
        bounds-only argument also gets the values that solve the constraint."""
        reps = [set(x.values()) if x.bits >= 0 else base_reps(x) for x in xs]
        wide_args = [x for x in xs[:-1] if x.bits < 0]
        for i, x in enumerate(xs[:-1]):
            if x.bits < 0 and len(wide_args) == 1:
                others = [j for j in range(self.n) if j != i]
                found = set()
                for known in _product([sorted(reps[j]) for j in others]):
                    found |= sample(self.solve(i, known, x.lo, x.hi))
                reps[i] |= found
        return [sorted(r) for r in reps]

    def solutions(self, xs, reps) -> list[tuple]:
        """Brute force: every argument tuple over reps, the result computed and checked."""
        sols = []
        for args in _product(reps[:-1]):
            for lz, hz in self.solve(self.n - 1, args, xs[-1].lo, xs[-1].hi):
                for v in range(lz, hz + 1):
                    if xs[-1].contains(v):
                        sols.append((*args, v))
        return sorted(sols)

    def supported(self, xs, i: int, v: int) -> bool:
        """Whether x_i = v has a support when the domains are read as intervals."""
        others = [j for j in range(self.n) if j != i]
        # solve for a bounds-only neighbour (or the result); enumerate the rest
        wide = [j for j in others if xs[j].bits < 0]
        target = wide[-1] if wide else others[-1]
        rest = [j for j in others if j != target]
        if any(xs[j].bits < 0 for j in rest):
            return True  # two wide neighbours: not checked
        for vals in _product([range(xs[j].lo, xs[j].hi + 1) for j in rest]):
            full = dict(zip(rest, vals))
            full[i] = v
            known = tuple(full[j] for j in range(self.n) if j != target)
            if self.solve(target, known, xs[target].lo, xs[target].hi):
                return True
        return False


def real_support(op: str, xs, i: int, v: int) -> bool:
    """Whether x_i = v has a support for z = x*y (op "*") or x = y*z with y != 0 (op
    "exact_div") when the other variables range over the reals between their bounds."""
    def meets(k: int, a: int, b: int) -> bool:
        # does the real interval k*[a, b] meet z's (for *) or x's (for exact_div) bounds?
        lo, hi = min(k * a, k * b), max(k * a, k * b)
        target = xs[2] if op == "*" else xs[0]
        return max(lo, target.lo) <= min(hi, target.hi)

    if op == "exact_div":  # x = y*z: reorder to the product's (factor, factor, product)
        if i == 1 and v == 0:
            return False
        f1, f2 = xs[1], xs[2]
        pos = {1: 0, 2: 1, 0: 2}[i]
    else:
        f1, f2 = xs[0], xs[1]
        pos = i
    if pos == 2:  # the product: the image of the box is the interval of its corners
        ps = [a * b for a in (f1.lo, f1.hi) for b in (f2.lo, f2.hi)]
        if op == "exact_div" and v == 0:  # needs z = 0 with y != 0
            return f2.lo <= 0 <= f2.hi and (f1.lo, f1.hi) != (0, 0)
        return min(ps) <= v <= max(ps)
    other = f2 if pos == 0 else f1
    if op == "exact_div" and pos == 1:  # z = v with some y != 0: y*v meets x's bounds
        if v == 0:
            return xs[0].lo <= 0 <= xs[0].hi and (xs[1].lo, xs[1].hi) != (0, 0)
        lo, hi = min(v * xs[1].lo, v * xs[1].hi), max(v * xs[1].lo, v * xs[1].hi)
        lo, hi = max(lo, xs[0].lo), min(hi, xs[0].hi)
        return lo < hi or (lo == hi and lo != 0)  # not just the point y = 0
    return meets(v, other.lo, other.hi)


def _product(lists):
    out = [()]
    for values in lists:
        out = [t + (v,) for t in out for v in values]
    return out


def post(s, make, xs) -> bool:
    """Post the propagator; False when it fails."""
    try:
        s.post(make(s, xs))
        s.fix_point()
    except Inconsistency:
        return False
    return True


def dfs(s, xs, reps) -> list[tuple]:
    """Every solution below the current node, by an explicit-stack DFS over `reps` values."""

    def choose():
        for i, x in enumerate(xs):
            if x.lo != x.hi:
                return [i, [v for v in reps[i] if x.contains(v)], 0, False]
        return None

    top = choose()
    if top is None:
        return [tuple(x.lo for x in xs)]
    sols = []
    frames = [top]
    while frames:
        f = frames[-1]
        if f[3]:
            s.trail.pop_level()
            f[3] = False
        if f[2] == len(f[1]):
            frames.pop()
            continue
        v = f[1][f[2]]
        f[2] += 1
        s.trail.push_level()
        f[3] = True
        try:
            xs[f[0]].assign(v)
            s.fix_point()
        except Inconsistency:
            s.clear_queue()
            continue
        nxt = choose()
        if nxt is None:
            sols.append(tuple(x.lo for x in xs))
        else:
            frames.append(nxt)
    return sols


def run_checks(case: Case, *, gac: bool, bc: tuple[int, ...] = (),
               real_bc: str = "") -> list:
    """Checks (a)-(d); `bc` lists the variables whose bounds must be supported when the
    domains are read as integer intervals; `real_bc` names the operation whose bounds
    must all be supported when the other variables range over real intervals (bounds(R)
    consistency). Returns the bounds after the root fixpoint (or [])."""
    s, xs = build(case.specs)
    reps = case.reps(xs)
    sols = case.solutions(xs, reps)
    s.trail.push_level()
    if not post(s, case.make, xs):
        assert not sols, f"failed although {sols[0]} is a solution"
        s.trail.pop_level()
        return []
    for t in sols:  # (a)
        for x, v in zip(xs, t):
            assert x.contains(v), f"{x} lost {v}, used by solution {t}"
    if gac:  # (b), (c) for domain consistency
        assert sols, f"no solution but no failure: {xs}"
        for i, x in enumerate(xs):
            supported = {t[i] for t in sols}
            for v in (x.values() if x.bits >= 0 else (x.lo, x.hi)):
                assert v in supported, f"{x}: value {v} has no support"
    for i in bc:  # (b) for bounds consistency
        for v in (xs[i].lo, xs[i].hi):
            assert case.supported(xs, i, v), f"{xs}: bound {v} of x{i} has no support"
    if real_bc:
        for i, x in enumerate(xs):
            for v in (x.lo, x.hi):
                assert real_support(real_bc, xs, i, v), f"{xs}: {v} of x{i} unsupported (R)"
    # (d) propagation may fix a variable to a valid value outside the representatives:
    # every solution found must hold, and those over representatives are exactly `sols`
    found = dfs(s, xs, reps)
    assert len(set(found)) == len(found), "a solution was found twice"
    for t in found:
        assert case.solve(case.n - 1, t[:-1], t[-1], t[-1]), f"dfs found a non-solution {t}"
    arg_reps = [set(r) for r in reps[:-1]]  # the result is exact, not sampled
    in_reps = sorted(t for t in found if all(v in r for v, r in zip(t, arg_reps)))
    assert in_reps == sols, f"dfs {in_reps} != brute force {sols}"
    snapshot = [(x.lo, x.hi) for x in xs]
    s.trail.pop_level()
    return snapshot


# ------------------------------------------------------------------------- strategies

VALUES = st.integers(-6, 6)


@st.composite
def small_dom(draw, lo=-6, hi=6):
    """An interval or a set of values within lo..hi."""
    if draw(st.booleans()):
        a = draw(st.integers(lo, hi))
        b = draw(st.integers(a, min(hi, a + 6)))
        return frozenset(range(a, b + 1))
    return draw(st.frozensets(st.integers(lo, hi), min_size=1, max_size=6))


@st.composite
def arg_spec(draw, allow_big: bool):
    if allow_big and draw(st.integers(0, 3)) == 0:
        return ("big", draw(st.sampled_from(BIG_LOWS)))
    return draw(small_dom())


def _image_values(f, xs_spec, ys_spec) -> list[int]:
    """Some values of f over two specs (the bounds-only ones through -8..8 and ends)."""
    def vals(spec):
        if isinstance(spec, tuple):
            return sorted(set(range(-8, 9)) | {spec[1], spec[1] + BIG})
        return sorted(spec)
    out = set()
    for a in vals(xs_spec):
        for b in vals(ys_spec):
            r = f(a, b)
            if r is not None:
                out.add(r)
    return sorted(out)


@st.composite
def result_spec(draw, image: list[int], allow_big: bool):
    """The result's domain: a bounds-only range around an image value, or some image
    values and some noise."""
    if allow_big and draw(st.integers(0, 3)) == 0:
        centre = draw(st.sampled_from(image)) if image else 0
        return ("big", centre - draw(st.sampled_from((0, 3, BIG // 2, BIG - 1, BIG))))
    picks = draw(st.lists(st.sampled_from(image), max_size=4)) if image else []
    noise = draw(st.lists(st.integers(-12, 12), max_size=3))
    return frozenset(picks + noise) or frozenset({0})


@st.composite
def binary_case(draw, op: str, allow_big: bool = True, fixed_divisor: bool = False):
    x = draw(arg_spec(allow_big))
    if fixed_divisor:
        y = frozenset({draw(st.integers(-5, 5).filter(lambda d: d != 0))})
    else:
        y = draw(arg_spec(allow_big))
    z = draw(result_spec(_image_values(lambda a, b: apply(op, a, b), x, y), allow_big))
    return [x, y, z]


def binary(op: str, specs, limit: int) -> Case:
    return Case(specs, lambda s, xs: BinaryFunction(s, op, xs[0], xs[1], xs[2], limit=limit),
                lambda pos, known, lo, hi: solve_binary(op, pos, known, lo, hi))


# ------------------------------------------------------------------ binary operations

# the variables whose bounds have integer supports (domains read as intervals), and the
# operations whose bounds all have real supports
BOUNDS_CLAIMS = {"*": (), "exact_div": (), "//": (0, 1, 2), "%": ()}
REAL_CLAIMS = {"*": "*", "exact_div": "exact_div", "//": "", "%": ""}


@pytest.mark.parametrize("op", OPS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_binary_bounds_mode(op, data):
    """Interval reasoning only (limit=0), on bit sets and bounds-only ranges; a product
    whatever the limit (it is never enumerated)."""
    specs = data.draw(binary_case(op))
    limit = data.draw(st.sampled_from([0, 1024])) if op == "*" else 0
    run_checks(binary(op, specs, limit), gac=False, bc=BOUNDS_CLAIMS[op],
               real_bc=REAL_CLAIMS[op])


@pytest.mark.parametrize("op", ("//", "%", "exact_div"))
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_binary_fixed_divisor(op, data):
    """A constant divisor of either sign: x and the result are bounds consistent."""
    specs = data.draw(binary_case(op, fixed_divisor=True))
    run_checks(binary(op, specs, 0), gac=False, bc=(0, 2))


@pytest.mark.parametrize("op", ("exact_div", "//", "%"))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_binary_enumeration_mode(op, data):
    """Small bit sets of a division or a remainder are enumerated: domain consistent,
    failure iff no solution."""
    specs = data.draw(binary_case(op, allow_big=False))
    run_checks(binary(op, specs, 1024), gac=True)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_times_by_a_flag(data):
    """z = b*y with b in {0, 1} (MiniZinc's `open[i]*ships[i,j]`) is filtered by masks,
    whatever the enumeration limit: domain consistent on bit sets (either factor the
    flag), and never loses a solution with a bounds-only y or z."""
    flag = data.draw(st.sampled_from([frozenset({0, 1}), frozenset({0}), frozenset({1})]))
    other = data.draw(arg_spec(True))
    z = data.draw(result_spec(_image_values(lambda a, b: a * b, flag, other), True))
    first = data.draw(st.booleans())
    specs = [flag, other, z] if first else [other, flag, z]
    bitsets = all(isinstance(spec, frozenset) for spec in specs)
    run_checks(binary("*", specs, data.draw(st.sampled_from([0, 1024]))), gac=bitsets)


def unary(k: int, specs, limit: int) -> Case:
    if k == 1:
        def make(s, xs):
            return Abs(s, xs[0], xs[1])  # no limit: masks, whatever the width
    else:
        def make(s, xs):
            return Power(s, xs[0], k, xs[1], limit=limit)
    return Case(specs, make, lambda pos, known, lo, hi: solve_unary(k, pos, known[0], lo, hi))


@st.composite
def unary_case(draw, k: int, allow_big: bool = True):
    x = draw(arg_spec(allow_big))
    f = (lambda a, _: abs(a)) if k == 1 else (lambda a, _: a ** k)
    z = draw(result_spec(_image_values(f, x, frozenset({0})), allow_big))
    return [x, z]


@pytest.mark.parametrize("k", (1, 2, 3, 4, 5))
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_abs_and_power_bounds_mode(k, data):
    """z = |x| (k = 1) and z = x**k by interval reasoning: both bounds consistent."""
    specs = data.draw(unary_case(k))
    run_checks(unary(k, specs, 0), gac=False, bc=(0, 1))


@pytest.mark.parametrize("k", (1, 2, 3))
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_abs_and_power_enumeration_mode(k, data):
    specs = data.draw(unary_case(k, allow_big=False))
    run_checks(unary(k, specs, 1024), gac=True)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), lo=st.integers(-3000, 40), width=st.integers(1, 6000))
def test_abs_by_masks_is_domain_consistent(data, lo, width):
    """z = |x| over bit sets of any width and sign (either side of 0, across it, wider
    than the enumeration limit): exactly the supported values stay."""
    xs = set(data.draw(st.lists(st.integers(lo, lo + width - 1), min_size=1, max_size=60)))
    zs = set(data.draw(st.lists(st.integers(0, max(abs(lo), abs(lo + width))),
                                min_size=1, max_size=60)))
    zs |= set(data.draw(st.sets(st.sampled_from(sorted({abs(a) for a in xs})))))
    s, (x, z) = build([sorted(xs), sorted(zs)])
    x_ok = sorted(a for a in xs if abs(a) in zs)
    if not post(s, lambda s, vs: Abs(s, *vs), [x, z]):
        assert not x_ok
        return
    assert x.values_list() == x_ok
    assert z.values_list() == sorted({abs(a) for a in x_ok})


# ----------------------------------------------------------------- targeted examples


def _bounds(x):
    return x.lo, x.hi


def test_integer_roots_exact():
    for v in [0, 1, 2, 3, 4, 15, 16, 17, 10**12, 10**12 - 1, 10**18 + 1, 27 * 10**27,
              2**200, 2**200 - 1, 3**150 + 7]:
        for k in range(1, 8):
            r = iroot(v, k)
            assert r ** k <= v < (r + 1) ** k
            c = iroot_ceil(v, k)
            assert c ** k >= v and (c == 0 or (c - 1) ** k < v)
    assert root_floor(-27 * 10**27, 3) == -3 * 10**9 == root_ceil(-27 * 10**27, 3)
    assert root_floor(-28, 3) == -4 and root_ceil(-28, 3) == -3
    assert root_floor(-26, 3) == -3 and root_ceil(-26, 3) == -2


def test_quotient_hull_signs():
    assert quotient_hull(10, 20, 2, 5) == (2, 10)
    assert quotient_hull(10, 20, -5, -2) == (-10, -2)
    assert quotient_hull(10, 20, -5, 5) == (-20, 20)
    assert quotient_hull(-7, 7, 2, 2) == (-3, 3)
    with pytest.raises(Inconsistency):
        quotient_hull(1, 2, 0, 0)


def test_times_excludes_zero_from_factors_and_leaves_a_gap():
    s, (x, y, z) = build([range(-10, 11), range(-5, 6), [12]])
    assert post(s, lambda s, xs: BinaryFunction(s, "*", *xs, limit=0), [x, y, z])
    assert not x.contains(0) and not y.contains(0)
    # 12 / y with 1 <= |y| <= 5 gives 3 <= |x| <= 12, then 12 / x gives 2 <= |y| <= 4
    assert x.values_list() == [-6, -5, -4, -3, 3, 4, 5, 6]
    assert y.values_list() == [-4, -3, -2, 2, 3, 4]
    s, (x, y, z) = build([("big", -BIG // 2), [3, 4], [12]])
    assert post(s, lambda s, xs: BinaryFunction(s, "*", *xs), [x, y, z])
    assert _bounds(x) == (3, 4)


def test_times_with_a_fixed_factor_is_linear():
    s, (x, y, z) = build([[7], ("big", -BIG // 2), ("big", 1)])
    assert post(s, lambda s, xs: BinaryFunction(s, "*", *xs), [x, y, z])
    assert _bounds(y) == (1, (1 + BIG) // 7)  # z = 7*y in 1..1+BIG
    assert _bounds(z) == (7, 7 * ((1 + BIG) // 7))


def test_even_power_and_abs_move_bounds_out_of_the_middle():
    s, (x, z) = build([("big", -BIG // 2), [49, 50, 64]])
    assert post(s, lambda s, xs: Power(s, xs[0], 2, xs[1]), [x, z])
    assert _bounds(x) == (-8, 8) and _bounds(z) == (49, 64)
    s.trail.push_level()
    x.set_min(-6)
    s.fix_point()
    assert _bounds(x) == (7, 8)
    s.trail.pop_level()
    s, (x, z) = build([("big", -BIG // 2), [5, 6]])
    assert post(s, lambda s, xs: Abs(s, *xs), [x, z])
    assert _bounds(x) == (-6, 6)
    x.set_max(4)
    s.fix_point()
    assert _bounds(x) == (-6, -5)


def test_even_power_on_a_wide_bit_set_removes_the_middle():
    s, (x, z) = build([range(-2000, 2001), ("big", 100)])
    assert post(s, lambda s, xs: Power(s, xs[0], 2, xs[1]), [x, z])
    top = math.isqrt(100 + BIG)  # 10 <= |x| <= sqrt(z.hi)
    assert x.bits >= 0 and x.size() == 2 * (top - 10 + 1)
    assert not x.contains(9) and x.contains(10) and x.contains(-10)


def test_floor_div_fixed_divisor_both_signs():
    s, (x, y, z) = build([("big", -BIG // 2), [7], [-3, -2]])
    assert post(s, lambda s, xs: BinaryFunction(s, "//", *xs), [x, y, z])
    assert _bounds(x) == (-21, -8)
    s, (x, y, z) = build([("big", -BIG // 2), [-7], [-3, -2]])
    assert post(s, lambda s, xs: BinaryFunction(s, "//", *xs), [x, y, z])
    assert _bounds(x) == (8, 21)  # 8 // -7 == -2, 21 // -7 == -3


def test_mod_fixed_divisor_moves_bounds_to_allowed_remainders():
    s, (x, y, z) = build([("big", 0), [10], [3, 7]])
    assert post(s, lambda s, xs: BinaryFunction(s, "%", *xs), [x, y, z])
    assert _bounds(x) == (3, BIG - (BIG % 10) + (7 if BIG % 10 >= 7 else -3))
    x.set_min(4)
    s.fix_point()
    assert x.lo == 7
    x.set_min(8)
    s.fix_point()
    assert x.lo == 13
    s, (x, y, z) = build([("big", 0), [-10], [-3]])
    assert post(s, lambda s, xs: BinaryFunction(s, "%", *xs), [x, y, z])
    assert x.lo == 7 and x.lo % -10 == -3 and x.hi % -10 == -3


def test_mod_narrow_range_pins_the_remainder():
    s = Solver()
    d = 2**20
    x = s.int_var(3 * d + 5, 3 * d + 5 + BIG)  # within one block of d values
    y = s.int_var(d, d)
    z = s.int_var(-5, BIG)
    assert post(s, lambda s, xs: BinaryFunction(s, "%", *xs), [x, y, z])
    assert _bounds(z) == (5, BIG) and _bounds(x) == (3 * d + 5, 3 * d + BIG)
    s, (x, y, z) = build([range(195, 204), [100], range(0, 100)])
    # wraps: remainders 95..99 and 0..3
    assert post(s, lambda s, xs: BinaryFunction(s, "%", *xs, limit=0), [x, y, z])
    assert z.values_list() == [0, 1, 2, 3, 95, 96, 97, 98, 99]


def test_division_by_zero_has_no_support():
    for op in ("//", "%", "exact_div"):
        s, (x, y, z) = build([("big", 0), [0], ("big", -BIG // 2)])
        assert not post(s, lambda s, xs, op=op: BinaryFunction(s, op, *xs), [x, y, z])
        s, (x, y, z) = build([("big", 0), [-1, 0, 1], ("big", -BIG // 2)])
        assert post(s, lambda s, xs, op=op: BinaryFunction(s, op, *xs), [x, y, z])
        assert not y.contains(0)


def test_exact_div_requires_a_multiple():
    s, (x, y, z) = build([("big", 0), [6], ("big", -3)])
    assert post(s, lambda s, xs: BinaryFunction(s, "exact_div", *xs), [x, y, z])
    assert x.lo % 6 == 0 and x.hi % 6 == 0 and _bounds(z) == (x.lo // 6, x.hi // 6)
    x.set_min(7)
    s.fix_point()
    assert x.lo == 12 and z.lo == 2


# -------------------------------------------------------------- API-level examples


def _solve_all(m: cn.Model, xs) -> tuple[list[tuple], float]:
    start = time.perf_counter()
    sols = sorted(tuple(sol[v] for v in xs) for sol in m.solutions())
    return sols, time.perf_counter() - start


def _check(m, xs, expected, max_nodes):
    sols, elapsed = _solve_all(m, xs)
    assert sols == sorted(expected)
    assert m.stats.complete
    assert m.stats.nodes <= max_nodes, m.stats
    assert elapsed < 2.0  # milliseconds in practice; generous for slow machines


def test_square_of_wide_nonnegative_variable():
    m = cn.Model()
    x = m.int_var(0, 10**6, "x")
    m += x * x == 10**12
    _check(m, [x], [(10**6,)], 2)


def test_square_of_wide_symmetric_variable_has_two_solutions():
    m = cn.Model()
    x = m.int_var(-10**6, 10**6, "x")
    m += x * x == 10**12
    _check(m, [x], [(-10**6,), (10**6,)], 10)


@pytest.mark.parametrize("form", ["x ** 2", "x * x"])
def test_square_equals_10_to_18(form):
    m = cn.Model()
    x = m.int_var(-10**10, 10**10, "x")
    m += (x ** 2 if form == "x ** 2" else x * x) == 10**18
    _check(m, [x], [(-10**9,), (10**9,)], 10)


def test_cube_of_negative_value():
    m = cn.Model()
    x = m.int_var(-10**10, 10**10, "x")
    m += x ** 3 == -27 * 10**27
    _check(m, [x], [(-3 * 10**9,)], 2)


def test_abs_of_very_wide_variable():
    m = cn.Model()
    x = m.int_var(-10**30, 10**30, "x")
    m += abs(x) == 10**18
    _check(m, [x], [(-10**18,), (10**18,)], 10)


def test_product_of_equal_variables():
    m = cn.Model()
    x = m.int_var(0, 10**10, "x")
    y = m.int_var(0, 10**10, "y")
    m += x * y == 10**18
    m += x == y
    _check(m, [x, y], [(10**9, 10**9)], 10)


def test_mod_and_floor_div_by_the_same_constant_pin_x():
    m = cn.Model()
    x = m.int_var(0, 10**12, "x")
    m += x % 2**32 == 0
    m += x // 2**32 == 3
    _check(m, [x], [(3 * 2**32,)], 2)


def test_floor_div_by_constant_gives_the_block_by_bounds():
    m = cn.Model()
    x = m.int_var(0, 10**17, "x")
    m += x // 7 == 10**15
    expected = [(v,) for v in range(7 * 10**15, 7 * 10**15 + 7)]
    _check(m, [x], expected, 2 * len(expected))
    m2 = cn.Model()
    x2 = m2.int_var(0, 10**17, "x")
    m2 += x2 // 7 == 10**15
    first = m2.solve()
    assert first is not None and first[x2] == 7 * 10**15 and m2.stats.nodes <= 2


def test_exact_div_by_small_divisor():
    m = cn.Model()
    x = m.int_var(0, 10**12, "x")
    y = m.int_var(1, 10, "y")
    m += cn.exact_div(x, y) == 10**9
    expected = [(10**9 * d, d) for d in range(1, 11)]
    _check(m, [x, y], expected, 3 * len(expected))


def test_wide_product_with_negative_factor_spanning_zero():
    m = cn.Model()
    x = m.int_var(-10**9, 10**9, "x")
    y = m.int_var(-3, 10**12, "y")
    m += x * y == -2 * 10**9
    m += y <= 3
    expected = [(a, b) for b in (-3, -2, -1, 1, 2, 3) for a in ((-2 * 10**9) // b,)
                if a * b == -2 * 10**9 and -10**9 <= a <= 10**9]
    assert len(expected) == 2
    _check(m, [x, y], expected, 20)


# ------------------------------------------- compiler: merged equalities, shared columns


def test_product_of_a_variable_and_its_offset_view_counts_each_solution_once():
    """x * (x + 2) tabulates two views of one variable: before the table merged them by
    variable, compact-table saw two columns and deactivated itself with a stale row, so
    the search reported x = 2 twice."""
    m = cn.Model()
    x = m.int_var(-1, 2, "x")
    m += x * (x + 2) >= 6
    assert [s[x] for s in m.solutions()] == [2]
    m = cn.Model()
    x = m.int_var(-1, 2, "x")
    y = m.int_var(-2, 4, "y")
    m += y == x + 2
    m += x * y >= 6
    assert [(s[x], s[y]) for s in m.solutions()] == [(2, 4)]


@st.composite
def equality_model(draw):
    """2-5 variables on small ranges, 1-4 equalities x_i == x_j + c written in several
    forms (some contradictory), and a product or a comparison over them."""
    n = draw(st.integers(2, 5))
    doms = [(draw(st.integers(-4, 0)), draw(st.integers(0, 4))) for _ in range(n)]
    eqs = [(draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)), draw(st.integers(-2, 2)),
            draw(st.integers(0, 3))) for _ in range(draw(st.integers(1, 4)))]
    a, b = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
    k = draw(st.integers(-6, 6))
    op = draw(st.sampled_from(["*", "//", "-"]))
    return doms, eqs, (a, b, k, op)


@settings(max_examples=150, deadline=None)
@given(case=equality_model())
def test_merged_equalities_match_brute_force(case):
    """Top-level x == y + c merges the two variables in the compiler: the solutions (each
    once) are those of brute force, whatever the form and order of the equalities."""
    doms, eqs, (a, b, k, op) = case
    m = cn.Model()
    xs = [m.int_var(lo, hi, f"x{i}") for i, (lo, hi) in enumerate(doms)]
    for i, j, c, form in eqs:
        if form == 0:
            m += xs[i] == xs[j] + c
        elif form == 1:
            m += xs[j] + c == xs[i]
        elif form == 2:
            m += (xs[i] == xs[j] + c) & (xs[a] != 9)
        else:
            m += xs[i] - xs[j] == c  # not merged (a two-variable sum): still correct
    f = {"*": lambda u, v: u * v, "//": lambda u, v: u // v if v else None,
         "-": lambda u, v: u - v}[op]
    expr = {"*": xs[a] * xs[b], "//": xs[a] // xs[b], "-": xs[a] - xs[b]}[op]
    m += expr >= k

    def holds(t):
        r = f(t[a], t[b])
        return r is not None and r >= k and all(t[i] == t[j] + c for i, j, c, _ in eqs)

    expected = sorted(t for t in _product([range(lo, hi + 1) for lo, hi in doms]) if holds(t))
    got = [tuple(s[v] for v in xs) for s in m.solutions()]
    assert sorted(got) == expected
    assert len(set(got)) == len(got)


def test_long_chain_of_equalities_compiles_to_one_variable():
    """x0 == x1 + 1, x1 == x2 + 1, ...: merged into one variable, so the product of the
    two ends is the quadratic x*(x - n + 1), settled by square roots without search."""
    n = 500
    m = cn.Model()
    xs = [m.int_var(-10**9, 10**9, f"x{i}") for i in range(n)]
    for i in range(n - 1, 0, -1):
        m += xs[i - 1] == xs[i] + 1
    m += xs[0] * xs[n - 1] == (10**6 + n - 1) * 10**6
    m += xs[n - 1] >= 0
    start = time.perf_counter()
    sol = m.solve()
    assert sol is not None and sol[xs[n - 1]] == 10**6 and sol[xs[0]] == 10**6 + n - 1
    assert m.stats.nodes <= 2 and time.perf_counter() - start < 5


def test_product_of_offset_views_is_solved_by_square_roots():
    """x*(x+1) == 10**12 + 10**6 (a triangular number): the two factors view one variable,
    so the propagator solves the quadratic instead of trading bounds between them."""
    m = cn.Model()
    x = m.int_var(-10**7, 10**7, "x")
    m += x * (x + 1) == 10**12 + 10**6
    _check(m, [x], [(-10**6 - 1,), (10**6,)], 10)


@settings(max_examples=100, deadline=None)
@given(d=st.integers(-5, 5), specs=st.tuples(arg_spec(True), small_dom(-12, 40)),
       limit=st.sampled_from([0, 1024]))
def test_product_of_views_of_one_variable(d, specs, limit):
    """z = x * (x + d) at the engine level, by square roots (whatever the enumeration
    limit: a product is never enumerated), against brute force over x."""
    s, (x, z) = build(list(specs))
    y = x.view(d)
    reps = sorted(base_reps(x) | {v for v in range(-20, 21) if x.contains(v)}
                  if x.bits < 0 else x.values_list())
    sols = sorted((a, a * (a + d)) for a in reps if z.contains(a * (a + d)))
    try:
        s.post(BinaryFunction(s, "*", x, y, z, limit=limit))
        s.fix_point()
    except Inconsistency:
        assert not sols
        return
    for a, c in sols:
        assert x.contains(a) and z.contains(c)
    # bounds(Z): both bounds of x and of z are values of a solution over x's range
    roots = [a for a in range(x.lo, x.hi + 1) if z.lo <= a * (a + d) <= z.hi]
    assert x.lo in roots and x.hi in roots
    if x.bits >= 0:
        values = {a * (a + d) for a in x.values()}
        assert z.lo in values and z.hi in values
