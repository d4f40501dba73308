"""What a check needs before it can judge is declared on it (`@check(..., needs=...)`,
`checks_of_table(..., needs=...)`) and asked before it runs: an unmet need is the verdict, and
the check's body never runs."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from conformance.checks import CHECKS
from conformance.checks.preconditions import document_read
from conformance.checks.registry import Check
from conformance.checks.registry import Decided
from conformance.checks.registry import Verdict
from conformance.checks.registry import passed
from conformance.checks.woa.document import APPLIES
from conformance.checks.woa.invocation_session import JUDGED_ON
from conformance.report import Skip
from conformance.report import Status


async def test_an_unmet_need_is_the_verdict_and_the_body_never_runs() -> None:
    ran: list[str] = []

    async def body(target: Any) -> Verdict:
        ran.append("body")
        return passed("judged")

    unread = SimpleNamespace(
        document=["not", "an", "object"], discovery=SimpleNamespace(problem=None, response=None)
    )
    made = Check("woa_4_1_x", "WOA-4.1-AGENT-ID-UNIQUE", body, needs=(document_read,))
    with pytest.raises(Decided) as decided:
        await made.judged(unread)  # type: ignore[arg-type]
    verdict = decided.value.verdict
    assert verdict.status is Status.SKIP and verdict.skip is Skip.DEPENDS_ON
    assert "WOA-4-DOCUMENT-OBJECT" in verdict.message and ran == []


def test_the_checks_that_start_from_the_document_declare_it() -> None:
    starting = {*APPLIES, *JUDGED_ON, "WOA-8.1-NO-PLAIN-HTTP", "WOA-5.3-MCP-TOOL-INVOCATION"}
    for made in CHECKS.values():
        if made.requirement in starting:
            assert document_read in made.needs, made.name
