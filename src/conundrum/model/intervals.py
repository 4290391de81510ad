"""Model.interval: make an interval variable (lang/interval.py) and tie its parts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conundrum.lang.errors import ModelError
from conundrum.lang.expr import Var
from conundrum.lang.globals import implies
from conundrum.lang.interval import Interval

if TYPE_CHECKING:
    from conundrum.model.model import Model

def _range(value: object, what: str) -> tuple[int, int] | Var:
    """A (lo, hi) range or an existing variable, from an int, a pair or a Var."""
    if isinstance(value, Var):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, value)
    if isinstance(value, tuple) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        lo, hi = value
        if lo > hi:
            raise ModelError(f"interval {what}: the range {lo}..{hi} is empty")
        return (lo, hi)
    raise ModelError(f"interval {what} must be an int, a (lo, hi) pair or a variable, "
                     f"not {value!r}")


def _bounds(x: tuple[int, int] | Var) -> tuple[int, int]:
    return x if isinstance(x, tuple) else (x.lo, x.hi)


def new_interval(model: Model, start: object, size: object, end: object,
                 optional: bool, name: str | None) -> Interval:
    """The interval of Model.interval (see there), its parts added to the model."""
    if name is not None and not isinstance(name, str):
        raise ModelError(f"an interval name must be a string, not {name!r}")
    label = name or ""
    s = _range(start, "start")
    if size is None:
        raise ModelError("interval: give its size (an int, a (lo, hi) pair or a variable)")
    d = _range(size, "size")
    if isinstance(d, tuple) and d[0] < 0:
        raise ModelError(f"interval {label!r}: its size cannot be negative ({d[0]})")
    if end is None:
        (s_lo, s_hi), (d_lo, d_hi) = _bounds(s), _bounds(d)
        e: tuple[int, int] | Var = (s_lo + max(d_lo, 0), s_hi + d_hi)
    else:
        e = _range(end, "end")

    def part(x: tuple[int, int] | Var, suffix: str) -> Var:
        if isinstance(x, Var):
            return x
        return model.int_var(x[0], x[1], f"{label}.{suffix}" if label else None)

    start_var, end_var = part(s, "start"), part(e, "end")
    # a fixed size stays a constant: the resources then see it as a plain duration
    size_val: Var | int = d[0] if isinstance(d, tuple) and d[0] == d[1] else part(d, "size")
    present: Var | int = model.bool_var(f"{label}.present" if label else None) \
        if optional else 1
    iv = Interval(start_var, size_val, end_var, present, label)
    tie = start_var + size_val == end_var
    if isinstance(present, int):
        model.add(tie)
        if isinstance(size_val, Var):
            model.add(size_val >= 0)
    else:
        model.add(implies(present, tie))
        if isinstance(size_val, Var):
            model.add(implies(present, size_val >= 0))
    return iv
