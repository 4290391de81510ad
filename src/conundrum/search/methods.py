"""Search methods as objects: cn.lds(3) is the same as the string "lds:3"."""

from __future__ import annotations


class Method:
    """A search method with its parameter."""

    __slots__ = ("kind", "n")

    def __init__(self, kind: str, n: int) -> None:
        self.kind = kind
        self.n = n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Method) and (self.kind, self.n) == (other.kind, other.n)

    def __hash__(self) -> int:
        return hash((self.kind, self.n))

    def __str__(self) -> str:
        return f"{self.kind}:{self.n}"

    def __repr__(self) -> str:
        return f"{self.kind}:{self.n}"


def lds(n: int) -> Method:
    """Limited discrepancy search with at most n discrepancies."""
    return Method("lds", n)


def bbs(n: int) -> Method:
    """Bounded backtrack search: stop after n failures."""
    return Method("bbs", n)
