"""Debian's chromium, headless, driven by selenium through chromedriver, for the tests of pages the
suite writes (report.html, the implementation report's site). In CI (CI=true) a missing browser
is a failure; elsewhere a skip."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from selenium import webdriver

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def require_browser() -> None:
    """Skip (fail, in CI) a test when the browser is not installed."""
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("CI"):
            raise RuntimeError(
                "CI installs Debian's chromium and chromium-driver (.ci/run); they are missing"
            )
        pytest.skip(
            "Debian's chromium and chromium-driver are not installed (.ci/run does)",
            allow_module_level=True,
        )


@contextmanager
def chromium(profile: Path) -> Iterator[webdriver.Chrome]:
    """A headless chromium at 1280 by 900, its profile in `profile`, its console kept."""
    require_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,900",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()
