"""Template checks (SDSI 4.1, 4.2, 4.3): each template the server serves, one check per rule,
judged by the suite's message validation (schemas/sdsi/schema-template.json and its rules)."""

from __future__ import annotations

import json
from typing import Any

from ...bindings.observed import NotObserved
from ...report.model import Exchange
from ...targeting import Target
from ...validation import validate_message
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import checks_of_table
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped
from .common import server_session

__all__ = ["TEMPLATE_RULES"]

TEMPLATE_RULES = (
    "SDSI-4.1-TEMPLATE-OBJECT",
    "SDSI-4.1-SCHEMA-ID-REQUIRED",
    "SDSI-4.1-SCENARIO-REQUIRED",
    "SDSI-4.1-KEYS-REQUIRED",
    "SDSI-4.1-KEY-DEFINITION-OBJECT",
    "SDSI-4.1-KEY-NAME-REQUIRED",
    "SDSI-4.1-KEY-NAME-SNAKE-CASE",
    "SDSI-4.1-KEY-NAME-UNIQUE",
    "SDSI-4.1-KEY-TYPE-REQUIRED",
    "SDSI-4.1-KEY-TYPE-JSON-SCHEMA-TYPE",
    "SDSI-4.1-SEMANTIC-DESCRIPTION-REQUIRED",
    "SDSI-4.1-SEMANTIC-DESCRIPTION-NON-EMPTY",
    "SDSI-4.1-REQUIRED-FLAG-REQUIRED",
    "SDSI-4.1-DEFAULT-VALUE-MATCHES-TYPE",
    "SDSI-4.1-DEFAULT-VALUE-ONLY-OPTIONAL-KEYS",
    "SDSI-4.3-OTHER-DEFINED",
    "SDSI-4.3-OTHER-OPTIONAL",
    "SDSI-4.3-OTHER-KEY-TYPE",
)


#: The rules of a key definition (on a patch's new keys: SDSI-6.2.2-PATCH-KEY-DEFINITIONS).
KEY_RULES = frozenset(
    {
        "SDSI-4.1-KEY-DEFINITION-OBJECT",
        "SDSI-4.1-KEY-NAME-REQUIRED",
        "SDSI-4.1-KEY-TYPE-REQUIRED",
        "SDSI-4.1-KEY-TYPE-JSON-SCHEMA-TYPE",
        "SDSI-4.1-SEMANTIC-DESCRIPTION-REQUIRED",
        "SDSI-4.1-REQUIRED-FLAG-REQUIRED",
    }
)


#: The SHOULDs of a key definition, judged on patches' new keys too.
_KEY_SHOULDS = frozenset(
    {
        "SDSI-4.1-KEY-NAME-SNAKE-CASE",
        "SDSI-4.1-SEMANTIC-DESCRIPTION-NON-EMPTY",
        "SDSI-4.1-DEFAULT-VALUE-MATCHES-TYPE",
        "SDSI-4.1-DEFAULT-VALUE-ONLY-OPTIONAL-KEYS",
    }
)


#: The rules on a template's keys: nothing to judge in a template without keys (its absence is
#: SDSI-4.1-KEYS-REQUIRED's failure).
_ON_KEYS = KEY_RULES | _KEY_SHOULDS | {"SDSI-4.1-KEY-NAME-UNIQUE"}
#: The rules on the key "other": nothing to judge in a template that does not define it (whether
#: it must is SDSI-4.3-OTHER-DEFINED's).
_ON_OTHER = frozenset({"SDSI-4.3-OTHER-OPTIONAL", "SDSI-4.3-OTHER-KEY-TYPE"})


def _bears_on(requirement: str, template: Any) -> bool:
    """Whether `template` holds what `requirement` judges."""
    keys = template.get("keys") if isinstance(template, dict) else None
    if requirement in _ON_OTHER:
        return isinstance(keys, list) and any(
            isinstance(k, dict) and k.get("key_name") == "other" for k in keys
        )
    if requirement in _ON_KEYS:
        return isinstance(keys, list) and bool(keys)
    if requirement == "SDSI-4.3-OTHER-DEFINED":  # a list of keys without "other" is judged
        return isinstance(keys, list)
    return True


def _schema_ids_shared(templates: list[tuple[str, Any]]) -> list[str]:
    """Two templates served under one schema_id with different keys: the id does not identify a
    schema."""
    seen: dict[Any, tuple[str, Any]] = {}
    problems = []
    for scenario, template in templates:
        if not isinstance(template, dict) or not isinstance(template.get("schema_id"), str):
            continue
        keys = _comparable(template.get("keys"))
        earlier = seen.setdefault(template["schema_id"], (scenario, keys))
        if earlier[1] != keys:
            problems.append(
                f"{scenario}: schema_id {template['schema_id']!r} is also {earlier[0]}'s, with"
                " other keys"
            )
    return problems


def _comparable(keys: Any) -> Any:
    """A template's keys as a set of definitions: in any order, a null default_value the same as
    none (the suite's own reading of "no default")."""
    if not isinstance(keys, list):
        return keys
    return sorted(
        (
            json.dumps(
                {m: v for m, v in k.items() if not (m == "default_value" and v is None)},
                sort_keys=True,
            )
            if isinstance(k, dict)
            else json.dumps(k)
        )
        for k in keys
    )


async def _judge(requirement: str, target: Target) -> Verdict:
    found = await server_session(target, watched=True)
    if not found.templates:
        raise NotObserved("no SDSI template passed by")
    unusable = [(s, r) for s, r in found.templates.items() if not r.ok]
    if unusable:
        scenario, reply = unusable[0]
        evidence: tuple[Exchange, ...] = (reply.exchange,) if reply.exchange else ()
        return errored(
            f"the template of {scenario!r} could not be fetched:"
            f" {reply.problem or f'status {reply.status}'}",
            *evidence,
        )
    judged = {s: r for s, r in found.templates.items() if _bears_on(requirement, r.body)}
    problems = [
        f"{scenario}: {v.path}: {v.message}"
        for scenario, reply in judged.items()
        for v in validate_message("sdsi/schema-template", reply.body)
        if v.requirement == requirement
    ]
    # a patch's new keys are key definitions too (4.1); its modified keys may be partial
    new_keys = [
        (where, patch)
        for where, patch, _ in found.patches()
        if isinstance(patch, dict) and patch.get("new_keys")
    ]
    # (at MUST, the 4.1 rules bind templates: a patch's key definitions are
    # SDSI-6.2.2-PATCH-KEY-DEFINITIONS's, a SHOULD, E-SDSI-6.2.2-PATCH-FORMAT)
    if requirement in _KEY_SHOULDS:
        problems += [
            f"{where}: {v.path}: {v.message}"
            for where, patch in new_keys
            for v in validate_message("sdsi/schema-patch", patch)
            if v.requirement == requirement and v.path.startswith("/new_keys")
        ]
    else:
        new_keys = []
    if not judged and not new_keys and not problems:  # nothing to judge is no pass
        evidence = tuple(r.exchange for r in found.templates.values() if r.exchange)[:3]
        if requirement in _ON_OTHER:
            return not_applicable("no template defines the key other")
        return skipped(
            Skip.DEPENDS_ON,
            "no template the server served has keys (SDSI-4.1-KEYS-REQUIRED judges that)",
            *evidence,
        )
    if requirement == "SDSI-4.1-SCHEMA-ID-REQUIRED":
        problems += _schema_ids_shared([(s, r.body) for s, r in found.templates.items()])
    evidence = tuple(r.exchange for r in found.templates.values() if r.exchange)[:3]
    if problems:
        return failed("; ".join(problems[:5]), *evidence)
    return passed(f"the templates of {', '.join(judged)} keep this rule", *evidence)


checks_of_table(TEMPLATE_RULES, lambda target, requirement: _judge(requirement, target))


@check("SDSI-4.1-PREFERRED-LANGUAGE-TOLERATED")
async def sdsi_4_1_preferred_language_is_tolerated(target: Target) -> Verdict:
    """The suite's reading of Appendix A.1's preferred_language (inferred): a negotiation request
    that carries one is served, in that language or another; it is not refused for carrying it."""
    found = await server_session(target)
    assert found.binding is not None  # else server_session decided
    scenario = next(iter(found.templates))
    reply = await found.binding.template(scenario, preferred_language="zh-CN")
    evidence = (reply.exchange,) if reply.exchange else ()
    if reply.status is None:  # no answer at all (the server went away): nothing to judge
        return errored(
            f"asked for {scenario!r} in zh-CN, no answer came: {reply.problem}", *evidence
        )
    if not reply.ok:
        return failed(
            f"asked for {scenario!r} with preferred_language zh-CN, the server answered "
            f"{reply.problem or reply.status} instead of honouring or ignoring it",
            *evidence,
        )
    # what the template holds is judged by the other template checks; here only that it was not
    # refused: something that is no template (no keys) is not a template served
    if not (isinstance(reply.body, dict) and "keys" in reply.body):
        return skipped(
            Skip.DEPENDS_ON,
            f"asked for {scenario!r} in zh-CN, the answer holds no template (no keys: the template"
            " rules judge it)",
            *evidence,
        )
    return passed(f"a template asked for in zh-CN was served ({scenario})", *evidence)
