"""MiniZinc export: a Model as a MiniZinc model of the same solutions (`to_minizinc`).

terms.py holds the translated expressions and the exact arithmetic between them; nodes.py
the text of each expression node and globals.py of each global constraint, in tables by
node class; export.py the walk and the model around it (declarations, definedness
conditions, solve and output items).
"""

from conundrum.io.minizinc.export import to_minizinc

__all__ = ["to_minizinc"]
