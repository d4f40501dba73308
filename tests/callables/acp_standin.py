"""A stand-in of the same shape as the ACI -01 hackathon code's ACP_hackathon/agents.py (not its
code): `run_sub_agent(state, agent_context, feedback="")` asks an LLM through
`call_llm_stream_full_output(prompt, agent_name)` for the updated AgentContext as JSON and
returns {"agent_context", "full_output", "raw"}; the context it returns carries -01's members
("Context/ContextURI", "full_output")."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any


def call_llm_stream_full_output(prompt: str, agent_name: str) -> str:
    raise RuntimeError("the real code calls a model here; the glue stubs it")


def _normalize_agent_context(
    parsed: dict[str, Any], base_context: dict[str, Any]
) -> dict[str, Any]:
    return {
        "AgentID": parsed.get("AgentID", base_context.get("AgentID", "")),
        "AgentName": parsed.get("AgentName", base_context.get("AgentName", "")),
        "SubTaskID": parsed.get("SubTaskID", base_context.get("SubTaskID", "")),
        "SubTaskName": parsed.get("SubTaskName", base_context.get("SubTaskName", "")),
        "Dependencies": parsed.get("Dependencies", base_context.get("Dependencies", [])),
        "Context/ContextURI": parsed.get("Context/ContextURI", ""),
        "todoItems": parsed.get("todoItems", base_context.get("todoItems", [])),
        "ItemstateUpdates": parsed.get("ItemstateUpdates", []),
        "KeyInformation": parsed.get("KeyInformation", []),
        "LastUpdated": parsed.get("LastUpdated", ""),
        "full_output": parsed.get("full_output", ""),
    }


def run_sub_agent(
    state: dict[str, Any], agent_context: dict[str, Any], feedback: str = ""
) -> dict[str, Any]:
    agent_name = agent_context.get("AgentName", "sub_agent")
    todo = "\n".join(
        f"- {i.get('itemId', '')}: {i.get('description', '')}"
        for i in agent_context.get("todoItems", [])
    )
    prompt = (
        f"You are {agent_name}.\nYour assigned tasks (todoItems):\n{todo}\nLastUpdated:"
        f" {datetime.now().isoformat()}"
    )
    raw = call_llm_stream_full_output(prompt, agent_name)
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = {}
    updated = _normalize_agent_context(parsed if isinstance(parsed, dict) else {}, agent_context)
    state.setdefault("task_results", {})[agent_name] = updated["full_output"]
    state.setdefault("agent_contexts", {})[agent_name] = updated
    return {"agent_context": updated, "full_output": updated["full_output"], "raw": raw}
