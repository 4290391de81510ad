"""The puzzle page in a real browser (issue 44, item 3): Debian's chromium, headless, one
session for the whole file. A Sudoku typed, solved and explained step by step, the page's
values and words compared with `conundrum sudoku --explain --json-stream`; every family
loaded, solved and drawn; a clash marked; hints, uniqueness, rating and generation.

Never skipped: without chromium and chromedriver the tests fail (.ci/run installs them)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser import start_browser, stop_browser, wait_ready
from conundrum.serve.families import FAMILIES, sample_text
from conundrum.serve.pool import Settings
from conundrum.serve.server import PuzzleServer, make_server

ROOT = Path(__file__).resolve().parents[1]
SUDOKU_4 = "1...\n..3.\n.4..\n...2\n"  # examples/sudoku-4x4.txt without its comments

# every text drawn in a grid cell, by cell: the givens, the values found, a step's values
CELL_TEXTS = """
const out = {};
for (const t of document.querySelectorAll(arguments[0] + ' svg text[data-cell]')) {
  if (t.classList.contains('corner') || t.classList.contains('cage-sum')
      || t.classList.contains('down') || t.classList.contains('across')) continue;
  out[t.dataset.cell] = t.textContent;
}
for (const r of document.querySelectorAll(arguments[0] + ' svg rect.step-value')) {
  out[r.dataset.cell] = r.dataset.text;
}
return out;
"""


@pytest.fixture(scope="module")
def server() -> Iterator[PuzzleServer]:
    server = make_server("127.0.0.1", 0, Settings(workers=2, queue=8, time_limit=120))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver, profile = start_browser()
    yield driver
    stop_browser(driver, profile)


def open_page(browser: Any, server: PuzzleServer, family: str = "sudoku") -> None:
    browser.get(f"{server.url}?family={family}")
    wait_ready(browser)
    wait_for(browser, "return document.querySelector('#board').children.length > 0")


def wait_for(browser: Any, script: str, *args: object, timeout: float = 120) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout, poll_frequency=0.05).until(
        lambda d: d.execute_script(script, *args))


def click(browser: Any, button: str) -> None:
    browser.find_element("id", button).click()
    wait_ready(browser)


def message(browser: Any) -> str:
    return browser.find_element("id", "message").text


def type_puzzle(browser: Any, text: str, first_given: tuple[str, str]) -> None:
    area = browser.find_element("id", "text")
    area.clear()
    area.send_keys(text)
    cell, value = first_given
    wait_for(browser, "const t = document.querySelector('#board text.given[data-cell=\"'"
             " + arguments[0] + '\"]'); return t && t.textContent === arguments[1];",
             cell, value)


def cli_lines(*args: str) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "conundrum", *args], capture_output=True,
                       text=True, timeout=300, cwd=ROOT)
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_a_typed_sudoku_is_solved_and_explained_as_the_command_line_says(browser, server):
    open_page(browser, server, "sudoku")
    type_puzzle(browser, SUDOKU_4, ("r1c1", "1"))
    click(browser, "solve")
    assert message(browser) == "solved"
    (solution,) = cli_lines("sudoku", "examples/sudoku-4x4.txt", "--json")
    shown = browser.execute_script(CELL_TEXTS, "#board")
    assert shown == {f"r{r + 1}c{c + 1}": str(v) for r, row in enumerate(solution["grid"])
                     for c, v in enumerate(row)}

    lines = cli_lines("sudoku", "examples/sudoku-4x4.txt", "--explain", "--json-stream")
    steps = [line for line in lines if "step" in line]
    assert lines[-1]["status"] == "complete" and len(steps) > 3
    click(browser, "explain")
    givens = {"r1c1": "1", "r2c3": "3", "r3c2": "4", "r4c4": "2"}
    placed = dict(givens)
    for k, step in enumerate(steps, 1):
        if k > 1:
            browser.find_element("id", "forward").click()
        assert browser.find_element("id", "step-text").text == f"{k}. {step['text']}"
        assert browser.find_element("id", "step-count").text == f"step {k} of {len(steps)}"
        placed.update({f["variable"]: str(f["value"]) for f in step["derived"] if f["equal"]})
        if k < len(steps):  # the last step shows the solved grid
            assert browser.execute_script(CELL_TEXTS, "#board") == placed, k
        highlighted = browser.execute_script(
            "return [...document.querySelectorAll('#board rect.cells')]"
            ".map(r => r.dataset.cell)")
        assert set(highlighted) == {f["variable"] for f in step["derived"]}
    assert placed == shown  # the steps lead to the solution
    assert not browser.find_element("id", "forward").is_enabled()
    browser.find_element("id", "back").click()
    n = len(steps) - 1
    assert browser.find_element("id", "step-text").text == f"{n}. {steps[n - 1]['text']}"
    units = browser.execute_script("return [...document.querySelectorAll('#board rect.units')]"
                                   ".map(r => r.dataset.cell)")
    assert units  # the units of the step are highlighted too
    items = browser.find_elements("css selector", "#step-list li")
    assert [li.text for li in items] == [s["text"] for s in steps]


def test_hints_come_one_step_at_a_time(browser, server):
    open_page(browser, server, "sudoku")
    type_puzzle(browser, SUDOKU_4, ("r1c1", "1"))
    steps = [line for line in cli_lines("sudoku", "examples/sudoku-4x4.txt", "--explain",
                                        "--json-stream") if "step" in line]
    click(browser, "hint")
    assert browser.find_element("id", "step-text").text == f"1. {steps[0]['text']}"
    click(browser, "hint")
    assert browser.find_element("id", "step-text").text == f"2. {steps[1]['text']}"
    assert len(browser.find_elements("css selector", "#step-list li")) == 2


@pytest.mark.parametrize("family", [f.name for f in FAMILIES])
def test_each_family_is_loaded_solved_and_drawn(browser, server, family):
    open_page(browser, server, family)
    assert browser.find_element("id", "text").get_attribute("value") == sample_text(
        next(f for f in FAMILIES if f.name == family))
    click(browser, "solve")
    assert message(browser) == "solved"
    if family == "alphametic":  # equations, drawn as HTML
        assert "9567" in browser.find_element("id", "board").text.replace(" ", "")
        return
    svg = browser.find_element("css selector", "#board svg")
    assert svg.size["width"] > 50 and svg.size["height"] > 50
    found = browser.execute_script(
        "return document.querySelectorAll('#board text.value, #board rect.filled').length")
    assert found > 0


def test_a_clash_is_marked_on_the_grid(browser, server):
    open_page(browser, server, "sudoku")
    type_puzzle(browser, (ROOT / "examples" / "sudoku-clash.txt").read_text(), ("r1c1", "1"))
    click(browser, "solve")
    expected = cli_lines("sudoku", "examples/sudoku-clash.txt", "--json-stream")[-1]
    assert message(browser).startswith("no solution: these clues cannot all hold: "
                                       + ", ".join(expected["conflict"]))
    marked = browser.execute_script("return [...document.querySelectorAll('#board rect.clash')]"
                                    ".map(r => r.dataset.cell)")
    assert marked == [label.split(" = ")[0] for label in expected["conflict"]]


def test_uniqueness_shows_a_second_solution_and_rate_grades(browser, server):
    open_page(browser, server, "sudoku")
    type_puzzle(browser, "12..\n....\n....\n....\n", ("r1c2", "2"))
    click(browser, "unique")
    assert message(browser).startswith("not unique")
    assert browser.find_element("id", "second").is_displayed()
    first = browser.execute_script(CELL_TEXTS, "#board")
    second = browser.execute_script(CELL_TEXTS, "#board2")
    assert len(first) == len(second) == 16 and first != second
    type_puzzle(browser, SUDOKU_4, ("r1c1", "1"))
    click(browser, "unique")
    assert message(browser).startswith("unique")
    assert not browser.find_element("id", "second").is_displayed()
    click(browser, "rate")
    (rating,) = cli_lines("sudoku", "examples/sudoku-4x4.txt", "--rate", "--json")
    assert message(browser).startswith(f"grade: {rating['grade']} · score {rating['score']}")


def test_generate_fills_in_a_puzzle_of_the_chosen_size(browser, server):
    from selenium.webdriver.support.ui import Select

    open_page(browser, server, "kenken")
    Select(browser.find_element("id", "size")).select_by_value("4")
    browser.find_element("id", "seed").send_keys("7")
    click(browser, "generate")
    assert message(browser).startswith("generated with seed 7")
    r = subprocess.run([sys.executable, "-m", "conundrum", "generate", "kenken", "--size", "4",
                        "--seed", "7"], capture_output=True, text=True, timeout=300)
    text = browser.find_element("id", "text").get_attribute("value")
    assert text.rstrip("\n") == r.stdout.split("\n", 1)[1].rstrip("\n")
