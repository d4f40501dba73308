"""junit.xml: one <testcase> per result, grouped in one <testsuite> per draft, written with
junitparser.

fail -> <failure>, error -> <error>, skip / not-applicable / waived -> <skipped> with the reason;
the requirement's level and section travel in the testcase's classname and properties, and each
testsuite carries its own draft's verdict. The run's outcome is a testcase of its own (testsuite
`agent-conformance`, testcase `outcome`): passed when the run exits 0, a <failure> when it exits 1,
an <error> otherwise, with the reason; and a draft the run did not judge whole (cut short, not
certified) has an errored testcase `<DRAFT>-RUN`, so that a CI view that counts only failures and
errors never shows a green run the exit code failed. Whatever a target sent, the file is well-formed
XML 1.0: characters XML cannot hold are written as visible escapes (\x07).
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import ClassVar

from junitparser import Error
from junitparser import Failure
from junitparser import JUnitXml
from junitparser import Properties
from junitparser import Property
from junitparser import Skipped
from junitparser import TestCase
from junitparser import TestSuite

from ..compliance import Summary
from ..model import Result
from ..model import RunHeader
from ..model import Status
from ..outcome import Outcome
from ..outcome import told
from ._collect import Collected

__all__ = ["JunitWriter", "xml_safe"]

_SKIPPED = {Status.SKIP, Status.NOT_APPLICABLE, Status.WAIVED}
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_safe(text: str) -> str:
    """`text` with every character XML 1.0 forbids (control bytes, lone surrogates, U+FFFE)
    escaped visibly."""
    return _NOT_XML.sub(
        lambda m: (
            f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )


def _seconds(ms: float) -> float:
    return round(ms / 1000, 3)


def _evidence(result: Result) -> str:
    lines = []
    for exchange in result.evidence:
        lines.append(f"{exchange.method} {exchange.url} -> {exchange.status or exchange.error}")
        if exchange.response_body:
            lines.append(
                exchange.response_body + (" [truncated]" if exchange.response_truncated else "")
            )
    return xml_safe("\n".join(lines))


def _outcome(result: Result) -> Failure | Error | Skipped | None:
    text = xml_safe(f"[{result.level}] {result.message}")
    if result.status is Status.FAIL:
        failure = Failure(text, result.level)
        failure.text = _evidence(result)
        return failure
    if result.status is Status.ERROR:
        error = Error(text, "error")
        error.text = _evidence(result)
        return error
    if result.status in _SKIPPED:
        kind = f" ({result.skip.value})" if result.skip is not None else ""
        return Skipped(xml_safe(f"{result.status.value}{kind}: {result.message}"))
    return None


def _testcase(result: Result) -> TestCase:
    case = TestCase(
        result.requirement,
        classname=f"{result.draft}.{result.section}.{result.level}",
        time=_seconds(result.duration_ms),
    )
    outcome = _outcome(result)
    if outcome is not None:
        case.result = [outcome]
    proof = result.proof
    proven = (
        f"faults {', '.join(proof.get('faults', [])) or 'none'}; {proof.get('mutants_killed', 0)}"
        " mutants killed" + "".join(f"; test {test}" for test in proof.get("tests", []))
        if proof
        else ""
    )
    repeat = {
        f"repeat.{key}": "" if value is None else str(value)
        for key, value in (result.repeat or {}).items()
    }
    properties = Properties()
    for name, value in (
        ("section", result.section),
        ("level", result.level),
        ("basis", result.basis),
        ("quote", result.quote),
        ("check", result.check or ""),
        ("proof", proven),
        *repeat.items(),
    ):
        if value:
            properties.append(Property(name, xml_safe(value)))
    case.append(properties)
    return case


#: A draft's verdict that is no level: what kept the run from judging the draft whole.
_UNJUDGED = ("incomplete", "not certified")


def _outcome_suite(outcome: Outcome, header: RunHeader) -> TestSuite:
    """The run's outcome as a testcase: passed exactly when the run exits 0."""
    suite = TestSuite("agent-conformance")
    suite.timestamp = header.started
    case = TestCase("outcome", classname="agent-conformance")
    said = xml_safe(f"{outcome.headline} (exit {outcome.code}): {outcome.reason}")
    if outcome.code == 1:
        case.result = [Failure(said, outcome.kind)]
    elif outcome.code:
        case.result = [Error(said, outcome.kind)]
    properties = Properties()
    for name, value in (("exit_code", str(outcome.code)), ("kind", outcome.kind)):
        properties.append(Property(name, value))
    case.append(properties)
    suite.add_testcase(case)
    suite.update_statistics()
    return suite


def _unjudged(draft: str, verdict: str, outcome: Outcome) -> TestCase | None:
    """An errored testcase for a draft the run did not judge whole."""
    if not verdict.startswith(_UNJUDGED):
        return None
    case = TestCase(f"{draft.upper()}-RUN", classname=f"{draft}.run")
    case.result = [Error(xml_safe(f"{verdict}: {outcome.reason}"), outcome.kind)]
    return case


class JunitWriter(Collected):
    filename: ClassVar[str] = "junit.xml"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        report = JUnitXml(xml_safe(f"agent-conformance {header.target}"))
        outcome = told(summary)
        report.add_testsuite(_outcome_suite(outcome, header))
        for draft, group in groupby(sorted(results, key=lambda r: r.draft), key=lambda r: r.draft):
            suite = TestSuite(draft)
            suite.timestamp = header.started
            verdict = outcome.drafts.get(draft, summary.levels.get(draft, summary.level))
            for name, value in (
                ("target", header.target),
                ("revision", header.as_dict()["drafts"].get(draft, "")),
                ("tool_version", header.tool_version),
                ("compliance", verdict),
                ("completion", summary.completion),
                ("credentials", str(header.options.get("credentials", "redacted"))),
            ):
                suite.add_property(name, xml_safe(value))
            unjudged = _unjudged(draft, verdict, outcome)
            if unjudged is not None:
                suite.add_testcase(unjudged)
            for result in group:
                suite.add_testcase(_testcase(result))
            suite.update_statistics()
            report.add_testsuite(suite)
        report.update_statistics()
        report.time = _seconds(summary.duration_ms)
        written: bytes = report.tostring()
        return written.decode().rstrip("\n") + "\n"
