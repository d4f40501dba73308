"""junit.xml: one <testcase> per result, grouped in one <testsuite> per draft.

fail -> <failure>, error -> <error>, skip / not-applicable / waived -> <skipped> with the reason;
the requirement's level and section travel in the testcase's classname and properties, and each
testsuite carries its own draft's compliance level. Whatever a target sent, the file is well-formed
XML 1.0: characters XML cannot hold are written as visible escapes (\x07).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from itertools import groupby
from typing import ClassVar

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


def _safe_tree(element: ET.Element) -> None:
    for node in element.iter():
        if node.text:
            node.text = xml_safe(node.text)
        for name, value in node.attrib.items():
            node.attrib[name] = xml_safe(value)


def _seconds(ms: float) -> str:
    return f"{ms / 1000:.3f}"


def _evidence(result: Result) -> str:
    lines = []
    for exchange in result.evidence:
        lines.append(f"{exchange.method} {exchange.url} -> {exchange.status or exchange.error}")
        if exchange.response_body:
            lines.append(
                exchange.response_body + (" [truncated]" if exchange.response_truncated else "")
            )
    return "\n".join(lines)


def _testcase(result: Result) -> ET.Element:
    case = ET.Element(
        "testcase",
        classname=f"{result.draft}.{result.section}.{result.level}",
        name=result.requirement,
        time=_seconds(result.duration_ms),
    )
    text = f"[{result.level}] {result.message}"
    if result.status is Status.FAIL:
        ET.SubElement(case, "failure", message=text, type=result.level).text = _evidence(result)
    elif result.status is Status.ERROR:
        ET.SubElement(case, "error", message=text, type="error").text = _evidence(result)
    elif result.status in _SKIPPED:
        kind = f" ({result.skip.value})" if result.skip is not None else ""
        ET.SubElement(case, "skipped", message=f"{result.status.value}{kind}: {result.message}")
    properties = ET.SubElement(case, "properties")
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
            ET.SubElement(properties, "property", name=name, value=value)
    return case


class JunitWriter(Collected):
    filename: ClassVar[str] = "junit.xml"

    def render(self, header: RunHeader, results: list[Result], summary: Summary) -> str:
        root = ET.Element("testsuites", name=f"agent-conformance {header.target}")
        for draft, group in groupby(sorted(results, key=lambda r: r.draft), key=lambda r: r.draft):
            members = list(group)
            suite = ET.SubElement(
                root,
                "testsuite",
                name=draft,
                timestamp=header.started,
                tests=str(len(members)),
                failures=str(sum(r.status is Status.FAIL for r in members)),
                errors=str(sum(r.status is Status.ERROR for r in members)),
                skipped=str(sum(r.status in _SKIPPED for r in members)),
                time=_seconds(sum(r.duration_ms for r in members)),
            )
            properties = ET.SubElement(suite, "properties")
            for name, value in (
                ("target", header.target),
                ("tool_version", header.tool_version),
                ("compliance", summary.levels.get(draft, summary.level)),
                ("completion", summary.completion),
            ):
                ET.SubElement(properties, "property", name=name, value=value)
            suite.extend(_testcase(r) for r in members)
        for attribute in ("tests", "failures", "errors", "skipped"):
            root.set(attribute, str(sum(int(s.get(attribute, "0")) for s in root)))
        root.set("time", _seconds(summary.duration_ms))
        _safe_tree(root)
        ET.indent(root)
        return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
