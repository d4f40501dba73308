"""WoA over REST (WoA sections 4 and 5.2): the document at /.well-known/woa.json, invocations by
POST."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from typing import Literal
from urllib.parse import urljoin

from .http import ExchangeFailed
from .http import HttpClient
from .http import HttpResponse
from .jsonparse import NotJson
from .jsonparse import parse_json
from .jsonparse import parse_lasting

__all__ = ["WELL_KNOWN_PATH", "DocumentFetch", "WoaRestBinding", "document_from"]

WELL_KNOWN_PATH = "/.well-known/woa.json"
ACCEPT = "application/woa+json, application/json"  # as WoA Appendix B's client sends
REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5


@dataclass(frozen=True)
class DocumentFetch:
    """The answer to GET /.well-known/woa.json: the response and the document, or why there is
    none."""

    url: str
    response: HttpResponse | None
    document: Any = None
    problem: str | None = None
    #: what went wrong: the exchange broke, a redirect was refused, the status was not 200, the body
    #: is not JSON, or (a run that watches) no fetch of the document passed by
    cause: Literal["exchange", "redirect", "status", "not-json", "not-observed"] | None = None
    redirects: tuple[str, ...] = ()
    #: with cause not-json: the body is not even UTF-8 text (WOA-9.2-UTF8-JSON's)
    not_utf8: bool = False
    #: with cause not-json: the body goes beyond the parser's limits (nesting, digits)
    beyond_limit: bool = False
    #: the document was frozen out of the cyclic collector's walks (`parse_lasting`): whoever
    #: fetched it gives it back with `gc.unfreeze()` when it is done with it
    frozen: bool = False

    @property
    def final_url(self) -> str:
        """Where the document was found, after the redirects followed."""
        return self.redirects[-1] if self.redirects else self.url


class WoaRestBinding:
    name = "woa-rest"

    def __init__(self, target: str, client: HttpClient) -> None:
        self.target = target.rstrip("/")
        self.client = client

    @property
    def document_url(self) -> str:
        return self.target + WELL_KNOWN_PATH

    async def fetch_document(
        self,
        headers: dict[str, str] | None = None,
        may_follow: Callable[[str], bool] = lambda url: False,
        *,
        lasting: bool = False,
    ) -> DocumentFetch:
        """GET the WoA document, following at most five redirects to URLs `may_follow` allows
        (`lasting`: the document lasts the caller's run, see `document_from`). Raises
        `Unreachable` when nothing answers; any other defect is the fetch's `problem`."""
        url, hops = self.document_url, [self.document_url]
        while True:
            try:
                response = await self.client.request(
                    "GET", url, headers={"accept": ACCEPT, **(headers or {})}
                )
            except ExchangeFailed as error:
                return DocumentFetch(
                    self.document_url,
                    None,
                    problem=str(error),
                    cause="exchange",
                    redirects=tuple(hops[1:]),
                )
            location = response.headers.get("location")
            if response.status not in REDIRECTS or location is None:
                break
            url = urljoin(url, location)
            refusal = None
            if url in hops:
                refusal = f"redirect loop: {' -> '.join([*hops, url])}"
            elif len(hops) > MAX_REDIRECTS:
                refusal = f"more than {MAX_REDIRECTS} redirects"
            elif not may_follow(url):
                refusal = f"redirected to {url}, which is not on an allowed origin: not followed"
            hops.append(url)
            if refusal:
                return DocumentFetch(
                    self.document_url,
                    response,
                    problem=refusal,
                    cause="redirect",
                    redirects=tuple(hops[1:]),
                )
        return document_from(
            self.document_url, response, final=url, redirects=tuple(hops[1:]), lasting=lasting
        )


def document_from(
    url: str,
    response: HttpResponse,
    *,
    final: str | None = None,
    redirects: tuple[str, ...] = (),
    lasting: bool = False,
) -> DocumentFetch:
    """The fetch of the WoA document at `url` that `response` answered (from `final`, after
    `redirects`): the document, or why there is none. With `lasting` (the document lasts a whole
    run) a large one may come `frozen`, for its fetcher to give back."""
    if response.status != 200:
        return DocumentFetch(
            url,
            response,
            problem=f"GET {final or url} answered {response.status}, not 200",
            cause="status",
            redirects=redirects,
        )
    try:
        document, frozen = (
            parse_lasting(response.body) if lasting else (parse_json(response.body), False)
        )
        return DocumentFetch(url, response, document, redirects=redirects, frozen=frozen)
    except NotJson as error:
        return DocumentFetch(
            url,
            response,
            problem=f"the document cannot be read as JSON: {error}",
            cause="not-json",
            redirects=redirects,
            not_utf8=error.encoding,
            beyond_limit=error.limit,
        )
