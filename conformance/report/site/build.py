"""What the site shows, gathered from the reports and the interop matrix, then written page by
page from templates/ (Jinja2, autoescaped: every string from a report is text)."""

from __future__ import annotations

import json
import re
import shutil
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2

from ...requirements import Catalogue
from ...requirements import catalogue
from ...requirements import catalogue_of
from ...requirements.revisions import RevisionUnknown
from ...requirements.revisions import revision as known_revision
from ..compare import Column
from ..compare import ReportUnreadable
from ..compare import load_matrix
from .status import status_markdown
from .status import status_xml
from .views import DraftView
from .views import Implementation
from .views import Row

__all__ = ["SiteUnbuildable", "build_site", "gathered"]

_LEVELS = {"MUST": 0, "SHOULD": 1, "MAY": 2}


class SiteUnbuildable(ValueError):
    """The site cannot be built from what was given (its message says why)."""


def _slug(label: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9]+", "-", re.sub(r"^https?://", "", label)).strip("-").lower()
    slug, n = base or "implementation", 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    taken.add(slug)
    return slug


def _implementation(column: Column, names: dict[str, str], taken: set[str]) -> Implementation:
    report = json.loads(Path(column.path).read_text(encoding="utf-8"))
    page = Path(column.path).with_name("report.html")
    target = str(report["header"].get("target", column.label)).rstrip("/")
    label = names.get(target, column.label)
    return Implementation(
        label,
        target,
        _slug(label, taken),
        column.level,
        column.tool_version,
        str(report["header"].get("started", "")),
        {d: r for d, r in column.drafts.items() if d in column.ran},
        column.statuses,
        page if page.is_file() else None,
    )


def _catalogue_of(name: str) -> Catalogue:
    """The requirements of the revision `name`, when the suite has it; else its draft's latest
    (a revision certified from a folder: its requirements are matched by ID)."""
    try:
        return catalogue_of((known_revision(name),))
    except RevisionUnknown:
        return catalogue()


def gathered(reports: list[Path], interop: dict[str, Any] | None) -> list[DraftView]:
    """Per draft and revision the reports name, in the catalogue's order of drafts."""
    try:
        matrix = load_matrix(reports)
    except ReportUnreadable as error:
        raise SiteUnbuildable(str(error)) from None
    taken: set[str] = set()
    names = {
        str(found["host"]).rstrip("/"): name
        for name, found in (interop or {}).get("implementations", {}).items()
        if isinstance(found, dict) and found.get("host")
    }
    implementations = [_implementation(c, names, taken) for c in matrix.columns]
    views = []
    for draft in ("sdsi", "woa", "aci"):
        revisions = sorted({i.drafts[draft] for i in implementations if draft in i.drafts})
        for revision in revisions:
            requirements = sorted(
                _catalogue_of(revision).for_draft(draft),
                key=lambda r: (_LEVELS[str(r.level)], r.id),
            )
            mine = tuple(i for i in implementations if i.drafts.get(draft) == revision)
            rows = tuple(Row(r, tuple(i.status(r.id) for i in mine)) for r in requirements)
            cells = tuple(c for c in (interop or {}).get("pairs", []) if c.get("draft") == draft)
            views.append(DraftView(draft, revision, mine, rows, cells))
    return views


@cache
def _environment() -> jinja2.Environment:
    folder = resources.files(__package__) / "templates"
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: (folder / name).read_text(encoding="utf-8")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _page(output: Path, name: str, template: str, **values: Any) -> None:
    depth = name.count("/")
    page = _environment().get_template(template).render(root="../" * depth, **values)
    (output / name).parent.mkdir(parents=True, exist_ok=True)
    (output / name).write_text(page, encoding="utf-8")


def _interop_evidence(interop_dir: Path, cells: list[dict[str, Any]], output: Path) -> None:
    """Each pair's reports (report.html and report.json of each side) beside the site's pages."""
    for cell in cells:
        for side in ("server-side", "client-side"):
            for name in ("report.html", "report.json"):
                source = interop_dir / cell["folder"] / side / name
                if source.is_file():
                    target = output / "interop" / cell["folder"] / side / name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, target)


def _read_interop(path: Path | None) -> tuple[dict[str, Any] | None, Path | None]:
    if path is None:
        return None, None
    file = path / "interop.json" if path.is_dir() else path
    try:
        matrix = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SiteUnbuildable(f"{file} cannot be read as an interop.json: {error}") from None
    if not isinstance(matrix, dict) or not isinstance(matrix.get("pairs"), list):
        raise SiteUnbuildable(f"{file} is not an interop.json of agent-conformance")
    return matrix, file.parent


def build_site(reports: list[Path], output: Path, interop: Path | None = None) -> list[DraftView]:
    """Write the site for `reports` (and the interop matrix at `interop`, a folder or its
    interop.json) into `output`; what it shows, per draft and revision."""
    from ... import __version__

    matrix, interop_dir = _read_interop(interop)
    views = gathered(reports, matrix)
    if not views:
        raise SiteUnbuildable("no report judged any draft")
    implementations = list({i.slug: i for v in views for i in v.implementations}.values())
    output.mkdir(parents=True, exist_ok=True)
    css = resources.files(__package__) / "templates" / "site.css"
    (output / "site.css").write_text(css.read_text(encoding="utf-8"), encoding="utf-8")
    common = {"views": views, "version": __version__, "interop": matrix}
    _page(output, "index.html", "index.html.j2", implementations=implementations, **common)
    for view in views:
        _page(output, f"drafts/{view.revision}.html", "draft.html.j2", view=view, **common)
        status = output / "status"
        status.mkdir(exist_ok=True)
        (status / f"{view.revision}.md").write_text(
            status_markdown(view, __version__), encoding="utf-8"
        )
        (status / f"{view.revision}.xml").write_text(
            status_xml(view, __version__), encoding="utf-8"
        )
    for implementation in implementations:
        if implementation.report_html is not None:
            copy = output / "implementations" / implementation.slug / "report.html"
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(implementation.report_html, copy)
        _page(
            output,
            f"implementations/{implementation.slug}.html",
            "implementation.html.j2",
            implementation=implementation,
            **common,
        )
    if matrix is not None and interop_dir is not None:
        _interop_evidence(interop_dir, matrix["pairs"], output)
        _page(output, "interop.html", "interop.html.j2", **common)
    return views
