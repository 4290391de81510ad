"""Mistakes a type checker catches before the model runs: `mypy --strict` must flag each
line marked `# E: <code>` with that error code, and no other line (tests/test_typing.py)."""

import conundrum as cn

m = cn.Model()
x, y = m.int_vars("x y", 0, 9)
m.solve(var_select="first-fail")  # E: arg-type
m.solve(value_select="smallest")  # E: arg-type
m.solve(timelimit=3)  # E: call-arg
m.count(method=3)  # E: arg-type
m += x + 0.5 == y  # E: operator
m += cn.all_different([x, y], strength="gac")  # E: arg-type
m += cn.implies(x, 3)  # E: arg-type
m += x ** y  # E: operator
m.solve()[x]  # E: index
sol = m.solve()
assert sol is not None
value: str = sol[x]  # E: assignment
