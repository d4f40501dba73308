"""What reached an agent is read for content: a TaskContext or another agent's AgentContext pasted as
text, encoded or nested is found, and a hostile string cannot make the reading slow."""

from __future__ import annotations

import base64
import json
import time

import pytest

from conformance.checks.aci.fingerprints import agent_contexts, named_agent_ids, task_context_marks

TASK = {"TaskID": "t-1", "TaskName": "tour", "GoalStatus": [], "OverallStatus": "incomplete"}
OTHER = {"AgentID": "flight-booking", "SubTaskID": "t-1/flight", "Context": "fly"}


@pytest.mark.parametrize("context", [
    "Task state: " + json.dumps(TASK),
    json.dumps({"task": TASK}),
    base64.b64encode(json.dumps(TASK).encode()).decode(),
    "GoalStatus: [] and OverallStatus = done",
])
def test_a_task_context_in_any_encoding_is_found(context: str) -> None:
    assert task_context_marks({"AgentContext": {"AgentID": "hotel-booking", "Context": context}})


def test_another_agents_context_pasted_as_text_is_found() -> None:
    message = {"AgentContext": {"AgentID": "hotel-booking", "Context": "Other subtasks: " + json.dumps([OTHER])}}
    assert len(agent_contexts(message)) == 2 and named_agent_ids(message) >= {"flight-booking"}


def test_a_clean_delivery_has_no_marks() -> None:
    message = {"AgentContext": {"AgentID": "hotel-booking", "SubTaskID": "t-1/hotel", "Context": "Three days in Beijing."}}
    assert task_context_marks(message) == [] and len(agent_contexts(message)) == 1 and named_agent_ids(message) == set()


@pytest.mark.parametrize("hostile", ["x" + "{" * 1_000_000, "a [" * 300_000, "[" * 100_000 + "]" * 100_000])
def test_a_hostile_string_is_read_in_linear_time(hostile: str) -> None:
    started = time.perf_counter()
    task_context_marks({"Context": hostile}), agent_contexts({"Context": hostile}), named_agent_ids({"Context": hostile})
    assert time.perf_counter() - started < 5


def test_a_subtasks_own_times_are_not_a_task_context() -> None:
    from conformance.checks.aci.fingerprints import task_context_marks

    assert task_context_marks({"Context": "StartTime: 09:00, EndTime: 10:00"}) == []
    assert task_context_marks({"Context": {"StartTime": "09:00", "EndTime": "10:00", "TaskName": "check-in"}}) == []
    assert task_context_marks({"Context": '{"TaskID": "t1", "StartTime": "09:00"}'}) != []
