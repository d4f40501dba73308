"""A run's options, built and checked in one place (`run_options`) for every entry point: the CLI,
the pytest plugin, fleet, rejudge, mutate, the bench and the tests."""

from __future__ import annotations

import dataclasses
import importlib.util
import secrets
import ssl
import types
import typing
from collections.abc import Mapping
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..bindings import BINDINGS
from ..bindings import WoaRestBinding
from ..bindings.http import same_origin
from ..bindings.http import tls_context
from ..bindings.observed import Traffic
from ..recording import Replay
from ..report.redaction import public
from ..requirements import Catalogue
from ..requirements import catalogue_of
from ..requirements.revisions import Revision
from ..requirements.revisions import RevisionUnknown
from ..requirements.revisions import latest
from ..requirements.revisions import revision
from .baseline import Baseline
from .baseline import BaselineUnusable
from .selection import Selection
from .selection import UnknownSelection

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_PROBES",
    "DEFAULT_ROLES",
    "SUITES",
    "OptionsUnusable",
    "RunOptions",
    "fresh_seed",
    "may_call",
    "origin",
    "run_options",
    "usable_cacert",
]

#: The roles a target is certified in unless told otherwise: a WoA host, an SDSI server, an ACI
#: agent.
DEFAULT_ROLES = ("host", "server", "master", "invoked", "any")
#: The drafts a run can certify, in the order reports list them.
SUITES = ("woa", "sdsi", "aci")
#: Seconds a whole run may take unless --budget says otherwise: the largest reference run (all
#: drafts, every role, about 7 s) forty times over, so that a slow but honest target over a real
#: network fits.
DEFAULT_BUDGET = 300.0
#: Invocations one run may send to a WoA host's agents: every agent of a host of up to about 330
#: gets its input-independent probes and a valid invocation (three each), and a hostile document of
#: 80,000 agents stays bounded (examples are built only for the agents the cap reaches).
DEFAULT_MAX_PROBES = 1_000


def fresh_seed() -> int:
    """A seed no run has used: the values a run makes up (session ids, canaries) come from it."""
    return secrets.randbits(32)


def may_call(options: RunOptions, url: str) -> bool:
    """Whether `url` is on the target's origin or one the user allowed."""
    return any(same_origin(url, origin) for origin in (options.target, *options.allowed_origins))


@dataclass(frozen=True)
class RunOptions:
    target: str
    suites: tuple[str, ...] = ("woa", "sdsi", "aci")
    binding: str = WoaRestBinding.name
    roles: tuple[str, ...] = DEFAULT_ROLES
    timeout: float = 10.0
    max_body: int = 10 * 1024 * 1024
    cacert: Path | None = None
    allow_http_loopback: bool = False
    allowed_origins: tuple[str, ...] = ()
    #: for the SDSI jsonrpc binding, which has no document to name them
    scenarios: tuple[str, ...] = ()
    #: the SDSI convergence cap to hold servers to where they declare none (6.2.3)
    max_experimental_keys: int | None = None
    #: judge inferred requirements at their strict level (their errata's stronger reading)
    strict: bool = False
    #: the revisions certified against, where not each draft's latest (requirements/revisions.py)
    revisions: tuple[Revision, ...] = ()
    #: checks of different lanes (draft and role) judged at once; 1: one after another
    parallel: int = 4
    check_timeout: float | None = None  # seconds each check may take; None: six request timeouts
    budget: float = DEFAULT_BUDGET  # seconds the whole run may take
    #: a WoA client to certify, driven through this command (conformance/driver)
    client_command: str | None = None
    #: which requirements are judged (the rest: skip)
    selection: Selection = field(default_factory=Selection)
    baseline: Baseline | None = None  # expected failures (conformance/targeting/baseline.py)
    #: sent with every request (credentials for a protected host)
    headers: tuple[tuple[str, str], ...] = ()
    record: Path | None = None  # write a recording of every exchange here (conformance/recording)
    #: answer every request from this recording instead
    replay: Replay | None = field(default=None, compare=False)
    #: every value the suite makes up comes from it (recorded, so that a replay makes the same);
    #: fresh for every run unless given, so that a live target certified again never meets the
    #: sessions of the run before
    seed: int = field(default_factory=lambda: fresh_seed())
    # invocations the WoA host checks may send in one run, spent breadth first
    max_probes: int = DEFAULT_MAX_PROBES
    #: an advertised agent not exercised makes the run inconclusive (exit 4)
    require_every_agent: bool = False
    #: write credentials into the evidence as they were sent (report/redaction.py): for recordings
    #: kept in a private place; every report says so
    keep_credentials: bool = False
    transport: httpx.AsyncBaseTransport | None = field(default=None, compare=False)
    #: judge this traffic instead of sending anything (the proxy's, the fuzzer's): a run that
    #: watches
    observed: Traffic | None = field(default=None, compare=False)

    @property
    def driver(self) -> str | None:
        """How the suite makes the target act: None (it calls the target) or "client-command"."""
        return "client-command" if self.client_command else None

    @property
    def drivers(self) -> tuple[str | None, ...]:
        """Whose checks the run makes: those of the way it makes the target act, or, in a run that
        watches, every check (what the traffic shows of the host's side and of the client's)."""
        return (None, "client-command") if self.observed is not None else (self.driver,)

    @property
    def check_deadline(self) -> float:
        return self.check_timeout if self.check_timeout is not None else self.timeout * 6

    @property
    def drafts(self) -> dict[str, str]:
        """The revision certified of each draft the run certifies."""
        chosen = {r.draft: r.name for r in self.revisions}
        return {draft: chosen.get(draft, latest(draft).name) for draft in self.suites}

    def catalogue(self) -> Catalogue:
        """The requirements of the revisions the run certifies."""
        return catalogue_of(self.revisions)

    @property
    def shared_deadline(self) -> float:
        """Seconds for work several checks share (a plan of probes, a session): four check
        deadlines."""
        return self.check_deadline * 4

    @property
    def in_process(self) -> bool:
        """The target runs in the suite's own event loop (an app or a function handed over
        in-process): no socket, and a blocking call it makes stops the loop too."""
        return self.transport is not None

    def recorded(self) -> dict[str, object]:
        """The options as they go into a report's header: every field but those `_UNRECORDED`,
        a header by its name alone (its value may be a credential), and what the run made of
        them (its check deadline, whether it ran in process, the recording it replayed)."""
        kept = {
            f.name: _plain(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in _UNRECORDED
        }
        return {
            **kept,
            "headers": [name for name, _ in self.headers],
            "check_deadline": self.check_deadline,
            "in_process": self.in_process,
            "replayed_from": str(self.replay.folder) if self.replay else None,
        }

    @classmethod
    def from_recorded(
        cls, target: str, suites: Sequence[str], recorded: Mapping[str, Any], **live: Any
    ) -> RunOptions:
        """The options `recorded()` wrote, read back, every field of them by its type (tests hold
        the round trip): a re-judged run is the run that was recorded. A header's value was
        never recorded: it comes back as its redacted form, or a placeholder, which a replay
        never sends anywhere. `live` gives what no record holds (the replay, a transport)."""
        types = typing.get_type_hints(cls)
        read = {
            f.name: _read(types[f.name], recorded[f.name])
            for f in dataclasses.fields(cls)
            if f.name not in _UNRECORDED and f.name != "headers" and f.name in recorded
        }
        headers = tuple(_recorded_header(h) for h in recorded.get("headers") or ())
        return cls(target=target, suites=tuple(suites), headers=headers, **read, **live)


#: What a record leaves out: the report's header names the target and the suites; where a
#: recording went is the recording; what an entry point hands over in process is no option.
_UNRECORDED = frozenset({"target", "suites", "record", "replay", "transport", "observed"})


def _plain(value: Any) -> Any:
    """A field's value as JSON holds it."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Revision):
        return value.name
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Selection | Baseline):
        return value.recorded()
    return value


def _read(kind: Any, value: Any) -> Any:
    """A recorded value as the field typed `kind` holds it."""
    if value is None:
        return None
    kinds = (
        set(typing.get_args(kind)) - {type(None)} if typing.get_origin(kind) in _UNIONS else {kind}
    )
    (kind,) = kinds
    if kind in (Selection, Baseline):
        return kind.from_recorded(value)
    if typing.get_args(kind)[:1] == (Revision,):
        return tuple(revision(name) for name in value)
    if typing.get_origin(kind) is tuple:
        return tuple(value)
    return kind(value)


_UNIONS = (typing.Union, types.UnionType)


#: The value a header read back from a record carries when the record names the header alone.
UNRECORDED = "<not recorded>"


def _recorded_header(entry: Any) -> tuple[str, str]:
    """A header as a record holds it: its name, or its name and its (redacted) value."""
    if isinstance(entry, str):
        return entry, UNRECORDED
    name, value = entry
    return str(name), str(value)


class OptionsUnusable(ValueError):
    """An option a run cannot use: which (as the CLI spells it) and why, for a usage error (exit
    2)."""

    def __init__(self, option: str, why: str, *, whole: bool = False) -> None:
        """`why` follows the option's name ("--cacert x is not ..."), or with `whole` says it
        all."""
        super().__init__(why if whole else f"--{option} {why}")
        self.option, self.why, self.whole = option, why, whole


def origin(url: str, option: str = "target") -> str:
    """`url` as a target's origin and optional base path (no trailing slash), or OptionsUnusable."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OptionsUnusable(
            option,
            f"must be an http or https URL such as https://agents.example.com, not {public(url)!r}",
        )
    if parts.query or parts.fragment:
        raise OptionsUnusable(
            option, "is an origin (and optional base path), without a query or fragment"
        )
    return url.rstrip("/")


def usable_cacert(cacert: Path | str | None) -> Path | None:
    """`cacert` when it holds a certificate TLS can load (the user's file, not a defect of the
    suite)."""
    if cacert is None:
        return None
    try:
        tls_context(str(cacert))
    except (ssl.SSLError, OSError, ValueError) as error:
        raise OptionsUnusable(
            "cacert", f"{cacert} is not a PEM CA certificate TLS can load: {error}"
        ) from None
    return Path(cacert)


def _header(raw: str | tuple[str, str]) -> tuple[str, str]:
    name, colon, value = raw.partition(":") if isinstance(raw, str) else (raw[0], ":", raw[1])
    if (
        not colon
        or not name.strip()
        or any(c in name for c in " \t\r\n")
        or any(c in value for c in "\r\n")
    ):
        raise OptionsUnusable(
            "header", "is 'Name: value', and one given is not (not shown: it may be a credential)"
        )
    return name.strip(), value.strip()


def _revisions(given: Sequence[str], suites: tuple[str, ...]) -> tuple[Revision, ...]:
    """The revisions `given` names (shipped names, or folders of one), one a draft at most, each
    of a draft the run certifies."""
    try:
        found = tuple(revision(g) for g in given)
    except RevisionUnknown as error:
        raise OptionsUnusable("revision", str(error), whole=True) from None
    drafts = [r.draft for r in found]
    twice = sorted({d for d in drafts if drafts.count(d) > 1})
    if twice:
        raise OptionsUnusable("revision", f"names two revisions of {', '.join(twice)}: give one")
    outside = [r.name for r in found if r.draft not in suites]
    if outside:
        raise OptionsUnusable(
            "revision", f"names {', '.join(outside)}, a draft this run does not certify"
        )
    return found


def run_options(
    target: str,
    *,
    suites: str | Sequence[str] = "all",
    roles: Sequence[str] = DEFAULT_ROLES,
    cacert: Path | str | None = None,
    allowed_origins: Sequence[str] = (),
    headers: Sequence[str | tuple[str, str]] = (),
    levels: Sequence[str] = (),
    requirements: Sequence[str] = (),
    sections: Sequence[str] = (),
    exclude: Sequence[str] = (),
    baseline: Path | str | Baseline | None = None,
    scenarios: Sequence[str] = (),
    binding: str = WoaRestBinding.name,
    seed: int | None = None,
    timeout: float = RunOptions.timeout,
    max_body: int = RunOptions.max_body,
    allow_http_loopback: bool = False,
    max_experimental_keys: int | None = None,
    strict: bool = False,
    revisions: Sequence[str] = (),
    parallel: int = RunOptions.parallel,
    check_timeout: float | None = None,
    budget: float = DEFAULT_BUDGET,
    client_command: str | None = None,
    record: Path | None = None,
    replay: Replay | None = None,
    max_probes: int = DEFAULT_MAX_PROBES,
    require_every_agent: bool = False,
    keep_credentials: bool = False,
    transport: httpx.AsyncBaseTransport | None = None,
    observed: Traffic | None = None,
) -> RunOptions:
    """The one way every entry point (the CLI, the pytest plugin, fleet, rejudge, mutate, tests)
    makes a run's options from what a user gave, checked and normalised alike; OptionsUnusable names
    the option at fault.

    The target is an http(s) origin, left as given when the app is in-process (`transport`) or
    the suite drives a client (`client_command`); suites are "all" or draft names; roles always
    include "any"; the CA certificate must load (unless the run is a replay); allowed origins are
    origins; headers are "Name: value"; the selection and the baseline are read here; an unseeded
    run gets a fresh seed. The other parameters are RunOptions' fields of the same names, taken as
    given."""
    if not (transport is not None or client_command):
        target = origin(target)
    chosen = SUITES if suites == "all" else (suites,) if isinstance(suites, str) else tuple(suites)
    unknown = [s for s in chosen if s not in SUITES]
    if unknown or not chosen:
        raise OptionsUnusable(
            "suite", f"is one of {', '.join(SUITES)} or all, not {', '.join(unknown) or 'nothing'}"
        )
    unknown = [r for r in roles if r not in (*DEFAULT_ROLES, "client")]
    if unknown:
        raise OptionsUnusable(
            "role",
            f"is one of {', '.join(r for r in DEFAULT_ROLES if r != 'any')}, client or any, not"
            f" {', '.join(unknown)}",
        )
    if binding not in BINDINGS:
        raise OptionsUnusable("binding", f"is one of {', '.join(BINDINGS)}, not {binding!r}")
    if scenarios and "sdsi" not in chosen:
        raise OptionsUnusable("scenario", "names SDSI scenarios: give --suite sdsi (or all)")
    certified = _revisions(revisions, chosen)
    if binding == "a2a" and chosen != ("aci",):
        raise OptionsUnusable(
            "binding", "a2a certifies ACI invoked agents over A2A: give --suite aci"
        )
    if binding == "a2a" and importlib.util.find_spec("a2a") is None:
        raise OptionsUnusable(
            "binding",
            "a2a speaks through the A2A SDK, an extra: pip install 'agent-conformance[a2a]'",
        )
    try:
        selection = Selection(
            tuple(x.upper() for x in levels), tuple(requirements), tuple(sections), tuple(exclude)
        )
    except UnknownSelection as error:
        raise OptionsUnusable(
            "requirement" if requirements or exclude else "section" if sections else "level",
            str(error),
            whole=True,
        ) from None
    try:
        expected = Baseline.load(Path(baseline)) if isinstance(baseline, (str, Path)) else baseline
    except BaselineUnusable as error:
        raise OptionsUnusable("baseline", str(error), whole=True) from None
    given = tuple(_header(h) for h in headers)
    if "@" in urlsplit(target).netloc and any(n.lower() == "authorization" for n, _ in given):
        raise OptionsUnusable(
            "header",
            "gives Authorization, and the target's URL has credentials of its own, which would"
            " replace it on every request: give one or the other",
        )
    # a replay makes no connection: the recorded run's CA (a path on its machine) is not loaded
    trusted = usable_cacert(cacert) if replay is None else Path(cacert) if cacert else None
    return RunOptions(
        target=target,
        suites=chosen,
        roles=tuple(dict.fromkeys((*roles, "any"))),
        cacert=trusted,
        allowed_origins=tuple(origin(o, "allow-origin") for o in allowed_origins),
        headers=given,
        selection=selection,
        baseline=expected,
        scenarios=tuple(scenarios),
        binding=binding,
        seed=fresh_seed() if seed is None else seed,
        timeout=timeout,
        max_body=max_body,
        allow_http_loopback=allow_http_loopback,
        max_experimental_keys=max_experimental_keys,
        strict=strict,
        revisions=certified,
        parallel=parallel,
        check_timeout=check_timeout,
        budget=budget,
        client_command=client_command,
        record=record,
        replay=replay,
        max_probes=max_probes,
        require_every_agent=require_every_agent,
        keep_credentials=keep_credentials,
        transport=transport,
        observed=observed,
    )
