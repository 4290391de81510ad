"""The compiler from the language (`conundrum.lang`) to the engine, one pass per module:
normalise (merging variables equal up to an offset), linearise (expressions to rational
linear forms, linear.py, with auxiliary variables, auxiliary.py, and small tables,
tabulate.py), reify (relations and their truth values) and post (constraints to
propagators, globals by a table). compile.py is the entry point; compiled.py the result,
ready to search."""
