"""Bad input never crashes: each malformed input gets a one-line message naming the place
(plus, for equations, the input with a ``^`` under the column) and exit status 2.

The table runs in-process through ``conundrum.cli.main`` (fast); a sample also runs through
the real ``conundrum`` command in a subprocess.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conundrum.cli import main
from conundrum.puzzles.base import PuzzleError

SUDOKU_10 = "\n".join(["1234567890"] * 10)
SUDOKU_TWICE = "5..5.....\n" + "\n".join(["........."] * 8)
GT_TAIL = ".>.<.\n^ v ^\n.<.>.<\n"
FILES = {
    "sudoku10": SUDOKU_10,
    "twice": SUDOKU_TWICE,
    "range4": "1 . . .\n. 7 . .\n. . . .\n. . . .\n",
    "short_row": "\n".join(["........."] * 4 + [".........."] + ["........."] * 4),
    "line80": "." * 80,
    "empty": "",
    "bad_char": "\n".join(["....x...."] + ["........."] * 8),
    "rel_tail": GT_TAIL,
    "rel_dangling": ".<.\n ^\n.>.\n",
    "rel_false": "3<1.\n...\n...\n",
    "rel_two_rows": ".<.\n^ v\nv ^\n.>.\n",
    "rel_first": "^ v\n.<.\n.>.\n",
    "fut1": ".\n",
    "nul": "1 2\n\x00 1\n",
    "killer_no_rule": "aab\nacb\nddb\n\na=3 b=6 c=2\n",
    "killer_unknown": "aa\nbb\n\na=3 b=7 z=1\n",
    "killer_target": "aa\nbb\n\na=three b=7\n",
    "killer_size": "aabbc\naabbc\nddeec\nddeec\nfffff\n\na=1 b=2 c=3 d=4 e=5 f=6\n",
    "killer_twice": "ab\nba\n\na=3 a=4 b=3\n",
    "kenken_minus3": "aab\nacb\ncca\n\na=1- b=3+ c=6*\n",
    "kenken_noop": "aab\nccb\nddd\n\na=3 b=5+ c=4+ d=6+\n",
    "kenken_big": "\n".join(["a" * 13] * 13) + "\n\na=91+\n",
    "kenken_op": "ab\nba\n\na=3^ b=3+\n",
    "sky_clue": "  9 . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n  . . . .\n",
    "sky_lines": "  . .\n. . . .\n",
    "sky_row": "  . . . .\n. . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n  . . . .\n",
    "signed": "\n".join(["-5 3 . . 7 . . . ."] + [". . . . . . . . ."] * 8),
    # a row too few or too many: blamed where the grid ends, not on line 1
    "rows8": "\n".join(["........."] * 8),
    "rows10": "\n".join(["........."] * 10),
    "numeric15": "\n".join([" ".join(["."] * 15 + ["16"])] * 15),
    "killer_rows2": "aab\nacb\n\na=3 b=6 c=2\n",
    "takuzu_row": "0.1.\n..1\n.0..\n1...\n",
    "hidato_row": "1 . .\n. .\n. . 9\n",
    "star_rows3": "ab\nba\nab\n",
    "kakuro_row": "X 3\\ 4\\\n\\7 . .\n\\3 .\n",
    "sky_huge": "  " + "9" * 5000 + " . . .\n" + ". . . . . .\n" * 4 + "  . . . .\n",
}
HUGE = "9" * 5000
BINARY = bytes(range(256)) * 4

# (argv, a piece of the message that names the place)
CASES = [
    (["alphametic", "SEND + (MORE = MONEY"], "column 14"),
    (["alphametic", "SEND + MORE) = MONEY"], "column 12"),
    (["alphametic", "(SEND + MORE) = (MONEY"], "column 17"),
    (["alphametic", "SEND ^ MORE = MONEY"], "column 6"),
    (["alphametic", "SEND + MORE => MONEY"], "column 13"),
    (["alphametic", "SEND + MORE <> MONEY"], "column 13"),
    (["alphametic", ""], "argument 1"),
    (["alphametic", "   "], "argument 1"),
    (["alphametic", "A + B"], "column 6"),
    (["alphametic", "A + = B"], "column 5"),
    (["alphametic", "A = B = C"], "column 7"),
    (["alphametic", "A + B = C,,D = E"], "column 11"),
    (["alphametic", "ABCDEFGHIJK = A"], "column 1"),
    (["alphametic", "ABCDEF + GHIJK = LM"], "13 different letters"),
    (["alphametic", "A ** B = C"], "column 6"),
    (["alphametic", "A ** 1000 = B"], "column 6"),
    (["alphametic", "A @ B = C"], "column 3"),
    (["alphametic", "AB 12 = C"], "column 4"),
    (["alphametic", "A = 1" + "9" * 200], "column 5"),
    (["alphametic", "A" * 100 + " = B"], "column 1"),
    (["alphametic", "(" * 200 + "A" + ")" * 200 + " = B"], "column 101"),
    (["alphametic", "A ＝ B"], "column 3"),
    (["alphametic", "A = B ٣"], "column 7"),
    (["alphametic", "A / = B"], "column 5"),
    (["alphametic", "SEND + MORE = MONEY", "A +"], "argument 2"),
    (["alphametic", "--base", "40", "A = B"], "--base"),
    (["alphametic", "--base", "x", "A = B"], "--base"),
    (["alphametic", "--digits", "9-1", "A = B"], "--digits"),
    (["alphametic", "--digits", "x", "A = B"], "--digits"),
    (["alphametic", "--digits", "0-10", "A = B"], "--digits"),
    (["alphametic", "--fix", "Q=5", "A + B = C"], "--fix"),
    (["alphametic", "--fix", "A=x", "A + B = C"], "--fix"),
    (["alphametic", "--fix", "A=12", "A + B = C"], "--fix"),
    (["alphametic", "-f", "{missing}"], "no such file"),
    (["alphametic", "-f", "{binary}"], "not a text file"),
    (["alphametic"], "no equation"),
    (["sudoku", "{sudoku10}"], "10x10"),
    (["sudoku", "{twice}"], "line 1, column 4"),
    (["sudoku", "{range4}"], "line 2, column 3"),
    (["sudoku", "{short_row}"], "line 5"),
    (["sudoku", "{line80}"], "line 1"),
    (["sudoku", "{empty}"], "empty"),
    (["sudoku", "{bad_char}"], "line 1, column 5"),
    (["sudoku", "{rel_tail}"], "line 3, column 6"),
    (["sudoku", "{rel_dangling}"], "line 2, column 2"),
    (["sudoku", "{missing}"], "no such file"),
    (["sudoku", "{binary}"], "not a text file"),
    (["sudoku", "{dir}"], "directory"),
    (["futoshiki", "{rel_false}"], "line 1, column 2"),
    (["futoshiki", "{rel_two_rows}"], "line 3"),
    (["futoshiki", "{rel_first}"], "line 1"),
    (["futoshiki", "{fut1}"], "2 to 35"),
    (["futoshiki", "{nul}"], "line 2, column 1"),
    (["killer", "{killer_no_rule}"], "line 3, column 1"),
    (["killer", "{killer_unknown}"], "line 4, column 9"),
    (["killer", "{killer_target}"], "line 4, column 1"),
    (["killer", "{killer_size}"], "has 5"),
    (["killer", "{killer_twice}"], "line 4, column 5"),
    (["kenken", "{kenken_minus3}"], "line 5, column 1"),
    (["kenken", "{kenken_noop}"], "line 5, column 1"),
    (["kenken", "{kenken_big}"], "13"),
    (["kenken", "{kenken_op}"], "line 4, column 1"),
    (["skyscrapers", "{sky_clue}"], "line 1, column 3"),
    (["skyscrapers", "{sky_lines}"], "2 lines"),
    (["skyscrapers", "{sky_row}"], "line 2"),
    (["queens", "0"], "between 1"),
    (["queens", "1000000000"], "between 1"),
    (["queens", "abc"], "whole number"),
    (["queens", "-3"], "between 1"),
    (["magic", "100"], "between 1"),
    (["magic", "3.5"], "whole number"),
    (["queens", "8", "--bogus"], "--bogus"),
    (["queens", "8", "--limit", "0"], "--limit"),
    (["queens", "8", "--time-limit", "-1"], "--time-limit"),
    (["queens", "8", "--method", "fast"], "--method"),
    (["queens", "8", "--var-select", "nope"], "--var-select"),
    (["queens", "8", "--all", "--count"], "--count"),
    (["sodoku", "x.txt"], "sodoku"),
    (["sudoku", "{signed}"], "line 1, column 1"),  # a sign is not dropped: -5 is no clue
    (["skyscrapers", "{sky_huge}"], "line 1, column 3"),
    (["queens", HUGE], "whole number"),
    (["queens", "8", "--limit", HUGE], "--limit"),
    (["queens", "8", "--seed", HUGE], "--seed"),
    (["sudoku", "{rows8}"], "line 8:"),
    (["sudoku", "{rows10}"], "line 10:"),
    (["sudoku", "{numeric15}"], "line 15:"),
    (["futoshiki", "{rows8}"], "line 8:"),
    (["killer", "{killer_rows2}"], "line 2:"),
    (["takuzu", "{takuzu_row}"], "line 2:"),
    (["hidato", "{hidato_row}"], "line 2:"),
    (["starbattle", "{star_rows3}"], "line 3:"),
    (["kakuro", "{kakuro_row}"], "line 3:"),
]


@pytest.fixture
def paths(tmp_path):
    out = {"missing": str(tmp_path / "no-such-file.txt"), "dir": str(tmp_path)}
    for name, text in FILES.items():
        p = tmp_path / f"{name}.txt"
        p.write_text(text, encoding="utf-8")
        out[name] = str(p)
    p = tmp_path / "binary.bin"
    p.write_bytes(BINARY)
    out["binary"] = str(p)
    return out


def test_the_table_is_large_enough():
    assert len(CASES) >= 40
    assert len({tuple(argv) for argv, _ in CASES}) == len(CASES)


@pytest.mark.parametrize(("argv", "place"), CASES, ids=[" ".join(a)[:40] for a, _ in CASES])
def test_malformed_input(argv, place, paths, capsys):
    argv = [a.format(**paths) if a.startswith("{") else a for a in argv]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2, (out, err)
    assert out == ""
    lines = err.rstrip("\n").split("\n")
    assert lines[0].startswith("conundrum"), err
    assert place in lines[0], err
    assert "Traceback" not in err and "internal error" not in err, err
    assert len(lines[0]) < 300, "a long value is shortened, not echoed whole"
    assert len(lines) == 1 or (len(lines) == 3 and lines[2].strip() == "^"), err


SUBPROCESS_SAMPLE = [0, 3, 13, 34, 36, 37, 42, 47, 53, 66]


@pytest.mark.parametrize("k", SUBPROCESS_SAMPLE)
def test_malformed_input_real_command(k, paths):
    argv, place = CASES[k]
    argv = [a.format(**paths) if a.startswith("{") else a for a in argv]
    exe = shutil.which("conundrum")
    cmd = [exe] if exe else [sys.executable, "-m", "conundrum"]
    r = subprocess.run(cmd + argv, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert place in r.stderr.splitlines()[0]
    assert "Traceback" not in r.stderr and r.stdout == ""


ALPHABET = list("ABCDE0129+-*/:%()=<>!#$ ,;^") + ["**", "//", "×", "÷", "−", "Я", "\t"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(ALPHABET), max_size=16).map("".join))
def test_any_equation_text_parses_or_gives_a_placed_error(text):
    import conundrum as cn
    from conundrum.puzzles import alphametic as al

    try:
        al.parse([al.Source(text, "argument 1")], al.Options())
    except PuzzleError as exc:
        assert exc.column is not None or "letters" in exc.message or "equation" in exc.message
    except cn.ModelError:
        pass


GRID_CHARS = list(".123456789AZ<>^v|- \n\n\n#=+*/0ab\t")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(GRID_CHARS), max_size=60).map("".join),
       st.sampled_from(["sudoku", "futoshiki", "killer", "kenken", "skyscrapers"]))
def test_any_grid_text_parses_or_gives_a_placed_error(text, command):
    from importlib import import_module

    module = import_module(f"conundrum.puzzles.{command}")
    try:
        module.parse(text, "f.txt")
    except PuzzleError as exc:
        assert exc.source == "f.txt"
