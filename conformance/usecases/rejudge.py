"""Re-judge a recording the way it was made: a run's (or a client's) made again with a replay, the
run's options read back from it; a proxy's traffic judged again as the run that watched it.

Used by `agent-conformance rejudge` and by `verify --recording`, which checks that an attested
report is what its recorded traffic still shows."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..bindings.observed import Traffic
from ..engine.runner import DEFAULT_ROLES
from ..engine.runner import RunOptions
from ..engine.runner import run
from ..recording import Replay
from ..report import Collect
from ..report import Handler
from ..report import Result
from ..report import Skip
from ..report import Summary
from ..target import run_options
from .proxy import judged_run

__all__ = ["changed_verdicts", "options_for", "rejudge", "rejudged"]


def options_for(replay: Replay) -> RunOptions:
    """The recorded run's options, answering from `replay`."""
    recorded: dict[str, Any] = replay.meta.get("options", {})
    return run_options(
        str(replay.meta["target"]),
        suites=tuple(replay.meta.get("drafts", {})) or "all",
        binding=str(recorded.get("binding", "woa-rest")),
        roles=tuple(recorded.get("roles") or DEFAULT_ROLES),
        timeout=float(recorded.get("timeout", 10.0)),
        cacert=Path(recorded["cacert"]) if recorded.get("cacert") else None,
        allow_http_loopback=bool(recorded.get("allow_http_loopback")),
        allowed_origins=tuple(recorded.get("allowed_origins") or ()),
        scenarios=tuple(recorded.get("scenarios") or ()),
        max_experimental_keys=recorded.get("max_experimental_keys"),
        strict=bool(recorded.get("strict")),
        check_timeout=recorded.get("check_timeout"),
        budget=float(recorded.get("budget", 300.0)),
        client_command=recorded.get("client_command"),
        parallel=int(recorded.get("parallel", 4)),
        seed=int(replay.meta.get("seed", 0)),
        replay=replay,
    )


async def rejudge(
    replay: Replay, handlers: Sequence[Handler], about: Mapping[str, Any] = MappingProxyType({})
) -> Summary:
    """Judge the recording again with this version's checks, the way it was made; every result
    goes to `handlers`. Raises TargetUnreachable when a replayed run's recording answers not even
    its first request."""
    recorded: dict[str, Any] = replay.meta.get("options", {})
    if recorded.get("passive"):  # a proxy's recording: its traffic, judged again
        return await judged_run(
            str(replay.meta["target"]),
            tuple(replay.meta.get("drafts", {})),
            Traffic.recorded(replay),
            handlers,
            recorded | dict(about),
            strict=bool(recorded.get("strict")),
        )
    return await run(options_for(replay), handlers, about=about)


async def rejudged(replay: Replay) -> list[Result]:
    """The verdicts this version of the suite reaches on the recording (no report written)."""
    collect = Collect()
    await rejudge(replay, [collect])
    return collect.results


def changed_verdicts(
    before: dict[str, list[str]], after: list[Result]
) -> list[tuple[str, list[str], list[str], str]]:
    """(requirement, statuses before, statuses now, message) for each requirement whose verdicts
    differ; a requirement the replay could not judge (a skip "not in the recording") is not a
    change."""
    now: dict[str, list[Result]] = {}
    for result in after:
        now.setdefault(result.requirement, []).append(result)
    changes = []
    for requirement, results in now.items():
        if all(r.skip is Skip.NOT_RECORDED for r in results):
            continue
        statuses = [r.status.value for r in results]
        if statuses != before.get(requirement, []):
            changes.append((requirement, before.get(requirement, []), statuses, results[0].message))
    return changes
