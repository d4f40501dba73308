"""WOA-5.2-SUCCESS-2XX as the sentence reads: only an answer that succeeded (its body conforms to
the outputs schema, not problem details) under a status that is neither 2xx nor an error fails; a
redirect is not a success, a 4xx or 5xx is the host's own error, and a body that outputs taking
any object would accept is no sign of one."""

from __future__ import annotations

import httpx
import pytest

from conformance.bindings.http import HttpResponse
from conformance.checks.woa.invocation import _succeeded_elsewhere
from conformance.checks.woa.invocation_session import Probe
from conformance.report.model import Exchange

OUTPUTS = {"type": "object", "required": ["summary"]}
DOCUMENT = {"agents": [{"id": "a", "inputs": {"type": "object"}, "outputs": OUTPUTS}]}


def _probe(status: int, headers: dict[str, str], body: bytes = b'{"summary": "x"}') -> Probe:
    probe = Probe("valid", "a", None, "input {}", "https://h/a")
    probe.response = HttpResponse(
        status, httpx.Headers(headers), body, "https://h/a", Exchange("POST", "https://h/a")
    )
    return probe


@pytest.mark.parametrize(
    ("status", "headers", "succeeded"),
    [
        (
            300,
            {"content-type": "application/json"},
            True,
        ),  # the output, under a status that is no success
        (307, {"content-type": "application/json", "location": "https://h/b"}, False),  # a redirect
        (
            422,
            {"content-type": "application/json"},
            False,
        ),  # the host's own error, whatever its body
        (503, {"content-type": "application/json"}, False),
        (300, {"content-type": "application/problem+json"}, False),
        (200, {"content-type": "application/json"}, False),  # a 2xx is judged as such
    ],
)
def test_only_a_success_under_another_status_fails(
    status: int, headers: dict[str, str], succeeded: bool
) -> None:
    assert _succeeded_elsewhere(_probe(status, headers), DOCUMENT) is succeeded


def test_a_300_under_outputs_that_take_any_object_is_no_success() -> None:
    """A 300 Multiple Choices listing its choices conforms to outputs of {"type": "object"}:
    that says nothing of a success (the second reading's counter-example; it failed)."""
    document = {
        "agents": [{"id": "a", "inputs": {"type": "object"}, "outputs": {"type": "object"}}]
    }
    choices = _probe(300, {"content-type": "application/json"}, b'{"choices": ["/a", "/b"]}')
    assert _succeeded_elsewhere(choices, document) is False
