"""Which corpus FlatZinc files the compiler's presolve rules change (issue 41): a clique of
three or more top-level disequalities (compiler/cliques.py), or a tabulated subexpression
over two variables that a top-level all_different or != keeps apart (compiler/distinct.py).
Those are the entries an A/B of the rules needs to run (bench/CORPUS-cliques.md).

    python bench/tools/corpus_presolve.py [CACHE]

CACHE: the folder of FlatZinc files bench/corpus_ab.py compiles (default
/tmp/conundrum-corpus-fzn). Prints one line an affected file: its entry name, the rules.
"""

from __future__ import annotations

import sys
from pathlib import Path

from conundrum.compiler.cliques import with_cliques
from conundrum.compiler.distinct import DistinctPairs
from conundrum.compiler.tabulate import is_nonlinear_root
from conundrum.io.flatzinc.build import read
from conundrum.lang.expr import Expr, Var, postorder


def tables_over_pairs(constraints: list[Expr], pairs: DistinctPairs) -> bool:
    """Whether a non-linear subtree names two variables or more, one kept apart from
    another variable (an over-approximation of a table losing rows)."""
    for c in constraints:
        for node in postorder(c):
            if is_nonlinear_root(node):
                found = {n.index for n in postorder(node) if isinstance(n, Var)}
                if len(found) > 1 and any(i in pairs.groups for i in found):
                    return True
    return False


def main() -> None:
    cache = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/conundrum-corpus-fzn")
    for path in sorted(cache.glob("*.fzn")):
        constraints = read(path.read_text()).model.constraints
        rules = []
        posted = with_cliques(constraints)
        if len(posted) != len(constraints) or any(a is not b
                                                  for a, b in zip(posted, constraints)):
            rules.append("cliques")
        if tables_over_pairs(constraints, DistinctPairs(constraints)):
            rules.append("tables")
        if rules:
            print(path.stem.replace("__", "/"), " ".join(rules), flush=True)


if __name__ == "__main__":
    main()
