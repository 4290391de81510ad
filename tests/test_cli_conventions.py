"""Command-line conventions: colour on a terminal and never when piped or with NO_COLOR
(no-color.org), --color to override, and shell completion scripts that really complete."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SUDOKU = str(ROOT / "examples" / "sudoku.txt")
ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def environment(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    env["TERM"] = "xterm"
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def in_terminal(args: list[str], env: dict[str, str]) -> str:
    """What the command prints when its standard output and error are a terminal."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "conundrum", *args], stdout=follower,
                            stderr=follower, stdin=subprocess.DEVNULL, env=env, cwd=ROOT)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the terminal closes when the command ends
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode("utf-8").replace("\r\n", "\n")


def piped(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


def test_a_terminal_gets_colour_and_the_same_text():
    plain = piped(["sudoku", "--unique", SUDOKU], environment()).stdout
    shown = in_terminal(["sudoku", "--unique", SUDOKU], environment())
    assert ESCAPE.search(shown), shown
    assert "\x1b[32munique\x1b[0m" in shown  # the verdict in green
    assert "\x1b[2m" in shown  # the grid's lines dimmed
    assert ESCAPE.sub("", shown) == plain


def test_no_color_and_dumb_terminals_get_none():
    for env in (environment(NO_COLOR="1"), environment(TERM="dumb")):
        shown = in_terminal(["sudoku", "--unique", SUDOKU], env)
        assert "unique" in shown and not ESCAPE.search(shown)


def test_pipes_get_none_unless_asked():
    r = piped(["sudoku", SUDOKU], environment())
    assert r.returncode == 0 and not ESCAPE.search(r.stdout)
    r = piped(["sudoku", "--color", "always", SUDOKU], environment(NO_COLOR="1"))
    assert ESCAPE.search(r.stdout)  # a flag outranks the environment (no-color.org)
    shown = in_terminal(["sudoku", "--color", "never", SUDOKU], environment())
    assert not ESCAPE.search(shown)


def test_errors_are_coloured_on_a_terminal_only():
    shown = in_terminal(["sudoku", "no-such-file.txt"], environment())
    assert shown.startswith("\x1b[1;31mconundrum:\x1b[0m no-such-file.txt")
    r = piped(["sudoku", "no-such-file.txt"], environment())
    assert r.returncode == 2 and r.stderr.startswith("conundrum: no-such-file.txt")


# the live progress line on standard error (drawn after 0.2 s, so on a loaded machine
# even a short search shows it) and its erasure: not part of the JSON stream
PROGRESS = re.compile(r"\r\x1b\[K(  [^\r\n]*)?")


def test_the_json_stream_is_never_coloured():
    shown = in_terminal(["queens", "6", "--all", "--json-stream"], environment())
    assert not ESCAPE.search(shown) and len(PROGRESS.sub("", shown).splitlines()) == 5


def test_bash_completion_completes_commands_options_and_choices(tmp_path):
    r = piped(["completion", "bash"], environment())
    assert r.returncode == 0, r.stderr
    script = tmp_path / "conundrum.bash"
    script.write_text(r.stdout, encoding="utf-8")
    probe = f"""
source {script}
complete_line() {{
  COMP_WORDS=("$@"); COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )); COMP_LINE="$*"
  COMP_POINT=${{#COMP_LINE}}; COMPREPLY=(); _shtab_conundrum
  echo "$*: ${{COMPREPLY[*]}}"
}}
complete_line conundrum su
complete_line conundrum sudoku --var-s
complete_line conundrum sudoku --var-select first
complete_line conundrum sudoku examples/sudoku-4
"""
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert done.stdout.splitlines() == [
        "conundrum su: sudoku survo",
        "conundrum sudoku --var-s: --var-select",
        "conundrum sudoku --var-select first: first_fail",
        "conundrum sudoku examples/sudoku-4: examples/sudoku-4x4.txt",
    ], done.stdout + done.stderr


@pytest.mark.parametrize("shell", ["zsh", "tcsh"])
def test_other_shells_get_a_script(shell):
    r = piped(["completion", shell], environment())
    assert r.returncode == 0 and "sudoku" in r.stdout and "--var-select" in r.stdout


def test_completion_of_an_unknown_shell_is_a_usage_error():
    r = piped(["completion", "powershell7"], environment())
    assert r.returncode == 2 and "invalid choice" in r.stderr


def test_only_the_executables_set_the_collector_thresholds() -> None:
    """The command, run as a program, sets the garbage collector's thresholds for the
    process it owns (cli/app.py GC_THRESHOLDS); `main([...])` called from a program leaves
    that program's settings alone."""
    from conundrum.cli.app import GC_THRESHOLDS

    script = ("import gc, sys\n"
              "from conundrum.cli import main\n"
              "before = gc.get_threshold()\n"
              "main(['alphametic', 'SEND + MORE = MONEY'])\n"
              "called = gc.get_threshold()\n"
              "sys.argv = ['conundrum', 'alphametic', 'SEND + MORE = MONEY']\n"
              "main()\n"
              "print(before == called, gc.get_threshold(), file=sys.stderr)\n")
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                       check=True, timeout=120)
    assert p.stderr.strip() == f"True {GC_THRESHOLDS}"
