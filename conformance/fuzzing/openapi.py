"""An OpenAPI 3.1 document built from a WoA document, for schemathesis to fuzz.

One path per agent offered over rest (its invocation URL); the request body is the envelope, its
`input` the agent's inputs schema (one `anyOf` branch per operation, each naming its operation);
a 2XX response is the outputs schema (again one branch per operation), a 4XX response problem
details. An agent whose schemas hold a `$ref` is left out, with the reason: inside the OpenAPI
document a local reference would point elsewhere, and a remote one must never be fetched.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlsplit

from ..validation.rules import selected_schema

__all__ = ["FuzzPlan", "openapi_from_woa"]

PROBLEM = {"type": "object", "properties": {"type": {"type": "string"}, "title": {"type": "string"},
                                            "status": {"type": "integer"}, "detail": {"type": "string"}}}


@dataclass
class FuzzPlan:
    openapi: dict[str, Any]
    base: str | None
    left_out: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)  # the agents fuzzed, one path each

    @property
    def operations(self) -> int:
        return len(self.openapi["paths"])


def _has_ref(schema: Any) -> bool:
    return '"$ref"' in json.dumps(schema)


def _bare(schema: Any) -> Any:
    """The schema without its $schema and $id, which mean nothing inside an OpenAPI document."""
    if not isinstance(schema, dict):
        return schema
    return {k: v for k, v in copy.deepcopy(schema).items() if k not in ("$schema", "$id")}


def openapi_from_woa(document: dict[str, Any]) -> FuzzPlan:
    """The OpenAPI document for every agent of `document` offered over rest, and what was left out."""
    rest = document.get("transports", {}).get("rest") if isinstance(document.get("transports"), dict) else None
    paths: dict[str, Any] = {}
    plan = FuzzPlan({"openapi": "3.1.0", "info": {"title": "WoA agents", "version": "1"}, "paths": paths}, None)
    if not isinstance(rest, dict) or not isinstance(rest.get("base"), str) or not str(rest.get("invoke_path", "")).startswith("/"):
        plan.left_out.append("the document has no usable rest transport")
        return plan
    base = rest["base"].rstrip("/")
    plan.base = base
    for agent in document.get("agents", []) if isinstance(document.get("agents"), list) else []:
        if not isinstance(agent, dict) or not isinstance(agent.get("id"), str) or "rest" not in (agent.get("transports") or []):
            continue
        agent_id = agent["id"]
        names = [o.get("name") for o in agent.get("operations", []) if isinstance(o, dict)] if isinstance(agent.get("operations"), list) else []
        operations: list[str | None] = [n for n in names if isinstance(n, str)] or [None]
        inputs = [selected_schema(agent, op, "inputs") for op in operations]
        outputs = [selected_schema(agent, op, "outputs") for op in operations]
        if any(not isinstance(s, dict) or _has_ref(s) for s in (*inputs, *outputs)):
            plan.left_out.append(f"agent {agent_id!r}: a schema is missing or holds a $ref")
            continue
        # operation is OPTIONAL (WoA 5.1): omitting it means "default" (and the single unnamed operation);
        # agent may be left out where the URL names the agent (WoA 5.2 lets the host use the URL's)
        required = ["input"] + ([] if "{agent_id}" in rest["invoke_path"] else ["agent"])
        envelopes = [{"type": "object",
                      "required": required if op in (None, "default") else [*required, "operation"],
                      "properties": {"agent": {"const": agent_id}, "input": _bare(schema),
                                     "operation": {"const": op or "default"}}}
                     for op, schema in zip(operations, inputs, strict=True)]
        path = urlsplit(base + rest["invoke_path"].replace("{agent_id}", quote(agent_id, safe=""))).path
        plan.agents.append(agent_id)
        paths[path[len(urlsplit(base).path):] or "/"] = {"post": {
            "operationId": f"invoke_{agent_id}",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": envelopes[0] if len(envelopes) == 1 else {"anyOf": envelopes}}}},
            "responses": {
                "2XX": {"description": "the agent's output", "content": {"application/json": {
                    "schema": _bare(outputs[0]) if len(outputs) == 1 else {"anyOf": [_bare(o) for o in outputs]}}}},
                "4XX": {"description": "a problem", "content": {"application/problem+json": {"schema": PROBLEM}}},
            },
        }}
    return plan
