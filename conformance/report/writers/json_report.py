"""report.json: the whole report in one document, described by report.schema.json."""

from __future__ import annotations

import json
from typing import Any
from typing import ClassVar

from ..compliance import Summary
from ..model import Result
from ..model import RunHeader
from ._collect import Collected

__all__ = ["JsonReportWriter", "report_document"]

SCHEMA_ID = "https://schemas.agent-conformance.invalid/report/v1.json"
#: Agents listed one by one in coverage.agents; a document that advertises more (a hostile one) is
#: counted whole.
MAX_AGENTS = 10_000


def report_document(
    header: RunHeader, results: list[Result], summary: Summary
) -> dict[str, object]:
    return {
        "$schema": SCHEMA_ID,
        "header": header.as_dict(),
        "summary": summary.as_dict(),
        "coverage": {
            "agents": list(summary.coverage[:MAX_AGENTS]),
            "advertised": len(summary.coverage),
            "listed": min(len(summary.coverage), MAX_AGENTS),
        },
        "results": [_with_curl(r.as_dict(), r, header.cacert) for r in results],
    }


def _with_curl(document: dict[str, Any], result: Result, cacert: str | None) -> dict[str, Any]:
    """A result, each exchange of its evidence with the curl command that sends it again."""
    document["evidence"] = [
        e | {"curl": exchange.curl(cacert)}
        for e, exchange in zip(document["evidence"], result.evidence, strict=True)
    ]
    return document


class JsonReportWriter(Collected):
    filename: ClassVar[str] = "report.json"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        return (
            json.dumps(report_document(header, results, summary), indent=2, ensure_ascii=False)
            + "\n"
        )
