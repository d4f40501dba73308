"""report.html: the evidence report, one self-contained file for a browser, offline or from a CI artifact.

Per draft its level and counts; per requirement its sentence, section, level, basis, status and
message, and the evidence of each result (the requests and responses, bodies folded, and a curl
command that reproduces each exchange). Filters by draft, level and status, and a search box.

Every string from a target is HTML-escaped, and a Content-Security-Policy lets only the page's own
script run (by its SHA-256 hash): a `<script>` a target smuggles into a message is text.
"""

from __future__ import annotations

import base64
import hashlib
import shlex
from html import escape
from typing import ClassVar

from ..compliance import ONE_RUN, Summary
from ..model import Exchange, Result, RunHeader, Status
from ._collect import Collected
from .badges import COLOURS

__all__ = ["HtmlWriter", "curl_command"]

_SKIP_HEADERS = frozenset({"host", "content-length", "connection", "accept-encoding", "transfer-encoding"})

_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
header,main{max-width:1200px;margin:0 auto;padding:12px 20px}
h1{font-size:20px;margin:8px 0}.meta{color:#555}
.drafts{display:flex;gap:12px;flex-wrap:wrap}.draft{background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px 12px}
.level{display:inline-block;color:#fff;border-radius:3px;padding:1px 6px;font-weight:600}
table{border-collapse:collapse;width:100%;background:#fff}th,td{border-bottom:1px solid #e5e5e5;padding:6px;vertical-align:top;text-align:left}
td.id{font-family:ui-monospace,monospace;white-space:nowrap}.counts td,.counts th{padding:2px 6px;border:none}
.status{font-weight:600}.pass{color:#1a7f37}.fail{color:#cf222e}.error{color:#bc4c00}.skip,.not-applicable{color:#6e7781}.waived{color:#8250df}
.filters{display:flex;gap:10px;flex-wrap:wrap;align-items:center;margin:12px 0}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;padding:6px;margin:4px 0;max-height:320px;overflow:auto}
blockquote{margin:2px 0;color:#444;border-left:3px solid #ddd;padding-left:6px}
details summary{cursor:pointer;color:#0969da}
"""

_SCRIPT = """
(function () {
  const rows = Array.from(document.querySelectorAll('tbody tr.result'));
  const draft = document.getElementById('draft'), level = document.getElementById('level');
  const search = document.getElementById('search'), shown = document.getElementById('shown');
  const statuses = Array.from(document.querySelectorAll('input.status-filter'));
  function apply() {
    const wanted = new Set(statuses.filter(s => s.checked).map(s => s.value));
    const words = search.value.trim().toLowerCase();
    let count = 0;
    for (const row of rows) {
      const visible = (!draft.value || row.dataset.draft === draft.value) && (!level.value || row.dataset.level === level.value)
        && wanted.has(row.dataset.status) && (!words || row.textContent.toLowerCase().includes(words));
      row.hidden = !visible;
      if (visible) count += 1;
    }
    shown.textContent = count + ' of ' + rows.length + ' results shown';
  }
  for (const control of [draft, level, search, ...statuses]) for (const kind of ['input', 'change']) control.addEventListener(kind, apply);
  apply();
})();
"""


def curl_command(exchange: Exchange, cacert: str | None = None) -> str:
    """A curl command line that sends `exchange`'s request again, as printed."""
    parts = ["curl", "-sS", "-i", "-X", exchange.method]
    if cacert:
        parts += ["--cacert", cacert]
    for name, value in exchange.request_headers.items():
        if name.lower() not in _SKIP_HEADERS:
            parts += ["-H", f"{name}: {value}"]
    if exchange.request_body:
        parts += ["--data-binary", exchange.request_body]
    parts.append(exchange.url)
    return " ".join(shlex.quote(part) for part in parts)


def _headers(headers: dict[str, str]) -> str:
    return "\n".join(f"{k}: {v}" for k, v in headers.items())


def _exchange(exchange: Exchange, cacert: str | None) -> str:
    status = exchange.status if exchange.status is not None else (exchange.error or "no answer")
    replayable = exchange.method.isalpha() and exchange.url.startswith(("http://", "https://"))
    parts = [f"<details><summary>{escape(exchange.method)} {escape(exchange.url)} → {escape(str(status))}</summary>"]
    parts.append(f"<pre>{escape(_headers(exchange.request_headers))}\n\n{escape(exchange.request_body)}</pre>")
    if exchange.status is not None:
        cut = " (truncated)" if exchange.response_truncated else ""
        parts.append(f"<pre>{escape(_headers(exchange.response_headers))}\n\n{escape(exchange.response_body)}{cut}</pre>")
    if replayable:
        parts.append(f"<p>Reproduce:</p><pre class=\"curl\">{escape(curl_command(exchange, cacert))}</pre>")
    parts.append("</details>")
    return "".join(parts)


def _row(result: Result, cacert: str | None) -> str:
    basis = "" if result.basis in ("", "keyword") else f" ({escape(result.basis)})"
    evidence = "".join(_exchange(e, cacert) for e in result.evidence)
    return (
        f'<tr class="result" data-draft="{escape(result.draft)}" data-level="{escape(result.level)}" data-status="{escape(result.status.value)}">'
        f'<td class="id">{escape(result.requirement)}</td><td>{escape(result.draft.upper())} {escape(result.section)}</td>'
        f"<td>{escape(result.level)}{basis}</td><td class=\"status {escape(result.status.value)}\">{escape(result.status.value)}</td>"
        f"<td><blockquote>{escape(result.quote)}</blockquote>{escape(result.message)}{evidence}</td></tr>"
    )


def _draft_card(draft: str, level: str, summary: Summary) -> str:
    counts = summary.drafts.get(draft, {})
    rows = "".join(f"<tr><th>{lvl}</th>" + "".join(f"<td>{counts.get(lvl, {}).get(s.value, 0)}</td>" for s in Status) + "</tr>"
                   for lvl in ("MUST", "SHOULD", "MAY"))
    head = "<tr><th></th>" + "".join(f"<th>{s.value}</th>" for s in Status) + "</tr>"
    return (f'<div class="draft"><strong>{escape(draft.upper())}</strong> <span class="level" style="background:'
            f'{COLOURS.get(level, "#9f9f9f")}">{escape(level)}</span><table class="counts">{head}{rows}</table></div>')


def _claims(summary: Summary) -> str:
    if not summary.claims:
        return ""
    rows = "".join(f"<tr><td>{escape(c['agent'])}</td><td>{escape(c['kind'])} {escape(c['name'])}</td>"
                   f"<td class=\"status {escape(c['verified'].replace(' ', '-'))}\">{escape(c['verified'])}</td><td>{escape(c['detail'])}</td></tr>"
                   for c in summary.claims)
    return ("<details><summary>What the document claims, and what the run verified</summary><table><thead><tr><th>Agent</th>"
            f"<th>Claims</th><th>Verified</th><th>Detail</th></tr></thead><tbody>{rows}</tbody></table></details>")


def _coverage(summary: Summary) -> str:
    if not summary.coverage:
        return ""
    rows = "".join(f"<tr><td>{escape(a['id'])}</td><td class=\"status {'pass' if a['exercised'] else 'fail'}\">"
                   f"{'yes' if a['exercised'] else 'no'}</td><td>{escape(' '.join(a['requirements']))}</td>"
                   f"<td>{escape(a.get('why', ''))}</td></tr>" for a in summary.coverage[:_AGENT_ROWS])
    exercised = len(summary.coverage) - len(summary.unexercised)
    return (f"<details{' open' if summary.unexercised else ''}><summary>Agents: {exercised} of {len(summary.coverage)} exercised"
            "</summary><table><thead><tr><th>Agent</th><th>Exercised</th><th>Requirements judged on it</th><th>Why not</th></tr>"
            f"</thead><tbody>{rows}</tbody></table></details>")


def _repeated(summary: Summary, results: list[Result]) -> str:
    if summary.runs == 1:
        return f'<p class="meta">{escape(ONE_RUN)}.</p>'
    judged = sorted((r for r in results if r.repeat and r.repeat["rate"] is not None),
                    key=lambda r: (not r.repeat["flaky"], -(r.repeat["rate"] or 0), r.requirement))  # type: ignore[index]
    rows = "".join(f"<tr><td>{escape(r.requirement)}</td><td>{escape(r.level)}</td><td>{r.repeat['runs']}</td>"  # type: ignore[index]
                   f"<td>{r.repeat['failures']}</td><td>{r.repeat['errors']}</td><td>{r.repeat['rate']:.1%}</td>"  # type: ignore[index]
                   f"<td>{r.repeat['upper_bound']:.1%}</td><td>{'flaky' if r.repeat['flaky'] else ''}</td></tr>"  # type: ignore[index]
                   for r in judged)
    method = escape(f"{judged[0].repeat['method']}, {judged[0].repeat['confidence']:.0%}") if judged else ""  # type: ignore[index]
    return (f"<details open><summary>Over {summary.runs} runs (upper bounds: {method})</summary><table><thead><tr>"
            "<th>Requirement</th><th>Level</th><th>Runs</th><th>Failures</th><th>Errors</th><th>Violation rate</th>"
            f"<th>Upper bound</th><th>Flaky</th></tr></thead><tbody>{rows}</tbody></table></details>")


#: Agents listed in the page; the rest are in report.json.
_AGENT_ROWS = 1_000


class HtmlWriter(Collected):
    filename: ClassVar[str] = "report.html"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        cacert = header.options.get("cacert") if isinstance(header.options.get("cacert"), str) else None
        digest = base64.b64encode(hashlib.sha256(_SCRIPT.encode()).digest()).decode()
        policy = f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-{digest}'"
        drafts = sorted({r.draft for r in results})
        options = "".join(f'<option value="{escape(d)}">{escape(d.upper())}</option>' for d in drafts)
        checks = "".join(f'<label><input type="checkbox" class="status-filter" value="{s.value}" checked> {s.value}</label>' for s in Status)
        unfinished = "" if summary.complete else f" — incomplete: {escape(summary.completion)}"
        blocker = f"<p><strong>Nothing could be certified:</strong> {escape(summary.blocker)}</p>" if summary.blocker else ""
        return (
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>agent-conformance: {escape(summary.headline)}</title><style>{_STYLE}</style></head><body>"
            f"<header><h1>agent-conformance: {escape(summary.headline)}{unfinished}</h1>"
            f'<p class="meta">Target {escape(header.target)} · suites {escape(", ".join(header.suites))} · binding '
            f"{escape(header.binding)} · agent-conformance {escape(header.tool_version)} · {escape(header.started)}</p>{blocker}"
            f'<div class="drafts">{"".join(_draft_card(d, lvl, summary) for d, lvl in summary.levels.items())}</div>'
            f"{_repeated(summary, results)}{_coverage(summary)}{_claims(summary)}</header>"
            f'<main><div class="filters"><label>Draft <select id="draft"><option value="">all</option>{options}</select></label>'
            '<label>Level <select id="level"><option value="">all</option><option>MUST</option><option>SHOULD</option>'
            f'<option>MAY</option></select></label>{checks}<input id="search" type="search" placeholder="Search">'
            '<span id="shown"></span></div>'
            "<table><thead><tr><th>Requirement</th><th>Section</th><th>Level</th><th>Status</th><th>Sentence, message and evidence</th>"
            f"</tr></thead><tbody>{''.join(_row(r, cacert) for r in results)}</tbody></table></main>"
            f"<script>{_SCRIPT}</script></body></html>\n"
        )
