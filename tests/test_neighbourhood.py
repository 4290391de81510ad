"""m.fix and m.relax (model/neighbourhood.py): variables held at values for the runs of a
`with` block, and nothing of it left behind."""

from __future__ import annotations

import itertools

import pytest

import conundrum as cn


def knapsack():
    m = cn.Model()
    weight = [12, 2, 1, 1, 4, 7, 3, 9]
    value = [4, 2, 1, 2, 10, 8, 3, 9]
    take = m.int_vars(8, 0, 1, "t")
    m.add(cn.sum(w * t for w, t in zip(weight, take, strict=True)) <= 15, label="weight")
    return m, take, weight, value, cn.sum(v * t for v, t in zip(value, take, strict=True))


def brute(weight, value, held):
    """The best value with the variables of `held` (position -> value) fixed."""
    return max(sum(v * t for v, t in zip(value, p, strict=True))
               for p in itertools.product((0, 1), repeat=len(weight))
               if sum(w * t for w, t in zip(weight, p, strict=True)) <= 15
               and all(p[k] == x for k, x in held.items()))


def test_relax_searches_a_neighbourhood_of_a_solution():
    m, take, weight, value, total = knapsack()
    first = m.solve()
    before = [id(c) for c in m.constraints]
    free = [take[1], take[4], take[6]]
    with m.relax(first, free=free):
        better = m.maximize(total)
    held = {k: first[t] for k, t in enumerate(take) if k not in (1, 4, 6)}
    assert better.value(total) == brute(weight, value, held)
    assert all(better[take[k]] == x for k, x in held.items())
    assert [id(c) for c in m.constraints] == before and m.labels == {0: "weight"}
    assert m.maximize(total).value(total) == brute(weight, value, {})


def test_fix_holds_only_what_keep_names_and_survives_an_error():
    m, take, weight, value, total = knapsack()
    with m.fix({take[0]: 1, take[4]: 0}, keep=[take[0]]):
        assert m.maximize(total).value(total) == brute(weight, value, {0: 1})
    with pytest.raises(RuntimeError), m.fix({take[0]: 1}):
        raise RuntimeError("inside the block")
    assert len(m.constraints) == 1
    with m.fix({take[0]: 1}) as held:
        m.add(take[1] == 0, label="mine")  # added inside the block: it stays
        with pytest.raises(cn.ModelError, match="already in force"):
            held.__enter__()
    assert m.labels == {0: "weight", 1: "mine"} and len(m.constraints) == 2


def test_errors():
    m, take, *_ = knapsack()
    other = cn.Model().int_var(0, 1, "o")
    with pytest.raises(cn.ModelError, match="fix: .* is not a variable of this model"):
        m.fix({other: 1})
    with pytest.raises(cn.ModelError, match="must be an integer"):
        m.fix({take[0]: 0.5})
    with pytest.raises(cn.ModelError, match="no value given"):
        m.fix({take[0]: 1}, keep=[take[1]])
    with pytest.raises(cn.ModelError, match="relax: free"):
        m.relax({take[0]: 1}, free=[other])
