"""Conformant variations of one HTTP answer: each changes the answer in a way the drafts (or the
RFCs they rest on) allow, so the suite must judge the varied answer as it judged the reference's. A
variation that newly fails or errors a requirement is an over-assertion of that requirement's
check: the mutants' mirror image (mutants prove a check can fail; variations that it fails
nothing the text allows).

    VARIATIONS["reorder-members"].apply(answer)  ->  True if it changed the answer

Each names the sentence that allows it. They act on the whole answer, as an encoding or an HTTP
detail does; what the drafts allow member by member (an array the text gives no order, an
unknown member where an object is open) is in equivalents.json, judged with the mutants.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .operators import Answer

__all__ = ["VARIATIONS", "Variation"]


@dataclass(frozen=True)
class Variation:
    name: str
    apply: Callable[[Answer], bool]
    allowed_by: str  # the sentence that allows it


def _json(answer: Answer) -> Any:
    try:
        return json.loads(answer.body)
    except ValueError:
        return _NOT_JSON


_NOT_JSON = object()


def _rewrite(answer: Answer, body: bytes) -> bool:
    """The answer with `body`; a detached signature over the old bytes goes with them (the
    suite's signing convention is optional, E-SDSI-7-SIGNED-MESSAGES: a host that writes its
    JSON another way signs those bytes or none)."""
    if body == answer.body:
        return False
    answer.body = body
    answer.headers = [(n, v) for n, v in answer.headers if n.lower() != b"jws-signature"]
    return True


def _reversed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reversed(value[k]) for k in reversed(value)}
    if isinstance(value, list):
        return [_reversed(v) for v in value]
    return value


def reorder_members(answer: Answer) -> bool:
    value = _json(answer)
    if value is _NOT_JSON:
        return False
    return _rewrite(answer, json.dumps(_reversed(value), ensure_ascii=False).encode())


def reformat_whitespace(answer: Answer) -> bool:
    """Tabs, CRLF and a leading and trailing blank: the four characters RFC 8259 section 2 calls
    insignificant whitespace (json.dumps escapes every line break inside a string, so each one
    left is between tokens)."""
    value = _json(answer)
    if value is _NOT_JSON:
        return False
    text = json.dumps(value, indent="\t", ensure_ascii=False).replace("\n", "\r\n")
    return _rewrite(answer, f" \r\n{text}\t\n".encode())


def escape_characters(answer: Answer) -> bool:
    """Every non-ASCII character as a \\u escape (a surrogate pair beyond the BMP) and every
    solidus as \\/: RFC 8259 section 7 lets any character be escaped so."""
    value = _json(answer)
    if value is _NOT_JSON:
        return False
    return _rewrite(answer, json.dumps(value, ensure_ascii=True).replace("/", "\\/").encode())


def label_charset(answer: Answer) -> bool:
    """A JSON answer labelled `charset=utf-8` (RFC 8259 section 11: the parameter has no effect);
    one labelled already, without it."""
    media = answer.media_type
    if not (media == "application/json" or media.endswith("+json")):
        return False
    labelled = any(
        b"charset" in v.lower() for n, v in answer.headers if n.lower() == b"content-type"
    )
    answer.set_media_type(media if labelled else f"{media}; charset=utf-8")
    return True


def capitalize_headers(answer: Answer) -> bool:
    """Header field names are case-insensitive (RFC 9110 section 5.1)."""
    if not answer.headers:
        return False
    answer.headers = [(n.title(), v) for n, v in answer.headers]
    return True


def add_headers(answer: Answer) -> bool:
    """Fields a recipient does not recognize are ignored (RFC 9110 section 5.1)."""
    answer.headers = [
        *answer.headers,
        (b"server", b"variation/1.0"),
        (b"x-request-id", b"3f1e0c7a-variation"),
    ]
    return True


def chunk_body(answer: Answer) -> bool:
    """The body in several pieces, without a Content-Length (RFC 9112 section 7.1)."""
    if len(answer.body) < 2:
        return False
    answer.chunks = 3
    return True


#: Answers at a site that the slower variation slows: enough to show the checks wait for them,
#: few enough that a site a lifecycle drive calls 240 times is not 36 s of sleep.
SLOWED = 8


def delay_within_deadline(answer: Answer) -> bool:
    """A slower answer, well inside the run's deadline: no draft fixes a latency (the first
    `SLOWED` at the site)."""
    if answer.index >= SLOWED:
        return False
    answer.delay = 0.15
    return True


VARIATIONS: dict[str, Variation] = {
    v.name: v
    for v in (
        Variation(
            "reorder-members",
            reorder_members,
            "RFC 8259 section 4: JSON parsing libraries have been observed to differ as to"
            " whether or not they make the ordering of object members visible to calling"
            " software; an object is an unordered collection",
        ),
        Variation(
            "reformat-whitespace",
            reformat_whitespace,
            "RFC 8259 section 2: Insignificant whitespace is allowed before or after any of the"
            " six structural characters",
        ),
        Variation(
            "escape-characters",
            escape_characters,
            "RFC 8259 section 7: Any character may be escaped",
        ),
        Variation(
            "label-charset",
            label_charset,
            "RFC 8259 section 11: No charset parameter is defined for this registration. Adding"
            " one really has no effect on compliant recipients",
        ),
        Variation(
            "capitalize-headers",
            capitalize_headers,
            "RFC 9110 section 5.1: Field names are case-insensitive",
        ),
        Variation(
            "add-headers",
            add_headers,
            "RFC 9110 section 5.1: A recipient MUST ignore unrecognized header fields (as a"
            " proxy need not)",
        ),
        Variation(
            "chunk-body",
            chunk_body,
            "RFC 9112 section 6.1: a message body in chunks, its length unknown in advance",
        ),
        Variation(
            "delay-within-deadline",
            delay_within_deadline,
            "no draft sentence fixes how fast an agent answers",
        ),
    )
}
