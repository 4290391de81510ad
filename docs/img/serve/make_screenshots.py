"""Make the screenshots of docs/serve.md: the puzzle page in Debian's headless chromium,
driven as the browser tests drive it (tests/browser.py), on a server of its own on a free
port of 127.0.0.1.

    PYTHONPATH=src python docs/img/serve/make_screenshots.py

writes page-explain.png (the whole page, a Sudoku's explanation at one of its steps),
clash.png (a Sudoku with no solution, its clashing clues marked) and one FAMILY.png per
family (its sample, solved) beside this file.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from browser import start_browser, stop_browser, wait_ready  # noqa: E402
from conundrum.serve.families import FAMILIES  # noqa: E402
from conundrum.serve.pool import Settings  # noqa: E402
from conundrum.serve.server import make_server  # noqa: E402


def main() -> None:
    """Start a server and a browser, take every screenshot, stop both."""
    server = make_server("127.0.0.1", 0, Settings(workers=2, time_limit=120))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    driver, profile = start_browser(1100, 1000)
    try:
        driver.get(server.url + "?family=sudoku")
        wait_ready(driver)
        area = driver.find_element("id", "text")
        area.clear()
        area.send_keys((ROOT / "examples" / "sudoku-4x4.txt").read_text())
        driver.find_element("id", "explain").click()
        wait_ready(driver)
        for _ in range(10):
            driver.find_element("id", "forward").click()
        driver.save_screenshot(str(HERE / "page-explain.png"))

        area = driver.find_element("id", "text")
        area.clear()
        area.send_keys((ROOT / "examples" / "sudoku-clash.txt").read_text())
        driver.find_element("id", "solve").click()
        wait_ready(driver)
        driver.find_element("id", "output").screenshot(str(HERE / "clash.png"))

        for family in FAMILIES:
            driver.get(f"{server.url}?family={family.name}")
            wait_ready(driver)
            driver.find_element("id", "solve").click()
            wait_ready(driver)
            driver.find_element("id", "first").screenshot(str(HERE / f"{family.name}.png"))
            print(family.name, driver.find_element("id", "message").text)
    finally:
        stop_browser(driver, profile)
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
