"""What a run produces: results that each name a requirement, the evidence behind them, and a
summary.

    RunHeader ─┬─ Result (requirement, status, message, evidence: [Exchange], duration)
               ├─ Result ...
               └─ Summary (counts by level and status, compliance level)

Everything here is plain data with `as_dict()` / `from_dict()`, so a report can be written,
read back and re-judged offline.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import datetime
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from ..requirements import Requirement

__all__ = [
    "BODY_LIMIT",
    "REPORT_FORMAT",
    "Exchange",
    "Result",
    "RunHeader",
    "Status",
    "truncate",
    "utc_now",
]

#: The version of the report's JSON form (report.json, events.jsonl); see report.schema.json.
REPORT_FORMAT = "1.3"
#: Headers a client sets itself: curl sends its own.
#: How a value the run redacted begins (report/redaction.py).
REDACTED = "<redacted:sha256:"
_UNSENT_HEADERS = frozenset(
    {"host", "content-length", "connection", "accept-encoding", "transfer-encoding"}
)
#: Bodies kept as evidence are cut to this many characters.
BODY_LIMIT = 4096


class Status(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    SKIP = (  # not tested: the reason says why (no check yet, needs a hook, not remotely testable)
        "skip"
    )
    ERROR = "error"  # the check could not reach a verdict (the target misbehaved, or the suite did)
    NOT_APPLICABLE = "not-applicable"  # the requirement's condition does not hold for this target
    WAIVED = (  # would fail, but the user waived it (e.g. --allow-http-loopback); never a pass
        "waived"
    )

    @property
    def judged(self) -> bool:
        """Whether a result with this status judged the requirement on what the target did."""
        return self in (Status.PASS, Status.FAIL, Status.ERROR, Status.WAIVED)


class Skip(StrEnum):
    """Why a requirement was not judged, as a kind tools can act on; the message gives the
    particulars."""

    NOT_OBSERVED = "not-observed"  # the target did not do, in this run, what the rule judges
    # a behaviour the rule builds on was not seen; the requirement the message names judges it
    DEPENDS_ON = "depends-on"
    INCONCLUSIVE = "inconclusive"  # what was seen cannot tell conformance from its breach
    UNDECLARED = (  # the check rests on a declaration or convention the target does not make
        "undeclared"
    )
    # the run needs something from the user: an option, credentials, an allowed origin
    NEEDS_INPUT = "needs-input"
    # the agent the rule binds cannot be called (no endpoint, no input could be made)
    UNREACHABLE = "unreachable"
    BEYOND_CAPS = (  # seeing it would take more than the suite's caps allow (requests, time)
        "beyond-caps"
    )
    NEEDS_TEST_HOOK = (  # the target offers no test hook the check needs (a test clock, say)
        "needs-test-hook"
    )
    NOT_REMOTELY_TESTABLE = (  # nothing on the wire shows it (the catalogue says why)
        "not-remotely-testable"
    )
    NO_CHECK = "no-check"  # the suite has no check for it yet
    # judged when the suite drives a client, or when it calls the target: not in this run
    OTHER_DRIVER = "other-driver"
    IN_PROCESS = "in-process"  # it judges the connection, and an in-process run has none
    NOT_RECORDED = "not-recorded"  # a replay lacks what the check needs
    LEFT_OUT = "left-out"  # the run's selection left it out
    NOT_REACHED = "not-reached"  # the run was interrupted or its budget ran out first


@cache
def _proofs() -> dict[str, Any]:
    try:
        text = (resources.files("conformance.requirements") / "proof.json").read_text(
            encoding="utf-8"
        )
    except FileNotFoundError:
        return {}
    record: dict[str, Any] = json.loads(text)
    return record


def proof_of(requirement: str) -> dict[str, Any]:
    """What proves the check of `requirement` can fail, from the suite's own records (`mutate
    --proof`): the named faults that fail it and how many machine-made mutants it killed; empty
    when none is recorded."""
    entry = _proofs().get("requirements", {}).get(requirement)
    return {**entry, "recorded": _proofs()["recorded"]} if entry else {}


def utc_now() -> str:
    """The time now, as reports write it (RFC 3339, seconds, Z)."""
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def truncate(text: str, limit: int = BODY_LIMIT) -> tuple[str, bool]:
    """`text` cut to `limit` characters, and whether it was cut."""
    return (text, False) if len(text) <= limit else (text[:limit], True)


@dataclass(frozen=True)
class Exchange:
    """One request and what came back (or why nothing did), kept as evidence."""

    method: str
    url: str
    request_headers: dict[str, str] = field(default_factory=dict)
    request_body: str = ""
    status: int | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: str = ""
    response_truncated: bool = False
    http_version: str | None = None
    tls_version: str | None = None
    elapsed_ms: float | None = None
    error: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Exchange:
        # report.json adds the curl command to each
        return cls(**{k: v for k, v in data.items() if k != "curl"})

    @property
    def replayable(self) -> bool:
        """Whether the request is an HTTP request a command line can send again (not an MCP call,
        not a run)."""
        return self.method.isalpha() and self.url.startswith(("http://", "https://"))

    def curl(self, cacert: str | None = None) -> str:
        """The curl command that sends this request again, as printed (trusting `cacert`); ""
        when it is no HTTP request. The one curl generator of the reports and the command line.
        A redacted credential is named as an environment variable the user sets
        (`-H "Authorization: $AGENT_AUTHORIZATION"`)."""
        if not self.replayable:
            return ""
        parts = ["curl", "-sS", "-i", "-X", self.method, *(["--cacert", cacert] if cacert else [])]
        words = [shlex.quote(part) for part in parts]
        for name, value in self.request_headers.items():
            if name.lower() in _UNSENT_HEADERS:
                continue
            if REDACTED in value:
                variable = "AGENT_" + re.sub(r"\W", "_", name.upper())
                words += ["-H", f'"{name}: ${variable}"']
            else:
                words += ["-H", shlex.quote(f"{name}: {value}")]
        if self.request_body:
            words += ["--data-binary", shlex.quote(self.request_body)]
        words.append(shlex.quote(self.url))
        return " ".join(words)


@dataclass(frozen=True)
class Result:
    """The verdict on one requirement for one target."""

    requirement: str
    draft: str
    section: str
    level: str
    status: Status
    message: str
    check: str | None = None
    evidence: tuple[Exchange, ...] = ()
    duration_ms: float = 0.0
    quote: str = ""  # the sentence the requirement quotes from its section
    basis: str = ""  # keyword, figure, reference or inferred: where the requirement comes from
    #: the faults and mutants that prove its check can fail
    proof: dict[str, Any] = field(default_factory=dict)
    #: over repeated runs (run --repeat): runs, passes, failures, errors, the observed violation
    #: rate, its bound
    repeat: dict[str, Any] | None = None
    skip: Skip | None = None  # why it was not judged, when the status is skip

    @classmethod
    def of(
        cls,
        requirement: Requirement,
        status: Status,
        message: str,
        *,
        check: str | None = None,
        evidence: tuple[Exchange, ...] = (),
        duration_ms: float = 0.0,
        strict: bool = False,
        skip: Skip | None = None,
    ) -> Result:
        """The result on `requirement`, at the level the run judges it (`strict`: an inferred
        rule's stronger reading). A MAY never fails: what its check found wrong is a warning in
        the message of a pass."""
        level = requirement.level_in(strict)
        if level == "MAY" and status is Status.FAIL:
            status, message = Status.PASS, f"warning (a MAY never fails): {message}"
        return cls(
            requirement.id,
            requirement.draft,
            requirement.section,
            level,
            status,
            message,
            check,
            evidence,
            duration_ms,
            requirement.quote,
            requirement.basis,
            proof_of(requirement.id),
            skip=skip if status is Status.SKIP else None,
        )

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = self.status.value
        data["evidence"] = [e.as_dict() for e in self.evidence]
        if self.repeat is None:
            del data["repeat"]
        if self.skip is None:
            del data["skip"]
        else:
            data["skip"] = self.skip.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        fields = dict(data)
        fields["status"] = Status(fields["status"])
        fields["evidence"] = tuple(Exchange.from_dict(e) for e in fields.get("evidence", ()))
        if fields.get("skip") is not None:
            fields["skip"] = Skip(fields["skip"])
        return cls(**fields)


@dataclass(frozen=True)
class RunHeader:
    """What was run, against what, by which version of the suite."""

    tool_version: str
    target: str
    suites: tuple[str, ...]
    binding: str
    started: str
    options: dict[str, Any] = field(default_factory=dict)
    report_format: str = REPORT_FORMAT

    @property
    def cacert(self) -> str | None:
        """The CA the run trusted, for the curl commands that send its exchanges again."""
        given = self.options.get("cacert")
        return given if isinstance(given, str) else None

    def as_dict(self) -> dict[str, Any]:
        from ..requirements import DRAFTS

        data = asdict(self)
        data["suites"] = list(self.suites)
        # the revisions the run certified (run --revision), else each draft's latest
        chosen = {name.rsplit("-", 1)[0]: name for name in self.options.get("revisions") or ()}
        data["drafts"] = {
            draft: chosen.get(DRAFTS[draft].rsplit("-", 1)[0], DRAFTS[draft])
            for draft in self.suites
            if draft in DRAFTS
        }
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunHeader:
        return cls(**{**data, "suites": tuple(data["suites"])})
