"""Traces: `{"config": {...}, "events": [...]}` in (trace.schema.json), the oracle's decisions out.

`replay` is what `agent-conformance oracle replay` prints; `dumps` makes the output byte-stable.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema import FormatChecker
from jsonschema.exceptions import best_match

from .clock import parse_time
from .config import OracleConfig
from .encoders import Encoder
from .engine import Oracle
from .engine import Payload

__all__ = ["TraceError", "dumps", "payloads_of", "replay", "validate_trace"]


class TraceError(ValueError):
    """A trace that is not valid: the message says where."""


@cache
def _validator() -> Draft202012Validator:
    schema = json.loads(
        resources.files(__package__).joinpath("trace.schema.json").read_text("utf-8")
    )
    return Draft202012Validator(schema, format_checker=FormatChecker())


def validate_trace(trace: Any) -> None:
    error = best_match(_validator().iter_errors(trace))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        raise TraceError(f"invalid trace at {where}: {error.message[:300]}")


def payloads_of(event: dict[str, Any]) -> Payload:
    """A payload event; blank strings in `other` are no fragments and are left out."""
    other = event.get("other", [])
    fragments = tuple(f for f in ([other] if isinstance(other, str) else other) if f.strip())
    return Payload(
        parse_time(event["at"]),
        event["client_id"],
        event["scenario"],
        fragments,
        dict(event.get("keys", {})),
        dict(event.get("judgements", {})),
    )


def replay(
    trace: Any, encoder: Encoder | None = None, oracle: Oracle | None = None
) -> dict[str, Any]:
    """Run a trace through a fresh oracle; its decisions as JSON-ready data."""
    validate_trace(trace)
    try:
        config = OracleConfig.from_json(trace.get("config"))
    except (TypeError, ValueError) as error:
        raise TraceError(f"invalid trace config: {error}") from error
    oracle = oracle or Oracle(config, encoder)
    previous = float("-inf")
    run: list[Payload] = []
    for number, event in enumerate(trace["events"]):
        at = parse_time(event["at"])
        if at < previous:
            raise TraceError(
                f"invalid trace at events/{number}: time goes backwards ({event['at']})"
            )
        previous = at
        if event.get("type") == "tick":
            oracle.observe(run)
            run = []
            oracle.tick(at)
        else:
            run.append(payloads_of(event))
    oracle.observe(run)
    return oracle.outcome.to_json()


def dumps(output: dict[str, Any]) -> str:
    """The canonical text of an output: same data, same bytes."""
    return json.dumps(output, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
