"""The compliance level follows the documented rules."""

from __future__ import annotations

import pytest

from conformance.report import Result
from conformance.report import Status
from conformance.report import summarize
from conformance.requirements import catalogue

MUST, SHOULD = catalogue()["WOA-4-VERSION-1"], catalogue()["WOA-7-CACHING-HEADERS"]


def _level(*pairs: tuple[object, Status]) -> str:
    return summarize([Result.of(r, s, "") for r, s in pairs]).level  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("pairs", "level"),
    [
        ([(MUST, Status.FAIL), (MUST, Status.PASS)], "non-compliant"),
        ([(MUST, Status.ERROR), (MUST, Status.PASS)], "inconclusive"),
        ([(MUST, Status.SKIP), (SHOULD, Status.PASS)], "untested"),
        ([], "untested"),
        ([(MUST, Status.PASS), (SHOULD, Status.FAIL)], "MUST-compliant"),
        ([(MUST, Status.PASS), (SHOULD, Status.ERROR)], "MUST-compliant"),
        ([(MUST, Status.PASS), (MUST, Status.SKIP), (SHOULD, Status.PASS)], "SHOULD-compliant"),
        ([(MUST, Status.WAIVED), (SHOULD, Status.NOT_APPLICABLE)], "SHOULD-compliant"),
    ],
)
def test_level(pairs: list[tuple[object, Status]], level: str) -> None:
    assert _level(*pairs) == level


def test_skips_are_counted_as_untested_never_as_passed() -> None:
    summary = summarize(
        [Result.of(MUST, Status.SKIP, "no check yet"), Result.of(MUST, Status.PASS, "")]
    )
    assert summary.untested_must == 1 and summary.count("MUST", Status.PASS) == 1


def test_a_must_only_selection_earns_must_compliant_and_says_so() -> None:
    """The issue's case: with only MUSTs selected every SHOULD is a skip; nothing earns
    SHOULD-compliant, and the headline names the selection."""
    from conformance.targeting.selection import Selection

    results = [
        Result.of(MUST, Status.PASS, ""),
        Result.of(SHOULD, Status.SKIP, "not selected: --level MUST"),
    ]
    summary = summarize(results, selection=Selection(levels=("MUST",)).label())
    assert summary.level == "MUST-compliant" and summary.earned == "MUST-compliant (MUST selected)"
