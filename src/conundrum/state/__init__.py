"""Reversible state: the trail that undoes changes on backtracking. Knows nothing of constraints."""

from conundrum.state.trail import Reversible, RevInt, Trail

__all__ = ["RevInt", "Reversible", "Trail"]
