"""Linear programming for the relaxation's bound: a simplex over floats whose answers are
only ever used as weights that the caller checks exactly (compiler/relaxation.py)."""
