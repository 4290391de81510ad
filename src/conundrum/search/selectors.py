"""Variable and value selection heuristics (names as in ECLiPSe's search/6).

A variable selector scans the branching variables and returns the unfixed one to branch on,
or None when all are fixed; ties go to the earliest variable, so a run is deterministic. A
value selector gives the branching alternatives for one variable, as (kind, value)
decisions applied in order: (EQ, v) then (NE, v) for value choices, (LE, v) / (GT, v) for
domain splits.

first_fail, most_constrained and dom_wdeg are plain loops (a selector runs at every node),
the other keyed selectors one loop over an integer key (INT_KEYS); under restarts, where
ties are broken at random, they go through their key functions (_KEYS).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable
from typing import Final, Literal, Protocol, get_args

from conundrum.engine import IntVar
from conundrum.engine.var import BITSET_LIMIT
from conundrum.propagators.rel import hole_partners

# The heuristics' names, as Literal types for type checkers and as tuples for run-time
# checks and the command line (one list each: the tuples are read off the types).
VarSelect = Literal["input_order", "first_fail", "anti_first_fail", "smallest", "largest",
                    "occurrence", "most_constrained", "max_regret", "dom_wdeg"]
ValueSelect = Literal["auto", "min", "max", "middle", "median", "split", "reverse_split",
                      "random"]
VAR_SELECTS: Final[tuple[str, ...]] = get_args(VarSelect)
# variable selections only the learning search has (search/activity.py)
LEARNING_VAR_SELECTS: Final[tuple[str, ...]] = ("activity",)
VALUE_SELECTS: Final[tuple[str, ...]] = get_args(ValueSelect)

# decision kinds
EQ: Final = 0
NE: Final = 1
LE: Final = 2
GT: Final = 3

Decision = tuple[int, int]


class Alternatives(Protocol):
    """A branching's decisions in the order they are tried: a tuple, or `Outward`."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int) -> Decision: ...


class Outward:
    """The branching `x = m | x != m`, re-branched on x with the same median rule, as
    MiniZinc's indomain_median (and ECLiPSe's indomain middle) mean it and Gecode searches
    it, on a bounds-only domain, which cannot hold the hole that `x != m` makes: the
    alternatives x = v for v the lower median of x's values not yet tried, one at a time.
    Without a change of x's bounds that walks outwards from m (m, m - 1, m + 1, ...); a
    bound that moves between alternatives (the objective's, after a solution: the search
    calls `narrow` before each one) moves the median with it, as in Gecode's tree. Values
    are made as they are tried: a domain may span 10**18 values."""

    def __init__(self, x: IntVar, first: int) -> None:
        self.x = x
        self.lo = x.lo
        self.hi = x.hi
        self.tried: list[int] = [first]  # in the order tried
        self.ordered: list[int] = [first]  # the same, sorted

    def __len__(self) -> int:
        """The alternatives tried and those left within the bounds last seen."""
        ordered = self.ordered
        inside = bisect_right(ordered, self.hi) - bisect_left(ordered, self.lo)
        return len(self.tried) + self.hi - self.lo + 1 - inside

    def __getitem__(self, i: int) -> Decision:
        tried = self.tried
        if i == len(tried) and i < len(self):
            self._extend()
        if i >= len(tried):
            raise IndexError(i)
        return (EQ, tried[i])

    def partition(self) -> tuple[Decision, ...]:
        """The same subtrees in three: x = m, x < m, x > m (to split the search into
        subproblems, which need a fixed list)."""
        m = self.tried[0]
        return ((EQ, m), (LE, m - 1), (GT, m))

    def narrow(self) -> bool:
        """Read x's bounds at the branching's node (its own, or narrowed by a bound applied
        there since): whether a value is left to try."""
        x = self.x
        self.lo = max(self.lo, x.lo)
        self.hi = min(self.hi, x.hi)
        return len(self) > len(self.tried)

    def _extend(self) -> None:
        ordered = self.ordered
        lo = self.lo
        first = bisect_left(ordered, lo)  # the tried values within the bounds
        end = bisect_right(ordered, self.hi)
        rank = (self.hi - lo - (end - first)) // 2  # the lower median's among the untried
        # the untried value of that rank is lo + rank + the tried values below it: the
        # first tried value with more than rank untried values below it ends those
        a, b = first, end
        while a < b:
            mid = (a + b) // 2
            if ordered[mid] - lo - (mid - first) > rank:
                b = mid
            else:
                a = mid + 1
        v = lo + rank + a - first
        self.tried.append(v)
        insort(ordered, v)


def apply_decision(x: IntVar, kind: int, v: int) -> None:
    """Make decision (kind, v) on x (raises Inconsistency when it empties the domain)."""
    if kind == EQ:
        x.assign(v)
    elif kind == NE:
        x.remove(v)
    elif kind == LE:
        x.set_max(v)
    else:  # GT
        x.set_min(v + 1)
VarChooser = Callable[[list[IntVar]], "IntVar | None"]
ValueChooser = Callable[[IntVar], Alternatives]


def _size(x: IntVar) -> int:
    return x.card


def _regret(x: IntVar) -> int:
    nxt = x.next_value(x.lo)
    return 0 if nxt is None else nxt - x.lo


def input_order(xs: list[IntVar]) -> IntVar | None:
    """The first unfixed variable."""
    for x in xs:
        if x.lo != x.hi:
            return x
    return None


def first_fail(xs: list[IntVar]) -> IntVar | None:
    """The first unfixed variable with the smallest domain (2 values is the least there is,
    so the first one of size 2 ends the scan)."""
    best = None
    best_size = 0
    for x in xs:
        if x.lo != x.hi:
            size = x.card
            if best is None or size < best_size:
                if size == 2:
                    return x
                best = x
                best_size = size
    return best


def most_constrained(xs: list[IntVar]) -> IntVar | None:
    """The first unfixed variable with the smallest domain, of those the one in the most
    active constraints. A degree is counted only where sizes tie (a key tuple (size,
    -degree) per variable per node was 17% of fair_split's search)."""
    best = None
    best_size = 0
    best_degree = -1  # -1: not counted yet
    for x in xs:
        if x.lo != x.hi:
            size = x.card
            if best is None or size < best_size:
                best, best_size, best_degree = x, size, -1
            elif size == best_size:
                if best_degree < 0:
                    best_degree = best.degree()
                degree = x.degree()
                if degree > best_degree:
                    best, best_degree = x, degree
    return best


def dom_wdeg(xs: list[IntVar]) -> IntVar | None:
    """The first unfixed variable with the smallest size / weighted degree (compared by
    cross-multiplication, so exactly)."""
    best = None
    best_size = best_weight = 0
    for x in xs:
        if x.lo != x.hi:
            size = _size(x)
            weight = x.weighted_degree() or 1
            if best is None or size * best_weight < best_size * weight:
                best, best_size, best_weight = x, size, weight
    return best


# the selectors of an integer key (smallest key first), by a code read inline, so that no
# key is a Python object (a key function through `Callable` returned a boxed key compared
# generically: 4% of trucking's search under `smallest`); _KEYS calls the same for the
# restarts' random ties
ANTI_FIRST_FAIL: Final = 0
SMALLEST: Final = 1
LARGEST: Final = 2
OCCURRENCE: Final = 3
MAX_REGRET: Final = 4
INT_KEYS: Final[dict[str, int]] = {"anti_first_fail": ANTI_FIRST_FAIL, "smallest": SMALLEST,
                                   "largest": LARGEST, "occurrence": OCCURRENCE,
                                   "max_regret": MAX_REGRET}


def _int_key(x: IntVar, kind: int) -> int:
    """The key of x for the INT_KEYS selector `kind`."""
    if kind == SMALLEST:
        return x.lo
    if kind == LARGEST:
        return -x.hi
    if kind == ANTI_FIRST_FAIL:
        return -x.card
    if kind == OCCURRENCE:
        return -x.degree()
    return -_regret(x)


def _int_keyed(kind: int) -> VarChooser:
    def select(xs: list[IntVar]) -> IntVar | None:
        best = None
        best_key = 0
        for x in xs:
            if x.lo != x.hi:
                k = _int_key(x, kind)
                if best is None or k < best_key:
                    best, best_key = x, k
        return best
    return select


MASK32: Final = 0xFFFFFFFF


class Random32:
    """Marsaglia's xorshift32: a small random stream that is the same in the compiled and
    the pure-Python engine (masked ints, no floats), so that both search the same tree."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = (seed * 2654435761 + 12345) & MASK32 or 1  # never 0 (a fixed point)

    def below(self, n: int) -> int:
        """A number in 0..n-1."""
        x = self.state
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        self.state = x
        return x % n


def _keyed_random(key: Callable[[IntVar], object], rng: Random32) -> VarChooser:
    """The smallest key first, as _int_keyed does, with ties broken at random (each tied
    variable equally likely: the k-th tie seen replaces the choice with probability 1/k)."""
    def select(xs: list[IntVar]) -> IntVar | None:
        best = None
        best_key: object = None
        ties = 0
        for x in xs:
            if x.lo != x.hi:
                k = key(x)
                if best is None or k < best_key:  # type: ignore[operator]
                    best, best_key, ties = x, k, 1
                elif k == best_key:
                    ties += 1
                    if rng.below(ties) == 0:
                        best = x
        return best
    return select


def _dom_wdeg_random(rng: Random32) -> VarChooser:
    """dom_wdeg with ties broken at random (as _keyed_random; exact ratios, as dom_wdeg)."""
    def select(xs: list[IntVar]) -> IntVar | None:
        best = None
        best_size = best_weight = 0
        ties = 0
        for x in xs:
            if x.lo != x.hi:
                size = _size(x)
                weight = x.weighted_degree() or 1
                if best is None or size * best_weight < best_size * weight:
                    best, best_size, best_weight, ties = x, size, weight, 1
                elif size * best_weight == best_size * weight:
                    ties += 1
                    if rng.below(ties) == 0:
                        best = x
        return best
    return select


def make_var_select(name: str, rng: Random32 | None = None) -> VarChooser:
    """The selector function for a var_select name. With `rng`, ties between equally good
    variables are broken at random instead of by their order (the search does so under
    restarts, so that each restart can make different first choices); input_order has no
    ties."""
    if name == "input_order":
        return input_order
    if name not in _KEYS and name != "dom_wdeg":
        raise ValueError(name)
    if rng is not None:
        if name == "dom_wdeg":
            return _dom_wdeg_random(rng)
        return _keyed_random(_KEYS[name], rng)
    if name == "first_fail":
        return first_fail
    if name == "dom_wdeg":
        return dom_wdeg
    if name == "most_constrained":
        return most_constrained
    return _int_keyed(INT_KEYS[name])


def _most_constrained_key(x: IntVar) -> object:
    return (_size(x), -x.degree())


# the selectors written through a key function (smallest key first)
_KEYS: Final[dict[str, Callable[[IntVar], object]]] = {
    "first_fail": _size,
    "anti_first_fail": lambda x: _int_key(x, ANTI_FIRST_FAIL),
    "smallest": lambda x: _int_key(x, SMALLEST),
    "largest": lambda x: _int_key(x, LARGEST),
    "occurrence": lambda x: _int_key(x, OCCURRENCE),
    "most_constrained": _most_constrained_key,
    "max_regret": lambda x: _int_key(x, MAX_REGRET),
}


def _middle_value(x: IntVar) -> int:
    """The value nearest the middle of the bounds, the smaller on a tie (ECLiPSe
    indomain_middle)."""
    if x.bits < 0:
        return (x.lo + x.hi) // 2
    mid2 = x.lo + x.hi  # twice the middle, to stay in integers
    return min(x.values(), key=lambda v: (abs(2 * v - mid2), v))


def _median_value(x: IntVar) -> int:
    if x.bits < 0:
        return (x.lo + x.hi) // 2
    values = x.values_list()
    return values[(len(values) - 1) // 2]


def _interval(x: IntVar) -> bool:
    """Whether a bounds-only domain is all of its bounds: no propagator watching it, or a
    variable that x == y + c ties it to, makes holes, and no such variable has one. (A
    value list of 0, 10**12 and -10**12, too wide for a bit set, keeps values out that the
    bounds do not show, from its own variable and from y = x + 1: trying the bounds'
    values one at a time would walk 10**12 of them.)"""
    seen = {id(x)}
    todo = [x]
    while todo:
        v = todo.pop()
        if v.bits >= 0 and v.card != v.hi - v.lo + 1:
            return False
        for waker in v.wake_fix:  # (a nogood makes no hole in such a domain)
            if waker.prop.makes_holes and waker.prop.is_constraint:
                return False
        for w in hole_partners(v):
            if id(w) not in seen:
                seen.add(id(w))
                todo.append(w)
    return True


def bounded(x: IntVar, decisions: Alternatives) -> Alternatives:
    """The decisions as x's domain can take them: a bounds-only domain cannot drop an
    interior value, so x = v | x != v there is x = v | x < v | x > v."""
    kind, v = decisions[0]
    if kind == EQ and x.bits < 0 and x.lo < v < x.hi and len(decisions) == 2:
        return ((EQ, v), (LE, v - 1), (GT, v))
    return decisions


def min_value(x: IntVar) -> tuple[Decision, ...]:
    """x = lo, else x != lo."""
    return ((EQ, x.lo), (NE, x.lo))


def split_value(x: IntVar) -> tuple[Decision, ...]:
    """The lower half of the bounds first, then the upper one."""
    mid = (x.lo + x.hi) // 2
    return ((LE, mid), (GT, mid))


def auto_value(x: IntVar) -> tuple[Decision, ...]:
    """The default: `min`, except while a domain spans more than BITSET_LIMIT values (so
    it is kept as bounds only, engine/var.py): there `split`, lower half first. Trying the
    values of 0..10**18 one at a time never ends, while halving reaches any value in 60
    levels; on a narrower range trying values costs fewer nodes than halving (golomb-9:
    29,908 nodes against 60,124 when its bounds-only marks of 0..81 were split). Both visit
    values in ascending order."""
    if x.bits < 0 and x.hi - x.lo >= BITSET_LIMIT:
        return split_value(x)
    return min_value(x)


def hinted(hints: dict[int, int], fallback: ValueChooser) -> ValueChooser:
    """A value selector that tries a variable's hint first (Model.hint; `hints` maps
    engine variable indices to values) while its domain still holds it, else
    `fallback`'s choice."""
    def choose(x: IntVar) -> Alternatives:
        v = hints.get(x.index)
        if v is not None and x.contains(v):
            return ((EQ, v), (NE, v))
        return fallback(x)
    return choose


def make_value_select(name: str, seed: int = 0) -> ValueChooser:
    """The alternatives function for a value_select name: x -> decisions."""
    if name == "auto":
        return auto_value
    if name == "min":
        return min_value
    if name == "max":
        return lambda x: ((EQ, x.hi), (NE, x.hi))
    if name == "middle":
        def middle(x: IntVar) -> Alternatives:
            v = _middle_value(x)
            if x.bits < 0 and x.lo < v and _interval(x):
                return Outward(x, v)
            return ((EQ, v), (NE, v))
        return middle
    if name == "median":
        def median(x: IntVar) -> Alternatives:
            v = _median_value(x)
            if x.bits < 0 and x.lo < v and _interval(x):
                return Outward(x, v)
            return ((EQ, v), (NE, v))
        return median
    if name == "split":
        return split_value
    if name == "reverse_split":
        return lambda x: ((GT, (x.lo + x.hi) // 2), (LE, (x.lo + x.hi) // 2))
    if name == "random":
        import random  # only this heuristic needs it; keeps `import conundrum` light

        rng = random.Random(seed)

        def pick(x: IntVar) -> tuple[Decision, ...]:
            if x.bits < 0:
                v = rng.randint(x.lo, x.hi)
                if not x.contains(v):
                    v = x.lo
            else:
                values = x.values_list()
                v = values[rng.randrange(len(values))]
            return ((EQ, v), (NE, v))
        return pick
    raise ValueError(name)
