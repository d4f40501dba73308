"""The exit-code contract (conformance/engine/gate.py), case by case, as the README's table
states it."""

from __future__ import annotations

import pytest

from conformance.engine.gate import ExitCode
from conformance.engine.gate import decide
from conformance.engine.gate import gated
from conformance.report import Result
from conformance.report import Status
from conformance.report import summarize
from conformance.requirements import catalogue

WOA_MUST, SDSI_MUST = catalogue()["WOA-4-VERSION-1"], catalogue()["SDSI-4.3-OTHER-OPTIONAL"]
SHOULD = catalogue()["WOA-7-CACHING-HEADERS"]


def _code(
    *pairs: tuple[object, Status], completion: str = "complete", blocker: str | None = None
) -> int:
    results = [Result.of(r, s, "") for r, s in pairs]  # type: ignore[arg-type]
    return decide(summarize(results, completion=completion, blocker=blocker)).code


@pytest.mark.parametrize(
    ("pairs", "completion", "blocker", "code"),
    [
        ([(WOA_MUST, Status.PASS), (SHOULD, Status.FAIL)], "complete", None, ExitCode.PASSED),
        (
            [(WOA_MUST, Status.FAIL), (WOA_MUST, Status.PASS)],
            "complete",
            None,
            ExitCode.MUST_FAILED,
        ),
        (
            [(WOA_MUST, Status.ERROR), (WOA_MUST, Status.PASS)],
            "complete",
            None,
            ExitCode.INCONCLUSIVE,
        ),
        ([(WOA_MUST, Status.PASS)], "interrupted", None, ExitCode.INCONCLUSIVE),
        ([(WOA_MUST, Status.PASS)], "out-of-budget", None, ExitCode.INCONCLUSIVE),
        ([(WOA_MUST, Status.FAIL)], "interrupted", None, ExitCode.MUST_FAILED),
        (
            [(WOA_MUST, Status.NOT_APPLICABLE), (SHOULD, Status.PASS)],
            "complete",
            None,
            ExitCode.NOT_CERTIFIED,
        ),
        ([(WOA_MUST, Status.SKIP)], "complete", None, ExitCode.NOT_CERTIFIED),
        ([], "complete", None, ExitCode.NOT_CERTIFIED),
        (
            [(WOA_MUST, Status.ERROR), (WOA_MUST, Status.FAIL)],
            "complete",
            "the WoA document could not be obtained",
            ExitCode.NOT_CERTIFIED,
        ),
    ],
)
def test_exit_code(
    pairs: list[tuple[object, Status]], completion: str, blocker: str | None, code: ExitCode
) -> None:
    assert _code(*pairs, completion=completion, blocker=blocker) == code


def test_each_draft_has_its_own_level() -> None:
    summary = summarize(
        [Result.of(WOA_MUST, Status.PASS, ""), Result.of(SDSI_MUST, Status.FAIL, "")]
    )
    assert summary.level == "non-compliant"
    assert summary.levels == {"woa": "SHOULD-compliant", "sdsi": "non-compliant"}


def test_the_report_carries_the_gate_and_reads_back() -> None:
    summary = gated(summarize([Result.of(WOA_MUST, Status.PASS, "")], completion="interrupted"))
    data = summary.as_dict()
    assert data["gate"] == {
        "exit_code": 4,
        "kind": "interrupted",
        "reason": "the run was interrupted: what it judged is part of what it meant to",
        "headline": "incomplete: interrupted",
        "drafts": {"woa": "incomplete: interrupted"},
    }
    assert type(summary).from_dict(data) == summary
