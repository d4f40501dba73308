"""The SDSI agents' faults, each a subclass of a reference agent that breaks one rule by overriding
one of its methods (`@breaks`, mocks/faults/rate.py). The reference agents read as the draft
(mocks/reference/sdsi_server.py, sdsi_evolution.py, sdsi_client.py); each class here is one rule
broken.

    server = SdsiServer()                          # the reference
    broken = RejectsOtherLanguages()               # SDSI-4.1-PREFERRED-LANGUAGE-TOLERATED broken

A fault that edits a template the server defines when it starts is made once (`made_once`): it
cannot be applied at a rate.
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from conformance.oracle import Oracle
from conformance.oracle import OracleConfig
from conformance.oracle.encoders import DIMENSION
from conformance.oracle.engine import _Trigger
from conformance.oracle.lifecycle import Metrics
from conformance.oracle.lifecycle import decide

from ..reference.sdsi_client import SdsiClient
from ..reference.sdsi_evolution import Evolution
from ..reference.sdsi_server import FLIGHT
from ..reference.sdsi_server import TEMPLATES
from ..reference.sdsi_server import SdsiServer
from .rate import AgentFault
from .rate import breaks

__all__ = ["SDSI_FAULTS"]

Edit = Callable[[dict[str, Any]], Any]


def _key(template: dict[str, Any], name: str) -> dict[str, Any]:
    return next(k for k in template["keys"] if k.get("key_name") == name)


# -- the server's templates (SDSI 4.1, 4.3): the flight_booking template, as defined or served --


def _defines(requirement: str, description: str, edit: Edit) -> type[AgentFault]:
    """A server that defines its flight_booking template with `edit` made (it serves and executes
    by what it defines)."""

    class DefinesTemplate(SdsiServer, AgentFault):
        made_once = True

        @breaks
        def defines(self, template: dict[str, Any]) -> dict[str, Any]:
            if template["scenario"] == "flight_booking":
                edit(template)
            return template

    DefinesTemplate.requirement, DefinesTemplate.description = requirement, description
    return DefinesTemplate


def _serves(
    requirement: str, description: str, edit: Callable[[dict[str, Any]], Any]
) -> type[AgentFault]:
    """A server that sends its flight_booking template as `edit` returns it (it executes by the
    true one)."""

    class ServesTemplate(SdsiServer, AgentFault):
        @breaks
        def serves(self, template: dict[str, Any]) -> Any:
            return edit(template)

    ServesTemplate.requirement, ServesTemplate.description = requirement, description
    return ServesTemplate


def _patches(requirement: str, description: str, edit: Edit, variant: str = "") -> type[AgentFault]:
    """A server whose seeded seat_preference patch, polled and inline, has `edit` made."""

    class EditsPatch(SdsiServer, AgentFault):
        @breaks
        def seat_patch(self) -> dict[str, Any]:
            patch = super().seat_patch()
            edit(patch)
            return patch

    EditsPatch.requirement, EditsPatch.description = requirement, description
    EditsPatch.variant = variant
    return EditsPatch


_SERVER: list[type[AgentFault]] = [
    _serves(
        "SDSI-4.1-TEMPLATE-OBJECT",
        "serves the flight_booking template as a bare array of keys",
        lambda t: t["keys"],
    ),
    _serves(
        "SDSI-4.1-SCHEMA-ID-REQUIRED",
        "serves the flight_booking template without schema_id",
        lambda t: {k: v for k, v in t.items() if k != "schema_id"},
    ),
    _serves(
        "SDSI-4.1-SCENARIO-REQUIRED",
        "serves the flight_booking template without scenario",
        lambda t: {k: v for k, v in t.items() if k != "scenario"},
    ),
    _serves(
        "SDSI-4.1-KEYS-REQUIRED",
        "serves the template's keys as an object keyed by name",
        lambda t: {**t, "keys": {k["key_name"]: k for k in t["keys"]}},
    ),
    _defines(
        "SDSI-4.1-KEY-DEFINITION-OBJECT",
        'lists a key definition that is the bare string "seat"',
        lambda t: t["keys"].append("seat"),
    ),
    _defines(
        "SDSI-4.1-KEY-NAME-REQUIRED",
        "lists a key definition without key_name",
        lambda t: t["keys"].append(
            {"key_type": "string", "required": False, "semantic_description": "Meal preference."}
        ),
    ),
    _defines(
        "SDSI-4.1-KEY-NAME-SNAKE-CASE",
        "names a key cabinClass",
        lambda t: _key(t, "cabin_class").update(key_name="cabinClass"),
    ),
    _defines(
        "SDSI-4.1-KEY-NAME-UNIQUE",
        "defines passenger_count twice",
        lambda t: t["keys"].append(copy.deepcopy(_key(t, "passenger_count"))),
    ),
    _defines(
        "SDSI-4.1-KEY-TYPE-REQUIRED",
        "defines cabin_class without key_type",
        lambda t: _key(t, "cabin_class").pop("key_type"),
    ),
    _defines(
        "SDSI-4.1-KEY-TYPE-JSON-SCHEMA-TYPE",
        'types cabin_class "enum"',
        lambda t: _key(t, "cabin_class").update(key_type="enum"),
    ),
    _defines(
        "SDSI-4.1-SEMANTIC-DESCRIPTION-REQUIRED",
        "defines destination without semantic_description",
        lambda t: _key(t, "destination").pop("semantic_description"),
    ),
    _defines(
        "SDSI-4.1-SEMANTIC-DESCRIPTION-NON-EMPTY",
        "gives destination an empty semantic_description",
        lambda t: _key(t, "destination").update(semantic_description=""),
    ),
    _defines(
        "SDSI-4.1-REQUIRED-FLAG-REQUIRED",
        "defines cabin_class without the required flag",
        lambda t: _key(t, "cabin_class").pop("required"),
    ),
    _defines(
        "SDSI-4.1-DEFAULT-VALUE-MATCHES-TYPE",
        'defaults the integer passenger_count to "one"',
        lambda t: _key(t, "passenger_count").update(default_value="one"),
    ),
    _defines(
        "SDSI-4.1-DEFAULT-VALUE-ONLY-OPTIONAL-KEYS",
        "gives the REQUIRED origin a default",
        lambda t: _key(t, "origin").update(default_value="PEK"),
    ),
]


class RejectsOtherLanguages(SdsiServer, AgentFault):
    requirement = "SDSI-4.1-PREFERRED-LANGUAGE-TOLERATED"
    description = "answers 400 to a template asked for in another language"

    @breaks
    def tolerates_language(self, tag: str) -> bool:
        return False


_SERVER += [
    RejectsOtherLanguages,
    _defines(
        "SDSI-4.3-OTHER-DEFINED",
        'leaves "other" out of the flight_booking template',
        lambda t: t["keys"].remove(_key(t, "other")),
    ),
    _patches(
        "SDSI-4.3-OTHER-RESERVED",
        'its patch adds a new key named "other"',
        lambda p: p["new_keys"][0].update(key_name="other", key_type="string"),
    ),
    _defines(
        "SDSI-4.3-OTHER-OPTIONAL",
        'marks "other" required',
        lambda t: _key(t, "other").update(required=True),
    ),
    _defines(
        "SDSI-4.3-OTHER-KEY-TYPE",
        'types "other" as integer',
        lambda t: _key(t, "other").update(key_type="integer"),
    ),
]


# -- the server's execution (SDSI 3.1, 3.2, 4.1, 4.3, 7) --


class WantsEveryKey(SdsiServer, AgentFault):
    requirement = "SDSI-4.1-ABSENT-OPTIONAL-KEY-HANDLED"
    description = "rejects a payload that carries only its REQUIRED keys"

    @breaks
    def takes_required_keys_alone(self) -> bool:
        return False


class ExecutesWrongTypes(SdsiServer, AgentFault):
    requirement = "SDSI-3.1-SERVER-VALIDATES-PAYLOAD"
    description = "executes payloads whose values have the wrong type"

    @breaks
    def validates_payloads(self) -> bool:
        return False


class AnswersInText(SdsiServer, AgentFault):
    requirement = "SDSI-3.2-RESULT-STRUCTURED"
    description = "answers a full payload with a bare string"

    @breaks
    def structures_result(self, payload: dict[str, Any], template: dict[str, Any]) -> bool:
        return len(payload) <= len(template["keys"]) // 2


class LimitsOther(SdsiServer, AgentFault):
    requirement = "SDSI-4.3-OTHER-ACCEPTED"
    description = 'rejects an "other" longer than 1,000 characters'

    @breaks
    def other_limit(self) -> int | None:
        return 1000


class ReflectsOther(SdsiServer, AgentFault):
    requirement = "SDSI-7-OTHER-NOT-REFLECTED"
    description = 'echoes "other" back unescaped'

    @breaks
    def reflects(self, text: str) -> str:
        return text


class RunsOther(SdsiServer, AgentFault):
    requirement = "SDSI-7-OTHER-SANITIZED"
    description = 'fails with a 500 when "other" holds an SQL injection'

    @breaks
    def stores(self, texts: list[str]) -> None:
        if any("DROP TABLE" in t for t in texts):
            raise RuntimeError("the fault: an SQL injection in other reaches the database")


class SuggestsAnObject(SdsiServer, AgentFault):
    requirement = "SDSI-3.2-SUGGESTION-WELL-FORMED"
    description = "suggests new_keys as an object"

    @breaks
    def inline_suggestion(self) -> dict[str, Any]:
        return {"new_keys": {"seat_preference": "string"}}


# -- the server's seeded patch (SDSI 6.2.2, 6.2.3) --

_SERVER += [
    WantsEveryKey,
    ExecutesWrongTypes,
    AnswersInText,
    LimitsOther,
    ReflectsOther,
    RunsOther,
    SuggestsAnObject,
    _patches(
        "SDSI-6.2.2-PATCH-ID", "serves its patch without patch_id", lambda p: p.pop("patch_id")
    ),
    _patches(
        "SDSI-6.2.2-PATCH-PARENT-SCHEMA-ID",
        "serves its patch without parent_schema_id",
        lambda p: p.pop("parent_schema_id"),
    ),
    _patches(
        "SDSI-6.2.2-PATCH-TIMESTAMP",
        'stamps its patch "yesterday"',
        lambda p: p.update(timestamp="yesterday"),
    ),
    _patches(
        "SDSI-6.2.2-PATCH-EXPIRATION",
        "its patch carries no expiration date",
        lambda p: p.pop("expiration"),
    ),
    _patches(
        "SDSI-6.2.2-PATCH-EXPIRATION-FORMAT",
        "its patch expires before its timestamp",
        lambda p: p.update(expiration="2026-04-01T00:00:00Z"),
    ),
    _patches(
        "SDSI-6.2.2-PATCH-TIMESTAMP-RFC3339",
        "its patch's timestamp has no time-zone offset",
        lambda p: p.update(timestamp="2026-05-01T08:00:00"),
    ),
    _patches(
        "SDSI-6.2.2-PATCH-KEYS",
        "serves a patch with neither new_keys nor modified_keys",
        lambda p: p.pop("new_keys"),
    ),
    _patches(
        "SDSI-6.2.2-PATCH-KEY-DEFINITIONS",
        "serves its new key without key_type",
        lambda p: p["new_keys"][0].pop("key_type"),
    ),
    _patches(
        "SDSI-6.2.3-DEPRECATED-GRACE-FLAG",
        'flags its new key deprecated: "yes"',
        lambda p: p["new_keys"][0].update(deprecated="yes"),
    ),
]


# -- schema self-evolution over time (SDSI 6.2), seen through the test clock: the server keeps
# declaring the reference configuration while it runs another --


def _evolves(evolution: type[AgentFault]) -> type[AgentFault]:
    """A server whose schema self-evolution is `evolution`, a fault of its own."""
    assert issubclass(evolution, Evolution)
    broken: type[Evolution] = evolution

    class Evolves(SdsiServer, AgentFault):
        evolution_class = broken

    Evolves.requirement, Evolves.description = evolution.requirement, evolution.description
    Evolves.variant = evolution.variant
    return Evolves


def _configured(
    requirement: str, description: str, variant: str = "", **changes: Any
) -> type[AgentFault]:
    """An evolution that runs its pools with `changes` to the configuration it declares."""

    class Configured(Evolution, AgentFault):
        @breaks
        def config(self, scenario: str) -> OracleConfig:
            return replace(super().config(scenario), **changes)

    Configured.requirement, Configured.description, Configured.variant = (
        requirement,
        description,
        variant,
    )
    return Configured


class _RawStrings:
    """A fragment's "vector" is its raw string, hashed to one axis: identical strings pool, the
    same wish in another case or punctuation does not."""

    name = "raw-strings"

    def encode(self, texts: list[str]) -> Any:
        vectors = np.zeros((len(texts), DIMENSION), dtype=np.float32)
        for row, text in enumerate(texts):
            vectors[row, zlib.crc32(text.encode()) % DIMENSION] = 1.0
        return vectors


class PoolsRawStrings(Evolution, AgentFault):
    requirement = "SDSI-6.2.1-FRAGMENT-ENCODED"
    description = "pools fragments by their raw strings: one wish in another case is another wish"

    @breaks
    def oracle(self, config: OracleConfig) -> Oracle:
        return Oracle(config, _RawStrings())


class AdvertisesUnflagged(Evolution, AgentFault):
    requirement = "SDSI-6.2.3-EXPERIMENTAL-FLAG"
    description = "advertises a key it has just induced without its experimental flag"

    @breaks
    def serves(self, patch: dict[str, Any]) -> dict[str, Any]:
        patch = copy.deepcopy(patch)
        for key in patch.get("new_keys", []):
            key.pop("experimental", None)
        return patch


class DescribesFromNothing(Evolution, AgentFault):
    requirement = "SDSI-6.2.2-DESCRIPTION-FROM-REAL-FRAGMENTS"
    description = "describes an induced key without quoting any fragment"

    @breaks
    def serves(self, patch: dict[str, Any]) -> dict[str, Any]:
        patch = copy.deepcopy(patch)
        for key in patch.get("new_keys", []):
            key["semantic_description"] = "A preference induced from recurring requests."
        return patch


class DuplicatesColliding(Evolution, AgentFault):
    requirement = "SDSI-6.2.2-COLLISION-MERGED"
    description = "adds cabin_class_2-style duplicates instead of refining the colliding base key"

    @breaks
    def serves(self, patch: dict[str, Any]) -> dict[str, Any]:
        if "modified_keys" not in patch:
            return patch
        patch = copy.deepcopy(patch)
        patch["new_keys"] = [
            {**k, "key_name": f"{k['key_name']}_2", "experimental": True}
            for k in patch.pop("modified_keys")
        ]
        return patch


class ServesEveryonesPatches(Evolution, AgentFault):
    requirement = "SDSI-6.2.2-CLIENT-PATCH-ONLY-FOR-CLIENT"
    description = "serves one client's personal patch to every client"

    @breaks
    def owners(self, oracle: Oracle, client_id: str | None) -> set[str | None]:
        return {p.get("client_id") for p in oracle.outcome.patches}


class _DroppingOracle(Oracle):
    def _enqueue(self, scenario: str, trigger: _Trigger) -> None:
        self._block(trigger.cluster, "dropped")


class DropsTriggers(Evolution, AgentFault):
    requirement = "SDSI-6.2.3-TRIGGERS-QUEUED"
    description = "drops a trigger that arrives with the cap reached"

    @breaks
    def oracle(self, config: OracleConfig) -> Oracle:
        return _DroppingOracle(config)


def _promote_the_unused(metrics: Metrics, config: OracleConfig) -> str | None:
    verdict = decide(metrics, config)
    return "stable" if verdict == "deprecated" else verdict


class PromotesTheUnused(Evolution, AgentFault):
    requirement = "SDSI-6.2.3-DEPRECATION"
    description = "promotes the keys its rules say to deprecate"

    @breaks
    def oracle(self, config: OracleConfig) -> Oracle:
        oracle = super().oracle(config)
        oracle.decide = _promote_the_unused
        return oracle


class KeepsWithdrawn(Evolution, AgentFault):
    """Never drops a withdrawn key (a grace of a million days): serves it marked withdrawn."""

    requirement = "SDSI-6.2.3-WITHDRAWN-REMOVED"
    description = "keeps a deprecated key in its patches forever, marked withdrawn"

    @breaks
    def config(self, scenario: str) -> OracleConfig:
        return replace(super().config(scenario), grace_days=1e6)

    @breaks
    def serves(self, patch: dict[str, Any]) -> dict[str, Any]:
        patch = copy.deepcopy(patch)
        for key in patch.get("new_keys", []):
            if key.get("deprecated") is True:
                key["withdrawn"] = True
        return patch


_EVOLUTION: list[type[AgentFault]] = [
    _configured(
        "SDSI-6.2.3-DEPRECATED-GRACE-FLAG",
        "withdraws a deprecated key at once, with no grace period",
        variant="vanishes",
        grace_days=1e-6,
    ),
    _configured(
        "SDSI-6.2.1-TRIGGER-DUAL-GATE",
        "fires on heat alone: one client and one occurrence pass the gate",
        min_distinct_clients=1,
        min_occurrences=1,
    ),
    PoolsRawStrings,
    _configured(
        "SDSI-6.2.1-HEAT-DECAY",
        "never lets heat decay (a half-life of a billion hours)",
        half_life_hours=1e9,
    ),
    _configured(
        "SDSI-6.2.1-HEAT-DECAY-EXPONENTIAL",
        "decays heat with twice the half-life it declares",
        half_life_hours=48.0,
    ),
    _configured(
        "SDSI-6.2.1-HEAT-INCREMENT",
        "adds 1.2 heat units a fragment where it declares 1",
        heat_increment=1.2,
    ),
    _configured(
        "SDSI-6.2.1-SIMILARITY-CLUSTERING",
        "puts every fragment in one cluster (similarity threshold -1)",
        similarity_threshold=-1.0,
    ),
    AdvertisesUnflagged,
    DescribesFromNothing,
    DuplicatesColliding,
    ServesEveryonesPatches,
    _configured(
        "SDSI-6.2.3-NEW-KEYS-START-EXPERIMENTAL",
        "ends a new key's trial after a quarter of an hour, not 7 days",
        trial_days=0.01,
    ),
    _configured(
        "SDSI-6.2.3-LONG-TERM-EVALUATION",
        "never evaluates a key: its trial never ends",
        trial_days=1e6,
    ),
    _configured(
        "SDSI-6.2.3-PROMOTION",
        "promotes only keys in half the payloads and deprecates the rest, so a key at 30% is"
        " deprecated",
        promote_usage=0.5,
        deprecate_usage=0.5,
    ),
    PromotesTheUnused,
    DropsTriggers,
    KeepsWithdrawn,
    _configured(
        "SDSI-6.2.3-WITHDRAWN-KEY-ACCEPTED",
        "refuses a withdrawn key at once, with no backward-compatibility window",
        compatibility_window_days=1e-6,
    ),
]

_SERVER += [
    _patches(
        "SDSI-6.2.2-NO-KEY-COLLISION",
        "adds a new key named like the base key cabin_class",
        lambda p: p["new_keys"][0].update(key_name="cabin_class"),
    ),
    _patches(
        "SDSI-6.2.2-NO-DUPLICATE-KEY",
        "its patch adds the same new key twice",
        lambda p: p["new_keys"].append(copy.deepcopy(p["new_keys"][0])),
    ),
    _patches(
        "SDSI-6.2.2-BASE-KEY-NOT-REMOVED",
        "removes the base key passenger_count in a patch",
        lambda p: p.update(removed_keys=["passenger_count"]),
    ),
    _patches(
        "SDSI-6.2.2-BASE-KEY-TYPE-UNCHANGED",
        "retypes the base key passenger_count as string",
        lambda p: p.update(
            modified_keys=[{**_key(FLIGHT, "passenger_count"), "key_type": "string"}]
        ),
    ),
    _patches(
        "SDSI-6.2.2-PATCH-ADDITIVE-ONLY",
        "makes the REQUIRED origin optional in a patch",
        lambda p: p.update(modified_keys=[{**_key(FLIGHT, "origin"), "required": False}]),
    ),
    _patches(
        "SDSI-6.2.3-CONVERGENCE-CAP",
        "keeps 11 experimental keys active for flight_booking",
        lambda p: p.update(
            new_keys=[{**p["new_keys"][0], "key_name": f"wish_{n}"} for n in range(11)]
        ),
    ),
]


class GrantsUpdatesToAnyone(SdsiServer, AgentFault):
    requirement = "SDSI-7-UPDATES-AUTHENTICATED"
    description = "serves its payment_method patch to an unauthenticated client"

    @breaks
    def grants_updates(self, authenticated: bool) -> bool:
        return True


_SERVER += [GrantsUpdatesToAnyone, *map(_evolves, _EVOLUTION)]


# -- the SDSI client agent (SDSI 3.1, 3.2, 4.3, 6.1), driven through handle_user_request --


class AssumesTheTemplate(SdsiClient, AgentFault):
    requirement = "SDSI-3.2-NEGOTIATION-REQUEST"
    description = "sends its payload without asking for the template first"

    @breaks
    async def negotiate(self, client: Any, origin: str, agent: str, scenario: str) -> Any:
        return copy.deepcopy(TEMPLATES[scenario])


class SendsFlat(SdsiClient, AgentFault):
    requirement = "SDSI-3.2-PAYLOAD-MESSAGE"
    description = "sends the keys beside schema_id, without the payload member"

    @breaks
    async def sends(
        self, client: Any, origin: str, agent: str, schema_id: Any, payload: dict[str, Any]
    ) -> Any:
        message = {"schema_id": schema_id, **payload}  # the keys beside schema_id
        return await client.invoke(origin, agent, message, "execute", validate=False)


def _fills(requirement: str, description: str, edit: Edit) -> type[AgentFault]:
    """A client that sends its mapped payload with `edit` made."""

    class Fills(SdsiClient, AgentFault):
        @breaks
        def fills(self, payload: dict[str, Any]) -> dict[str, Any]:
            edit(payload)
            return payload

    Fills.requirement, Fills.description = requirement, description
    return Fills


def _other_for_cabin(payload: dict[str, Any]) -> None:
    if "cabin_class" in payload:
        payload["other"] = [
            f"{payload.pop('cabin_class')} class",
            *([payload["other"]] if isinstance(payload.get("other"), str) else []),
        ]


class ClaimsSuccess(SdsiClient, AgentFault):
    requirement = "SDSI-3.2-NO-SERVER-REPORTED"
    description = "claims success for a request no server serves, reporting nothing"

    @breaks
    def no_server(self, origin: str) -> dict[str, Any]:
        return {"status": "done", "result": {}}


_CLIENT: list[type[AgentFault]] = [
    AssumesTheTemplate,
    SendsFlat,
    _fills(
        "SDSI-3.2-PAYLOAD-REQUIRED-KEYS",
        "leaves the REQUIRED departure_date out",
        lambda p: p.pop("departure_date", None),
    ),
    _fills(
        "SDSI-3.1-CLIENT-PAYLOAD-MATCHES-TEMPLATE",
        'sends passenger_count as the string "1"',
        lambda p: "passenger_count" in p and p.update(passenger_count=str(p["passenger_count"])),
    ),
    _fills(
        "SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY",
        'sends "other" as an object',
        lambda p: "other" in p and p.update(other={"note": p["other"]}),
    ),
    _fills(
        "SDSI-4.3-OTHER-MINIMIZED",
        'puts "business class" in "other" instead of cabin_class',
        _other_for_cabin,
    ),
    _fills(
        "SDSI-6.1-LOW-CONFIDENCE-TO-OTHER",
        'drops "window seat" instead of putting it in "other"',
        lambda p: p.get("other") == "window seat" and p.pop("other"),
    ),
    ClaimsSuccess,
]

#: Every fault of an SDSI agent: a subclass of the server or of the client.
SDSI_FAULTS: list[type[AgentFault]] = [*_SERVER, *_CLIENT]
