"""`conundrum serve` at the HTTP level (urllib): the page and its files, each action
answering as the command line does for the same puzzle, and hostile requests (too large,
malformed, too slow, too many at once, a foreign Host) answered clearly while the server
goes on serving. Every server here listens on 127.0.0.1, on a port the system picks."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from conundrum.serve.families import FAMILIES, MAX_BODY
from conundrum.serve.pool import Settings
from conundrum.serve.server import PuzzleServer, make_server

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SUDOKU_4 = (EXAMPLES / "sudoku-4x4.txt").read_text()
SLOW = {"family": "sudoku", "size": 16, "difficulty": "fiendish", "seed": 1}  # minutes


def running(settings: Settings) -> Iterator[PuzzleServer]:
    server = make_server("127.0.0.1", 0, settings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.fixture(scope="module")
def server() -> Iterator[PuzzleServer]:
    yield from running(Settings(workers=2, queue=4, time_limit=60))


@pytest.fixture(scope="module")
def strict() -> Iterator[PuzzleServer]:
    """One worker, one place in the queue, a second of work per request."""
    yield from running(Settings(workers=1, queue=1, time_limit=1.0))


def post(server: PuzzleServer, action: str, body: object, raw: bytes | None = None,
         timeout: float = 120) -> tuple[int, dict]:
    data = raw if raw is not None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + "api/" + action, data=data,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def cli(*args: str) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                       text=True, timeout=300, cwd=ROOT)
    return [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{")]


def still_serving(server: PuzzleServer) -> None:
    status, answer = post(server, "draw", {"family": "sudoku", "text": SUDOKU_4})
    assert status == 200 and answer["picture"]["kind"] == "svg"


# ---------------------------------------------------------------------------- the page

def test_the_page_and_its_files_are_served_with_a_strict_policy(server):
    with urllib.request.urlopen(server.url, timeout=30) as r:
        page = r.read().decode()
        policy = r.headers["Content-Security-Policy"]
    assert '<script src="/app.js"' in page and "http" not in page.replace(
        'http-equiv', '')  # nothing loaded from elsewhere
    assert "default-src 'self'" in policy
    for name, kind in (("app.js", "javascript"), ("style.css", "css")):
        with urllib.request.urlopen(server.url + name, timeout=30) as r:
            assert kind in r.headers["Content-Type"]
            assert b"http://" not in r.read().replace(b"http://www.w3.org/2000/svg", b"")


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/static/app.js", "/%2e%2e/README.md",
                                  "/samples/sudoku.txt", "/api/solve"])
def test_no_other_path_is_served(server, path):
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    conn.request("GET", path)
    r = conn.getresponse()
    assert r.status == 404 and "not found" in json.load(r)["error"]


def test_the_families_and_their_samples_are_the_examples(server):
    with urllib.request.urlopen(server.url + "api/families", timeout=30) as r:
        families = {f["name"]: f for f in json.load(r)["families"]}
    assert list(families) == [f.name for f in FAMILIES]
    for family in FAMILIES:
        example = EXAMPLES / family.sample
        if example.exists():
            assert families[family.name]["sample"] == example.read_text(), family.name
    assert families["sudoku"]["grades"] == ["easy", "medium", "hard", "fiendish"]
    assert families["hidato"]["sizes"] == []


# ---------------------------------------------------------- answers as the CLI gives them

def test_solve_gives_the_command_lines_solution(server):
    status, answer = post(server, "solve", {"family": "sudoku", "text": SUDOKU_4})
    assert status == 200 and answer["found"]
    (expected,) = cli("sudoku", "examples/sudoku-4x4.txt", "--json")
    assert answer["solution"] == expected
    assert answer["picture"]["markup"].startswith("<svg")


def test_explain_gives_the_command_lines_steps(server):
    status, answer = post(server, "explain", {"family": "sudoku", "text": SUDOKU_4})
    assert status == 200 and answer["unique"]
    lines = cli("sudoku", "examples/sudoku-4x4.txt", "--explain", "--json-stream")
    steps = [line for line in lines if "step" in line]
    assert len(answer["steps"]) == len(steps) > 0
    for mine, theirs in zip(answer["steps"], steps):
        assert {k: mine[k] for k in theirs} == theirs
        assert set(mine["cells"]) == {f["variable"] for f in theirs["derived"]}
        assert mine["shows"] == {f["variable"]: str(f["value"]) for f in theirs["derived"]
                                 if f["equal"]}
    first = answer["steps"][0]
    assert first["units"] == ["r1c1", "r1c2", "r1c3", "r1c4"]  # row 1


def test_a_clash_names_the_command_lines_clues_and_their_cells(server):
    text = (EXAMPLES / "sudoku-clash.txt").read_text()
    status, answer = post(server, "solve", {"family": "sudoku", "text": text})
    assert status == 200 and not answer["found"]
    expected = cli("sudoku", "examples/sudoku-clash.txt", "--json")[-1]
    assert answer["conflict"] == expected["conflict"]
    assert answer["correction"] == expected["correction"]
    assert answer["conflict_cells"] == [label.split(" = ")[0] for label in expected["conflict"]]


def test_unique_shows_a_second_solution(server):
    status, answer = post(server, "unique", {"family": "sudoku", "text": "12.." + "." * 12})
    assert status == 200 and answer["solutions"] == 2 and not answer["unique"]
    first, second = (p["markup"] for p in answer["pictures"])
    assert first != second
    status, answer = post(server, "unique", {"family": "sudoku", "text": SUDOKU_4})
    assert answer["unique"] and len(answer["pictures"]) == 1


def test_rate_and_generate_agree_with_the_command_line(server):
    status, answer = post(server, "rate", {"family": "sudoku", "text": SUDOKU_4})
    (expected,) = cli("sudoku", "examples/sudoku-4x4.txt", "--rate", "--json")
    assert status == 200 and answer == expected
    status, answer = post(server, "generate", {"family": "kenken", "size": 4, "seed": 7})
    r = subprocess.run([sys.executable, "-m", "conundrum", "generate", "kenken", "--size",
                        "4", "--seed", "7"], capture_output=True, text=True, timeout=300)
    assert status == 200 and answer["seed"] == 7
    assert answer["text"].rstrip("\n") == r.stdout.split("\n", 1)[1].rstrip("\n")


def test_a_puzzle_with_a_mistake_is_a_400_naming_the_place(server):
    status, answer = post(server, "solve", {"family": "sudoku", "text": "12345"})
    assert status == 400 and "the puzzle" in answer["error"]


# ------------------------------------------------------------------- hostile requests

def test_a_huge_body_is_refused_with_413_and_the_server_goes_on(server):
    huge = json.dumps({"family": "sudoku", "text": "." * (MAX_BODY + 10)}).encode()
    status, answer = post(server, "solve", None, raw=huge)
    assert status == 413 and "too large" in answer["error"] and "64 KiB" in answer["error"]
    status, answer = post(server, "solve", None, raw=b"x" * (4 * 1024 * 1024))
    assert status == 413
    still_serving(server)


@pytest.mark.parametrize("family,text", [
    ("futoshiki", "\n".join([" ".join("." * 30)] * 30)),  # 900 cells
    ("queens", "5000"),
    ("alphametic", "A = A\n" * 60),
])
def test_a_puzzle_larger_than_the_page_takes_is_a_413(server, family, text):
    status, answer = post(server, "solve", {"family": family, "text": text})
    assert status == 413 and "too large" in answer["error"] or "too many" in answer["error"]
    still_serving(server)


@pytest.mark.parametrize("raw,message", [
    (b"{not json", "malformed JSON"),
    (b"\xff\xfe", "malformed JSON"),
    (b"[1, 2]", "JSON object"),
    (b'{"family": "chess", "text": "x"}', "unknown puzzle family"),
    (b'{"family": "sudoku"}', "\"text\""),
    (b'{"family": "sudoku", "text": 12}', "\"text\""),
    (b'{"family": "sudoku", "size": 99}', "size must be"),
])
def test_malformed_requests_are_a_400_with_a_message(server, raw, message):
    action = "generate" if b"size" in raw else "solve"
    status, answer = post(server, action, None, raw=raw)
    assert status == 400 and message in answer["error"]
    still_serving(server)


def test_unknown_actions_and_bodies_without_length_are_refused(server):
    status, answer = post(server, "delete-everything", {"family": "sudoku", "text": "1"})
    assert status == 404 and "no such action" in answer["error"]
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    conn.putrequest("POST", "/api/solve")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    conn.send(b"0\r\n\r\n")
    r = conn.getresponse()
    assert r.status == 411 and "Content-Length" in json.load(r)["error"]
    still_serving(server)


def test_a_foreign_host_name_is_refused(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=30)
    conn.request("GET", "/api/families", headers={"Host": "attacker.example:80"})
    r = conn.getresponse()
    assert r.status == 403 and "loopback" in json.load(r)["error"]


def test_a_puzzle_that_takes_minutes_is_stopped_at_the_time_limit(strict):
    start = time.monotonic()
    status, answer = post(strict, "generate", SLOW)
    assert status == 504 and answer["error"].startswith("time limit")
    assert time.monotonic() - start < 15
    still_serving(strict)


def test_many_requests_at_once_are_answered_busy_or_in_time(strict):
    answers: list[tuple[int, dict]] = []

    def one() -> None:
        answers.append(post(strict, "generate", SLOW, timeout=60))

    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    statuses = sorted(status for status, _ in answers)
    assert len(statuses) == 6 and set(statuses) <= {503, 504}, statuses
    assert statuses.count(503) >= 3  # one runs, one waits: the rest are told at once
    busy = next(answer for status, answer in answers if status == 503)
    assert busy["error"].startswith("server busy")
    still_serving(strict)


# ---------------------------------------------------------------------- the command

def test_the_command_prints_the_url_serves_and_stops_on_ctrl_c():
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "conundrum", "serve", "--port", "0",
                             "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        line = proc.stdout.readline()
        assert line.startswith("conundrum: the puzzle page is at http://127.0.0.1:"), line
        url = line.split(" at ", 1)[1].split()[0]
        with urllib.request.urlopen(url + "api/families", timeout=30) as r:
            assert r.status == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


@pytest.mark.parametrize("args,message", [
    (["--port", "http"], "port number"),
    (["--port", "70000"], "port number"),
    (["--time-limit", "-1"], "seconds"),
    (["--browser"], "unrecognized"),
])
def test_bad_options_are_one_line_and_exit_2(args, message):
    r = subprocess.run([sys.executable, "-m", "conundrum", "serve", *args],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and message in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and r.stdout == ""


def test_a_port_in_use_is_a_one_line_error(server):
    r = subprocess.run([sys.executable, "-m", "conundrum", "serve", "--no-browser", "--port",
                        str(server.server_address[1])], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "cannot listen" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_import_conundrum_loads_no_server():
    code = ("import sys; import conundrum; print(sorted(m for m in sys.modules if "
            "m.startswith(('conundrum.serve', 'http', 'socketserver'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout.strip()
    assert out == "[]"
