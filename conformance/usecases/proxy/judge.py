"""The judging half of the passive proxy: the traffic, judged by the engine as a run that watches.

The same registered checks that judge a run that sends judge what passed through the proxy (see
bindings/observed.py): the host's WoA document, how it was served and revalidated, its answers to
the invocations that went by, the client's invocations and its polling, and the SDSI and ACI
messages they carried. A check that would have to send a request of its own is a skip: the proxy
only watches, and what the traffic never showed is never a pass.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from ...bindings.observed import Traffic
from ...engine.runner import run
from ...report import Collect
from ...report import Handler
from ...report import Result
from ...report import Summary
from ...targeting import DEFAULT_ROLES
from ...targeting import run_options

__all__ = ["judge", "judged_run"]

#: Both sides of the traffic: the host's (and its agents', in each role) and the client's.
ROLES = (*DEFAULT_ROLES, "client")


async def judged_run(
    upstream: str,
    suites: tuple[str, ...],
    traffic: Traffic,
    handlers: Sequence[Handler],
    about: Mapping[str, Any],
    *,
    strict: bool = False,
) -> Summary:
    """Judge `traffic` as a run of its own; its header (with `about`), every result and its
    summary go to `handlers`; with the traffic's recorder, the verdicts go into the recording too
    (for `rejudge`)."""
    options = run_options(
        upstream, suites=suites, roles=ROLES, strict=strict, seed=0, observed=traffic
    )
    return await run(options, handlers, about=about)


def judge(
    traffic: Traffic, suites: tuple[str, ...], *, target: str | None = None, strict: bool = False
) -> list[Result]:
    """A result for every requirement of `suites`, from what the traffic showed."""
    collect = Collect()
    upstream = (
        target
        or next((o.url for o in traffic.exchanges), "https://upstream.invalid").split(
            "/.well-known"
        )[0]
    )
    asyncio.run(judged_run(_origin(upstream), suites, traffic, [collect], {}, strict=strict))
    return collect.results


def _origin(url: str) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
