"""Rules of a message that JSON Schema cannot state: one function per requirement, named after it.

`RULES` maps a message schema name to its rule functions. A rule looks only at what the schema
has already let through in the right shape, so that one defect is reported once.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Callable
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from dataclasses import field
from datetime import UTC
from datetime import date
from datetime import datetime
from email.utils import parsedate_to_datetime
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from .target_schemas import target_validator
from .violation import Violation

__all__ = ["JSON_TYPES", "RULES", "Context", "agent_of", "json_type_matches", "selected_schema"]


@dataclass(frozen=True)
class Context:
    """What a rule may need besides the message: the negotiated template for a payload, the WoA
    document for an envelope, and the agent and operation that answered, for a response."""

    template: dict[str, Any] | None = None
    document: dict[str, Any] | None = None
    agent: str | None = None
    operation: str | None = None
    #: for an AgentContext an invoked agent returned, the one it was sent
    sent: dict[str, Any] | None = None
    #: what one validation of a message worked out once for all its rules: why each schema
    #: object of a document is not valid 2020-12 (None when it is), by its id
    schema_errors: dict[int, str | None] = field(default_factory=dict)
    #: the same, by content, for schemas of scalar keywords alone
    flat_schema_errors: dict[tuple[Any, ...], str | None] = field(default_factory=dict)


Rule = Callable[[Any, Context], Iterator[Violation]]
RULES: dict[str, list[Rule]] = {}


def rule(*messages: str) -> Callable[[Rule], Rule]:
    def register(function: Rule) -> Rule:
        for message in messages:
            RULES.setdefault(message, []).append(function)
        return function

    return register


def _objects(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _member(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else None


JSON_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})


def json_type_matches(value: Any, json_type: str) -> bool:
    """Whether `value` is an instance of the JSON Schema type `json_type`."""
    if json_type == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (
            isinstance(value, float) and value.is_integer()
        )
    if json_type == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    expected = {
        "string": str,
        "boolean": bool,
        "array": list,
        "object": dict,
        "null": type(None),
    }.get(json_type)
    return expected is not None and isinstance(value, expected)


# -- WoA ------------------------------------------------------------------------------------------


def _agent_schemas(document: Any) -> Iterator[tuple[tuple[int, ...], str, Any]]:
    """Every agent's and operation's inputs and outputs: where (the agent's index in the list, and
    the operation's), which member, the schema. `_schema_path` spells where: a document of 80,000
    agents has 160,000 schemas, and a path is needed only for the few at fault."""
    agents = _member(document, "agents")
    for i, agent in enumerate(agents if isinstance(agents, list) else ()):
        if not isinstance(agent, dict):
            continue
        for member in ("inputs", "outputs"):
            if member in agent:
                yield (i,), member, agent[member]
        operations = agent.get("operations")
        for j, operation in enumerate(operations if isinstance(operations, list) else ()):
            if isinstance(operation, dict):
                for member in ("inputs", "outputs"):
                    if member in operation:
                        yield (i, j), member, operation[member]


def _schema_path(at: tuple[int, ...], member: str) -> str:
    operation = f"/operations/{at[1]}" if len(at) > 1 else ""
    return f"/agents/{at[0]}{operation}/{member}"


@rule("woa/document")
def WOA_4_1_AGENT_ID_UNIQUE(document: Any, _: Context) -> Iterator[Violation]:
    ids = Counter(
        a["id"] for a in _objects(_member(document, "agents")) if isinstance(a.get("id"), str)
    )
    for agent_id, count in ids.items():
        if count > 1:
            yield Violation(
                "WOA-4.1-AGENT-ID-UNIQUE", "/agents", f"agent id {agent_id!r} appears {count} times"
            )


@rule("woa/document")
def WOA_4_1_AGENT_TRANSPORTS_DEFINED(document: Any, _: Context) -> Iterator[Violation]:
    defined = _member(document, "transports")
    if not isinstance(defined, dict):
        return
    for i, agent in enumerate(_objects(_member(document, "agents"))):
        for name in (
            agent.get("transports", []) if isinstance(agent.get("transports"), list) else []
        ):
            if isinstance(name, str) and name not in defined:
                yield Violation(
                    "WOA-4.1-AGENT-TRANSPORTS-DEFINED",
                    f"/agents/{i}/transports",
                    f"transport {name!r} is not a key of the top-level transports object",
                )


_CHECKED_SCHEMAS: dict[str, str | None] = {}


#: The $schema URIs of the dialects before 2020-12 (with any trailing # or / removed).
_EARLIER_DIALECTS = frozenset(
    f"{scheme}://json-schema.org/{draft}/schema"
    for scheme in ("http", "https")
    for draft in ("draft-03", "draft-04", "draft-06", "draft-07", "draft/2019-09")
)


_META_SCHEMA = Draft202012Validator(Draft202012Validator.META_SCHEMA)
_DIALECT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


#: What RFC 3986 allows in a URI-reference (an IRI's characters beyond ASCII let through), and a
#: scheme, which makes it a URI.
_URI_REFERENCE = re.compile(r"(?:[^\x00-\x20\"<>\\^`{|}\x7f%]|%[0-9A-Fa-f]{2})*")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_URI_KEYWORDS = {"$schema": "a URI", "$id": "a URI-reference", "$ref": "a URI-reference"}
#: Keywords whose values are instances, not schemas.
_NOT_SCHEMAS = frozenset({"const", "enum", "examples", "default"})


def _uri_error(schema: dict[str, Any], budget: int = 100_000) -> str | None:
    """Where `schema` breaks the core vocabulary's URIs: "$schema" MUST be a URI, "$id" and "$ref"
    URI-references (JSON Schema core 8.1.1, 8.2.1, 8.2.3.1), which the meta-schema's formats, mere
    annotations, do not assert. At most `budget` objects are looked at."""
    stack: list[Any] = [schema]
    while stack and budget > 0:
        value = stack.pop()
        if isinstance(value, list):
            stack.extend(v for v in value if isinstance(v, dict | list))
            continue
        budget -= 1
        if "$schema" in value or "$id" in value or "$ref" in value:
            for keyword, kind in _URI_KEYWORDS.items():
                given = value.get(keyword)
                if isinstance(given, str) and not (
                    _URI_REFERENCE.fullmatch(given)
                    and (keyword != "$schema" or _SCHEME.match(given))
                ):
                    return f"its {keyword} {given[:80]!r} is not {kind}"
        stack.extend(
            v for k, v in value.items() if isinstance(v, dict | list) and k not in _NOT_SCHEMAS
        )
    return None


def _schema_error(schema: dict[str, Any], context: Context) -> str | None:
    """Why `schema` is not valid 2020-12 (None if it is), worked out once per schema object for
    every rule of the validation (`context`), and once per distinct invalid schema: a document may
    repeat one schema for thousands of agents."""
    known, by_content = context.schema_errors, context.flat_schema_errors
    if id(schema) not in known:
        # a schema of scalar keywords alone ({"type": "object"}: thousands of agents' in a
        # generated document) is worked out once by its content
        flat: tuple[Any, ...] | None = None
        if len(schema) <= 4:
            values = tuple(schema.values())
            flat = (tuple(schema), tuple(map(type, values)), values)  # the classes: True == 1
            try:
                hash(flat)
            except TypeError:  # a keyword holds an object or an array
                flat = None
        if flat is None:
            known[id(schema)] = _schema_problem(schema)
        else:
            if flat not in by_content:
                by_content[flat] = _schema_problem(schema)
            known[id(schema)] = by_content[flat]
    return known[id(schema)]


def _schema_problem(schema: dict[str, Any]) -> str | None:
    if schema.get("$schema", _DIALECT_2020_12) in (_DIALECT_2020_12, _DIALECT_2020_12 + "#"):
        # jsonschema-rs says valid in a microsecond; what it finds wrong the walk below says
        with suppress(ValueError, TypeError, OverflowError):
            if jsonschema_rs.meta.is_valid(schema):
                return _uri_error(schema)
    key = json.dumps(schema, sort_keys=True, default=str)
    if key not in _CHECKED_SCHEMAS:
        if len(_CHECKED_SCHEMAS) > 10_000:
            _CHECKED_SCHEMAS.clear()
        dialect = schema.get("$schema")
        # no format checker: the meta-schema's "format": "regex" is an annotation in 2020-12, not an
        # assertion
        error = best_match(_META_SCHEMA.iter_errors(schema))
        _CHECKED_SCHEMAS[key] = error.message if error is not None else _uri_error(schema)
        if (
            _CHECKED_SCHEMAS[key] is None
            and isinstance(dialect, str)
            and dialect.rstrip("#/") in _EARLIER_DIALECTS
        ):
            _CHECKED_SCHEMAS[key] = (
                f"its $schema declares an earlier dialect ({dialect}), not 2020-12"
            )
    return _CHECKED_SCHEMAS[key]


@rule("woa/document")
def WOA_4_2_SCHEMAS_VALID_2020_12(document: Any, context: Context) -> Iterator[Violation]:
    for at, member, schema in _agent_schemas(document):
        problem = _schema_error(schema, context) if isinstance(schema, dict) else None
        if problem:
            yield Violation(
                "WOA-4.2-SCHEMAS-VALID-2020-12",
                _schema_path(at, member),
                f"not a valid JSON Schema 2020-12 document: {problem}",
            )


@rule("woa/document")
def WOA_4_2_MINIMAL_SCHEMA_PROFILE(document: Any, context: Context) -> Iterator[Violation]:
    for at, member, schema in _agent_schemas(document):
        if member != "inputs" or not isinstance(schema, dict) or _schema_error(schema, context):
            continue  # an invalid schema is judged by WOA-4.2-SCHEMAS-VALID-2020-12 alone
        root = schema
        reference = schema.get("$ref")
        # pydantic's and FastAPI's recursive roots
        if isinstance(reference, str) and reference.startswith("#/"):
            root = _pointed(schema, reference[2:])
        declared = root.get("type") if isinstance(root, dict) else None
        kinds = (
            [declared]
            if isinstance(declared, str)
            else declared
            if isinstance(declared, list)
            else None
        )
        # a root that admits no object cannot take the envelope's input
        if kinds is not None and "object" not in kinds:
            yield Violation(
                "WOA-4.2-MINIMAL-SCHEMA-PROFILE",
                _schema_path(at, member),
                f"an inputs schema's root admits no object (type {declared!r}), "
                "though the envelope's input is an object (WoA 5.1)",
            )


class _AgentIndex:
    """The agents of the last document looked into, by id: a run asks for one agent of the same
    document once per answer it judges, and a document may list 80,000 agents."""

    def __init__(self) -> None:
        self._document: Any = None
        self._by_id: dict[Any, dict[str, Any]] = {}

    def find(self, document: Any, agent_id: Any) -> dict[str, Any] | None:
        if document is not self._document:
            by_id: dict[Any, dict[str, Any]] = {}
            for agent in _objects(_member(document, "agents")):
                key = agent.get("id")
                if isinstance(key, str | int | float | bool | type(None)):
                    # the first of duplicate ids, as a search from the start finds it
                    by_id.setdefault(key, agent)
            self._document, self._by_id = document, by_id
        return (
            self._by_id.get(agent_id)
            if isinstance(agent_id, str | int | float | bool | type(None))
            else None
        )


_AGENTS = _AgentIndex()


def _pointed(schema: dict[str, Any], pointer: str) -> Any:
    """The part of `schema` a local JSON pointer (without its "#/") names; None when there is
    none."""
    node: Any = schema
    for token in pointer.split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        node = node.get(token) if isinstance(node, dict) else None
    return node


def agent_of(document: Any, agent_id: Any) -> dict[str, Any] | None:
    """The agent `agent_id` of a WoA document (the first of duplicate ids), found by an index
    kept per document."""
    return _AGENTS.find(document, agent_id)


def selected_schema(agent: dict[str, Any], operation: str | None, field: str) -> Any:
    """The operation's override of `field` ("inputs" or "outputs"), else the agent's (WoA 5.1,
    5.2)."""
    chosen = next((o for o in _objects(agent.get("operations")) if o.get("name") == operation), {})
    return chosen.get(field, agent.get(field))


def _conformance_errors(schema: Any, instance: Any) -> Iterator[str]:
    """Why `instance` does not conform to the target's `schema`; raises `Unjudgeable` when that
    cannot be said."""
    if isinstance(schema, dict):
        for error in target_validator(schema).iter_errors(instance):
            yield error.message


@rule("woa/envelope")
def WOA_5_2_AGENT_FIELD_MATCHES(envelope: Any, context: Context) -> Iterator[Violation]:
    agent_id = _member(envelope, "agent")
    if (
        context.document is not None
        and isinstance(agent_id, str)
        and agent_of(context.document, agent_id) is None
    ):
        yield Violation(
            "WOA-5.2-AGENT-FIELD-MATCHES", "/agent", f"the document lists no agent {agent_id!r}"
        )


@rule("woa/envelope")
def WOA_5_1_INPUT_CONFORMS(envelope: Any, context: Context) -> Iterator[Violation]:
    agent = agent_of(context.document, _member(envelope, "agent"))
    if agent is None or not isinstance(_member(envelope, "input"), dict):
        return
    schema = selected_schema(agent, _member(envelope, "operation"), "inputs")
    for message in _conformance_errors(schema, envelope["input"]):
        yield Violation("WOA-5.1-INPUT-CONFORMS", "/input", message)


@rule("woa/success-response")
def WOA_5_2_SUCCESS_CONFORMS_OUTPUTS(body: Any, context: Context) -> Iterator[Violation]:
    agent = agent_of(context.document, context.agent)
    if agent is None:
        return
    for message in _conformance_errors(selected_schema(agent, context.operation, "outputs"), body):
        yield Violation("WOA-5.2-SUCCESS-CONFORMS-OUTPUTS", "/", message)


# -- SDSI -----------------------------------------------------------------------------------------


def _listed_keys(message: Any, *fields: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for name in fields:
        for i, key in enumerate(_member(message, name) or []):
            if isinstance(key, dict):
                yield f"/{name}/{i}", key


def _keys_of(message: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every key definition in a template, patch, suggestion or result, or `message` itself if it
    is one."""
    if isinstance(message, dict) and "key_name" in message:
        yield path, message
        return
    yield from (
        (path + p, k) for p, k in _listed_keys(message, "keys", "new_keys", "modified_keys")
    )
    suggestion = _member(message, "schema_update_suggestion")
    if suggestion is not None:
        yield from _keys_of(suggestion, path + "/schema_update_suggestion")


_KEY_MESSAGES = (
    "sdsi/key-definition",
    "sdsi/schema-template",
    "sdsi/schema-patch",
    "sdsi/schema-update-suggestion",
    "sdsi/execution-result",
)


@rule(*_KEY_MESSAGES)
def SDSI_4_1_DEFAULT_VALUE_MATCHES_TYPE(message: Any, _: Context) -> Iterator[Violation]:
    for path, key in _keys_of(message):
        default, key_type = key.get("default_value"), key.get("key_type")
        if (
            default is not None
            and key_type in JSON_TYPES
            and not json_type_matches(default, key_type)
        ):
            yield Violation(
                "SDSI-4.1-DEFAULT-VALUE-MATCHES-TYPE",
                f"{path}/default_value",
                f"default {default!r} is not of key_type {key_type!r}",
            )


@rule(*_KEY_MESSAGES)
def SDSI_4_1_DEFAULT_VALUE_ONLY_OPTIONAL_KEYS(message: Any, _: Context) -> Iterator[Violation]:
    for path, key in _keys_of(message):
        if key.get("required") is True and key.get("default_value") is not None:
            yield Violation(
                "SDSI-4.1-DEFAULT-VALUE-ONLY-OPTIONAL-KEYS",
                f"{path}/default_value",
                "a required key has a default that can never be used",
            )


@rule("sdsi/schema-template")
def SDSI_4_1_KEY_NAME_UNIQUE(template: Any, _: Context) -> Iterator[Violation]:
    names = Counter(
        k["key_name"]
        for _, k in _listed_keys(template, "keys")
        if isinstance(k.get("key_name"), str)
    )
    for name, count in names.items():
        if count > 1:
            yield Violation(
                "SDSI-4.1-KEY-NAME-UNIQUE", "/keys", f"key_name {name!r} is defined {count} times"
            )


def _patch_of(message: Any) -> dict[str, Any] | None:
    if isinstance(message, dict) and "patch_id" in message:
        return message
    suggestion = _member(message, "schema_update_suggestion")
    return suggestion if isinstance(suggestion, dict) and "patch_id" in suggestion else None


def _moment(text: Any) -> datetime | None:
    if not isinstance(text, str):
        return None
    try:
        # a date lasts to its end
        moment = (
            datetime.fromisoformat(text.replace("z", "Z"))
            if "T" in text.upper()
            else datetime.combine(date.fromisoformat(text), datetime.max.time(), tzinfo=UTC)
        )
    except ValueError:
        return None
    return moment if moment.tzinfo else None


#: The members a patch may carry its expiration date in (SDSI 6.2.2 names no member;
#: E-SDSI-6.2.2-PATCH-MEMBERS).
EXPIRATION_MEMBERS = (
    "expiration",
    "expiration_date",
    "expires",
    "expires_at",
    "expiry",
    "expiry_date",
    "valid_until",
)
_RFC3339_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})"
)
_RFC3339_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _readable_time(value: Any) -> bool:
    """Whether `value` is a time a reader can take as one: a number (seconds since the epoch, also
    written as a string), a string in any ISO 8601 form Python reads (a date, a date-time, with or
    without an offset, "UTC" or "GMT" for one), or an HTTP-date (RFC 9110 5.6.7)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return True
    if not isinstance(value, str):
        return False
    text = value.strip()
    try:
        float(text)
        return text.replace(".", "", 1).isdigit()
    except ValueError:
        pass
    for zone in (" UTC", " GMT"):
        if text.upper().endswith(zone):
            text = text[: -len(zone)] + "+00:00"
    try:
        datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        try:
            parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return False
    return True


def _rfc3339(value: Any, *, date_allowed: bool) -> bool:
    """Whether `value` is an RFC 3339 date-time with an offset (or, `date_allowed`, a full-date)."""
    if not isinstance(value, str) or _moment(value) is None:
        return False
    return bool(
        _RFC3339_DATE_TIME.fullmatch(value) or (date_allowed and _RFC3339_DATE.fullmatch(value))
    )


def _expiration(patch: Any) -> tuple[str, Any] | None:
    return next(
        ((m, patch[m]) for m in EXPIRATION_MEMBERS if isinstance(patch, dict) and m in patch), None
    )


@rule("sdsi/schema-patch", "sdsi/schema-update-suggestion", "sdsi/execution-result")
def SDSI_6_2_2_PATCH_TIMESTAMP(message: Any, _: Context) -> Iterator[Violation]:
    stamp = _member(_patch_of(message), "timestamp")
    if isinstance(stamp, str) and not _readable_time(stamp):
        yield Violation(
            "SDSI-6.2.2-PATCH-TIMESTAMP", "/timestamp", f"{stamp!r} cannot be read as a time"
        )


@rule("sdsi/schema-patch", "sdsi/schema-update-suggestion", "sdsi/execution-result")
def SDSI_6_2_2_PATCH_TIMESTAMP_RFC3339(message: Any, _: Context) -> Iterator[Violation]:
    stamp = _member(_patch_of(message), "timestamp")
    if _readable_time(stamp) and not _rfc3339(stamp, date_allowed=False):
        yield Violation(
            "SDSI-6.2.2-PATCH-TIMESTAMP-RFC3339",
            "/timestamp",
            f"{stamp!r} is not an RFC 3339 date-time with an offset",
        )


@rule("sdsi/schema-patch", "sdsi/schema-update-suggestion", "sdsi/execution-result")
def SDSI_6_2_2_PATCH_EXPIRATION(message: Any, _: Context) -> Iterator[Violation]:
    found = _expiration(_patch_of(message))
    if found is not None and not _readable_time(found[1]):
        yield Violation(
            "SDSI-6.2.2-PATCH-EXPIRATION", f"/{found[0]}", f"{found[1]!r} cannot be read as a date"
        )


@rule("sdsi/schema-patch", "sdsi/schema-update-suggestion", "sdsi/execution-result")
def SDSI_6_2_2_PATCH_EXPIRATION_FORMAT(message: Any, _: Context) -> Iterator[Violation]:
    patch = _patch_of(message)
    found = _expiration(patch)
    if found is None or not _readable_time(found[1]):
        return  # SDSI-6.2.2-PATCH-EXPIRATION's
    member, value = found
    if member != "expiration":
        yield Violation(
            "SDSI-6.2.2-PATCH-EXPIRATION-FORMAT",
            f"/{member}",
            f'the expiration is in {member!r}, not in "expiration"',
        )
    elif not _rfc3339(value, date_allowed=True):
        yield Violation(
            "SDSI-6.2.2-PATCH-EXPIRATION-FORMAT",
            "/expiration",
            f"{value!r} is not an RFC 3339 date or date-time",
        )
    start, end = _moment(_member(patch, "timestamp")), _moment(value)
    if start and end and end < start:
        yield Violation(
            "SDSI-6.2.2-PATCH-EXPIRATION-FORMAT",
            f"/{member}",
            "the patch expires before its timestamp",
        )


@rule("sdsi/schema-patch", "sdsi/schema-update-suggestion", "sdsi/execution-result")
def SDSI_6_2_2_NO_DUPLICATE_KEY(message: Any, _: Context) -> Iterator[Violation]:
    # a suggestion without a patch_id still adds its keys (its missing id is
    # SDSI-6.2.2-PATCH-ID's)
    suggestion = _member(message, "schema_update_suggestion")
    patch = _patch_of(message) or (suggestion if isinstance(suggestion, dict) else message)
    names = Counter(k.get("key_name") for k in _objects(_member(patch, "new_keys")))
    for name, count in names.items():
        if name == "other":
            yield Violation(
                "SDSI-4.3-OTHER-RESERVED",
                "/new_keys",
                'a patch adds a new key named "other", a name reserved for the escape valve',
            )
        elif isinstance(name, str) and count > 1:
            yield Violation(
                "SDSI-6.2.2-NO-DUPLICATE-KEY",
                "/new_keys",
                f"new key {name!r} is added {count} times by one patch",
            )


def _payload_in(message: Any) -> Any:
    """The key-value payload a message carries: its payload member, or, in a flat message (the keys
    beside schema_id, a form SDSI-3.2-PAYLOAD-MESSAGE judges), the message less its schema_id."""
    if isinstance(message, dict) and "payload" not in message:
        return {k: v for k, v in message.items() if k != "schema_id"}
    return _member(message, "payload")


def _templated(judge: Callable[[dict[str, Any], dict[str, Any], Any], Iterator[Violation]]) -> Rule:
    """A rule on a message's key-value payload against the template it follows, judged where the
    payload is an object and the template is known."""

    @functools.wraps(judge)
    def judged(message: Any, context: Context) -> Iterator[Violation]:
        payload = _payload_in(message)
        if isinstance(payload, dict) and context.template is not None:
            yield from judge(payload, context.template, message)

    return judged


@rule("sdsi/payload-message")
def SDSI_4_3_OTHER_VALUE_STRING_OR_ARRAY(message: Any, _: Context) -> Iterator[Violation]:
    if not isinstance(message, dict) or "payload" in message or "other" not in message:
        return  # nested, "other" is the schema's to judge
    other = message["other"]
    if not (
        isinstance(other, str)
        or (isinstance(other, list) and all(isinstance(o, str) for o in other))
    ):
        yield Violation(
            "SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY",
            "/other",
            f"{other!r} is neither a string nor an array of strings",
        )


@rule("sdsi/payload-message")
@_templated
def SDSI_3_2_PAYLOAD_REQUIRED_KEYS(
    payload: dict[str, Any], template: dict[str, Any], message: Any
) -> Iterator[Violation]:
    for _, key in _listed_keys(template, "keys"):
        if key.get("required") is True and key.get("key_name") not in payload:
            yield Violation(
                "SDSI-3.2-PAYLOAD-REQUIRED-KEYS",
                "/payload" if "payload" in message else "/",
                f"REQUIRED key {key.get('key_name')!r} is missing",
            )


@rule("sdsi/payload-message")
@_templated
def SDSI_3_1_CLIENT_PAYLOAD_MATCHES_TEMPLATE(
    payload: dict[str, Any], template: dict[str, Any], message: Any
) -> Iterator[Violation]:
    schema_id = _member(message, "schema_id")
    if isinstance(schema_id, str) and schema_id != template.get("schema_id"):
        yield Violation(
            "SDSI-3.1-CLIENT-PAYLOAD-MATCHES-TEMPLATE",
            "/schema_id",
            "schema_id is not the negotiated template's",
        )
    types = {k.get("key_name"): k.get("key_type") for _, k in _listed_keys(template, "keys")}
    for name, value in payload.items():
        if name == "other":
            continue  # judged by SDSI-4.3-OTHER-VALUE-STRING-OR-ARRAY
        if name not in types:
            yield Violation(
                "SDSI-3.1-CLIENT-PAYLOAD-MATCHES-TEMPLATE",
                f"/payload/{name}",
                f"key {name!r} is not in the template",
            )
        elif (
            isinstance(key_type := types[name], str)
            and key_type in JSON_TYPES
            and not json_type_matches(value, key_type)
        ):
            yield Violation(
                "SDSI-3.1-CLIENT-PAYLOAD-MATCHES-TEMPLATE",
                f"/payload/{name}",
                f"{value!r} is not of key_type {key_type!r}",
            )


# -- ACI ------------------------------------------------------------------------------------------


def _agent_context(message: Any) -> dict[str, Any]:
    inner = _member(message, "AgentContext")
    return inner if isinstance(inner, dict) else {}


def _stated_context(message: Any) -> dict[str, Any]:
    """The message's AgentContext where it lists todoItems and their states, else {}."""
    context = _agent_context(message)
    if not isinstance(context.get("todoItems"), list) or not any(
        k in context for k in ("ItemstateUpdates", "ItemStateUpdates")
    ):
        return {}
    return context


def _item_states(context: dict[str, Any]) -> list[dict[str, Any]]:
    return _objects(context.get("ItemstateUpdates", context.get("ItemStateUpdates")))


@rule("aci/agent-context")
def ACI_5_2_ITEM_STATE_PER_ITEM(message: Any, _: Context) -> Iterator[Violation]:
    """ "records the completion state of each item": every todo item has a state (an item an
    agent dropped from its reply is ACI-5.2-TODO-ITEMS-PRESERVED's)."""
    if not (context := _stated_context(message)):
        return
    stated = {str(s.get("itemId")) for s in _item_states(context)}
    missing = [
        str(i.get("itemId"))
        for i in _objects(context.get("todoItems"))
        if str(i.get("itemId")) not in stated
    ]
    if missing:
        yield Violation(
            "ACI-5.2-ITEM-STATE-PER-ITEM", "/AgentContext", f"todo items without a state: {missing}"
        )


@rule("aci/agent-context")
def ACI_5_2_ITEM_STATE_ONE_EACH(message: Any, _: Context) -> Iterator[Violation]:
    """The suite's reading: exactly one state per todo item, and none for an item not in
    todoItems."""
    if not (context := _stated_context(message)):
        return
    todo = [str(i.get("itemId")) for i in _objects(context.get("todoItems"))]
    states = [str(s.get("itemId")) for s in _item_states(context)]
    unknown = sorted(set(states) - set(todo))
    if unknown:
        yield Violation(
            "ACI-5.2-ITEM-STATE-ONE-EACH", "/AgentContext", f"states for unknown items {unknown}"
        )
    listed = Counter(todo)
    twice = sorted(i for i, n in Counter(states).items() if i in listed and n > listed[i])
    if twice:
        yield Violation(
            "ACI-5.2-ITEM-STATE-ONE-EACH", "/AgentContext", f"more than one state for {twice}"
        )


@rule("aci/agent-context")
def ACI_5_2_KEY_INFORMATION_PER_ITEM(message: Any, given: Context) -> Iterator[Violation]:
    """ "output abstracts generated by the agent for each item": every todo item of an agent's
    reply has one; in a master's delivery, once any is reported (a context with no abstract and
    no item completed is one before any work)."""
    context = _agent_context(message)
    if not context or "KeyInformation" not in context:
        return  # a missing member is ACI-5.2-AGENTCONTEXT-MEMBERS's
    sent = given.sent
    if sent is None:
        if context.get("KeyInformation") == [] and not any(
            s.get("state") == 1 for s in _item_states(context)
        ):
            return
    elif context.get("KeyInformation") == sent.get("KeyInformation") and _item_states(
        context
    ) == _item_states(sent):
        return  # returned as sent, nothing executed: ACI-5.3-RETURNS-STATE-AND-KEY-INFORMATION's
    explained = {k.get("itemId") for k in _objects(context.get("KeyInformation"))}
    for item in _objects(context.get("todoItems")):
        if item.get("itemId") not in explained:
            yield Violation(
                "ACI-5.2-KEY-INFORMATION-PER-ITEM",
                "/AgentContext/KeyInformation",
                f"item {item.get('itemId')!r} has no output abstract",
            )


#: Words the suite reads as "done" in GoalStatus and OverallStatus: the draft's own first (5.2,
#: "1 denotes completed"), then common synonyms (E-ACI-5.1-STATUS-VOCABULARY).
DONE_WORDS = frozenset({"completed", "done", "complete", "finished", "success", "succeeded"})


def is_done(status: Any) -> bool:
    """Whether a GoalStatus or OverallStatus value reads done (E-ACI-5.1-STATUS-VOCABULARY)."""
    return isinstance(status, str) and status.strip().lower() in DONE_WORDS


#: Words the suite reads as "not done": the draft's own first (5.2, "0 denotes not completed",
#: "items marked as 0 are considered unfinished"), then initial, waiting or failed.
NOT_DONE_WORDS = frozenset(
    {
        "not completed",
        "not_completed",
        "unfinished",
        "",
        "pending",
        "in progress",
        "in_progress",
        "in-progress",
        "not started",
        "not_started",
        "todo",
        "waiting",
        "incomplete",
        "failed",
        "failure",
        "open",
    }
)


def is_not_done(status: Any) -> bool:
    """Whether a status reads not done; a word the suite does not know reads neither
    (E-ACI-5.1-STATUS-VOCABULARY), and `unread_words` names it."""
    return isinstance(status, str) and status.strip().lower() in NOT_DONE_WORDS


def unread_words(task_context: Any) -> list[str]:
    """The status words of a TaskContext (its OverallStatus and each goal's Status) that read
    neither done nor not done: a rule judged on them would pass by not understanding them."""
    task = _member(task_context, "TaskContext")
    words = [_member(task, "OverallStatus")]
    words += [g.get("Status") for g in _objects(_member(task, "GoalStatus"))]
    return sorted(
        {w for w in words if isinstance(w, str) and not is_done(w) and not is_not_done(w)}
    )


@rule("aci/task-context")
def ACI_5_1_OVERALL_STATUS_DERIVED(message: Any, _: Context) -> Iterator[Violation]:
    task = _member(message, "TaskContext")
    overall = _member(task, "OverallStatus")
    goals = _objects(_member(task, "GoalStatus"))
    statuses = [(g.get("Goal"), g.get("Status")) for g in goals]
    if is_done(overall):
        pending = [goal for goal, status in statuses if is_not_done(status)]
        if pending:
            yield Violation(
                "ACI-5.1-OVERALL-STATUS-DERIVED",
                "/TaskContext/OverallStatus",
                f"overall status {overall!r} while goals {pending} are not done",
            )
    elif is_not_done(overall) and statuses and all(is_done(status) for _, status in statuses):
        yield Violation(
            "ACI-5.1-OVERALL-STATUS-DERIVED",
            "/TaskContext/OverallStatus",
            f"overall status {overall!r} while every goal is done",
        )
