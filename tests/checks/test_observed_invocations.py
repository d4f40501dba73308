"""How a run that watches (the proxy, the fuzzer) reads each invocation that passed by: as the
probe it amounts to, or left out with the reason the verdicts then give."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.checks.woa.invocation_session import JUDGED_ON
from conformance.checks.woa.observed import kind_of

INPUTS = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}}
STAMP = {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}
DOCUMENT = {
    "agents": [
        # one unnamed operation (WoA 4.1: no operations array)
        {"id": "plain", "inputs": INPUTS, "outputs": {"type": "object"}},
        {
            "id": "multi",
            "inputs": INPUTS,
            "outputs": {"type": "object"},
            "operations": [{"name": "default"}, {"name": "stamp", "inputs": STAMP}],
        },
        {
            "id": "named",
            "inputs": INPUTS,
            "outputs": {"type": "object"},
            "operations": [{"name": "only"}],
        },
    ]
}


def _kind(envelope: Any, in_path: str | None) -> tuple[str, str | None, str | None] | str:
    return kind_of(DOCUMENT, envelope, True, in_path)


@pytest.mark.parametrize(
    ("envelope", "in_path", "kind"),
    [
        ({"agent": "plain", "input": {"text": "a"}}, "plain", ("valid", "plain", None)),
        # E-WOA-5.1-DEFAULT-OPERATION: "default" names an agent's unnamed operation
        (
            {"agent": "plain", "operation": "default", "input": {"text": "a"}},
            "plain",
            ("valid", "plain", "default"),
        ),
        (
            {"agent": "plain", "operation": "default", "input": {"text": 1}},
            "plain",
            ("invalid", "plain", "default"),
        ),
        ({"agent": "multi", "input": {"text": "a"}}, "multi", ("implied", "multi", None)),
        # WoA 5.2: the host MAY take the agent from the URL; its answer is the URL agent's
        ({"input": {"text": "a"}}, "plain", ("agentless", "plain", None)),
        ({"input": {"text": "a"}}, None, ("malformed", None, None)),
        ({"agent": "multi", "input": {"text": "a"}}, "plain", ("mismatch", "plain", None)),
        ({"agent": "nobody", "input": {}}, None, "of an agent the document does not list"),
        (
            {"agent": "plain", "operation": "other", "input": {"text": "a"}},
            "plain",
            "of an operation the agent does not define",
        ),
        (
            {"agent": "named", "input": {"text": "a"}},
            "named",
            "without operation, to an agent that lists operations but no default",
        ),
        (
            {"agent": "multi", "operation": "stamp", "input": {"day": "2026-11-26"}},
            "multi",
            ("valid", "multi", "stamp"),
        ),
        # a host may or may not assert formats (JSON Schema 2020-12: an annotation by default)
        (
            {"agent": "multi", "operation": "stamp", "input": {"day": "someday"}},
            "multi",
            "whose input breaks a format alone",
        ),
    ],
)
def test_an_invocation_that_passed_by_is_read_as_its_probe_or_left_out_with_why(
    envelope: Any, in_path: str | None, kind: tuple[str, str | None, str | None] | str
) -> None:
    assert _kind(envelope, in_path) == kind


def test_an_answer_to_an_envelope_without_agent_is_judged_only_where_the_host_may_serve_it() -> (
    None
):
    judged = {r for r, kinds in JUDGED_ON.items() if "agentless" in kinds}
    assert judged == {"WOA-5.2-SUCCESS-CONFORMS-OUTPUTS", "WOA-4.3.1-HOST-RESPONDS-JSON"}
