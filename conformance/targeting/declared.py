"""What a user may give a run, declared once: each option's flag, help, type, limits and the
`run_options` keyword it feeds. Its default is run_options' own.

    GIVEN["timeout"]   -> the command line's --timeout (cli/_options.py makes its typer option)
                       -> the pytest plugin's --agent-timeout (those marked `plugin`)
                       -> a fleet file's per-target "timeout" (any of them, by flag or keyword)
                       -> run_options(timeout=...), which checks every value and combination
                          (sources.py the options that go together)

What a run keeps of its options is `RunOptions.recorded()`; `from_recorded` reads it back."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Literal

from .options import DEFAULT_ROLES
from .options import SUITES
from .options import run_options

__all__ = ["GIVEN", "Given", "default_of", "keyword_of"]


@dataclass(frozen=True)
class Given:
    keyword: str  # run_options' keyword
    flag: str  # the command line's flag, without its dashes
    help: str
    kind: type[Any] = str  # str, int, float, bool or Path
    repeatable: bool = False
    minimum: float | None = None
    maximum: float | None = None
    #: the values allowed (a choice)
    choices: tuple[str, ...] = ()
    #: a Path: a file (one that must exist already), or a folder the run writes
    path: Literal["file", "existing-file", "folder"] | None = None
    #: the pytest plugin offers it (as --agent-FLAG)
    plugin: bool = False

    @property
    def default(self) -> Any:
        """run_options' default (None for a repeatable option: nothing given)."""
        return None if self.repeatable else default_of(self.keyword)


def default_of(keyword: str) -> Any:
    """run_options' default for `keyword`."""
    return inspect.signature(run_options).parameters[keyword].default


_ROLES = ", ".join(r for r in DEFAULT_ROLES if r != "any")

GIVEN: dict[str, Given] = {
    given.keyword: given
    for given in (
        Given(
            "suites",
            "suite",
            "Which draft to certify against.",
            choices=(*SUITES, "all"),
            plugin=True,
        ),
        Given(
            "roles",
            "role",
            f"Roles to certify the target in (repeatable). Default: {_ROLES}.",
            repeatable=True,
            plugin=True,
        ),
        Given(
            "cacert",
            "cacert",
            "Trust this CA certificate (PEM), e.g. a local test CA.",
            Path,
            path="existing-file",
            plugin=True,
        ),
        Given(
            "timeout",
            "timeout",
            "Seconds allowed for each request.",
            float,
            minimum=0.1,
            maximum=600,
            plugin=True,
        ),
        Given(
            "allow_http_loopback",
            "allow-http-loopback",
            "For a plain-HTTP target on loopback, report the HTTPS requirements as waived (never"
            " as pass).",
            bool,
            plugin=True,
        ),
        Given(
            "allowed_origins",
            "allow-origin",
            "Also let the suite call URLs on this origin (repeatable); by default it calls only"
            " the target's own origin.",
            repeatable=True,
            plugin=True,
        ),
        Given(
            "binding",
            "binding",
            "How to talk to the target: woa-rest (default), jsonrpc (SDSI Appendix A, --suite"
            " sdsi) or a2a (ACI invoked agents, --suite aci).",
        ),
        Given(
            "revisions",
            "revision",
            "Certify against this revision of its draft (repeatable, one a draft), such as"
            " draft-gaikwad-woa-00, or a folder holding a revision's text and catalogue; by"
            " default each draft's latest the suite has (`requirements --revisions`).",
            repeatable=True,
            plugin=True,
        ),
        Given(
            "scenarios",
            "scenario",
            "An SDSI scenario to certify (repeatable); by default those the server's schema lists"
            " (over WoA REST), required with --binding jsonrpc.",
            repeatable=True,
            plugin=True,
        ),
        Given(
            "max_experimental_keys",
            "max-experimental-keys",
            "The SDSI convergence cap to hold a server to where it declares none: most active"
            " experimental keys per scenario (6.2.3; the draft's 10 is an example).",
            int,
            minimum=1,
        ),
        Given(
            "check_timeout",
            "check-timeout",
            "Seconds each check may take. Default: six request timeouts.",
            float,
            minimum=0.1,
            maximum=3600,
        ),
        Given(
            "budget",
            "budget",
            "Seconds the whole run may take; past it, what is left is skipped and the run is"
            " inconclusive.",
            float,
            minimum=1,
            maximum=86400,
        ),
        Given(
            "strict",
            "strict",
            "Judge requirements read out of prose (basis inferred) at the stronger level their"
            " errata entries argue for, MUST included: a schema-valid input answered 5xx then"
            " fails at MUST; recorded in the report.",
            bool,
        ),
        Given(
            "client_command",
            "client-command",
            "Certify a WoA client: the command that makes it invoke an agent, with {document}"
            " {agent} {operation} {input} {cacert} (see the README). Implies --suite woa --role"
            " client.",
        ),
        Given(
            "levels",
            "level",
            "Judge only requirements at this level (repeatable): must, should, may. The rest are"
            ' skips, "not selected".',
            repeatable=True,
        ),
        Given(
            "requirements",
            "requirement",
            "Judge only this requirement (repeatable), e.g. WOA-4-VERSION-1.",
            repeatable=True,
        ),
        Given(
            "sections",
            "section",
            "Judge only requirements of this section and its subsections (repeatable), e.g. 5.2.",
            repeatable=True,
        ),
        Given("exclude", "exclude", "Do not judge this requirement (repeatable).", repeatable=True),
        Given(
            "baseline",
            "baseline",
            "Expected failures (see `agent-conformance baseline`): listed failures are waived"
            " with their reason, an unlisted one fails, a listed one that passes fails as stale.",
            Path,
            path="file",
            plugin=True,
        ),
        Given(
            "headers",
            "header",
            "Send this header with every request (repeatable), e.g. 'Authorization: Bearer TOKEN'"
            " for a protected host; what the suite writes and prints holds its name, never its"
            " value.",
            repeatable=True,
            plugin=True,
        ),
        Given(
            "record",
            "record",
            "Record every exchange into this folder, to judge it again later with `rejudge`.",
            Path,
            path="folder",
        ),
        Given(
            "seed",
            "seed",
            "Seed of every value the suite makes up (session ids, canaries); by default a fresh"
            " one each run, printed and recorded, so that a live server certified again meets"
            " new sessions.",
            int,
        ),
        Given(
            "max_probes",
            "max-probes",
            "Invocations the WoA host checks may send, spent breadth first: every agent's cheap"
            " probes and one valid invocation before any agent gets a second.",
            int,
            minimum=1,
            maximum=1_000_000,
        ),
        Given(
            "require_every_agent",
            "require-every-agent",
            "Exit 4 (inconclusive) when an advertised agent was not exercised (a valid invocation"
            " sent and answered).",
            bool,
        ),
        Given(
            "parallel",
            "parallel",
            "Checks judged at once, from different lanes (a draft and a role); 1: one after"
            " another. The report is the same either way.",
            int,
            minimum=1,
            maximum=64,
        ),
        Given(
            "keep_credentials",
            "keep-credentials-in-evidence",
            "Write header values, URL passwords and tokens into the reports and the recording as"
            " they were sent (by default each is redacted); for evidence kept in a private place."
            " Every report says so.",
            bool,
        ),
    )
}


def keyword_of(name: str) -> str | None:
    """The run_options keyword a name stands for: a keyword itself, or a flag (dashes or
    underscores: "allow-origin", "allow_origin"); None when neither."""
    if name in GIVEN:
        return name
    spelled = name.replace("_", "-")
    return next((g.keyword for g in GIVEN.values() if g.flag == spelled), None)
