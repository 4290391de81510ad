"""Search: branching heuristics, depth-first search with an explicit stack, limits,
statistics, and branch and bound."""

from conundrum.search.dfs import SearchOptions, search
from conundrum.search.stats import SearchStats

__all__ = ["SearchOptions", "SearchStats", "search"]
