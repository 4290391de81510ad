"""Engine variables (engine/var.py) against a plain model of their domain: random updates,
nested levels and undo. The update methods keep derived fields by arithmetic rather than
recounting (a bound change counts only the values it removes, a saved state omits `hi`),
so after every step the fields are checked against the set they stand for, and after
every undo against the state saved before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.engine import Inconsistency, Solver
from conundrum.engine.bits import lost, offsets, periodic_mask, reversed_bits, window
from conundrum.engine.var import BITSET_LIMIT, IntVar

OFFSET = 3  # a view x + OFFSET must follow every change of x
WIDE = BITSET_LIMIT + 10  # a range this long is kept as bounds only

op = st.one_of(
    st.tuples(st.just("set_min"), st.integers(-2, 40)),
    st.tuples(st.just("set_max"), st.integers(-2, 40)),
    st.tuples(st.just("set_bounds"), st.integers(-2, 40), st.integers(-2, 40)),
    st.tuples(st.just("remove"), st.integers(-2, 40)),
    st.tuples(st.just("assign"), st.integers(-2, 40)),
    st.tuples(st.just("keep_mask"), st.integers(-3, 20), st.integers(0, 2**40)),
    st.tuples(st.just("remove_mask"), st.integers(-3, 20), st.integers(0, 2**40)),
    st.tuples(st.just("push")),
    st.tuples(st.just("pop")),
)


def expected(values: set[int], bounded: bool, step: tuple) -> set[int]:
    """The domain after `step`, by the documented meaning of each update."""
    kind = step[0]
    lo, hi = min(values), max(values)
    if kind == "set_min":
        return {v for v in values if v >= step[1]}
    if kind == "set_max":
        return {v for v in values if v <= step[1]}
    if kind == "set_bounds":
        return {v for v in values if step[1] <= v <= step[2]}
    if kind == "assign":
        return {step[1]} & values
    if kind == "remove":
        v = step[1]
        if bounded and lo < v < hi:
            return values  # an interior value of a bounds-only domain stays
        return values - {v}
    base, mask = step[1], step[2]
    chosen = {base + i for i in range(mask.bit_length()) if mask >> i & 1}
    if kind == "keep_mask":
        if bounded:
            return {v for v in values if min(chosen, default=hi + 1) <= v
                    <= max(chosen, default=lo - 1)}
        return values & chosen
    return values if bounded else values - chosen  # remove_mask


def state(x: IntVar) -> tuple[int, int, int, int]:
    return (x.lo, x.hi, x.bits, x.card)


def check(x: IntVar, values: set[int], bounded: bool) -> None:
    lo, hi = min(values), max(values)
    assert (x.lo, x.hi) == (lo, hi)
    assert x.card == len(values)
    if bounded:
        assert x.bits == -1 and values == set(range(lo, hi + 1))
    else:
        assert x.bits == sum(1 << (v - lo) for v in values)
    view = x.view(OFFSET)
    assert (view.lo, view.hi, view.bits, view.card) == (lo + OFFSET, hi + OFFSET, x.bits,
                                                        x.card)


@settings(max_examples=400, deadline=None)
@given(initial=st.sets(st.integers(0, 30), min_size=1, max_size=31),
       steps=st.lists(op, max_size=30))
def test_bit_set_domains_follow_their_values(initial: set[int], steps: list) -> None:
    run(initial, False, steps)


@settings(max_examples=200, deadline=None)
@given(start=st.integers(-5, 5), steps=st.lists(op, max_size=30))
def test_bounds_only_domains_follow_their_values(start: int, steps: list) -> None:
    run(set(range(start, start + WIDE)), True, steps)


def run(initial: set[int], bounded: bool, steps: list) -> None:
    s = Solver()
    if bounded:
        x = s.int_var(min(initial), max(initial))
    else:
        x = s.int_var_values(initial)
    x.view(OFFSET)
    trail = s.trail
    # one frame per open level: the domain and the engine state when it was opened
    frames: list[tuple[set[int], tuple[int, int, int, int]]] = []
    values = set(initial)
    trail.push_level()
    frames.append((values, state(x)))
    for step in steps:
        if step[0] == "push":
            trail.push_level()
            frames.append((values, state(x)))
            continue
        if step[0] == "pop":
            if len(frames) > 1:
                trail.pop_level()
                values, saved = frames.pop()
                assert state(x) == saved
                check(x, values, bounded)
            continue
        after = expected(values, bounded, step)
        try:
            getattr(x, step[0])(*step[1:])
        except Inconsistency:
            assert not after, (step, values)
            # a failed update changed nothing that the level's undo does not restore
            trail.restart_level()
            values = frames[-1][0]
            assert state(x) == frames[-1][1]
            continue
        assert after, (step, values)
        values = after
        check(x, values, bounded)
    while len(frames) > 1:
        trail.pop_level()
        values, saved = frames.pop()
        assert state(x) == saved


def _domain(draw_values: set[int], bounds_only: bool) -> tuple[int, int, int]:
    lo, hi = min(draw_values), max(draw_values)
    if bounds_only:
        return lo, hi, -1
    return lo, hi, sum(1 << (v - lo) for v in draw_values)


def _members(d: tuple[int, int, int]) -> set[int]:
    lo, hi, bits = d
    return {v for v in range(lo, hi + 1) if bits < 0 or (bits >> (v - lo)) & 1}


# wide sets (past bits.WIDE) take the bit scan's other path
spread = st.sampled_from([40, 6000])


@settings(max_examples=300, deadline=None)
@given(data=st.data(), top=spread, bounds_only=st.booleans())
def test_lost_lists_what_a_narrower_domain_dropped(data, top: int, bounds_only: bool) -> None:
    """bits.lost (what the journal's explanations list as holes) against plain sets: the
    values of a..b in the first domain and not in the second, for a domain and any
    subset of it, including windows that stick out on either side."""
    before_values = data.draw(st.sets(st.integers(0, top), min_size=1, max_size=60))
    before = _domain(before_values, bounds_only)
    members = _members(before)
    after_values = data.draw(st.sets(st.sampled_from(sorted(members)), min_size=1,
                                     max_size=60))
    after = _domain(after_values, data.draw(st.booleans()) and bounds_only)
    a = data.draw(st.integers(-3, top + 3))
    b = data.draw(st.integers(-3, top + 3))
    expected = sorted(v for v in range(a, b + 1)
                      if v in members and v not in _members(after))
    assert list(lost(a, b, before, after)) == expected
    assert sorted(o + a for o in offsets(window(a, b, *before))) == \
        sorted(v for v in members if a <= v <= b)


@given(st.integers(0, 80), st.integers(1, 30), st.integers(0, 2000))
def test_periodic_mask_sets_every_step_th_bit(first: int, step: int, width: int) -> None:
    """bits.periodic_mask: first, first + step, ... below width, and nothing else."""
    expected = 0
    for i in range(first, width, step):
        expected |= 1 << i
    assert periodic_mask(first, step, width) == expected


@given(st.one_of(st.integers(0, 2**70), st.integers(0, 2**5000),
                 st.lists(st.integers(0, 9000), max_size=6).map(
                     lambda ps: sum(1 << p for p in set(ps)))))
def test_offsets_lists_the_set_bits_at_every_width(bits: int) -> None:
    """offsets has three paths (a word, a word at a time up to 4,096 bits, the binary
    text beyond): each lists exactly the set bits, in increasing order."""
    assert offsets(bits) == [i for i in range(bits.bit_length()) if bits >> i & 1]


@given(st.data(), st.integers(1, 3000))
def test_reversed_bits_mirrors_the_width_low_bits(data, width: int) -> None:
    """bits.reversed_bits: bit i of the result is bit width-1-i of the input, at every
    width (whole bytes or not) and with the top bits zero or set."""
    bits = data.draw(st.one_of(st.integers(0, 2**width - 1), st.just(2**width - 1),
                               st.just(1 << (width - 1)), st.just(0)))
    expected = sum(1 << (width - 1 - i) for i in range(width) if bits >> i & 1)
    assert reversed_bits(bits, width) == expected


@given(st.integers(-70, 70), st.integers(0, 2**130))
def test_values_list_is_the_domain(lo: int, bits: int) -> None:
    """A view's values_list (read without a generator) lists exactly its domain."""
    s = Solver()
    x = s.int_var(lo, lo + 130)
    try:
        x.keep_mask(lo, bits)
    except Inconsistency:
        return
    assert x.values_list() == [v for v in range(lo, lo + 131) if x.contains(v)]
    assert x.values_list() == list(x.values())
