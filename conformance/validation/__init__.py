"""Judge one message: its JSON Schema, then the rules a schema cannot say, each naming its
requirement.

    validate_message("woa/document", data)            -> [Violation, ...]
    validate_message("sdsi/payload-message", data, template=figure_2)

A `Violation` names the requirement ID, where in the message, and what is wrong. An empty list
means the message keeps every rule this project can judge from the message alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any
from urllib.parse import urljoin

from jsonschema.exceptions import ValidationError

from ..schemas import BASE_URI
from ..schemas import fast_validator
from ..schemas import schema
from ..schemas import schema_names
from ..schemas import validator
from .rules import RULES
from .rules import Context
from .violation import TRUNCATED
from .violation import UNMAPPED
from .violation import Violation

__all__ = ["MAX_SCHEMA_ERRORS", "TRUNCATED", "UNMAPPED", "Context", "Violation", "validate_message"]

#: Schema errors listed per message at most: a document of 100,000 agents each breaking a rule
#: would otherwise hold 100,000 errors in memory and take seconds to walk (the walk stops here).
MAX_SCHEMA_ERRORS = 1_000


def _requirements_of(error: ValidationError) -> list[str]:
    ids = error.schema.get("x-requirements") if isinstance(error.schema, dict) else None
    return list(ids) if ids else [UNMAPPED]


def _pointer(path: Any) -> str:
    return "".join(f"/{part}" for part in path) or "/"


#: Nesting beyond which a message is not handed to jsonschema-rs (its recursion is native: deep
#: enough nesting would overflow the stack; parse_json never yields more than the interpreter's
#: limit).
FAST_DEPTH = 256


def _shallow(data: Any, limit: int = FAST_DEPTH) -> bool:
    level = [data] if isinstance(data, dict | list) else []
    for _ in range(limit):
        if not level:
            return True
        level = [
            child
            for node in level
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, dict | list)
        ]
    return not level


def _valid_fast(name: str, data: Any, shallow: bool | None = None) -> bool:
    """jsonschema-rs says `data` is valid (False when it cannot tell: then jsonschema decides);
    `shallow`: whether `data` is known to nest less than FAST_DEPTH (looked at when None)."""
    try:
        return (_shallow(data) if shallow is None else shallow) and bool(
            fast_validator(name).is_valid(data)
        )
    except (ValueError, TypeError, OverflowError):
        # a value it cannot convert (a huge integer): jsonschema decides
        return False


#: An array this long is judged item by item when its message is invalid (`_itemwise`).
ITEMWISE = 64
#: What an array's schema may hold for it to be judged item by item: nothing about the array as a
#: whole but its type.
_PLAIN_ARRAY = frozenset({"type", "items", "x-requirements", "$comment", "title", "description"})


def _itemwise(name: str, data: dict[str, Any]) -> list[tuple[str, str]]:
    """(member, the schema of its items) for each long array of `data` whose schema says nothing
    of the array but that each item is one of our messages ("agents": woa/agent)."""
    properties = schema(name).get("properties", {})
    split = []
    for member, value in data.items():
        sub = properties.get(member)
        if not (isinstance(value, list) and len(value) >= ITEMWISE and isinstance(sub, dict)):
            continue
        items = sub.get("items")
        if set(sub) <= _PLAIN_ARRAY and isinstance(items, dict) and set(items) == {"$ref"}:
            uri = urljoin(f"{BASE_URI}{name}.json", str(items["$ref"]))
            item = uri.removeprefix(BASE_URI).removesuffix(".json")
            if uri.startswith(BASE_URI) and item in schema_names():
                split.append((member, item))
    return split


def _walked(name: str, data: Any, shallow: bool) -> Iterator[ValidationError]:
    """The schema's errors, as jsonschema finds them. A long array of messages (a document's
    80,000 agents) is read item by item: jsonschema-rs says which items are at fault, and only
    those are walked in Python (which keeps each error's path and requirements), the rest of the
    message with the array empty. The whole message in Python took 7 s for 80,000 agents."""
    split = _itemwise(name, data) if isinstance(data, dict) and shallow else []
    if not split:
        yield from validator(name).iter_errors(data)
        return
    yield from validator(name).iter_errors({**data, **{member: [] for member, _ in split}})
    for member, item in split:
        fast, slow = fast_validator(item), validator(item)
        for index, value in enumerate(data[member]):
            try:
                if fast.is_valid(value):
                    continue
            except (ValueError, TypeError, OverflowError):
                pass  # a value it cannot convert: jsonschema decides
            for error in slow.iter_errors(value):
                error.path.extendleft((index, member))
                yield error


def _schema_errors(name: str, data: Any) -> tuple[list[ValidationError], bool]:
    """The schema's errors (the first MAX_SCHEMA_ERRORS, and whether there were more), less those
    at a location whose type is already wrong (one defect, one report)."""
    shallow = _shallow(data)
    if _valid_fast(name, data, shallow):
        return [], False
    errors = list(islice(_walked(name, data, shallow), MAX_SCHEMA_ERRORS + 1))
    more = len(errors) > MAX_SCHEMA_ERRORS
    errors = errors[:MAX_SCHEMA_ERRORS]
    mistyped = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
    kept = [e for e in errors if e.validator == "type" or tuple(e.absolute_path) not in mistyped]
    return kept, more


def validate_message(name: str, data: Any, **context: Any) -> list[Violation]:
    """Every rule `data` breaks as message `name` (a schema name such as "sdsi/schema-template")."""
    try:
        errors, more = _schema_errors(name, data)
        violations = [
            Violation(requirement, _pointer(error.absolute_path), error.message)
            for error in errors
            for requirement in _requirements_of(error)
        ]
        if more:
            violations.append(
                Violation(
                    TRUNCATED,
                    "/",
                    f"more than {MAX_SCHEMA_ERRORS:,} schema errors: the first"
                    f" {MAX_SCHEMA_ERRORS:,} are listed, the rest were not looked for",
                )
            )
        given = Context(**context)  # one for every rule: what one works out the next reuses
        for check in RULES.get(name, ()):
            violations.extend(check(data, given))
    except RecursionError:
        violations = [Violation(UNMAPPED, "/", "the message nests too deeply to be judged")]
    return sorted(set(violations))
