"""RFC 9457 problem details responses, the mocks' only way of saying no (the suite's servers say
it the same way: `conformance.harness.problem`)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator
from starlette.responses import JSONResponse

from conformance.harness import PROBLEM_JSON
from conformance.harness import problem

__all__ = ["PROBLEM_JSON", "nonconforming", "problem", "refused", "unknown_operation"]


def nonconforming(validator: Draft202012Validator, given: Any) -> JSONResponse | None:
    """422 problem details naming what `given` breaks of the validator's schema; None if it
    conforms."""
    errors = [e.message for e in validator.iter_errors(given)]
    return problem(422, "Input does not conform", "; ".join(errors)[:2000]) if errors else None


def unknown_operation(agent: str, operation: str | None) -> JSONResponse:
    """400 problem details: the agent has no such operation."""
    return problem(400, "Unknown operation", f"agent {agent!r} has no operation {operation!r}")


def refused(
    agent: str, operation: str | None, offered: str, validator: Draft202012Validator, given: Any
) -> JSONResponse | None:
    """Problem details for an invocation of an agent with one operation (`offered`): another
    operation, or an input its schema refuses; None when the agent may take it."""
    if operation != offered:
        return unknown_operation(agent, operation)
    return nonconforming(validator, given)
