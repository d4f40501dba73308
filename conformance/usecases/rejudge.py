"""Re-judge a recording the way it was made: a run's (or a client's) made again with a replay, the
run's options read back from it; a proxy's traffic judged again as the run that watched it.

Used by `agent-conformance rejudge` and by `verify --recording`, which checks that an attested
report is what its recorded traffic still shows."""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ..bindings.observed import Traffic
from ..engine.runner import RunOptions
from ..engine.runner import run
from ..recording import Replay
from ..report import Collect
from ..report import Handler
from ..report import Result
from ..report import Skip
from ..report import Summary
from ..targeting import SUITES
from .proxy import judged_run

__all__ = ["NOT_JUDGED", "changed_verdicts", "options_for", "rejudge", "rejudged"]

#: What a requirement judged when recorded reads as when the replay cannot judge it now.
NOT_JUDGED = "not judged (not in the recording)"
JUDGED = frozenset({"pass", "fail", "error", "waived"})


def options_for(replay: Replay) -> RunOptions:
    """The recorded run's options, every one of them read back, answering from `replay`."""
    return RunOptions.from_recorded(
        str(replay.meta["target"]),
        tuple(replay.meta.get("drafts", {})) or SUITES,
        {**replay.meta.get("options", {}), "seed": replay.meta.get("seed", 0)},
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
    differ. A requirement the replay could not judge (a skip "not in the recording") reads "not
    judged" now: a change when it was judged when recorded, never a silent one."""
    now: dict[str, list[Result]] = {}
    for result in after:
        now.setdefault(result.requirement, []).append(result)
    changes = []
    for requirement, results in now.items():
        earlier = before.get(requirement, [])
        if all(r.skip is Skip.NOT_RECORDED for r in results):
            if any(s in JUDGED for s in earlier):
                changes.append((requirement, earlier, [NOT_JUDGED], results[0].message))
            continue
        statuses = [r.status.value for r in results]
        if statuses != earlier:
            changes.append((requirement, earlier, statuses, results[0].message))
    return changes
