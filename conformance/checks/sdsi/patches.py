"""Patch checks (SDSI 6.2.2, 6.2.3, 7): every patch the server serves, polled with
get_schema_updates (as an unauthenticated client) or delivered inline in a result, judged
alone and against the templates it extends and the other active patches."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable
from collections.abc import Callable
from typing import Any

from ...bindings.observed import NotObserved
from ...bindings.reply import Reply
from ...bindings.sdsi import sdsi_agents
from ...report.model import Exchange
from ...report.model import Status
from ...targeting import Target
from ...validation import Violation
from ...validation import validate_message
from ..preconditions import on_the_wire
from ..registry import CheckFunction
from ..registry import Decided
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import checks_of_table
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped
from ..registry import waived
from .common import payload_endpoint
from .common import server_session
from .drives import MEMBER as DRIVES_MEMBER
from .evolution import flagged_when_new
from .evolution import grace_kept
from .session import Session
from .templates import KEY_RULES

__all__ = ["security_relevant"]

PATCH_RULES = (
    "SDSI-6.2.2-PATCH-ID",
    "SDSI-6.2.2-PATCH-TIMESTAMP",
    "SDSI-6.2.2-PATCH-EXPIRATION",
    "SDSI-6.2.2-PATCH-TIMESTAMP-RFC3339",
    "SDSI-6.2.2-PATCH-EXPIRATION-FORMAT",
    "SDSI-6.2.2-PATCH-KEYS",
    "SDSI-4.3-OTHER-RESERVED",
    "SDSI-6.2.2-NO-DUPLICATE-KEY",
)
#: Words of a key name that say it touches payment, identity or access control (SDSI 7's examples),
#: matched as whole snake_case words (lounge_access, author_name and bank_holiday touch none of
#: them), and compounds whose words alone are ordinary (photo_credit, wallet_size_print and
#: passport_photo touch none; credit_score, passport_number and social_security_number do).
#: Words that are as often ordinary (pin, role, token, admin, pay) are left out: a seat "pin" or
#: a "role" in a story is no security key.
_SECURITY_WORDS = frozenset(
    {
        "payment",
        "payments",
        "iban",
        "billing",
        "identity",
        "ssn",
        "password",
        "passcode",
        "credential",
        "credentials",
        "secret",
        "authorization",
        "authentication",
        "permission",
        "permissions",
        "cvv",
        "cvc",
    }
)
_SECURITY_COMPOUNDS = (
    "card_number",
    "credit_card",
    "bank_account",
    "account_number",
    "national_id",
    "access_token",
    "access_control",
    "access_level",
    "api_key",
    "auth_token",
    "admin_role",
    "user_role",
    "pin_code",
    "credit_score",
    "credit_limit",
    "wallet_id",
    "wallet_address",
    "passport_number",
    "passport_no",
    "social_security",
    "government_id",
    "tax_id",
    "driver_license",
    "drivers_license",
)


def security_relevant(key_name: str) -> bool:
    """Whether a key name touches payment, identity or access control
    (E-SDSI-7-SECURITY-RELEVANT-KEYS)."""
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key_name).lower()
    return bool(set(re.split(r"[^a-z0-9]+", name)) & _SECURITY_WORDS) or any(
        c in name for c in _SECURITY_COMPOUNDS
    )


_LIFECYCLE = {"experimental", "deprecated", "semantic_description"}

Patch = tuple[str, dict[str, Any], Exchange | None]


async def _patches(target: Target, *, watched: bool = False) -> tuple[Session, list[Patch]]:
    """The session and every patch seen; `Decided` when there is none to judge."""
    found = await server_session(target, watched=watched)
    broken = [
        (schema_id, r) for schema_id, r in found.polled.items() if not r.ok and not _not_offered(r)
    ]
    if broken:
        schema_id, reply = broken[0]
        raise Decided(
            errored(
                f"get_schema_updates({schema_id}) answered {reply.problem or reply.status}",
                *((reply.exchange,) if reply.exchange else ()),
            )
        )
    patches = found.patches()
    if not patches and found.observed:
        raise NotObserved("no SDSI patch passed by")
    if not patches:
        raise Decided(
            not_applicable(
                "the server served no patch (it offers no get_schema_updates, or polled it gave"
                " none, and no execution carried one)"
            )
        )
    return found, patches


def _not_offered(reply: Reply) -> bool:
    """Whether a poll's answer says the server has no get_schema_updates (SDSI 2: updates are
    OPTIONAL): HTTP 404, 405 or 501 to the call, or JSON-RPC's "Method not found" (-32601)."""
    error = reply.body.get("error") if isinstance(reply.body, dict) else None
    return reply.status in (404, 405, 501) or (
        isinstance(error, dict) and error.get("code") == -32601
    )


PatchJudge = Callable[[Target, Session, list[Patch]], Awaitable[Verdict]]


def patch_check(requirement: str) -> Callable[[PatchJudge], CheckFunction]:
    """Register a check that judges the patches seen; with none, the usual not-applicable or
    error."""

    def register(judge: PatchJudge) -> CheckFunction:
        async def with_patches(target: Target) -> Verdict:
            found, patches = await _patches(target)
            return await judge(target, found, patches)

        with_patches.__name__ = with_patches.__qualname__ = judge.__name__
        return check(requirement)(with_patches)

    return register


def _violations(patches: list[Patch], judged: str | Callable[[Violation], bool]) -> list[str]:
    """What the patches break of a rule of the patch schema (`judged`: its requirement, or which
    violations count), each with where the patch was seen."""
    counts = (lambda v: v.requirement == judged) if isinstance(judged, str) else judged
    return [
        f"{where}: {v.path}: {v.message}"
        for where, patch, _ in patches
        for v in validate_message("sdsi/schema-patch", patch)
        if counts(v)
    ]


def _verdict(problems: list[str], patches: list[Patch], success: str) -> Verdict:
    evidence = tuple({id(e): e for _, _, e in patches if e is not None}.values())[:3]
    return (
        failed("; ".join(problems[:5]), *evidence)
        if problems
        else passed(f"{success} ({len(patches)} patches)", *evidence)
    )


async def _patch_rule(target: Target, requirement: str) -> Verdict:
    _, patches = await _patches(target, watched=True)
    problems = _violations(patches, requirement)
    return _verdict(problems, patches, "every patch keeps this rule")


checks_of_table(PATCH_RULES, _patch_rule)


def _keys(patch: dict[str, Any], field: str) -> list[dict[str, Any]]:
    keys = patch.get(field)
    return [k for k in keys if isinstance(k, dict)] if isinstance(keys, list) else []


_POLLED = re.compile(r"get_schema_updates\((.+)\)")


def _base(found: Session, patch: dict[str, Any], where: str = "") -> dict[str, dict[str, Any]]:
    """The keys of the template the patch extends, by name: the one its parent_schema_id names,
    or, without one, the schema it was polled for (`where`)."""
    parent = patch.get("parent_schema_id")
    if not isinstance(parent, str) and (polled := _POLLED.fullmatch(where)):
        parent = polled[1]
    template = next((t for t in found.valid_templates().values() if t["schema_id"] == parent), {})
    return {
        k["key_name"]: k
        for k in template.get("keys", [])
        if isinstance(k, dict) and isinstance(k.get("key_name"), str)
    }


@patch_check("SDSI-6.2.2-PATCH-PARENT-SCHEMA-ID")
async def sdsi_6_2_2_patch_parent_schema_id(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    """6.2.2: "The patch MUST carry ... a parent_schema_id": the member (an older base it names
    is no breach: the sentence asks the member, not that its base is still served)."""
    problems = _violations(patches, "SDSI-6.2.2-PATCH-PARENT-SCHEMA-ID")
    return _verdict(problems, patches, "every patch carries its parent_schema_id")


@patch_check("SDSI-6.2.3-DEPRECATED-GRACE-FLAG")
async def sdsi_6_2_3_deprecated_keys_keep_their_flag_through_the_grace(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    """6.2.3: "Deprecated keys remain in the schema for a grace period (default 14 days) with a
    "deprecated: true" flag": the flag, where given, is the boolean true's kind; and on the
    lifecycle drive, the unused key is still served, flagged deprecated, half-way through its
    grace period."""
    problems = _violations(patches, "SDSI-6.2.3-DEPRECATED-GRACE-FLAG")
    if problems:
        return _verdict(problems, patches, "")
    return await grace_kept(target) or _verdict([], patches, "every deprecated flag is a boolean")


@patch_check("SDSI-6.2.2-NO-KEY-COLLISION")
async def sdsi_6_2_2_no_key_collision(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    """SDSI 6.2.2: "the server agent MUST check that the candidate key_name does not collide with
    existing keys in the base schema or active patches": a served new key named like a base key, or
    added by two active patches, shows the check was not made or not heeded. (A name twice within
    one patch is SDSI-6.2.2-NO-DUPLICATE-KEY's: the patch is not an existing one.)"""
    problems: list[str] = []
    owners: dict[tuple[Any, str], set[Any]] = {}
    for where, patch, _ in patches:
        base = _base(found, patch, where)
        for key in _keys(patch, "new_keys"):
            name = key.get("key_name")
            if isinstance(name, str) and name in base and name != "other":
                problems.append(f"{where}: new key {name!r} collides with a base key")
            owners.setdefault((patch.get("parent_schema_id"), str(name)), set()).add(
                patch.get("patch_id")
            )
    problems += [
        f"new key {name!r} is added by several active patches {sorted(map(str, ids))}"
        for (_, name), ids in owners.items()
        if len(ids) > 1
    ]
    return _verdict(problems, patches, "no new key collides with a base key or another patch's")


#: The members a patch may name keys to take away in: removed_keys, remove_keys, delete,
#: withdrawn_keys, drop_keys, retired ... (the draft names none: E-SDSI-6.2.2-REMOVAL).
_REMOVING = re.compile(r"remov|delet|withdr|drop|retir", re.IGNORECASE)


@patch_check("SDSI-6.2.2-BASE-KEY-NOT-REMOVED")
async def sdsi_6_2_2_base_key_not_removed(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    problems = []
    for where, patch, _ in patches:
        base = _base(found, patch, where)
        removing = [f for f in patch if isinstance(f, str) and _REMOVING.search(f)]
        for field in removing:
            named = (
                [
                    k if isinstance(k, str) else k.get("key_name")
                    for k in patch.get(field, [])
                    if isinstance(k, str | dict)
                ]
                if isinstance(patch.get(field), list)
                else []
            )
            problems += [f"{where}: {field} removes the base key {n!r}" for n in named if n in base]
        problems += [
            f"{where}: modified_keys retires the base key {k['key_name']!r}"
            for k in _keys(patch, "modified_keys")
            if k.get("key_name") in base
            and (k.get("withdrawn") is True or k.get("removed") is True)
        ]
    return _verdict(problems, patches, "no patch removes or retires a base key")


@patch_check("SDSI-6.2.2-BASE-KEY-TYPE-UNCHANGED")
async def sdsi_6_2_2_base_key_type_unchanged(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    problems = [
        f"{where}: base key {k['key_name']!r} retyped from {base[k['key_name']].get('key_type')!r}"
        f" to {k.get('key_type')!r} in {field}"
        for where, patch, _ in patches
        for base in [_base(found, patch, where)]
        for field in ("modified_keys", "new_keys")
        for k in _keys(patch, field)
        if k.get("key_name") in base
        and "key_type" in k
        and k["key_type"] != base[k["key_name"]].get("key_type")
    ]
    return _verdict(problems, patches, "no patch changes the type of a base key")


@patch_check("SDSI-6.2.2-PATCH-ADDITIVE-ONLY")
async def sdsi_6_2_2_patch_additive_only(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    """6.2.2: patches are additive: a modified key, of the base or of another active patch, only
    has its description refined (its lifecycle flags aside, for a patch key)."""
    problems = []
    for where, patch, _ in patches:
        base = _base(found, patch, where)
        added = {
            k["key_name"]: k
            for _, other, _ in patches
            if other is not patch and other.get("parent_schema_id") == patch.get("parent_schema_id")
            for k in _keys(other, "new_keys")
            if isinstance(k.get("key_name"), str)
        }
        for key in _keys(patch, "modified_keys"):
            original = base.get(key.get("key_name")) or added.get(key.get("key_name"))  # type: ignore[arg-type]
            if original is None:
                continue
            changed = sorted(
                f
                for f in set(key) | set(original) - {"key_name"}
                if f not in _LIFECYCLE | {"key_type", "key_name"}
                and key.get(f) != original.get(f)
                and f in key
            )
            if changed:
                problems.append(
                    f"{where}: modified key {key['key_name']!r} changes {', '.join(changed)} (only"
                    " the description may be refined)"
                )
            # a base key is the stable contract (4.1); the lifecycle is for patch keys
            if key.get("deprecated") is True and key.get("key_name") in base:
                problems.append(f"{where}: modified key {key['key_name']!r} deprecates a base key")
    return _verdict(problems, patches, "patches only add keys or refine descriptions")


def _declared_caps(found: Session) -> dict[Any, int]:
    """The convergence cap the server declares per schema_id (x-sdsi-test-mode dsp.<scenario>),
    where it does."""
    agent = getattr(found.binding, "agent", None)
    declared = agent.get(DRIVES_MEMBER) if isinstance(agent, dict) else None
    configs = declared.get("dsp") if isinstance(declared, dict) else None
    caps = {}
    for scenario, template in found.valid_templates().items():
        config = configs.get(scenario) if isinstance(configs, dict) else None
        cap = config.get("max_experimental_keys") if isinstance(config, dict) else None
        if isinstance(cap, int) and not isinstance(cap, bool):
            caps[template["schema_id"]] = cap
    return caps


@patch_check("SDSI-6.2.3-CONVERGENCE-CAP")
async def sdsi_6_2_3_convergence_cap(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    """SDSI 6.2.3: "a maximum limit on the number of active experimental keys per scenario (e.g., no
    more than 10)": the limit is the server's, so it is judged against the one the server
    declares, or the one the user gives with --max-experimental-keys; the draft's 10 is an
    example."""
    declared = _declared_caps(found)
    given = target.options.max_experimental_keys
    active = {
        (patch.get("parent_schema_id"), key.get("key_name"))
        for _, patch, _ in patches
        for key in _keys(patch, "new_keys")
        if key.get("experimental") is True
    }
    per_schema = Counter(parent for parent, _ in active)
    caps = {parent: declared.get(parent, given) for parent in per_schema}
    if all(cap is None for cap in caps.values()):
        return skipped(
            Skip.NEEDS_INPUT,
            "the server declares no cap and none was given (--max-experimental-keys): the draft's"
            " 10 is an example, not the limit",
            *[e for _, _, e in patches[:1] if e],
        )
    problems = [
        f"{count} active experimental keys for {parent!r}, over the cap of {cap}"
        for parent, count in per_schema.items()
        if (cap := caps[parent]) is not None and count > cap
    ]
    return _verdict(problems, patches, "active experimental keys within the cap per scenario")


@patch_check("SDSI-6.2.2-PATCH-KEY-DEFINITIONS")
async def sdsi_6_2_2_patch_keys_are_key_definitions(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    """The suite's reading of 6.2.2 (inferred, E-SDSI-6.2.2-PATCH-FORMAT): each new key of a patch
    is a key definition as 4.1 gives a template's (5.2's own example update has a key_type
    "float", which fails it)."""
    problems = _violations(
        patches, lambda v: v.requirement in KEY_RULES and v.path.startswith("/new_keys")
    )
    if not any(_keys(patch, "new_keys") for _, patch, _ in patches) and not problems:
        return skipped(
            Skip.NOT_OBSERVED, "no patch seen adds a new key (only refinements): nothing to judge"
        )
    return _verdict(problems, patches, "every new key is a key definition")


@patch_check("SDSI-7-UPDATES-AUTHENTICATED")
async def sdsi_7_updates_authenticated(
    target: Target, found: Session, patches: list[Patch]
) -> Verdict:
    """SDSI 7: the update mechanism "MUST require authentication and authorization if it ...
    modifies security-relevant keys": what an unauthenticated poll serves touches no payment,
    identity or access-control key. A run without --header credentials is unauthenticated
    throughout; a run with them polls once more without them, and only that answer is judged."""
    if target.options.headers:
        patches = [
            (f"get_schema_updates({s}) without credentials", p, r.exchange)
            for s, r in found.polled_anonymously.items()
            if r.ok and isinstance(r.body, dict) and isinstance(r.body.get("patches"), list)
            for p in r.body["patches"]
            if isinstance(p, dict)
        ]
        if not patches:
            return skipped(
                Skip.NOT_OBSERVED,
                "polled without the run's credentials, the server served no patch",
                *[r.exchange for r in found.polled_anonymously.values() if r.exchange][:1],
            )
    problems = [
        f"{where}: the key {k['key_name']!r} touches payment, identity or access control, and was"
        " served to an unauthenticated client"
        for where, patch, _ in patches
        for field in ("new_keys", "modified_keys")
        for k in _keys(patch, field)
        if isinstance(k.get("key_name"), str) and security_relevant(k["key_name"])
    ]
    return _verdict(
        problems,
        patches,
        "no patch served to an unauthenticated client touches a security-relevant key",
    )


@check("SDSI-7-NEGOTIATION-INTEGRITY")
async def sdsi_7_negotiation_integrity(target: Target) -> Verdict:
    """SDSI 7: "Schema negotiation and update messages MUST be integrity-protected": over HTTPS,
    TLS protects them in transit; over plain HTTP only a signature can. There, the template and
    update answers carry signatures that verify (the suite's convention,
    SDSI-7-SIGNATURES-VERIFY); HTTP Message Signatures (RFC 9421), which the suite does not
    verify, make it a skip. Plain HTTP on loopback is waived with --allow-http-loopback."""
    endpoint, evidence, found = await payload_endpoint(target)
    if endpoint.startswith("https://"):
        on_the_wire(target)  # in-process, no TLS is seen
        return passed(f"the messages travel over HTTPS ({endpoint}): TLS protects them", *evidence)
    if target.waives_plain_http(endpoint):
        return waived(
            f"plain HTTP on loopback ({endpoint}), waived by --allow-http-loopback", *evidence
        )
    if found is None:
        agents = sdsi_agents(target.document)
        if any(isinstance(a.get("jwks_uri"), str) for a in agents):
            return skipped(
                Skip.NOT_OBSERVED,
                f"the messages would travel over plain HTTP ({endpoint}), where the suite sends"
                " none: whether the agent signs them (it publishes a jwks_uri) was not seen",
            )
        return failed(
            f"the messages travel over plain HTTP ({endpoint}) and the agent publishes no key to"
            " verify a signature with: nothing protects them from a man in the middle",
            *evidence,
        )
    answers = [r for r in (*found.templates.values(), *found.polled.values()) if r.exchange]
    if any(
        {"signature", "signature-input"} <= {h.lower() for h in r.exchange.response_headers}
        for r in answers
        if r.exchange
    ):
        return skipped(
            Skip.INCONCLUSIVE,
            f"over plain HTTP ({endpoint}) the answers carry HTTP Message Signatures (RFC 9421),"
            " which the suite does not verify",
            *evidence,
        )
    signed = await _signatures(target, found)
    if signed.status is Status.PASS:
        return passed(f"over plain HTTP ({endpoint}): {signed.message}", *signed.evidence)
    return failed(
        f"the messages travel over plain HTTP ({endpoint}) with no signature that verifies:"
        f" {signed.message}",
        *(signed.evidence or evidence),
    )


@check("SDSI-7-SIGNATURES-VERIFY")
async def sdsi_7_signatures_verify(target: Target) -> Verdict:
    """The suite's convention for SDSI 7's integrity (E-SDSI-7-SIGNED-MESSAGES, inferred):
    templates and update answers that carry a JWS-Signature verify against the keys the agent
    publishes (a detached JWS, RFC 7515 Appendix F, or an unencoded payload, RFC 7797)."""
    found = await server_session(target)
    return await _signatures(target, found)


async def _signatures(target: Target, found: Session) -> Verdict:
    """Whether the signed answers of `found` verify: failed when one does not, skipped when
    there is none to verify."""
    from joserfc import jws
    from joserfc.errors import JoseError
    from joserfc.jwk import KeySet

    from ...bindings import ExchangeFailed
    from ...bindings import Unreachable
    from ...bindings.jsonparse import NotJson
    from ...bindings.jsonparse import parse_json
    from ...bindings.sdsi import WoaRestSdsi

    binding = found.binding
    jwks_uri = binding.agent.get("jwks_uri") if isinstance(binding, WoaRestSdsi) else None
    if not isinstance(jwks_uri, str):
        return skipped(
            Skip.UNDECLARED,
            "rests on the suite's convention of signed messages (keys at the agent's jwks_uri, a"
            " detached JWS in JWS-Signature; E-SDSI-7-SIGNED-MESSAGES), which this server does not"
            " follow: integrity beyond TLS (SDSI-7-HTTPS) was not tested",
        )
    if not target.may_call(jwks_uri):
        return skipped(
            Skip.NEEDS_INPUT,
            f"the jwks_uri {jwks_uri} is not on the target's origin; allow it with --allow-origin",
        )
    try:
        response = await target.client.request(
            "GET", jwks_uri, headers={"accept": "application/jwk-set+json, application/json"}
        )
    except (ExchangeFailed, Unreachable) as error:
        return errored(f"the signing keys at {jwks_uri} could not be read: {error}")
    if response.status != 200:
        return errored(
            f"the signing keys at {jwks_uri} could not be read: it answered {response.status}",
            response.exchange,
        )
    try:
        keys = KeySet.import_key_set(parse_json(response.body))
    except (NotJson, JoseError, ValueError, TypeError, KeyError) as error:
        # the agent's own keys, served: no signature of its can verify against them
        return failed(
            f"the signing keys at {jwks_uri} are not a usable JWK set: {error}", response.exchange
        )
    signed = (
        [(f"the template of {s}", r) for s, r in found.templates.items()]
        + [(f"get_schema_updates({s})", r) for s, r in found.polled.items()]
        + [
            (e.label(), e.reply)
            for e in found.exchanges
            if e.reply.ok
            and isinstance(e.reply.body, dict)
            and "schema_update_suggestion" in e.reply.body
        ]
    )
    problems, unsigned = [], []
    for what, reply in signed:
        if reply.signature is None:
            # integrity may come from elsewhere (TLS): only a signature that is there must verify
            unsigned.append(what)
            continue
        try:
            jws.deserialize_compact(reply.signature, keys, payload=reply.raw)
        except (JoseError, ValueError) as error:
            problems.append(f"{what}: the signature does not verify ({type(error).__name__})")
    evidence = tuple(r.exchange for _, r in signed if r.exchange)[:3]
    if problems:
        return failed("; ".join(problems[:5]), *evidence)
    if len(unsigned) == len(signed):
        return skipped(
            Skip.NOT_OBSERVED,
            "no answer carried a JWS-Signature header, though the agent publishes keys at"
            f" {jwks_uri}: nothing to verify",
            *evidence,
        )
    note = f" ({len(unsigned)} unsigned: {', '.join(unsigned[:3])})" if unsigned else ""
    return passed(
        f"{len(signed) - len(unsigned)} signed answers verify against the keys at {jwks_uri}{note}",
        *evidence,
    )


@check("SDSI-6.2.3-EXPERIMENTAL-FLAG")
async def sdsi_6_2_3_new_keys_are_flagged_experimental(target: Target) -> Verdict:
    """6.2.3: "The key MUST be advertised with an "experimental: true" flag in the patch": judged
    where the test clock shows a key is new, in the patch served right after the trigger (no trial
    has run, so no promotion can have removed the flag); a flag that is not a boolean fails in any
    patch seen. A key shown later without the flag, or with false, may have been promoted (its
    "experimental" flag removed, E-SDSI-6.2.3-FLAG-WHEN-NEW): that is not judged here."""
    try:
        _, patches = await _patches(target, watched=True)
    except Decided:
        patches = []
    mistyped = _violations(patches, "SDSI-6.2.3-EXPERIMENTAL-FLAG")
    if mistyped:
        return failed("; ".join(mistyped[:5]), *[e for _, _, e in patches if e][:3])
    return await flagged_when_new(target)
