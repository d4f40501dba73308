"""What reached an agent is read for content: a TaskContext or another agent's AgentContext
pasted as JSON text, encoded or nested is found; member names in prose are not read; a hostile
string cannot make the reading hang (the test's timeout holds it)."""

from __future__ import annotations

import base64
import json

import pytest

from conformance.checks.aci.fingerprints import agent_contexts
from conformance.checks.aci.fingerprints import task_context_marks

TASK = {"TaskID": "t-1", "TaskName": "tour", "GoalStatus": [], "OverallStatus": "incomplete"}
OTHER = {"AgentID": "flight-booking", "SubTaskID": "t-1/flight", "Context": "fly"}


@pytest.mark.parametrize(
    "context",
    [
        "Task state: " + json.dumps(TASK),
        json.dumps({"task": TASK}),
        base64.b64encode(json.dumps(TASK).encode()).decode(),
    ],
)
def test_a_task_context_in_any_encoding_is_found(context: str) -> None:
    assert task_context_marks({"AgentContext": {"AgentID": "hotel-booking", "Context": context}})


def test_another_agents_context_pasted_as_text_is_found() -> None:
    message = {
        "AgentContext": {
            "AgentID": "hotel-booking",
            "Context": "Other subtasks: " + json.dumps([OTHER]),
        }
    }
    assert [c["AgentID"] for c in agent_contexts(message)] == ["hotel-booking", "flight-booking"]


def test_member_names_in_prose_are_not_read() -> None:
    """A dependent subtask is told where its input came from ("from AgentID: diagnosis"); a booking
    has its own "StartTime: 09:00": neither is another agent's context (issue 22)."""
    message = {
        "AgentContext": {
            "AgentID": "prescription",
            "Context": "Result from AgentID: diagnosis. GoalStatus: [] and OverallStatus = done",
        }
    }
    assert task_context_marks(message) == [] and len(agent_contexts(message)) == 1


def test_a_clean_delivery_has_no_marks() -> None:
    message = {
        "AgentContext": {
            "AgentID": "hotel-booking",
            "SubTaskID": "t-1/hotel",
            "Context": "Three days in Beijing.",
        }
    }
    assert task_context_marks(message) == [] and len(agent_contexts(message)) == 1


@pytest.mark.parametrize(
    "hostile", ["x" + "{" * 1_000_000, "a [" * 300_000, "[" * 100_000 + "]" * 100_000]
)
@pytest.mark.timeout(30)
def test_a_hostile_string_is_read_without_hanging(hostile: str) -> None:
    assert (
        task_context_marks({"Context": hostile}) == []
        and agent_contexts({"Context": hostile}) == []
    )


def test_a_subtasks_own_times_are_not_a_task_context() -> None:
    from conformance.checks.aci.fingerprints import task_context_marks

    assert task_context_marks({"Context": "StartTime: 09:00, EndTime: 10:00"}) == []
    assert (
        task_context_marks(
            {"Context": {"StartTime": "09:00", "EndTime": "10:00", "TaskName": "check-in"}}
        )
        == []
    )
    assert task_context_marks({"Context": '{"TaskID": "t1", "StartTime": "09:00"}'}) != []
