"""Search: branching heuristics, depth-first search with an explicit stack, limits,
statistics, and branch and bound. (Submodules are imported where used, so that
`import conundrum` stays light.)"""
