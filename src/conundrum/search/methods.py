"""Search methods as objects: cn.lds(3) is the same as the string "lds:3"."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Method:
    """A search method with its parameter."""

    kind: str
    n: int

    def __str__(self) -> str:
        return f"{self.kind}:{self.n}"


def lds(n: int) -> Method:
    """Limited discrepancy search with at most n discrepancies."""
    return Method("lds", n)


def bbs(n: int) -> Method:
    """Bounded backtrack search: stop after n failures."""
    return Method("bbs", n)
