"""The puzzle families the page offers: what each reads (the command line's input format),
its sample puzzle (a copy of one of examples/, shipped as package data), and the largest
puzzle the page takes of it."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

MAX_BODY = 64 * 1024  # bytes of one request's body; more is refused (HTTP 413)
MAX_TEXT = MAX_BODY  # characters of one puzzle
MAX_CELLS = 625  # cells of a grid the page draws and solves (a 25x25 Sudoku); more: 413
MAX_N = {"queens": 60, "magic": 12}  # N of the families read as a number
MAX_EQUATION_LINES = 50  # equations of one alphametic


@dataclass(frozen=True)
class Family:
    """One puzzle family of the page: its command name, what it is, how its input reads
    ("grid": a puzzle file's text, "n": a board size, "equations": one or more a line),
    and the file of its sample under static/samples/."""

    name: str
    title: str
    reads: str
    sample: str


FAMILIES = (
    Family("sudoku", "Sudoku (4x4 to 25x25; one line or a grid)", "grid", "sudoku.txt"),
    Family("futoshiki", "Futoshiki (< > between neighbours, ^ v below)", "grid",
           "futoshiki.txt"),
    Family("killer", "Killer Sudoku (cage map, then LABEL=SUM)", "grid", "killer-4x4.txt"),
    Family("kenken", "KenKen (cage map, then LABEL=TARGET OP)", "grid", "kenken.txt"),
    Family("skyscrapers", "Skyscrapers (clues around the grid)", "grid", "skyscrapers.txt"),
    Family("kakuro", "Kakuro (D\\R clues on blocks)", "grid", "kakuro.txt"),
    Family("nonogram", "Nonogram (row clues, blank line, column clues)", "grid",
           "nonogram.txt"),
    Family("takuzu", "Takuzu / Binairo (0s and 1s)", "grid", "takuzu.txt"),
    Family("starbattle", "Star Battle (region map)", "grid", "starbattle.txt"),
    Family("hidato", "Hidato (consecutive numbers, diagonals too; X a hole)", "grid",
           "hidato.txt"),
    Family("numbrix", "Numbrix (consecutive numbers side by side)", "grid", "numbrix.txt"),
    Family("survo", "Survo (row sums at the right, column sums below)", "grid", "survo.txt"),
    Family("alphametic", "Alphametic (equations, one or more a line)", "equations",
           "alphametic.txt"),
    Family("queens", "N-queens (the board size N)", "n", "queens.txt"),
    Family("magic", "Magic square (the order N)", "n", "magic.txt"),
)
BY_NAME = {f.name: f for f in FAMILIES}


def sample_text(family: Family) -> str:
    """The family's sample puzzle, read from the package (never from a path a request
    names)."""
    return (resources.files(__package__) / "static" / "samples" / family.sample).read_text(
        encoding="utf-8")


def catalogue() -> list[dict[str, object]]:
    """What the page lists: each family's name, title, input kind, sample, and the sizes
    and grades it can generate (empty when it cannot)."""
    from conundrum.puzzles.generate import DEFAULT_SIZE, DIFFICULTIES, SIZES

    return [{"name": f.name, "title": f.title, "reads": f.reads, "sample": sample_text(f),
             "sizes": list(SIZES.get(f.name, ())), "size": DEFAULT_SIZE.get(f.name),
             "grades": list(DIFFICULTIES) if f.name in SIZES else []} for f in FAMILIES]
