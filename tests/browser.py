"""Debian's chromium, headless, driven by Selenium through Debian's chromedriver: what the
browser tests and docs/img/serve/make_screenshots.py share. The driver's path is given, so
Selenium Manager downloads nothing, and every flag keeps the browser off the network."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


def start_browser(width: int = 1200, height: int = 900) -> tuple[Any, Path]:
    """A headless chromium with a fresh profile: (driver, profile folder to remove).
    Fails, never skips, when chromium or chromedriver is missing (.ci/run installs them)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    for path in (CHROMIUM, CHROMEDRIVER):
        assert Path(path).exists(), (f"{path} is missing: apt-get install chromium "
                                     "chromium-driver (.ci/run does)")
    profile = Path(tempfile.mkdtemp(prefix="conundrum-chromium-"))
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    return driver, profile


def stop_browser(driver: Any, profile: Path) -> None:
    """Quit the browser and remove its profile."""
    try:
        driver.quit()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def wait_ready(driver: Any, timeout: float = 60) -> None:
    """Until the page has loaded its families and no request is pending."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(
        "return document.body.dataset.ready === 'yes' && !document.getElementById('solve')"
        ".disabled && document.getElementById('message').className !== 'busy'"))
