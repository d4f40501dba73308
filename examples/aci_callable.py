"""An ACI invoked agent as a plain Python function, certified without a server:

    agent-conformance run --agent-callable examples.aci_callable:agent --suite aci

It gets the AgentContext its master sends (ACI 5.2) and returns the updated one (5.3): each todo
item's state (1 done, 0 not), a KeyInformation abstract per item, and LastUpdated. Context offloaded
to a ContextURI is fetched over HTTP as any agent would (the suite's context store answers it); a
reference whose `exp` has passed, or that the store refuses, leaves the items not done.

`agent_that_ignores_the_context_uri` is the same agent with one fault: it never fetches a ContextURI
(ACI-5.2-CONTEXT-URI-RESOLVED), which the project's tests catch.
"""

from __future__ import annotations

import time
from datetime import UTC
from datetime import datetime
from typing import Any
from urllib.parse import parse_qs
from urllib.parse import urlsplit

import httpx

__all__ = ["agent", "agent_that_ignores_the_context_uri"]


def _context(agent_context: dict[str, Any], *, fetch: bool) -> tuple[str, str]:
    """The context the agent works with, and why it is unavailable ("" when it is not)."""
    uri = agent_context.get("ContextURI") or agent_context.get("Context/ContextURI")
    if not isinstance(uri, str) or not uri.startswith(("https://", "http://")) or not fetch:
        return str(agent_context.get("Context", "")), ""
    expiry = parse_qs(urlsplit(uri).query).get("exp", ["inf"])[0]
    if float(expiry) <= time.time():
        return "", "the ContextURI reference has expired"
    answer = httpx.get(uri, timeout=10)
    return (
        (answer.text, "")
        if answer.status_code == 200
        else ("", f"the context store answered {answer.status_code}")
    )


def _updated(agent_context: dict[str, Any], *, fetch: bool) -> dict[str, Any]:
    text, unavailable = _context(agent_context, fetch=fetch)
    items = [i for i in agent_context["todoItems"] if isinstance(i, dict)]
    done = int(not unavailable)
    return {
        **agent_context,
        "ItemstateUpdates": [{"itemId": item["itemId"], "state": done} for item in items],
        "KeyInformation": [
            {
                "itemId": item["itemId"],
                "outputabstract": (
                    f"{item.get('description', '')}: done ({len(text)} characters of context)"
                    if done
                    else f"not done: {unavailable}"
                ),
            }
            for item in items
        ],
        "LastUpdated": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
    }


def agent(agent_context: dict[str, Any]) -> dict[str, Any]:
    """The invoked agent: its AgentContext, updated."""
    return _updated(agent_context, fetch=True)


def agent_that_ignores_the_context_uri(agent_context: dict[str, Any]) -> dict[str, Any]:
    """The fault: a ContextURI is never fetched; the agent works without the context."""
    return _updated(agent_context, fetch=False)
