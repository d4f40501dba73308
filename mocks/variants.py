"""Conformant variants of the reference agents: each does something the drafts allow that the
reference does not, and the suite must certify it as the reference (issue 38). A variant is the
mirror image of a fault (mocks/faults/): a subclass of a reference agent, named after what it does,
with the sentence that allows it and the requirements it bears on. Most were found by an
independent reading of the checks (docs/check-review.json, `second_reading`): each failed a
requirement the text does not break.

    variant = VARIANTS["merges-into-base"]
    create_app(base, variant.test_mode, changes=variant)   # mocks/reference/woa_host.py

`expected` names what a variant may still fail at SHOULD: a reading the suite takes beyond the
text, which decides MUST compliance only under --strict.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import replace
from typing import Any
from typing import TypeVar

import httpx
import numpy as np

from conformance.oracle.config import OracleConfig
from conformance.oracle.encoders import DIMENSION
from conformance.oracle.engine import Oracle
from conformance.oracle.evolution import Candidate

from .reference.aci_master import ContextStore
from .reference.aci_master import Master
from .reference.sdsi_client import SdsiClient
from .reference.sdsi_evolution import Evolution
from .reference.sdsi_server import REAL
from .reference.sdsi_server import Moment
from .reference.sdsi_server import SdsiError
from .reference.sdsi_server import SdsiServer
from .reference.woa_client import InvalidMessage
from .reference.woa_client import Refused
from .reference.woa_client import WoaClient

__all__ = ["CLIENT_VARIANTS", "VARIANTS", "ClientVariant", "Variant", "seat_patch_edited"]

T = TypeVar("T")


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    allowed_by: str  # the sentence (or its silence) that allows it
    bears_on: tuple[str, ...]  # the requirements it failed, or could
    agent: type
    expected: tuple[str, ...] = ()  # SHOULD readings it may fail (MUST under --strict)
    #: whether it declares the suite's test clock (a server without it is certified without the
    #: drives of 6.2, and every payload reaches its one world)
    test_mode: bool = True
    mcp_tool: Callable[..., Any] | None = None

    def apply(self, document: dict[str, Any]) -> Any:
        return document

    def agent_for(self, reference: type[T]) -> type[T]:
        return self.agent if issubclass(self.agent, reference) else reference


def _server(evolution: type[Evolution]) -> type[SdsiServer]:
    class Server(SdsiServer):
        evolution_class = evolution

    Server.__name__ = Server.__qualname__ = f"{evolution.__name__}Server"
    return Server


# -- SDSI 6.2: schema self-evolution --


_SEAT = {
    "key_name": "seating",
    "key_type": "string",
    "required": False,
    "default_value": "none",
    "semantic_description": (
        "Seat preference. Acceptable values: window, aisle, none. Example mapping: 'aisle please'"
        " -> 'aisle'."
    ),
}


class _MergingEvolution(Evolution):
    def serves(self, patch: dict[str, Any]) -> dict[str, Any]:
        patch = copy.deepcopy(patch)
        keys = patch.pop("new_keys", [])
        if keys:
            patch["modified_keys"] = [
                {
                    **_SEAT,
                    "semantic_description": f"{_SEAT['semantic_description']} "
                    + " ".join(k.get("semantic_description", "") for k in keys),
                }
            ]
        return patch


class MergesIntoBase(_server(_MergingEvolution)):  # type: ignore[misc]
    """A flight template with a base key `seating`, into which every induced wish is merged
    (modified_keys), as 6.2.2 asks on a collision: it introduces no new key."""

    def defines(self, template: dict[str, Any]) -> dict[str, Any]:
        template = super().defines(template)
        if template["scenario"] == "flight_booking":
            template["keys"].insert(-1, copy.deepcopy(_SEAT))
        return template


class _ShowsPromotedFalse(SdsiServer):
    def seat_patch(self) -> dict[str, Any]:
        patch = super().seat_patch()
        for key in patch["new_keys"]:
            key["experimental"] = False
        return patch


class _CaseSensitive:
    """Words and their trigrams hashed as written: "Window" and "window" are other words."""

    name = "case-sensitive"

    def encode(self, texts: list[str]) -> Any:
        import re
        import zlib

        vectors = np.zeros((len(texts), DIMENSION), np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text):
                for gram in [word] + [f"#{word}#"[i : i + 3] for i in range(len(word))]:
                    vectors[row, zlib.crc32(gram.encode()) % DIMENSION] += 1.0
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return np.divide(vectors, norms, out=vectors, where=norms > 0)


class _EncodesCaseSensitively(Evolution):
    def oracle(self, config: OracleConfig) -> Oracle:
        return Oracle(replace(config, similarity_threshold=0.95), _CaseSensitive())


class _BatchedOracle(Oracle):
    """Takes up its queue of triggers at its next batch, two hours after a key leaves its trial,
    not at once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._due: dict[str, float] = {}
        self._in_batch = False

    def _drain(self, scenario: str, at: float) -> None:
        if self._in_batch:
            super()._drain(scenario, at)
        elif self._queues.get(scenario):
            self._due.setdefault(scenario, at + 2 * 3600)

    def _advance(self, now: float) -> None:
        super()._advance(now)
        for scenario, due in list(self._due.items()):
            if due <= now:
                del self._due[scenario]
                self._in_batch = True
                try:
                    super()._drain(scenario, due)
                finally:
                    self._in_batch = False


class _ReleasesQueueInBatches(Evolution):
    def oracle(self, config: OracleConfig) -> Oracle:
        return _BatchedOracle(config)


class _UnquotedExamples(Evolution):
    def serves(self, patch: dict[str, Any]) -> dict[str, Any]:
        patch = copy.deepcopy(patch)
        for key in patch.get("new_keys", []):
            key["semantic_description"] = (
                "A recurring wish. Example mapping: window seat please -> 'window seat'."
            )
        return patch


class _SeatPatchAs(SdsiServer):
    """The seeded seat patch, edited by `edit`."""

    edit: Callable[[dict[str, Any]], object] = staticmethod(lambda patch: None)

    def seat_patch(self) -> dict[str, Any]:
        patch = super().seat_patch()
        type(self).edit(patch)
        return patch


def seat_patch_edited(edit: Callable[[dict[str, Any]], object]) -> type[SdsiServer]:
    """The reference SDSI server whose seeded seat patch, polled and suggested, `edit` changes."""
    return type("SeatPatchAs", (_SeatPatchAs,), {"edit": staticmethod(edit)})


class BooksEachTripOnce(SdsiServer):
    """Refuses a second booking of a trip it booked already with 409, as a booking system may."""

    def execute(
        self, schema_id: Any, payload: Any, client_id: str = "anonymous", moment: Moment = REAL
    ) -> Any:
        if isinstance(payload, dict) and "origin" in payload:
            trip = (
                payload.get("origin"),
                payload.get("destination"),
                payload.get("departure_date"),
            )
            booked: set[Any] = self.__dict__.setdefault("_booked", set())
            if trip in booked:
                raise SdsiError(409, "Booked already", "this trip is booked already")
            result = super().execute(schema_id, payload, client_id, moment)
            booked.add(trip)
            return result
        return super().execute(schema_id, payload, client_id, moment)


class SoldOutInEconomy(SdsiServer):
    """Applies cabin_class's default (economy) to a payload without it, as 4.1 asks, and answers
    409: economy is sold out."""

    def execute(
        self, schema_id: Any, payload: Any, client_id: str = "anonymous", moment: Moment = REAL
    ) -> Any:
        if isinstance(payload, dict) and "origin" in payload and "cabin_class" not in payload:
            raise SdsiError(409, "Sold out", "no seats left in economy")
        return super().execute(schema_id, payload, client_id, moment)


class _InducesBooleans(Oracle):
    def _induce(self, texts: list[str], cluster: int) -> Candidate:
        induced = super()._induce(texts, cluster)
        return replace(induced, key_type="boolean")


class _BooleanKeys(Evolution):
    def oracle(self, config: OracleConfig) -> Oracle:
        return _InducesBooleans(config)


class TypesItsKeys(_server(_BooleanKeys)):  # type: ignore[misc]
    """Induces its keys as booleans ("window seat please" -> true) and refuses a value of another
    type, withdrawn key or not."""

    def _validate(
        self, template: dict[str, Any], payload: dict[str, Any], client_id: str, moment: Moment
    ) -> None:
        for name, value in payload.items():
            state = self.evolution.key_state(
                template["scenario"], client_id, name, moment.now, moment.session
            )
            if state == "withdrawn" and not isinstance(value, bool):
                raise SdsiError(
                    422, "Wrong value type", f"{name!r} (kept for compatibility) is a boolean"
                )
        super()._validate(template, payload, client_id, moment)


class CleansUpAfterTheTask(Master):
    """Deletes the context it offloaded for a task once the task is done and the agent it was
    handed to has read it: the store kept it available while the agent needed it. One not read
    yet (an agent the master stopped waiting for may still be reading) stays until it expires."""

    async def run_task(
        self, given: Any, base: str, store: ContextStore, client: Any
    ) -> dict[str, Any]:
        before = set(store.entries)
        out = await super().run_task(given, base, store, client)
        for ident in (set(store.entries) - before) & store.read:
            store.entries.pop(ident, None)
            store.read.discard(ident)
        return out


class WritesItsPayloadOtherwise(SdsiClient):
    """Sends "other" always as an array of strings, and its message with payload before
    schema_id."""

    def fills(self, payload: dict[str, Any]) -> dict[str, Any]:
        if isinstance(payload.get("other"), str):
            payload["other"] = [payload["other"]]
        return payload

    async def sends(
        self, client: Any, origin: str, agent: str, schema_id: Any, payload: dict[str, Any]
    ) -> Any:
        message = {"payload": payload, "schema_id": schema_id}
        return await client.invoke(origin, agent, message, "execute")


_CREDIT = {
    "patch_id": "photo_retouch_v2-p9",
    "parent_schema_id": "photo_retouch_v2",
    "timestamp": "2026-05-01T08:00:00Z",
    "expiration": "2026-05-31T08:00:00Z",
    "new_keys": [
        {
            "key_name": "photo_credit",
            "key_type": "string",
            "required": False,
            "experimental": True,
            "semantic_description": (
                "Attribution line printed in a corner. Example mapping: 'add photo by Ann' ->"
                " 'Photo: Ann'."
            ),
        }
    ],
}


class ServesAnAttributionKey(SdsiServer):
    """Serves every client a photo_credit key: an attribution line, no payment or identity."""

    def updates(
        self,
        schema_id: Any,
        authenticated: bool,
        client_id: str = "anonymous",
        moment: Moment = REAL,
    ) -> dict[str, Any]:
        out = super().updates(schema_id, authenticated, client_id, moment)
        if moment.session is None and schema_id == "photo_retouch_v2":
            out["patches"].append(copy.deepcopy(_CREDIT))
        return out


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "merges-into-base",
            "refines its base key `seating` with each induced wish instead of adding one",
            "SDSI 6.2.2: a wish that collides with a base key is merged into it; a server may"
            " judge the collision by meaning, and then introduces no new key",
            ("SDSI-6.2.3-NEW-KEYS-START-EXPERIMENTAL", "SDSI-6.2.3-EXPERIMENTAL-FLAG"),
            MergesIntoBase,
            # the oracle's readings (inferred) expect the new key a name-based collision rule
            # would add, and its lifecycle
            expected=("SDSI-6.2.1-HEAT-INCREMENT", "SDSI-6.2.3-DEPRECATED-GRACE-FLAG"),
        ),
        Variant(
            "promoted-flag-false",
            'shows its seeded key as a promoted key may be: "experimental": false',
            'SDSI 6.2.3: on promotion the "experimental" flag is removed'
            " (E-SDSI-6.2.3-FLAG-WHEN-NEW)",
            ("SDSI-6.2.3-EXPERIMENTAL-FLAG",),
            _ShowsPromotedFalse,
        ),
        Variant(
            "case-sensitive-encoder",
            "encodes fragments with a case-sensitive model and clusters them at 0.95",
            "SDSI 6.2.1: any semantic vector; the 0.85 threshold is an example",
            ("SDSI-6.2.1-FRAGMENT-ENCODED",),
            _server(_EncodesCaseSensitively),
            expected=("SDSI-6.2.1-FRAGMENT-ENCODED",),
        ),
        Variant(
            "queue-in-batches",
            "releases a queued trigger at its next batch, two hours after a key leaves its trial",
            "SDSI 6.2.3 queues triggers past the cap and does not say how soon one is released",
            ("SDSI-6.2.3-TRIGGERS-QUEUED",),
            _server(_ReleasesQueueInBatches),
        ),
        Variant(
            "unquoted-examples",
            "writes its mapping examples without quotes round the source",
            "SDSI 6.2.2 sets no syntax for a mapping example",
            ("SDSI-6.2.2-DESCRIPTION-FROM-REAL-FRAGMENTS",),
            _server(_UnquotedExamples),
        ),
        Variant(
            "float-key-type",
            'types its seeded key "float", as 5.2\'s own example update does',
            "SDSI 6.2.2 gives a patch's keys no form; the 4.1 rules bind templates",
            (
                "SDSI-4.1-KEY-TYPE-JSON-SCHEMA-TYPE",
                "SDSI-4.1-KEY-TYPE-REQUIRED",
                "SDSI-4.1-KEY-DEFINITION-OBJECT",
            ),
            seat_patch_edited(lambda p: p["new_keys"][0].update(key_type="float")),
            expected=("SDSI-6.2.2-PATCH-KEY-DEFINITIONS",),
        ),
        Variant(
            "older-parent-and-dates",
            "names an older base version as its seeded patch's parent, with an HTTP-date"
            " timestamp and a valid_until",
            '6.2.2: "The patch MUST carry a patch_id, a parent_schema_id, a timestamp, and an'
            ' expiration date", and names no member or form for the last two',
            (
                "SDSI-6.2.2-PATCH-PARENT-SCHEMA-ID",
                "SDSI-6.2.2-PATCH-TIMESTAMP",
                "SDSI-6.2.2-PATCH-EXPIRATION",
            ),
            seat_patch_edited(
                lambda p: p.update(
                    parent_schema_id="flight_booking_v0",
                    timestamp="Fri, 01 May 2026 08:00:00 GMT",
                    valid_until=p.pop("expiration"),
                )
            ),
            # the suite's readings of the forms (RFC 3339, the member named expiration)
            expected=("SDSI-6.2.2-PATCH-TIMESTAMP-RFC3339", "SDSI-6.2.2-PATCH-EXPIRATION-FORMAT"),
        ),
        Variant(
            "books-each-trip-once",
            "refuses a second booking of the same trip with 409",
            "no sentence asks a server to book a trip twice; 409 is a conflict with the"
            " resource's state (RFC 9110 15.5.10)",
            ("SDSI-4.3-OTHER-ACCEPTED",),
            BooksEachTripOnce,
            test_mode=False,
        ),
        Variant(
            "sold-out-in-economy",
            "applies cabin_class's default, economy, and answers 409: sold out",
            'SDSI 4.1: "the server agent MUST apply the default_value" (it did; economy is'
            " sold out)",
            ("SDSI-4.1-ABSENT-OPTIONAL-KEY-HANDLED",),
            SoldOutInEconomy,
            test_mode=False,
        ),
        Variant(
            "boolean-keys",
            "induces its keys as booleans and refuses a withdrawn key's value of another type",
            "SDSI 6.2.2 lets a server choose an induced key's type; 6.2.3 keeps a withdrawn key"
            " accepted, not any value of it",
            ("SDSI-6.2.3-WITHDRAWN-KEY-ACCEPTED",),
            TypesItsKeys,
        ),
        Variant(
            "cleans-up-after-the-task",
            "deletes a task's offloaded context once the task is done and its agent has read it",
            'ACI 6: the store "maintains the integrity and availability of the stored context"'
            " while it is needed; its expiry SHOULD prevent long-term persistence",
            ("ACI-6-MASTER-TRUSTS-STORAGE",),
            CleansUpAfterTheTask,
        ),
        Variant(
            "client-other-as-array",
            'an SDSI client that sends "other" as an array of one string, payload first',
            'SDSI 4.3: "other" is "a string or an array of strings"; RFC 8259 4: members in any'
            " order",
            (
                "SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY",
                "SDSI-3.2-PAYLOAD-REQUIRED-KEYS",
                "SDSI-3.2-PAYLOAD-MESSAGE",
            ),
            WritesItsPayloadOtherwise,
        ),
        Variant(
            "attribution-key",
            "serves every client a photo_credit key (an attribution line)",
            "SDSI 7 asks authentication for keys that touch payment, identity or access control",
            ("SDSI-7-UPDATES-AUTHENTICATED",),
            ServesAnAttributionKey,
        ),
    )
}


# -- the WoA client: what its requests may be, as the text allows --


class _WritesJsonOtherwise(WoaClient):
    def encodes(self, envelope: dict[str, Any]) -> bytes:
        # members in another order, tabs and line breaks, every solidus and non-ASCII escaped
        reordered = dict(reversed(list(envelope.items())))
        text = json.dumps(reordered, indent="\t", ensure_ascii=True).replace("/", "\\/")
        return text.replace("\n", "\r\n").encode()


class _LabelsCharset(WoaClient):
    def request(self) -> tuple[str, str]:
        return "POST", "application/json; charset=utf-8"


class _SendsMoreHeaders(WoaClient):
    def headers(self, content_type: str) -> dict[str, str]:
        return {
            "Content-Type": content_type,
            "Accept": "application/json, application/problem+json",
            "User-Agent": "variant-client/1.0",
            "X-Request-Id": "3f1e0c7a-variant",
        }


class _CrawlsFirst(WoaClient):
    async def invoke_from(self, document_url: str, *arguments: Any, **options: Any) -> Any:
        origin = document_url.removesuffix("/.well-known/woa.json")
        with contextlib.suppress(Refused, InvalidMessage, httpx.HTTPError):
            async with self._client() as client:
                await self._send(client, "GET", f"{origin}/robots.txt")
        return await super().invoke_from(document_url, *arguments, **options)


@dataclass(frozen=True)
class ClientVariant:
    name: str
    description: str
    allowed_by: str
    agent: type[WoaClient]


CLIENT_VARIANTS: dict[str, ClientVariant] = {
    v.name: v
    for v in (
        ClientVariant(
            "json-written-otherwise",
            "writes its envelope with members reversed, tabs and CRLF, escaped solidus",
            "RFC 8259 sections 2, 4 and 7",
            _WritesJsonOtherwise,
        ),
        ClientVariant(
            "charset-label",
            "labels its envelope application/json; charset=utf-8",
            "RFC 8259 section 11: the parameter has no effect",
            _LabelsCharset,
        ),
        ClientVariant(
            "more-headers",
            "capitalizes its header names and sends a User-Agent and a request id",
            "RFC 9110 section 5.1: field names are case-insensitive, unknown fields ignored",
            _SendsMoreHeaders,
        ),
        ClientVariant(
            "crawls-first",
            "asks the origin for /robots.txt before it invokes",
            "no sentence binds what else a client asks a host",
            _CrawlsFirst,
        ),
    )
}
