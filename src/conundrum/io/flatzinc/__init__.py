"""FlatZinc front end: conundrum as a MiniZinc solver.

lexer.py and parser.py read the text into the items of items.py (errors.py holds their
errors), builtins.py maps each FlatZinc constraint onto a model constraint, build.py makes
the Model (with its output items and search phases), output.py formats in the FlatZinc
output format (`conundrum fzn` itself, which prints, is conundrum.cli.fzn), config.py the
MiniZinc solver configuration;
mznlib/ holds the redefinitions that pass MiniZinc's globals through to conundrum's own
propagators.
"""
