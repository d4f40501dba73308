"""The Target: what a check gets. The run's options, the client and binding to talk through, what
the probe found, and a memo for work several checks share, each piece of which runs once with its
own deadline."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from typing import Any
from typing import TypeVar
from urllib.parse import quote

from ..bindings import DocumentFetch
from ..bindings import HttpClient
from ..bindings import WoaRestBinding
from ..bindings.observed import NotObserved
from ..bindings.observed import Traffic
from ..recording import Recorder
from ..recording import Replay
from ..recording.values import Values
from .options import RunOptions
from .options import may_call
from .policy import is_loopback
from .policy import rest_config

__all__ = ["SharedWorkFailed", "Target"]

T = TypeVar("T")


class SharedWorkFailed(Exception):
    """Work several checks share (a session of exchanges) did not finish within its own deadline."""


@dataclass
class Target:
    options: RunOptions
    client: HttpClient
    binding: WoaRestBinding
    # the document's fetch: the probe's, or in a run that watches, the first that passed by
    fetched: DocumentFetch
    #: what the run makes up (from its seed) and the clock readings that enter a verdict
    values: Values
    recorder: Recorder | None = None  # keeps the run's evidence (run --record)
    #: the deadline of the check this view of the target is handed to, which waiting on shared work
    #: must not use up
    deadline: asyncio.Timeout | None = None
    cache: dict[str, Any] = field(default_factory=dict)
    _memo: dict[str, asyncio.Future[Any]] = field(default_factory=dict)
    _ends: dict[str, float] = field(default_factory=dict)
    _timeouts: dict[str, asyncio.Timeout] = field(default_factory=dict)
    _waiting: dict[str, set[asyncio.Timeout]] = field(default_factory=dict)

    @property
    def discovery(self) -> DocumentFetch:
        """The fetch of the WoA document; in a run that watches, NotObserved when none passed by."""
        if self.fetched.cause == "not-observed":
            raise NotObserved(f"not in the observed traffic: {self.fetched.problem}")
        return self.fetched

    @property
    def document(self) -> Any:
        return self.discovery.document

    @property
    def observed(self) -> Traffic | None:
        """The traffic this run judges, when it watches rather than sends."""
        return self.options.observed

    def checked_under(self, deadline: asyncio.Timeout) -> Target:
        """This target as one check sees it: the same run, memo and cache, with that check's
        deadline."""
        return replace(self, deadline=deadline)

    @property
    def replay(self) -> Replay | None:
        """The recording this run is answered from, when it is a replay."""
        return self.options.replay

    def sends(self, what: str) -> None:
        """Say that the check is about to send `what` (or host a server, or drive a client):
        NotObserved in a run that watches, which sends nothing (its client refuses every request;
        other ways out are here)."""
        if self.options.observed is not None:
            raise NotObserved(
                f"a run that watches sends nothing, and this needs {what}: run the suite against"
                " the target to judge it"
            )

    def may_call(self, url: str) -> bool:
        """Whether the user allowed the suite to send requests to `url`."""
        return may_call(self.options, url)

    def invoke_url(self, agent_id: str) -> tuple[str | None, str | None]:
        """The rest invocation URL of `agent_id` (WoA 4.3.1), or why the suite will not call it."""
        rest = rest_config(self.document)
        if (
            not isinstance(rest, dict)
            or not isinstance(rest.get("base"), str)
            or not isinstance(rest.get("invoke_path"), str)
        ):
            return None, "the rest transport has no usable base and invoke_path"
        base, path = rest["base"].rstrip("/"), rest["invoke_path"]
        if not path.startswith("/"):
            return (
                None,
                f"invoke_path {path!r} does not start with / (WOA-4.3.1-REST-INVOKE-PATH-ABSOLUTE)",
            )
        url = base + path.replace("{agent_id}", quote(agent_id, safe=""))
        if url.startswith("http://") and not self.waives_plain_http(url):
            return (
                None,
                (
                    f"the rest base {base} is plain HTTP; the suite does not invoke over it"
                    " (WOA-4.3.1-REST-BASE-HTTPS)"
                ),
            )
        if not url.startswith(("https://", "http://")):
            return None, f"the rest base {base!r} is not an http(s) URL"
        if not self.may_call(url):
            return (
                None,
                f"{url} is not on the target's origin; allow it with --allow-origin to invoke it",
            )
        return url, None

    def waives_plain_http(self, url: str) -> bool:
        """Plain HTTP on loopback, which --allow-http-loopback reports as waived."""
        return self.options.allow_http_loopback and url.startswith("http://") and is_loopback(url)

    async def memo(self, key: str, work: Callable[[], Awaitable[T]]) -> T:
        """Do `work` once per run, however many checks ask for it.

        The work runs in a task of its own with its own deadline (`shared_deadline`), shielded from
        the checks that wait for it: a check that overruns never cancels what the next check needs,
        and the time a check spends waiting here does not count against its own deadline."""
        loop = asyncio.get_running_loop()
        if key not in self._memo:
            self._memo[key] = asyncio.ensure_future(self._bounded(key, work))
            self._ends[key] = loop.time() + self.options.shared_deadline
        scope = self.deadline
        if scope is not None and scope.when() is not None and not scope.expired():
            # the check has ended (shared work it began asks on): nothing to extend
            with contextlib.suppress(RuntimeError):
                scope.reschedule(
                    max(scope.when() or 0.0, self._ends[key] + self.options.check_deadline)
                )
            self._waiting.setdefault(key, set()).add(scope)
        try:
            result: T = await asyncio.shield(self._memo[key])
        finally:
            if scope is not None:
                self._waiting.get(key, set()).discard(scope)
        return result

    def allow(self, key: str, exchanges: int) -> None:
        """Let the shared work `key`, which has just planned `exchanges` requests one after
        another, take as long as they may: the run's request timeout each, from now, when that
        is longer than its own deadline. The checks waiting on it wait as long."""
        loop = asyncio.get_running_loop()
        end = loop.time() + exchanges * self.options.timeout
        timeout = self._timeouts.get(key)
        if timeout is None or end <= self._ends.get(key, 0.0):
            return
        self._ends[key] = end
        timeout.reschedule(end)
        for scope in self._waiting.get(key, ()):
            if not scope.expired():
                with contextlib.suppress(RuntimeError):
                    scope.reschedule(max(scope.when() or 0.0, end + self.options.check_deadline))

    def finished(self, key: str) -> Any:
        """What the shared work `key` produced, when it ran and finished without failing (None
        otherwise)."""
        task = self._memo.get(key)
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        return task.result()

    async def _bounded(self, key: str, work: Callable[[], Awaitable[T]]) -> T:
        start = asyncio.get_running_loop().time()
        try:
            async with asyncio.timeout(self.options.shared_deadline) as self._timeouts[key]:
                return await work()
        except TimeoutError:
            took = self._ends[key] - start
            raise SharedWorkFailed(f"{key} did not finish within its {took:g} s deadline") from None

    async def aclose(self) -> None:
        """Cancel shared work still running (a check gave up on it) once the run is over."""
        pending = [task for task in self._memo.values() if not task.done()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
