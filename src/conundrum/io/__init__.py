"""Textual formats that are not puzzles: FlatZinc, so that conundrum is a MiniZinc solver."""
