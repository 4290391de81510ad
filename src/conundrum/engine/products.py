"""Integer products that stay on the compiled build's fast path.

mypyc multiplies two machine integers inline only when both are non-negative and below
2**30; any negative factor takes a slow path that boxes both as Python integers, multiplies
them as objects and unboxes the result (a third of golf_puzzle's search went there: the
corner products of factors in -10..10). `times` moves the signs out of the product, so a
product of small integers of any signs is one machine multiplication. The pure-Python
build computes the same value.
"""

from __future__ import annotations


def times(a: int, b: int) -> int:
    """a * b, multiplied as two non-negative integers."""
    if a >= 0:
        return a * b if b >= 0 else -(a * -b)
    return -(-a * b) if b >= 0 else -a * -b
