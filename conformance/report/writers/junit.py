"""junit.xml: one <testcase> per result, grouped in one <testsuite> per draft, written with
junitparser.

fail -> <failure>, error -> <error>, skip / not-applicable / waived -> <skipped> with the reason;
the requirement's level and section travel in the testcase's classname and properties, and each
testsuite carries its own draft's compliance level. Whatever a target sent, the file is well-formed
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
        " mutants killed"
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


class JunitWriter(Collected):
    filename: ClassVar[str] = "junit.xml"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        report = JUnitXml(xml_safe(f"agent-conformance {header.target}"))
        for draft, group in groupby(sorted(results, key=lambda r: r.draft), key=lambda r: r.draft):
            suite = TestSuite(draft)
            suite.timestamp = header.started
            for name, value in (
                ("target", header.target),
                ("tool_version", header.tool_version),
                ("compliance", summary.levels.get(draft, summary.level)),
                ("completion", summary.completion),
            ):
                suite.add_property(name, xml_safe(value))
            for result in group:
                suite.add_testcase(_testcase(result))
            suite.update_statistics()
            report.add_testsuite(suite)
        report.update_statistics()
        report.time = _seconds(summary.duration_ms)
        written: bytes = report.tostring()
        return written.decode().rstrip("\n") + "\n"
