"""report.html: the evidence report, one self-contained file for a browser, offline or from a CI
artifact.

Per draft its level and counts (each count a link to those results), the failures and errors first,
then per requirement its sentence, section, level, basis, status and message (each row a permalink,
#REQUIREMENT-ID), and the evidence of each result (the requests and responses, bodies folded, and a
curl command that reproduces each exchange). Filters by draft, level and status, and a search box,
shown only when the page's script runs. Rendered from templates/report.html.j2 by Jinja2 with
autoescape: every string from a target is HTML-escaped, and a Content-Security-Policy lets only the
page's own script run (by its SHA-256 hash), so a `<script>` a target smuggles into a message is
text."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from importlib import resources
from typing import Any
from typing import ClassVar

import jinja2
from markupsafe import Markup

from ..compliance import ONE_RUN
from ..compliance import Summary
from ..model import Exchange
from ..model import Result
from ..model import RunHeader
from ..model import Status
from ..outcome import colour_of
from ..outcome import told
from ._collect import Collected
from ._collect import pass_k_said

__all__ = ["HtmlWriter"]

#: Agents listed in the page; the rest are in report.json.
_AGENT_ROWS = 1_000


@cache
def _template() -> tuple[jinja2.Template, str, str]:
    """The page's template, its style and its script (read once)."""
    folder = resources.files(__package__) / "templates"
    environment = jinja2.Environment(
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True
    )
    template = environment.from_string((folder / "report.html.j2").read_text(encoding="utf-8"))
    return (
        template,
        (folder / "report.css").read_text(encoding="utf-8"),
        (folder / "report.js").read_text(encoding="utf-8"),
    )


def _headers(headers: dict[str, str]) -> str:
    return "\n".join(f"{k}: {v}" for k, v in headers.items())


def _exchange(exchange: Exchange, cacert: str | None) -> dict[str, Any]:
    response = None
    if exchange.status is not None:
        cut = " (truncated)" if exchange.response_truncated else ""
        response = f"{_headers(exchange.response_headers)}\n\n{exchange.response_body}{cut}"
    return {
        "method": exchange.method,
        "url": exchange.url,
        "outcome": str(
            exchange.status if exchange.status is not None else (exchange.error or "no answer")
        ),
        "request": f"{_headers(exchange.request_headers)}\n\n{exchange.request_body}",
        "response": response,
        "curl": exchange.curl(cacert),
    }


def _rows(results: list[Result], cacert: str | None) -> list[dict[str, Any]]:
    """One row a result; its anchor is its requirement's ID (then -2, -3 for a requirement judged
    again)."""
    rows: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for result in results:
        seen[result.requirement] = seen.get(result.requirement, 0) + 1
        anchor = result.requirement + (
            f"-{seen[result.requirement]}" if seen[result.requirement] > 1 else ""
        )
        rows.append(
            {
                "anchor": anchor,
                "requirement": result.requirement,
                "draft": result.draft,
                "section": result.section,
                "level": result.level,
                "basis": "" if result.basis in ("", "keyword") else result.basis,
                "status": result.status.value,
                "skip": result.skip.value if result.skip else "",
                "quote": result.quote,
                "message": result.message,
                "evidence": [_exchange(e, cacert) for e in result.evidence],
            }
        )
    return rows


def _cards(summary: Summary) -> list[dict[str, Any]]:
    return [
        {
            "draft": draft,
            "level": verdict,
            "colour": colour_of(verdict),
            "counts": [
                (
                    lvl,
                    [
                        (s.value, summary.drafts.get(draft, {}).get(lvl, {}).get(s.value, 0))
                        for s in Status
                    ],
                )
                for lvl in ("MUST", "SHOULD", "MAY")
            ],
        }
        for draft, verdict in told(summary).drafts.items()
    ]


def _repeated(summary: Summary, results: list[Result]) -> dict[str, Any] | None:
    if summary.runs == 1:
        return None
    judged = [(r, r.repeat) for r in results if r.repeat and r.repeat["rate"] is not None]
    judged.sort(
        key=lambda pair: (not pair[1]["flaky"], -(pair[1]["rate"] or 0), pair[0].requirement)
    )
    rows = [
        {
            "requirement": r.requirement,
            "level": r.level,
            "runs": m["runs"],
            "failures": m["failures"],
            "errors": m["errors"],
            "rate": f"{m['rate']:.1%}",
            "bound": f"{m['upper_bound']:.1%}",
            "pass_k": pass_k_said(m["pass_k"]),
            "flaky": "flaky" if m["flaky"] else "",
        }
        for r, m in judged
    ]
    method = f"{judged[0][1]['method']}, {judged[0][1]['confidence']:.0%}" if judged else ""
    return {"rows": rows, "method": method}


class HtmlWriter(Collected):
    filename: ClassVar[str] = "report.html"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        template, style, script = _template()
        cacert = header.cacert
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        rows = _rows(results, cacert)
        return (
            template.render(
                policy=(
                    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src"
                    f" 'sha256-{digest}'"
                ),
                style=Markup(style),
                script=Markup(script),
                header=header,
                summary=summary,
                outcome=told(summary),
                cards=_cards(summary),
                statuses=[s.value for s in Status],
                drafts=sorted({r.draft for r in results}),
                problems=[r for r in rows if r["status"] in ("fail", "error")],
                repeated=_repeated(summary, results),
                one_run=ONE_RUN,
                agents=list(summary.coverage[:_AGENT_ROWS]),
                rows=rows,
            )
            + "\n"
        )
