"""The "Implementation Status" section RFC 7942 asks a draft to carry, per draft and revision: its
boilerplate (RFC 7942 Section 2), then each implementation with what RFC 7942 lists (name,
description, maturity, coverage, licensing, contact, last update), what the suite found, the
interop pairs it took part in, and the requirements fewer than two implementations pass. In
Markdown (for kramdown-rfc and plain drafts) and as an xml2rfc v3 <section>."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from .views import DraftView
from .views import Implementation

__all__ = ["status_markdown", "status_xml"]

RFC7942 = "https://www.rfc-editor.org/info/rfc7942"
#: RFC 7942 Section 2's text, which drafts carry as it stands.
BOILERPLATE = (
    "Note to RFC Editor: Please remove this section and the reference to RFC 7942 before"
    " publication.",
    "This section records the status of known implementations of the protocol defined by this"
    " specification at the time of posting of this Internet-Draft, and is based on a proposal"
    " described in RFC 7942. The description of implementations in this section is intended to"
    " assist the IETF in its decision processes in progressing drafts to RFCs. Please note that"
    " the listing of any individual implementation here does not imply endorsement by the IETF."
    " Furthermore, no effort has been spent to verify the information presented here that was"
    " supplied by IETF contributors. This is not intended as, and must not be construed to be, a"
    " catalog of available implementations or their features. Readers are advised to note that"
    " other implementations may exist.",
    'According to RFC 7942, "this will allow reviewers and working groups to assign due'
    " consideration to documents that have the benefit of running code, which may serve as"
    " evidence of valuable experimentation and feedback that have made the implemented protocols"
    " more mature. It is up to the individual working groups to use this information as they"
    ' see fit".',
)
TO_SUPPLY = "(to be supplied by the implementers)"


def _coverage(view: DraftView, implementation: Implementation) -> str:
    counts = []
    for level in ("MUST", "SHOULD", "MAY"):
        rows = [r for r in view.rows if r.requirement.level == level]
        passed = sum(implementation.status(r.requirement.id) == "pass" for r in rows)
        counts.append(f"{passed} of {len(rows)} {level}")
    failed = sorted(
        r.requirement.id
        for r in view.rows
        if implementation.status(r.requirement.id) in ("fail", "error")
    )
    return (
        f"passes {', '.join(counts)} requirements"
        + (f"; fails or errs on {', '.join(failed)}" if failed else "")
        + f" (agent-conformance's verdict: {implementation.verdict})"
    )


def _pairs(view: DraftView, implementation: Implementation) -> str:
    mine = [c for c in view.cells if implementation.label in (c.get("client"), c.get("server"))]
    if not mine:
        return ""
    working = [c for c in mine if c.get("outcome") == "interoperates"]
    return f"interoperates in {len(working)} of {len(mine)} interop pairs"


def _fields(view: DraftView, implementation: Implementation, version: str) -> list[tuple[str, str]]:
    return [
        ("Organization", TO_SUPPLY),
        ("Implementation", implementation.label),
        (
            "Description",
            f"an implementation of {view.revision}, certified at {implementation.target}",
        ),
        ("Maturity", TO_SUPPLY),
        ("Coverage", _coverage(view, implementation)),
        ("Interoperability", _pairs(view, implementation) or "not measured"),
        ("Licensing", TO_SUPPLY),
        ("Contact", TO_SUPPLY),
        ("Last update", f"{implementation.started[:10]} (agent-conformance {version})"),
    ]


def _certified(view: DraftView, version: str) -> str:
    return (
        f"The {len(view.implementations)} implementations below were certified by"
        f" agent-conformance {version} against {view.revision}; each requirement's verdict is in"
        " its report."
    )


def _thin(view: DraftView) -> str:
    return (
        f"{len(view.thin)} of the {len(view.rows)} requirements of {view.revision} are passed by"
        f" fewer than two implementations ({len(view.unimplemented)} are failed by every"
        f" implementation judged on them, {len(view.unjudged)} are judged by none):"
    )


def status_markdown(view: DraftView, version: str) -> str:
    """The section in Markdown."""
    lines = ["# Implementation Status", "", *(f"{p}\n" for p in BOILERPLATE)]
    lines += [_certified(view, version), ""]
    for implementation in view.implementations:
        lines += [f"## {implementation.label}", ""]
        lines += [f"{name}:\n: {value}\n" for name, value in _fields(view, implementation, version)]
    lines += ["## Requirements with fewer than two implementations", "", _thin(view), ""]
    lines += ["| Requirement | Level | Section | Passing |", "|---|---|---|---|"]
    lines += [
        f"| {r.requirement.id} | {r.requirement.level} | {r.requirement.section} | {r.passing} |"
        for r in view.thin
    ]
    return "\n".join(lines) + "\n"


def _text(parent: ET.Element, tag: str, text: str, **attributes: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attributes)
    element.text = text
    return element


def status_xml(view: DraftView, version: str) -> str:
    """The section as an xml2rfc v3 <section> element (RFC 7991), to paste into <middle>."""
    section = ET.Element("section", {"anchor": f"implementation-status-{view.draft}"})
    _text(section, "name", "Implementation Status")
    for paragraph in BOILERPLATE:
        before, _, after = paragraph.partition("RFC 7942")
        t = _text(section, "t", before)
        link = _text(t, "eref", "RFC 7942", target=RFC7942)
        link.tail = after
    _text(section, "t", _certified(view, version))
    for n, implementation in enumerate(view.implementations):
        own = ET.SubElement(section, "section", {"anchor": f"implementation-{view.draft}-{n + 1}"})
        _text(own, "name", implementation.label)
        listed = ET.SubElement(own, "dl")
        for name, value in _fields(view, implementation, version):
            _text(listed, "dt", f"{name}:")
            _text(listed, "dd", value)
    thin = ET.SubElement(section, "section", {"anchor": f"implementation-{view.draft}-thin"})
    _text(thin, "name", "Requirements with fewer than two implementations")
    _text(thin, "t", _thin(view))
    if view.thin:
        table = ET.SubElement(thin, "table")
        head = ET.SubElement(ET.SubElement(table, "thead"), "tr")
        for name in ("Requirement", "Level", "Section", "Passing"):
            _text(head, "th", name)
        body = ET.SubElement(table, "tbody")
        for row in view.thin:
            line = ET.SubElement(body, "tr")
            for value in (row.requirement.id, row.requirement.level, row.requirement.section):
                _text(line, "td", str(value))
            _text(line, "td", str(row.passing))
    ET.indent(section)
    return ET.tostring(section, encoding="unicode") + "\n"
