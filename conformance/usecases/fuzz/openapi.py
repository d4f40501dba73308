"""An OpenAPI 3.1 document built from a WoA document, for schemathesis to fuzz.

One path per agent offered over rest (its invocation URL); the request body is the envelope, its
`input` the agent's inputs schema (one `anyOf` branch per operation, each naming its operation);
a 2XX response is the outputs schema (again one branch per operation), a 4XX response problem
details. Each agent schema is placed under `components/schemas` whole, its local references (`#`,
`#/$defs/...`, `#/definitions/...`, any JSON pointer) rewritten to point inside it, so that the
`$defs` pydantic, FastAPI and zod emit are fuzzed as they are. An agent whose schemas hold a
reference that cannot be placed (an `$anchor`, an `$id` of its own, another document) is left out,
with the reason: a remote reference must never be fetched.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from urllib.parse import quote
from urllib.parse import urlsplit

from ...validation.rules import selected_schema
from .edges import edge_bodies

__all__ = ["FuzzPlan", "openapi_from_woa"]

PROBLEM = {
    "type": "object",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
    },
}


@dataclass
class FuzzPlan:
    openapi: dict[str, Any]
    base: str | None
    left_out: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)  # the agents fuzzed, one path each
    #: (path, what it holds, body) of each invocation with an edge string (edges.py)
    edges: list[tuple[str, str, bytes]] = field(default_factory=list)

    @property
    def operations(self) -> int:
        return len(self.openapi["paths"])


class _Unplaceable(Exception):
    pass


def _placed(schema: Any, pointer: str) -> Any:
    """A copy of `schema` whose local references point inside it, once it stands at `pointer`."""
    if isinstance(schema, list):
        return [_placed(item, pointer) for item in schema]
    if not isinstance(schema, dict):
        return schema
    placed: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("$ref", "$dynamicRef") and isinstance(value, str):
            if value != "#" and not value.startswith("#/"):
                raise _Unplaceable(
                    f"a reference {value[:80]!r} that is not a JSON pointer into the schema"
                )
            placed["$ref"] = pointer + value[1:]
        elif key == "$id" and isinstance(value, str):
            raise _Unplaceable("an $id of its own")
        elif key not in ("$schema", "$anchor", "$dynamicAnchor"):
            placed[key] = _placed(value, pointer)
    return placed


def _component(components: dict[str, Any], name: str, schema: dict[str, Any]) -> Any:
    """`schema` as a component named `name`, referenced from where it is used (inline when it has
    no reference)."""
    try:
        text = json.dumps(schema)
        if '"$ref"' not in text and '"$dynamicRef"' not in text:
            return {
                k: v
                for k, v in copy.deepcopy(schema).items()
                if k not in ("$schema", "$id", "$anchor", "$dynamicAnchor")
            }
        pointer = f"#/components/schemas/{name}"
        components[name] = _placed(schema, pointer)
    except RecursionError:
        raise _Unplaceable("a nesting too deep to place") from None
    return {"$ref": pointer}


def openapi_from_woa(document: dict[str, Any]) -> FuzzPlan:
    """The OpenAPI document for every agent of `document` offered over rest, and what was left
    out."""
    rest = (
        document.get("transports", {}).get("rest")
        if isinstance(document.get("transports"), dict)
        else None
    )
    paths: dict[str, Any] = {}
    components: dict[str, Any] = {}
    plan = FuzzPlan(
        {
            "openapi": "3.1.0",
            "info": {"title": "WoA agents", "version": "1"},
            "paths": paths,
            "components": {"schemas": components},
        },
        None,
    )
    if (
        not isinstance(rest, dict)
        or not isinstance(rest.get("base"), str)
        or not str(rest.get("invoke_path", "")).startswith("/")
    ):
        plan.left_out.append("the document has no usable rest transport")
        return plan
    base = rest["base"].rstrip("/")
    plan.base = base
    for agent in document.get("agents", []) if isinstance(document.get("agents"), list) else []:
        if (
            not isinstance(agent, dict)
            or not isinstance(agent.get("id"), str)
            or "rest" not in (agent.get("transports") or [])
        ):
            continue
        agent_id = agent["id"]
        names = (
            [o.get("name") for o in agent.get("operations", []) if isinstance(o, dict)]
            if isinstance(agent.get("operations"), list)
            else []
        )
        operations: list[str | None] = [n for n in names if isinstance(n, str)] or [None]
        inputs = [selected_schema(agent, op, "inputs") for op in operations]
        outputs = [selected_schema(agent, op, "outputs") for op in operations]
        if any(not isinstance(s, dict) for s in (*inputs, *outputs)):
            plan.left_out.append(f"agent {agent_id!r}: a schema is missing")
            continue
        prefix = re.sub(r"[^A-Za-z0-9_.-]", "_", agent_id)
        mine: dict[str, Any] = {}
        try:
            inputs = [
                _component(mine, f"{prefix}.{op or 'default'}.inputs", s)
                for op, s in zip(operations, inputs, strict=True)
            ]
            outputs = [
                _component(mine, f"{prefix}.{op or 'default'}.outputs", s)
                for op, s in zip(operations, outputs, strict=True)
            ]
        except _Unplaceable as error:
            plan.left_out.append(f"agent {agent_id!r}: a schema holds {error}")
            continue
        components.update(mine)
        # operation is OPTIONAL (WoA 5.1): omitting it means "default" (and the single unnamed
        # operation); agent may be left out where the URL names the agent (WoA 5.2 lets the host use
        # the URL's)
        required = ["input"] + ([] if "{agent_id}" in rest["invoke_path"] else ["agent"])
        envelopes = [
            {
                "type": "object",
                "required": required if op in (None, "default") else [*required, "operation"],
                "properties": {
                    "agent": {"const": agent_id},
                    "input": schema,
                    "operation": {"const": op or "default"},
                },
            }
            for op, schema in zip(operations, inputs, strict=True)
        ]
        path = urlsplit(
            base + rest["invoke_path"].replace("{agent_id}", quote(agent_id, safe=""))
        ).path
        plan.agents.append(agent_id)
        relative = path[len(urlsplit(base).path) :] or "/"
        plan.edges += [
            (relative, what, body)
            for what, body in edge_bodies(
                agent_id,
                operations[0],
                selected_schema(agent, operations[0], "inputs"),
                "agent" in required,
            )
        ]
        paths[relative] = {
            "post": {
                "operationId": f"invoke_{agent_id}",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": envelopes[0] if len(envelopes) == 1 else {"anyOf": envelopes}
                        }
                    },
                },
                "responses": {
                    "2XX": {
                        "description": "the agent's output",
                        "content": {
                            "application/json": {
                                "schema": outputs[0] if len(outputs) == 1 else {"anyOf": outputs}
                            }
                        },
                    },
                    "4XX": {
                        "description": "a problem",
                        "content": {"application/problem+json": {"schema": PROBLEM}},
                    },
                },
            }
        }
    return plan
