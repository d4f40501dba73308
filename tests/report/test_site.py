"""report-site: the implementation report built from a fleet's reports and an interop matrix.

Three implementations (the reference, the minimal conformer, one whose ACI invoked agents break a
MUST), each a host on loopback certified with every draft, and the interop matrix over them. The
counts on the draft pages are the reports' own; the RFC 7942 sections are valid xml2rfc v3 (by
its grammar, and rendered by xml2rfc); in Debian's chromium every link of the site resolves
(anchors included), the keyboard reaches every link and scrolling region, nothing scrolls
sideways on a phone, and screenshots are taken at desktop and narrow widths.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from typer.testing import CliRunner

from conformance.cli import app
from conformance.engine.runner import run
from conformance.report.writers import writers_for
from conformance.targeting import run_options
from conformance.usecases.interop import Implementation
from conformance.usecases.interop import interop_matrix
from mocks.serve import serve_host
from tests.browser import chromium
from tests.browser import require_browser

FAULT = "aci-5.2-item-state-per-item"
PLACEHOLDERS = "{document} {agent} {operation} {input} {cacert}"
CLIENT = f"{sys.executable} -m mocks.woa_client {PLACEHOLDERS}"
XML2RFC = shutil.which("xml2rfc", path=str(Path(sys.executable).parent)) or shutil.which("xml2rfc")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("site")
    with (
        serve_host() as reference,
        serve_host(minimal=True) as minimal,
        serve_host(FAULT) as broken,
    ):
        hosts = {"reference": reference, "minimal": minimal, "broken": broken}
        for name, host in hosts.items():
            options = run_options(target=host.url, cacert=host.cacert)
            asyncio.run(run(options, writers_for(folder / "fleet" / name)))
        interop_matrix(
            [
                Implementation(name, host.url, str(host.cacert), CLIENT)
                for name, host in hosts.items()
            ],
            folder / "interop",
        )
    result = CliRunner().invoke(
        app,
        [
            *("report-site", str(folder / "fleet")),
            *("--interop", str(folder / "interop"), "--output", str(folder / "site")),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "draft-gaikwad-woa-00: 3 implementations" in result.output
    yield folder


class _Cells(HTMLParser):
    """The rows of a draft page's table: requirement -> its cells' text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, list[str]] = {}
        self._row: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr" and dict(attrs).get("id"):
            self._row = dict(attrs)["id"]
            self.rows[str(self._row)] = []
        elif tag == "td" and self._row:
            self._cell = []

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None and self._row:
            self.rows[self._row].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr":
            self._row = None


def test_the_counts_are_the_reports_and_fewer_than_two_is_marked(site: Path) -> None:
    reports = {
        name: json.loads((site / "fleet" / name / "report.json").read_text())
        for name in ("broken", "minimal", "reference")  # the fleet folder's order
    }
    statuses = {
        name: {r["requirement"]: r["status"] for r in report["results"]}
        for name, report in reports.items()
    }
    for revision in (
        "draft-zhou-structured-data-schema-interaction-00",
        "draft-gaikwad-woa-00",
        "draft-chang-agent-context-interaction-02",
    ):
        parser = _Cells()
        parser.feed((site / "site" / "drafts" / f"{revision}.html").read_text())
        assert parser.rows, revision
        for requirement, cells in parser.rows.items():
            _level, _section, passing, failing, untested, *each = cells
            seen = [statuses[name].get(requirement, "untested") for name in reports]
            assert each == seen, requirement
            assert int(passing) == seen.count("pass"), requirement
            assert int(failing) == sum(s in ("fail", "error") for s in seen), requirement
            assert int(passing) + int(failing) + int(untested) == 3
    page = (site / "site" / "drafts" / "draft-chang-agent-context-interaction-02.html").read_text()
    assert 'id="ACI-5.2-ITEM-STATE-PER-ITEM" class="thin"' not in page  # two pass it
    assert statuses["broken"]["ACI-5.2-ITEM-STATE-PER-ITEM"] == "fail"
    # the interop names replace the targets, and the matrix is there with its evidence
    index = (site / "site" / "index.html").read_text()
    assert ">reference</a>" in index and ">broken</a>" in index
    interop = (site / "site" / "interop.html").read_text()
    assert "broken: ACI-5.2-ITEM-STATE-PER-ITEM" in interop


def test_the_implementation_status_sections_are_xml2rfc_v3(site: Path, tmp_path: Path) -> None:
    if XML2RFC is None:
        if os.environ.get("CI"):
            raise RuntimeError("the test extra installs xml2rfc; it is missing")
        pytest.skip("xml2rfc is not installed (pip install '.[test]')")
    import xml2rfc
    from lxml import etree

    rng = Path(xml2rfc.__file__).parent / "data" / "v3.rng"
    grammar = etree.RelaxNG(etree.parse(str(rng)))
    for section in sorted((site / "site" / "status").glob("*.xml")):
        markdown = section.with_suffix(".md").read_text()
        assert markdown.startswith("# Implementation Status") and "RFC 7942" in markdown
        document = tmp_path / f"{section.stem}.xml"
        document.write_text(
            '<?xml version="1.0" encoding="utf-8"?>\n'
            '<rfc version="3" category="info" docName="draft-status-00" ipr="trust200902"'
            ' submissionType="IETF"><front><title>Status</title><author fullname="A. Author"/>'
            '<date year="2026"/></front><middle>' + section.read_text() + "</middle></rfc>\n"
        )
        assert grammar.validate(etree.parse(str(document))), grammar.error_log
        rendered = subprocess.run(
            [
                XML2RFC,
                "--text",
                "--no-network",
                "-q",
                "-o",
                str(tmp_path / "out.txt"),
                str(document),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
        )
        assert rendered.returncode == 0, rendered.stderr
        text = (tmp_path / "out.txt").read_text()
        assert "Implementation Status" in text and "reference" in text


@pytest.mark.timeout(300)
def test_in_a_browser_every_link_resolves_and_the_keyboard_reaches_everything(
    site: Path, tmp_path: Path
) -> None:
    require_browser()
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    root = site / "site"
    with chromium(tmp_path / "profile") as browser:
        pages, seen, broken = [root / "index.html"], set(), []
        while pages:
            page = pages.pop()
            if page in seen:
                continue
            seen.add(page)
            browser.get(page.as_uri())
            assert browser.find_elements(By.TAG_NAME, "main"), page
            hrefs = [a.get_attribute("href") or "" for a in browser.find_elements(By.TAG_NAME, "a")]
            for href in hrefs:
                parts = urlsplit(href)
                assert parts.scheme == "file", (page, href)  # the site links nowhere else
                target = Path(parts.path)
                if not target.is_file() or root not in target.parents:
                    broken.append((page, href))
                    continue
                if parts.fragment and f'id="{parts.fragment}"' not in target.read_text():
                    broken.append((page, href))
                if target.suffix == ".html" and target.name != "report.html":
                    pages.append(target)
        assert broken == []
        assert len(seen) >= 3 + 3 + 2  # index, drafts, implementations, interop
        draft = root / "drafts" / "draft-gaikwad-woa-00.html"
        browser.get(draft.as_uri())
        # every status is shown (a class of the page's own once hid the skips)
        assert browser.execute_script(
            "const cells = [...document.querySelectorAll('td.status')];"
            " return cells.length > 0 && cells.every(td => td.getBoundingClientRect().left >= 0"
            " && td.innerText.trim() !== '' && getComputedStyle(td).visibility === 'visible')"
        )
        # the keyboard reaches every link and scrolling region of a draft page
        focusable = browser.execute_script(
            "return document.querySelectorAll('a[href], [tabindex=\"0\"]').length"
        )
        reached = set()
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        for _ in range(focusable + 2):
            reached.add(browser.execute_script("return document.activeElement.outerHTML"))
            browser.switch_to.active_element.send_keys(Keys.TAB)
        assert len(reached) >= focusable
        for width, name in ((1280, "desktop"), (420, "narrow")):
            browser.set_window_size(width, 900)
            for page in (root / "index.html", draft, root / "interop.html"):
                browser.get(page.as_uri())
                assert browser.execute_script(
                    "return document.documentElement.scrollWidth"
                    " <= document.documentElement.clientWidth"
                ), (page, width)
            shot = tmp_path / f"site-{name}.png"
            browser.get((root / "index.html").as_uri())
            assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 5_000


def test_a_folder_it_cannot_write_is_one_line_and_exit_2(site: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    result = CliRunner().invoke(
        app, ["report-site", str(site / "fleet"), "--output", str(tmp_path / "file" / "site")]
    )
    assert result.exit_code == 2 and "cannot write the site to" in result.output
    assert "Traceback" not in result.output
