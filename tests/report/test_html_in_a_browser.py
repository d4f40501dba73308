"""report.html in a real browser: Debian's chromium, headless, driven by selenium through
chromedriver.

The page loads with no console error (its Content-Security-Policy admits only its own script), the
filters and the search change what is shown, a `<script>` a target smuggled into a message does not
run, and a screenshot is taken. In CI (CI=true) a missing browser is a failure; elsewhere a skip.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.engine.gate import gated
from conformance.engine.runner import run
from conformance.report import ResultRecorded
from conformance.report import RunFinished
from conformance.report import RunStarted
from conformance.report import Status
from conformance.report import summarize
from conformance.report.model import Exchange
from conformance.report.writers import HtmlWriter
from conformance.targeting import run_options
from mocks.serve import serve_host
from tests.browser import chromium
from tests.browser import require_browser
from tests.checks.mutants import Collect

INJECTED = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'

require_browser()

from selenium import webdriver  # noqa: E402  (only once the browser is known to be there)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real run's report.html, with one result carrying what a hostile target could send."""
    collect = Collect()
    with serve_host("woa-4-version-1") as host:
        header_events: list[object] = []

        class Keep:
            def handle(self, event: object) -> None:
                header_events.append(event)

        asyncio.run(
            run(
                run_options(target=host.url, suites=("woa", "aci"), cacert=host.cacert, timeout=5),
                [collect, Keep()],
            )
        )
    started = next(e for e in header_events if isinstance(e, RunStarted))
    evidence = Exchange(
        "POST",
        "https://target.example/agents/x/invoke",
        {"content-type": "application/json"},
        '{"agent": "x", "input": {}}',
        200,
        {"content-type": "application/json"},
        INJECTED,
    )
    results = [
        *collect.results,
        replace(collect.results[0], status=Status.FAIL, message=INJECTED, evidence=(evidence,)),
    ]
    folder = tmp_path_factory.mktemp("html")
    writer = HtmlWriter(folder)
    writer.handle(started)
    for result in results:
        writer.handle(ResultRecorded(result))
    writer.handle(RunFinished(gated(summarize(results))))
    return folder / "report.html"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[webdriver.Chrome]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


@pytest.mark.timeout(300)
def test_the_report_loads_filters_and_never_runs_a_targets_script(
    page: Path, browser: webdriver.Chrome, tmp_path: Path
) -> None:
    browser.get(page.as_uri())
    shown = browser.find_element(By.ID, "shown")
    total = len(browser.find_elements(By.CSS_SELECTOR, "tbody tr.result"))
    assert shown.text == f"{total} of {total} results shown"
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []  # type: ignore[no-untyped-call]

    Select(browser.find_element(By.ID, "draft")).select_by_value("woa")
    woa = int(shown.text.split()[0])
    assert 0 < woa < total
    for status in ("pass", "skip", "not-applicable", "waived", "error"):
        browser.find_element(By.CSS_SELECTOR, f'input.status-filter[value="{status}"]').click()
    failing = [
        row.find_element(By.CSS_SELECTOR, "td.id").text
        for row in browser.find_elements(By.CSS_SELECTOR, "tbody tr.result")
        if row.is_displayed()
    ]
    assert "WOA-4-VERSION-1" in failing and len(failing) < woa
    browser.find_element(By.ID, "search").send_keys("VERSION-1")
    assert shown.text.startswith("1 of") or shown.text.startswith("2 of")

    assert browser.execute_script("return window.__pwned") is None
    # shown as text
    assert browser.execute_script(
        "return document.body.textContent.includes(arguments[0])", INJECTED
    )

    browser.get(page.as_uri())  # a count is a link to its results: the WoA MUST failures, one click
    browser.find_element(
        By.CSS_SELECTOR, 'a[data-draft="woa"][data-level="MUST"][data-status="fail"]'
    ).click()
    assert browser.find_element(By.ID, "shown").text != f"{total} of {total} results shown"
    visible = [
        row.get_attribute("id")
        for row in browser.find_elements(By.CSS_SELECTOR, "tbody tr.result")
        if row.is_displayed()
    ]
    assert "WOA-4-VERSION-1" in visible and all(v.startswith("WOA-") for v in visible if v)
    browser.set_window_size(420, 900)  # a phone: the page never scrolls sideways
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    screenshot = tmp_path / "report.png"
    assert browser.save_screenshot(str(screenshot)) and screenshot.stat().st_size > 10_000
