"""A corpus of models solved under many search options; run as a script it prints, as JSON,
every solution and the search statistics of each run. tests/test_engine_builds.py runs it
under the compiled engine and under the pure-Python reference and compares the two outputs:
same solutions, same order, same nodes, fails and propagations (the same search tree)."""

from __future__ import annotations

import json
import sys

import conundrum as cn


def queens(n: int, strength: str) -> tuple[cn.Model, list]:
    m = cn.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m += cn.all_different(q, strength=strength)
    m += cn.all_different([q[i] + i for i in range(n)], strength=strength)
    m += cn.all_different([q[i] - i for i in range(n)], strength=strength)
    return m, q


def magic3() -> tuple[cn.Model, list]:
    m = cn.Model()
    g = m.int_matrix(3, 3, 1, 9, "x")
    m += cn.all_different(g.flat)
    m += [cn.sum(r) == 15 for r in g.rows] + [cn.sum(c) == 15 for c in g.columns]
    m += cn.sum(g[i][i] for i in range(3)) == 15
    m += cn.sum(g[i][2 - i] for i in range(3)) == 15
    return m, g.flat


def snake(integral: bool) -> tuple[cn.Model, list]:
    m = cn.Model()
    a, b, c, d, e, f, g, h, i = xs = m.int_vars("A B C D E F G H I", 1, 9)
    m += cn.all_different(xs)
    eq = a + 13 * b / c + d + 12 * e - f - 11 + g * h / i - 10 == 66
    m += cn.integral(eq) if integral else eq
    return m, xs


def send_more() -> tuple[cn.Model, list]:
    m = cn.Model()
    s, e, n, d, mo, o, r, y = xs = m.int_vars("S E N D M O R Y", 0, 9)
    m += cn.all_different(xs)
    m += [s != 0, mo != 0]
    m += (1000 * s + 100 * e + 10 * n + d) + (1000 * mo + 100 * o + 10 * r + e) \
        == 10000 * mo + 1000 * o + 100 * n + 10 * e + y
    return m, xs


def mixed() -> tuple[cn.Model, list]:
    """Non-linear, reified and global pieces together."""
    m = cn.Model()
    x, y, z = xs = m.int_vars("x y z", -4, 6)
    b = m.bool_var("b")
    m += b == (x * y > z)
    m += (x // 2 + y % 3 != z) | (abs(x - y) == 2)
    m += cn.element([3, -1, 4, 1, 5], cn.max(x, 0) % 5) <= y
    m += cn.count([x, y, z], 0) <= 1
    return m, [*xs, b]


def golomb(n: int) -> tuple[cn.Model, list, object]:
    m = cn.Model()
    x = m.int_vars(n, 0, n * n, "m")
    m += x[0] == 0
    m += cn.increasing(x, strict=True)
    m += cn.all_different([x[j] - x[i] for i in range(n) for j in range(i + 1, n)])
    m += x[1] - x[0] < x[n - 1] - x[n - 2]
    return m, x, x[-1]


OPTIONS = [
    {},
    {"var_select": "input_order"},
    {"var_select": "dom_wdeg"},
    {"var_select": "most_constrained", "value_select": "max"},
    {"var_select": "anti_first_fail", "value_select": "split"},
    {"var_select": "max_regret", "value_select": "median"},
    {"var_select": "occurrence", "value_select": "random", "seed": 3},
    {"method": "lds:2"},
    {"method": "bbs:30"},
]


def run(label: str, model: cn.Model, xs: list, opts: dict) -> dict:
    sols = [[s[x] for x in xs] for s in model.solutions(**opts)]
    st = model.stats
    return {"model": label, "options": opts, "solutions": sols, "nodes": st.nodes,
            "fails": st.fails, "propagations": st.propagations, "complete": st.complete}


def main() -> None:
    out = []
    builders = {
        "queens6-domain": lambda: queens(6, "domain"),
        "queens7-bounds": lambda: queens(7, "bounds"),
        "queens7-value": lambda: queens(7, "value"),
        "magic3": magic3,
        "snake-rational": lambda: snake(False),
        "snake-integral": lambda: snake(True),
        "send-more": send_more,
        "mixed": mixed,
    }
    for label, build in builders.items():
        for opts in OPTIONS:
            model, xs = build()
            out.append(run(label, model, xs, opts))
    for opts in ({}, {"var_select": "dom_wdeg"}):
        model, xs, obj = golomb(6)
        best = model.minimize(obj, **opts)
        st = model.stats
        out.append({"model": "golomb6", "options": opts, "solutions": [[best[x] for x in xs]],
                    "nodes": st.nodes, "fails": st.fails, "propagations": st.propagations})
    json.dump({"compiled": cn.COMPILED, "runs": out}, sys.stdout)


if __name__ == "__main__":
    main()
