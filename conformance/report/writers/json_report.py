"""report.json: the whole report in one document, described by report.schema.json."""

from __future__ import annotations

import json
from typing import ClassVar

from ..compliance import Summary
from ..model import Result, RunHeader
from ._collect import Collected

__all__ = ["JsonReportWriter", "report_document"]

SCHEMA_ID = "https://schemas.agent-conformance.invalid/report/v1.json"
#: Agents listed one by one in coverage.agents; a document that advertises more (a hostile one) is counted whole.
MAX_AGENTS = 10_000


def report_document(header: RunHeader, results: list[Result], summary: Summary) -> dict[str, object]:
    return {"$schema": SCHEMA_ID, "header": header.as_dict(), "summary": summary.as_dict(),
            "coverage": {"agents": list(summary.coverage[:MAX_AGENTS]), "advertised": len(summary.coverage),
                         "listed": min(len(summary.coverage), MAX_AGENTS)},
            "results": [r.as_dict() for r in results]}


class JsonReportWriter(Collected):
    filename: ClassVar[str] = "report.json"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        return json.dumps(report_document(header, results, summary), indent=2, ensure_ascii=False) + "\n"
