"""Write one HTML page with the displays a notebook shows (the same markup as
`_repr_svg_` / `_repr_html_`), to look at them all in a browser:

    python examples/notebook_gallery.py gallery.html          # the main displays
    python examples/notebook_gallery.py gallery.html --all    # and every other family

Then open the page, or take a picture of it with headless Chromium:

    chromium --headless --no-sandbox --screenshot=gallery.png --window-size=1400,1800 \\
        file://$PWD/gallery.html
"""

from __future__ import annotations

import argparse
import html
from importlib import import_module
from pathlib import Path

import conundrum as cn
from conundrum.puzzles.alphametic import Source
from conundrum.puzzles.alphametic import parse as alphametic

EXAMPLES = Path(__file__).resolve().parent


def from_file(family: str, name: str):
    """The puzzle of an example file, read by its family's front-end."""
    module = import_module(f"conundrum.puzzles.{family}")
    return module.parse((EXAMPLES / name).read_text(), name)


def figure(title: str, markup: str) -> str:
    style = ("margin: 12px; display: inline-block; vertical-align: top; background: white; "
             "padding: 8px")
    return (f'<figure style="{style}">{markup}<figcaption style="font: 14px sans-serif; '
            f'color: #555">{html.escape(title)}</figcaption></figure>')


def solved(title: str, puzzle) -> str:
    return figure(title, puzzle.display(puzzle.model.solve()).html())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the HTML file to write")
    parser.add_argument("--all", action="store_true", help="every puzzle family")
    args = parser.parse_args()

    sudoku_puzzle = from_file("sudoku", "sudoku.txt")
    send = alphametic([Source("SEND + MORE = MONEY", "argument 1")])
    m = cn.Model()
    x = m.int_matrix(3, 3, 1, 9, "x")
    total = m.int_var(0, 30, "total")
    m += cn.all_different(x)
    m += total == cn.sum(x[0])
    figures = [
        solved("Sudoku, solved (givens in black)", sudoku_puzzle),
        solved("Greater-Than Sudoku", from_file("sudoku", "greater-than-sudoku.txt")),
        solved("Killer Sudoku", from_file("killer", "killer.txt")),
        solved("KenKen", from_file("kenken", "kenken.txt")),
        solved("Skyscrapers", from_file("skyscrapers", "skyscrapers.txt")),
        figure("SEND + MORE = MONEY", send.display().html()),
        solved("SEND + MORE = MONEY, solved", send),
        figure("the Sudoku's Model", sudoku_puzzle.model._repr_html_()),
        figure("a Solution", m.solve()._repr_html_()),
    ]
    if args.all:
        figures += [
            figure("Sudoku, unsolved", sudoku_puzzle.display().html()),
            solved("Futoshiki", from_file("futoshiki", "futoshiki.txt")),
            solved("Kakuro", from_file("kakuro", "kakuro.txt")),
            solved("Nonogram", from_file("nonogram", "nonogram.txt")),
            solved("Takuzu", from_file("takuzu", "takuzu.txt")),
            solved("Star Battle", from_file("starbattle", "starbattle.txt")),
            solved("Hidato", from_file("hidato", "hidato.txt")),
            solved("Numbrix", from_file("numbrix", "numbrix.txt")),
            solved("Survo", from_file("survo", "survo.txt")),
            solved("8 queens", import_module("conundrum.puzzles.queens").parse("8")),
            solved("Magic square", import_module("conundrum.puzzles.magic").parse("4")),
            solved("16x16 Sudoku", from_file("sudoku", "sudoku-16x16.txt")),
            solved("SEND + MORE = MONEY in words",
                   alphametic([Source("SEND + MORE = MONEY, S*E = 45", "argument 1")])),
        ]
    page = ('<!DOCTYPE html><html><head><meta charset="utf-8"><title>conundrum displays'
            '</title></head><body style="background: #f4f4f4">' + "".join(figures)
            + "</body></html>")
    Path(args.out).write_text(page, encoding="utf-8")


if __name__ == "__main__":
    main()
