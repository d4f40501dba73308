"""WoA over REST (WoA sections 4 and 5.2): the document at /.well-known/woa.json, invocations by POST."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .http import ExchangeFailed, HttpClient, HttpResponse
from .jsonparse import NotJson, parse_json

__all__ = ["WELL_KNOWN_PATH", "DocumentFetch", "WoaRestBinding"]

WELL_KNOWN_PATH = "/.well-known/woa.json"
ACCEPT = "application/woa+json, application/json"  # as WoA Appendix B's client sends


@dataclass(frozen=True)
class DocumentFetch:
    """The answer to GET /.well-known/woa.json: the response and the document, or why there is none."""

    url: str
    response: HttpResponse | None
    document: Any = None
    problem: str | None = None
    #: what went wrong: the exchange broke, the status was not 200, or the body is not JSON
    cause: Literal["exchange", "status", "not-json"] | None = None


class WoaRestBinding:
    name = "woa-rest"

    def __init__(self, target: str, client: HttpClient) -> None:
        self.target = target.rstrip("/")
        self.client = client

    @property
    def document_url(self) -> str:
        return self.target + WELL_KNOWN_PATH

    async def fetch_document(self, headers: dict[str, str] | None = None) -> DocumentFetch:
        """GET the WoA document. Raises `Unreachable` when nothing answers; any other defect is a `problem`."""
        url = self.document_url
        try:
            response = await self.client.request("GET", url, headers={"accept": ACCEPT, **(headers or {})})
        except ExchangeFailed as error:
            return DocumentFetch(url, None, problem=str(error), cause="exchange")
        if response.status != 200:
            return DocumentFetch(url, response, problem=f"GET {url} answered {response.status}, not 200", cause="status")
        try:
            return DocumentFetch(url, response, parse_json(response.body))
        except NotJson as error:
            return DocumentFetch(url, response, problem=f"the document cannot be read as JSON: {error}", cause="not-json")
