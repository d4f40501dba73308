"""How the WoA document is served (WoA sections 1, 7, 8.1, 9.2): location, media type, encoding,
caching, HTTPS and TLS. Each check reads the probe's exchange; the conditional GET is the one
request of its own."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ...bindings import ExchangeFailed
from ...bindings import HttpResponse
from ...bindings.observed import NotObserved
from ...bindings.woa_rest import ACCEPT
from ...targeting import Target
from ...targeting import on_the_open_internet
from ..preconditions import document_read
from ..preconditions import no_document
from ..preconditions import on_the_wire
from ..registry import Decided
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped
from ..registry import waived

__all__: list[str] = []

WOA_JSON = "application/woa+json"
#: Answers at the well-known path that ask something of the suite rather than refuse the document:
#: credentials (the run's --header), or time (Retry-After).
_ASKS_MORE = frozenset({401, 403, 407, 429})
#: The charset parameters that name UTF-8, or US-ASCII, whose texts are UTF-8 texts too.
_UTF8_CHARSETS = ("utf-8", "utf8", "us-ascii", "ascii")


def _served(target: Target) -> HttpResponse:
    """The 200 answer that carried the document; `Decided` (an error) when there was none."""
    discovery = target.discovery
    if discovery.response is None:
        raise Decided(no_document(discovery.problem))
    if discovery.response.status != 200:
        raise Decided(no_document(discovery.problem, discovery.response.exchange))
    return discovery.response


@check("WOA-1-WELL-KNOWN-LOCATION")
async def woa_1_well_known_location(target: Target) -> Verdict:
    discovery = target.discovery
    if discovery.response is None:
        return errored(f"cannot be judged: {discovery.problem}")
    if discovery.response.status in (404, 410):
        return failed(
            f"nothing at {discovery.url} ({discovery.response.status})", discovery.response.exchange
        )
    if discovery.response.status in _ASKS_MORE:  # credentials, or patience: nothing to judge yet
        return errored(discovery.problem or "", discovery.response.exchange)
    if discovery.response.status != 200:
        return failed(
            f"{discovery.url} answered {discovery.response.status} where the document was expected",
            discovery.response.exchange,
        )
    media = discovery.response.media_type
    if discovery.cause == "not-json" and not (
        media == "application/json" or media.endswith("+json")
    ):
        return failed(
            f"what {discovery.url} serves is {media or 'untyped'} and not JSON: no WoA document"
            " there",
            discovery.response.exchange,
        )
    return passed(f"the document is served at {discovery.url}", discovery.response.exchange)


@check("WOA-9.2-MEDIA-TYPE")
async def woa_9_2_media_type(target: Target) -> Verdict:
    response = _served(target)
    if response.media_type == WOA_JSON:
        return passed(f"served as {WOA_JSON}", response.exchange)
    return failed(
        f"served as {response.media_type or 'no media type'}, not {WOA_JSON}", response.exchange
    )


@check("WOA-9.2-UTF8-JSON")
async def woa_9_2_utf8_json(target: Target) -> Verdict:
    """WoA 9.2: "WoA documents are encoded as UTF-8 JSON text" (a MUST by RFC 8259 8.1): the
    bytes. A charset parameter is not judged: the registration defines none, and RFC 8259 11 says
    one has no effect on compliant recipients (E-WOA-9.2-CHARSET-LABEL); an ASCII document labelled
    ISO-8859-1, as servlet containers do by default, is UTF-8."""
    response = _served(target)
    discovery = target.discovery
    if discovery.not_utf8:
        return failed(discovery.problem or "", response.exchange)
    if discovery.cause == "not-json":
        return no_document(discovery.problem, response.exchange)
    charset = (
        response.headers.get("content-type", "")
        .lower()
        .partition("charset=")[2]
        .split(";")[0]
        .strip(' "')
    )
    if charset and charset not in _UTF8_CHARSETS:
        return passed(
            f"UTF-8 JSON text (its charset label {charset!r} has no effect: RFC 8259 11)",
            response.exchange,
        )
    return passed("UTF-8 JSON text", response.exchange)


@check("WOA-7-CACHING-HEADERS")
async def woa_7_caching_headers(target: Target) -> Verdict:
    """WoA 7: "Hosts SHOULD include HTTP caching headers, such as ETag, Last-Modified, and
    appropriate Cache-Control directives": at least one caching header (which set is
    WOA-7-CACHE-CONTROL-AND-VALIDATOR's)."""
    response = _served(target)
    present = [h for h in _CACHING if h in response.headers]
    if present:
        return passed(f"caching headers present: {', '.join(present)}", response.exchange)
    return failed(f"no caching header ({', '.join(_CACHING)}) on the document", response.exchange)


_CACHING = ("etag", "last-modified", "cache-control", "expires")


@check("WOA-7-CACHE-CONTROL-AND-VALIDATOR")
async def woa_7_cache_control_and_validator(target: Target) -> Verdict:
    """The suite's reading of WoA 7 (inferred, E-WOA-7-CACHING-SET): the document carries
    Cache-Control and a validator (ETag or Last-Modified), so a client can both keep it and
    revalidate it. Section 7 gives the headers as examples ("such as"): the rule is a MAY (what
    is missing is a warning), a SHOULD under --strict."""
    response = _served(target)
    present = [h for h in _CACHING if h in response.headers]
    if not present:
        return skipped(
            Skip.DEPENDS_ON,
            "the document carries no caching header at all (WOA-7-CACHING-HEADERS judges that)",
            response.exchange,
        )
    if "cache-control" in present and ("etag" in present or "last-modified" in present):
        return passed(f"Cache-Control and a validator: {', '.join(present)}", response.exchange)
    missing = (
        "no Cache-Control"
        if "cache-control" not in present
        else "no validator (ETag or Last-Modified)"
    )
    return failed(f"caching headers {', '.join(present)}, but {missing}", response.exchange)


@check("WOA-7-CONDITIONAL-GET")
async def woa_7_conditional_get(target: Target) -> Verdict:
    response = _served(target)
    if "etag" in response.headers:
        condition = {"if-none-match": response.headers["etag"]}
    elif "last-modified" in response.headers:
        condition = {"if-modified-since": response.headers["last-modified"]}
    else:
        return not_applicable(
            "the document carries no validator (ETag or Last-Modified) to send back"
        )
    try:
        again = (
            _revalidated(target, condition)
            if target.observed is not None
            else await target.client.request(
                "GET", target.discovery.final_url, headers={"accept": ACCEPT, **condition}
            )
        )
    except ExchangeFailed as error:
        return errored(str(error), error.exchange)
    name, value = next(iter(condition.items()))
    if again.status == 304:
        return passed(f"a GET with {name} was answered 304", again.exchange)
    return failed(
        f"a GET with {name}: {value} for the unchanged document was answered {again.status},"
        " not 304",
        again.exchange,
    )


def _revalidated(target: Target, condition: dict[str, str]) -> HttpResponse:
    """In a run that watches: the first later fetch of the document that carried the validator the
    first fetch gave, or NotObserved. One that was answered other than 304 is the one returned."""
    assert target.observed is not None
    name, value = next(iter(condition.items()))
    fetches = [o for o in target.observed.documents() if o.status is not None][1:]
    sent = [o for o in fetches if value in o.request_headers.get(name, "")]
    if not sent:
        raise NotObserved(f"no fetch of the document with {name}: {value} passed by")
    return next((o for o in sent if o.status != 304), sent[0]).response()


@check("WOA-8.1-HOST-USES-HTTPS")
async def woa_8_1_host_uses_https(target: Target) -> Verdict:
    """WoA 8.1: "Hosts that serve WoA documents and implement REST transports MUST use HTTPS": the
    URL that served the document (a redirect from http to https is not serving over HTTP)."""
    url = target.discovery.final_url or target.discovery.url
    evidence = (target.discovery.response.exchange,) if target.discovery.response else ()
    if not isinstance(target.document, dict):
        # whether the host serves a document and implements REST is the document's to say: a URL
        # that answers 404 over plain HTTP breaks no rule of this sentence
        return no_document(target.discovery.problem, *evidence)
    if "rest" not in _transports(target.document):
        return not_applicable(
            "the document offers no rest transport: the host implements no REST transport"
        )
    rest = _transports(target.document).get("rest")
    base = rest.get("base") if isinstance(rest, dict) else None
    if isinstance(base, str) and urlsplit(base).hostname not in (None, urlsplit(url).hostname):
        # the sentence binds a host that serves documents *and* implements REST: the REST
        # endpoints are another host's (its base is WOA-4.3.1-REST-BASE-HTTPS's)
        return not_applicable(
            f"the rest transport is served by {urlsplit(base).hostname}, not by the host of the"
            f" document ({urlsplit(url).hostname})"
        )
    on_the_wire(target)
    if urlsplit(url).scheme == "https":
        return passed(f"the document is served over HTTPS at {url}", *evidence)
    if target.waives_plain_http(url):
        return waived(f"plain HTTP on loopback ({url}), waived by --allow-http-loopback", *evidence)
    return failed(f"the document is served over plain HTTP at {url}", *evidence)


@check("WOA-8.1-TLS-1.3")
async def woa_8_1_tls_1_3(target: Target) -> Verdict:
    response = target.discovery.response
    if urlsplit(target.discovery.url).scheme != "https":
        return not_applicable("the target is not served over TLS (see WOA-8.1-HOST-USES-HTTPS)")
    on_the_wire(target)
    if response is None:
        return no_document(target.discovery.problem)
    version = response.exchange.tls_version
    if version is None and target.observed is not None:
        raise NotObserved("the traffic does not say which TLS version its connections negotiated")
    if version is None:
        return errored("the TLS version of the connection could not be read", response.exchange)
    if version == "TLSv1.3":
        return passed("the connection negotiated TLS 1.3", response.exchange)
    return failed(
        f"the connection negotiated {version}, not TLS 1.3, though the suite offers 1.3",
        response.exchange,
    )


def _transports(document: dict[str, Any]) -> dict[str, Any]:
    transports = document.get("transports")
    return transports if isinstance(transports, dict) else {}


@check("WOA-8.1-NO-PLAIN-HTTP", needs=(document_read,))
async def woa_8_1_no_plain_http(target: Target) -> Verdict:
    """WoA 8.1: "Plain HTTP MUST NOT be used for WoA documents or REST invocations on the open
    Internet": the URL that served the document and the rest base, where their host is on the open
    Internet. Any such URL also fails WOA-8.1-HOST-USES-HTTPS or WOA-4.3.1-REST-BASE-HTTPS, which
    ask for HTTPS wherever the host is; this rule adds nothing they miss, so no fault breaks it
    alone."""
    document = target.document
    rest = _transports(document).get("rest")
    urls = [("the document", target.discovery.final_url or target.discovery.url)]
    if isinstance(rest, dict) and isinstance(rest.get("base"), str):
        urls.append(("the rest base", rest["base"]))
    evidence = target.discovery.response.exchange  # type: ignore[union-attr]
    plain = [
        (what, url)
        for what, url in urls
        if url.lower().startswith("http://") and on_the_open_internet(url)
    ]
    if plain:
        return failed(
            "plain HTTP on the open Internet: "
            + ", ".join(f"{what} at {url}" for what, url in plain),
            evidence,
        )
    return passed(
        "neither the document nor the rest base is plain HTTP on the open Internet", evidence
    )


@check("WOA-8.1-TRANSPORT-URLS-HTTPS", needs=(document_read,))
async def woa_8_1_transport_urls_https(target: Target) -> Verdict:
    """The suite's wider reading of WoA 8.1 (inferred, E-WOA-8.1-OPEN-INTERNET): no transport
    configuration points at a plain-HTTP URL (the rest base is WOA-4.3.1-REST-BASE-HTTPS's)."""
    document = target.document
    urls = [
        (name, key, value)
        for name, config in _transports(document).items()
        if isinstance(config, dict)
        for key, value in config.items()
        if isinstance(value, str) and "://" in value and (name, key) != ("rest", "base")
    ]
    if not urls:  # nothing to judge is no pass
        return not_applicable(
            "no transport configuration holds a URL (the rest base is WOA-4.3.1-REST-BASE-HTTPS's)"
        )
    plain = [(name, key, value) for name, key, value in urls if value.lower().startswith("http://")]
    evidence = target.discovery.response.exchange  # type: ignore[union-attr]
    if not plain:
        return passed(
            "no transport configuration points at a plain-HTTP URL (rest base:"
            " WOA-4.3.1-REST-BASE-HTTPS)",
            evidence,
        )
    listed = ", ".join(f"{name}.{key} = {value}" for name, key, value in plain)
    if all(target.waives_plain_http(value) for _, _, value in plain):
        return waived(
            f"plain HTTP on loopback, waived by --allow-http-loopback: {listed}", evidence
        )
    return failed(f"plain-HTTP URLs in the document: {listed}", evidence)
