"""Property tests: all_equal, among, at_most/at_least, inverse, value_precede, nvalue,
bin_packing against brute force (random small domains, every search option through the
harness). The predicates are written here from the constraints' definitions."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

import conundrum as cn
from test_properties_harness import check, doms


@given(data=st.data())
def test_all_equal(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 4), label="n")
    domains = data.draw(doms(n, max_size=4, lo=-2, hi=2), label="domains")
    check(data, domains, "m += cn.all_equal(xs)", lambda t: len(set(t)) == 1)


@given(data=st.data())
def test_among(data: st.DataObject) -> None:
    """x0 counts the others that take a value of the set."""
    n = data.draw(st.integers(2, 4), label="n")
    values = data.draw(st.lists(st.integers(-2, 2), min_size=1, max_size=3), label="values")
    domains = data.draw(doms(n + 1, max_size=4, lo=-2, hi=3), label="domains")
    check(data, domains, f"m += cn.among(x0, xs[1:], {values})",
          lambda t: t[0] == sum(x in values for x in t[1:]))


@given(data=st.data(), k=st.integers(0, 3), v=st.integers(-1, 2))
def test_at_most_and_at_least(data: st.DataObject, k: int, v: int) -> None:
    domains = data.draw(doms(4, max_size=3, lo=-1, hi=2), label="domains")
    check(data, domains, f"m += cn.at_most({k}, xs[:3], {v})\nm += cn.at_least(1, xs, x3)",
          lambda t: sum(x == v for x in t[:3]) <= k and sum(x == t[3] for x in t) >= 1)


@given(data=st.data())
def test_inverse(data: st.DataObject) -> None:
    """f = xs[:n], g = xs[n:], 0-based: f[i] == j exactly when g[j] == i."""
    n = data.draw(st.integers(1, 3), label="n")
    domains = data.draw(doms(2 * n, max_size=4, lo=-1, hi=3), label="domains")

    def pred(t: tuple[int, ...]) -> bool:
        f, g = t[:n], t[n:]
        return (all(0 <= x < n for x in t)
                and all((f[i] == j) == (g[j] == i) for i in range(n) for j in range(n)))

    check(data, domains, f"m += cn.inverse(xs[:{n}], xs[{n}:])", pred)


@given(data=st.data(), s=st.integers(0, 2), t_=st.integers(0, 2))
def test_value_precede(data: st.DataObject, s: int, t_: int) -> None:
    n = data.draw(st.integers(1, 4), label="n")
    domains = data.draw(doms(n, max_size=3, lo=0, hi=2), label="domains")

    def pred(t: tuple[int, ...]) -> bool:
        if s == t_ or t_ not in t:
            return True
        return s in t[:t.index(t_)]

    check(data, domains, f"m += cn.value_precede({s}, {t_}, xs)", pred)


@given(data=st.data())
def test_nvalue(data: st.DataObject) -> None:
    """x0 is the number of distinct values among the others."""
    n = data.draw(st.integers(1, 4), label="n")
    domains = data.draw(doms(n + 1, max_size=3, lo=0, hi=3), label="domains")
    check(data, domains, "m += cn.nvalue(x0, xs[1:])", lambda t: t[0] == len(set(t[1:])))


@given(data=st.data())
def test_bin_packing(data: st.DataObject) -> None:
    """Loads x0, x1 of two bins; items x2.. with the given sizes go into bin 0 or 1."""
    items = data.draw(st.integers(1, 3), label="items")
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=items, max_size=items),
                      label="sizes")
    domains = data.draw(doms(2 + items, max_size=4, lo=-1, hi=4), label="domains")

    def pred(t: tuple[int, ...]) -> bool:
        loads, bins = t[:2], t[2:]
        return (all(0 <= b < 2 for b in bins)
                and all(loads[k] == sum(w for w, b in zip(sizes, bins) if b == k)
                        for k in range(2)))

    check(data, domains, f"m += cn.bin_packing(xs[:2], xs[2:], {sizes})", pred)


@pytest.mark.parametrize("search", [{}, {"search": "learning"},
                                    {"var_select": "first_fail", "restarts": "luby"}])
@given(data=st.data())
def test_bin_packing_more_items_than_bins(search: dict, data: st.DataObject) -> None:
    """Three bins of capacity `cap`, five or six items of sizes 1..4, each item's bins a
    random subset: the solutions are the brute-force ones under each search (the
    propagator lists an item's bins again only when they changed since its last call, so
    its sums must follow every backtrack and backjump)."""
    items = data.draw(st.integers(5, 6), label="items")
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=items, max_size=items),
                      label="sizes")
    allowed = data.draw(st.lists(st.lists(st.integers(0, 2), min_size=1, max_size=3,
                                          unique=True), min_size=items, max_size=items),
                        label="bins")
    cap = data.draw(st.integers(3, 9), label="cap")
    m = cn.Model()
    loads = [m.int_var(0, cap) for _ in range(3)]
    bins = [m.int_var(sorted(a)) for a in allowed]
    m += cn.bin_packing(loads, bins, sizes)
    got = sorted(tuple(s[b] for b in bins) for s in m.solutions(**search))
    want = sorted(t for t in itertools.product(*(sorted(a) for a in allowed))
                  if all(sum(w for w, b in zip(sizes, t) if b == k) <= cap
                         for k in range(3)))
    assert got == want


@given(data=st.data())
def test_bin_packing_three_bins_and_reified(data: st.DataObject) -> None:
    """Three bins (the propagator), and x0 >= 1 exactly when two items pack into two bins
    with loads x1, x2 (the decomposition)."""
    sizes = data.draw(st.lists(st.integers(0, 3), min_size=3, max_size=3), label="sizes")
    domains = data.draw(doms(6, max_size=4, lo=-1, hi=5), label="domains")

    def packs(loads: tuple[int, ...], bins: tuple[int, ...], ws: list[int]) -> bool:
        return (all(0 <= b < len(loads) for b in bins)
                and all(loads[k] == sum(w for w, b in zip(ws, bins) if b == k)
                        for k in range(len(loads))))

    check(data, domains, f"m += cn.bin_packing(xs[:3], xs[3:], {sizes})",
          lambda t: packs(t[:3], t[3:], sizes))
    check(data, domains, f"m += (x0 >= 1) == cn.bin_packing(xs[1:3], xs[3:5], {sizes[:2]})",
          lambda t: (t[0] >= 1) == packs(t[1:3], t[3:5], sizes[:2]))


def test_mistakes_are_model_errors() -> None:
    m = cn.Model()
    xs = m.int_vars(3, 0, 2, "x")
    wide = m.int_var(0, 10**9, "w")
    for make in (lambda: cn.inverse(xs, xs[:2]), lambda: cn.among(1, xs, [1.5]),
                 lambda: cn.value_precede(0, "1", xs), lambda: cn.nvalue(1, [wide]),
                 lambda: cn.bin_packing(xs[:2], xs, [1, 2]),
                 lambda: cn.bin_packing(xs[:2], xs, [1, 2, -1])):
        with pytest.raises(cn.ModelError):
            make()


def _accepts(transitions: dict, start: int, accepting: set, word: tuple[int, ...]) -> bool:
    q = start
    for v in word:
        if (q, v) not in transitions:
            return False
        q = transitions[(q, v)]
    return q in accepting


@given(data=st.data())
def test_regular_random_automaton(data: st.DataObject) -> None:
    """A random deterministic automaton over 3 states and values -1..2, posted directly and
    reified (`b == regular(...)`, through its table of words)."""
    n = data.draw(st.integers(1, 4), label="n")
    keys = [(q, v) for q in range(3) for v in range(-1, 3)]
    chosen = data.draw(st.lists(st.sampled_from(keys), unique=True, max_size=len(keys)),
                       label="keys")
    transitions = {k: data.draw(st.integers(0, 2), label=f"to{k}") for k in chosen}
    accepting = set(data.draw(st.lists(st.integers(0, 2), max_size=3), label="accepting"))
    domains = data.draw(doms(n + 1, max_size=4, lo=-1, hi=2), label="domains")
    src = (f"m += cn.regular(xs[1:], {transitions!r}, 0, {sorted(accepting)})")
    check(data, domains, src, lambda t: _accepts(transitions, 0, accepting, t[1:]))
    src = (f"m += (x0 >= 1) == cn.regular(xs[1:], {transitions!r}, 0, {sorted(accepting)})")
    check(data, domains, src,
          lambda t: (t[0] >= 1) == _accepts(transitions, 0, accepting, t[1:]))


@pytest.mark.parametrize("clues", [[], [1], [3], [2, 1], [1, 1, 1], [3, 1, 2], [7]])
def test_pattern_automaton_is_a_nonogram_line(clues: list[int]) -> None:
    """Every 0/1 line of length 7 is accepted exactly when its runs of 1s are the clues."""
    import itertools
    import re

    transitions, start, accepting = cn.pattern_automaton(clues)
    m = cn.Model()
    xs = m.int_vars(7, 0, 1, "x")
    m += cn.regular(xs, transitions, start, accepting)
    found = {tuple(s[x] for x in xs) for s in m.solutions()}
    expected = {t for t in itertools.product((0, 1), repeat=7)
                if [len(r) for r in re.findall("1+", "".join(map(str, t)))] == clues}
    assert found == expected and m.stats.complete


def test_regular_mistakes() -> None:
    m = cn.Model()
    xs = m.int_vars(3, 0, 1, "x")
    for make in (lambda: cn.regular(xs, [(0, 1, 1), (0, 1, 2)], 0, [1]),
                 lambda: cn.regular(xs, [(0, 1)], 0, [1]),
                 lambda: cn.regular(xs, {(0, "a"): 1}, 0, [1]),
                 lambda: cn.regular(xs, {(0, 1): 1}, "s", [1]),
                 lambda: cn.pattern_automaton([0])):
        with pytest.raises(cn.ModelError):
            make()
