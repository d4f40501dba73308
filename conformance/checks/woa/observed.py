"""What the WoA checks judge in a run that watches (the proxy, the fuzzer): the invocations that
passed by, read as the probes the suite would have sent, and the client's side of the traffic.

Each observed invocation of an agent becomes the probe its request amounts to, so that the same
checks judge it:

    a body not sent as JSON, or not an envelope of WoA 5.1          -> malformed
    (one without agent is one only where the URL names no agent)
    an envelope naming another agent than the URL's {agent_id}      -> mismatch
    an envelope without agent (the host MAY serve the URL's, 5.2)   -> agentless
    an input the selected inputs schema refuses                     -> invalid
    (one that breaks a format alone, which a host need not assert, is left out)
    no operation, for an agent whose operations include "default"   -> implied
    otherwise (formats asserted, as the suite's own inputs keep them) -> valid

An agent without operations has one unnamed operation, invoked with no operation or "default"
(E-WOA-5.1-DEFAULT-OPERATION). An invocation of an agent the document does not list, of an
operation it does not define, or with no operation where the agent lists operations but no
default, is none of these and is left out; the checks' verdicts say how many were, and why.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any
from urllib.parse import unquote
from urllib.parse import urlsplit

from ...bindings import ExchangeFailed
from ...bindings.http import media_type_of
from ...bindings.observed import Observed
from ...bindings.observed import Traffic
from ...bindings.reply import operation_names
from ...targeting import Target
from ...targeting import rest_config
from ...validation.rules import agent_of
from ...validation.rules import selected_schema
from ...validation.target_schemas import Unjudgeable
from ...validation.target_schemas import target_validator

__all__ = ["failure_of", "invocation_path", "invocations", "kind_of"]


def invocation_path(document: Any) -> re.Pattern[str] | None:
    """The paths an invocation of any agent takes (after the rest base's own path), with the
    agent's id."""
    rest = rest_config(document)
    if (
        not isinstance(rest, dict)
        or not isinstance(rest.get("invoke_path"), str)
        or not rest["invoke_path"].startswith("/")
    ):
        return None
    base = urlsplit(rest["base"]).path.rstrip("/") if isinstance(rest.get("base"), str) else ""
    template = re.escape(base + rest["invoke_path"].split("?")[0]).replace(
        re.escape("{agent_id}"), "(?P<agent>[^/?#]+)"
    )
    return re.compile(f"^{template}(?:\\?.*)?$")


def kind_of(
    document: dict[str, Any],
    envelope: Any,
    body_is_json: bool,
    in_path: str | None,
    media_type: str = "application/json",
) -> tuple[str, str | None, str | None] | str:
    """(kind, agent, operation) of an invocation (see the module's table), or why it is none of
    them."""
    if (
        media_type != "application/json"
        or not body_is_json
        or not isinstance(envelope, dict)
        or not isinstance(envelope.get("agent", in_path), str)
        or not isinstance(envelope.get("input"), dict)
        or not isinstance(envelope.get("operation", ""), str)
    ):
        return "malformed", in_path, None
    named = "agent" in envelope
    if named and in_path is not None and envelope["agent"] != in_path:
        return "mismatch", in_path, envelope.get("operation")
    agent_id = envelope["agent"] if named else in_path
    agent = agent_of(document, agent_id)
    operation = envelope.get("operation")
    names = operation_names(agent) if agent is not None else set()
    if agent is None:
        return "of an agent the document does not list"
    if operation not in (None, *names) and (names or operation != "default"):
        # an agent without operations has its unnamed one, named "default" or not
        return "of an operation the agent does not define"
    if operation is None and names and "default" not in names:
        return "without operation, to an agent that lists operations but no default"
    implied = operation is None and "default" in names
    kind = "implied" if implied else "valid"
    schema = selected_schema(agent, "default" if implied else operation, "inputs")
    try:
        if isinstance(schema, dict) and any(
            True for _ in target_validator(schema).iter_errors(envelope["input"])
        ):
            kind = "invalid"
        elif isinstance(schema, dict) and any(
            True for _ in target_validator(schema, formats=True).iter_errors(envelope["input"])
        ):
            # a host may or may not assert formats (2020-12: an annotation)
            return "whose input breaks a format alone"
    except Unjudgeable:
        return "whose inputs schema cannot be applied"
    return (kind if named else "agentless"), agent_id, operation


def invocations(
    target: Target, traffic: Traffic
) -> tuple[list[tuple[str, str, str | None, str, Any, Observed]], Counter[str]]:
    """Every invocation that passed by, as (kind, agent, operation, url, envelope, the exchange),
    and how many were left out, by why."""
    document = target.document
    pattern = invocation_path(document)
    left_out: Counter[str] = Counter()
    if pattern is None or not isinstance(document, dict):
        return [], left_out
    found = []
    for observed in traffic.exchanges:
        matched = (
            pattern.match(observed.path)
            if observed.method == "POST" and not observed.is_document
            else None
        )
        if matched is None:
            continue
        placeholder = "{agent_id}" in str(rest_config(document).get("invoke_path", ""))
        in_path = (
            unquote(matched["agent"]) if placeholder and matched.groupdict().get("agent") else None
        )
        envelope = observed.request_json()
        body_is_json = envelope is not None or observed.request_body.strip() == b"null"
        classified = kind_of(
            document, envelope, body_is_json, in_path, media_type_of(observed.request_headers)
        )
        if isinstance(classified, str):
            left_out[classified] += 1
            continue
        kind, agent, operation = classified
        url, _ = target.invoke_url(agent) if agent else (None, None)
        found.append(
            (kind, agent or "(no agent)", operation, url or observed.url, envelope, observed)
        )
    return found, left_out


def failure_of(observed: Observed) -> ExchangeFailed:
    """An exchange that passed by without an answer, as the failure the suite's client would have
    raised."""
    return ExchangeFailed(observed.error or "no answer", observed.exchange())
