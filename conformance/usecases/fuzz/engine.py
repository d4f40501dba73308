"""API fuzzing with schemathesis: its engine runs against the OpenAPI document of usecases/fuzz/openapi.py,
and each failed check becomes a result naming the requirement it breaks (or ROBUSTNESS where no
draft sentence covers it), with the curl command that reproduces it.

    checks run             requirement it judges
    not_a_server_error     ROBUSTNESS (a 5xx); to a valid input also WOA-5.2-VALID-INPUT-ACCEPTED, as `run` judges it
    status_code_conformance ROBUSTNESS (a status the document does not declare)
    positive_data_acceptance WOA-5.2-VALID-INPUT-ACCEPTED
    response_schema_conformance WOA-5.2-SUCCESS-CONFORMS-OUTPUTS (2xx) / WOA-5.2-ERROR-PROBLEM-DETAILS (4xx)
    content_type_conformance WOA-4.3.1-HOST-RESPONDS-JSON
    negative_data_rejection WOA-5.2-ERROR-PROBLEM-DETAILS

Runs are reproducible: a fixed seed, no example database, no cache, Hypothesis' files kept in a
temporary folder. Each curl command carries what it needs to work as printed (`--cacert`).
"""

from __future__ import annotations

import gc
import os
import shlex
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["CHECK_REQUIREMENTS", "FuzzFailure", "FuzzOutcome", "fuzz"]

CHECK_REQUIREMENTS = {
    "not_a_server_error": "ROBUSTNESS",
    "status_code_conformance": "ROBUSTNESS",
    "positive_data_acceptance": "WOA-5.2-VALID-INPUT-ACCEPTED",
    "response_schema_conformance": "WOA-5.2-SUCCESS-CONFORMS-OUTPUTS",
    "content_type_conformance": "WOA-4.3.1-HOST-RESPONDS-JSON",
    "negative_data_rejection": "WOA-5.2-ERROR-PROBLEM-DETAILS",
}


@dataclass(frozen=True)
class FuzzFailure:
    requirement: str
    check: str
    title: str
    message: str
    operation: str
    curl: str
    status: int | None


@dataclass
class FuzzOutcome:
    cases: int = 0
    failures: list[FuzzFailure] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stop_reason: str = ""


def _config(base: str, *, max_examples: int, seed: int, timeout: float, cacert: Path | None) -> Any:
    from schemathesis.config import SchemathesisConfig

    return SchemathesisConfig.from_dict({
        "base-url": base, "seed": seed, "workers": 1, "request-timeout": timeout,
        "tls-verify": str(cacert) if cacert else True, "cache": {"enabled": False},
        "generation": {"max-examples": max_examples, "database": "none"},
        "checks": {"enabled": False, **{name: {"enabled": True} for name in CHECK_REQUIREMENTS}},
        "phases": {"stateful": {"enabled": False}},
    })


def _valid_input(recorder: Any, case_id: str) -> bool:
    """Whether schemathesis made the case's input to conform to the schema (its positive mode)."""
    node = recorder.cases.get(case_id)
    meta = getattr(getattr(node, "value", None), "meta", None)
    mode = getattr(getattr(meta, "generation", None), "mode", None)
    return getattr(mode, "value", None) == "positive"


def _curl(sample: str, cacert: Path | None) -> str:
    return sample.replace("curl ", f"curl --cacert {shlex.quote(str(cacert))} ", 1) if cacert else sample


def _requirement(check: str, status: int | None) -> str:
    if check == "response_schema_conformance" and status is not None and status >= 400:
        return "WOA-5.2-ERROR-PROBLEM-DETAILS"
    return CHECK_REQUIREMENTS.get(check, "ROBUSTNESS")


def _let_go_of_its_connections() -> None:
    """schemathesis leaves its HTTP sessions' sockets to the garbage collector: collect them now, quietly
    (their ResourceWarning is schemathesis's, and would otherwise surface at a random later point)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


def fuzz(openapi: dict[str, Any], base: str, *, max_examples: int = 100, seed: int = 0, timeout: float = 10.0,
         cacert: Path | None = None, app: Any = None) -> FuzzOutcome:
    """Run schemathesis on `openapi` against `base` (or the ASGI `app` in-process)."""
    with tempfile.TemporaryDirectory(prefix="agent-conformance-hypothesis-") as storage:
        os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = storage
        import schemathesis
        from schemathesis.engine import Status, events

        schema = schemathesis.openapi.from_dict(dict(openapi), config=_config(
            "http://testserver" if app is not None else base, max_examples=max_examples, seed=seed, timeout=timeout, cacert=cacert))
        if app is not None:
            schema.app = app
        outcome, seen = FuzzOutcome(), set()
        for event in schemathesis.engine.from_schema(schema).execute():
            if isinstance(event, events.ScenarioFinished):
                outcome.cases += len(event.recorder.cases)
                for case_id, nodes in event.recorder.checks.items():
                    for node in nodes:
                        if node.status != Status.FAILURE or node.failure_info is None:
                            continue
                        failure = node.failure_info.failure
                        response = event.recorder.find_response(case_id=failure.case_id or case_id)
                        status = response.status_code if response is not None else None
                        requirements = [_requirement(node.name, status)]
                        if node.name == "not_a_server_error" and _valid_input(event.recorder, failure.case_id or case_id):
                            requirements.append("WOA-5.2-VALID-INPUT-ACCEPTED")  # a valid input answered 5xx, as run judges it
                        for requirement in requirements:
                            key = (requirement, node.name, failure.title, event.recorder.label, status)
                            if key not in seen:
                                seen.add(key)
                                outcome.failures.append(FuzzFailure(requirement, node.name, failure.title, failure.message,
                                                                    failure.operation or event.recorder.label,
                                                                    _curl(node.failure_info.code_sample, cacert), status))
            elif isinstance(event, events.NonFatalError):
                outcome.errors.append(f"{event.label}: {event.info.title}: {event.info.message}")
            elif isinstance(event, events.FatalError):
                outcome.errors.append(f"schemathesis could not run: {event.exception}")
            elif isinstance(event, events.EngineFinished):
                outcome.stop_reason = event.stop_reason.value
        _let_go_of_its_connections()
        return outcome
