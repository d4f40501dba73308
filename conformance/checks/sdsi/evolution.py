"""Checks of SDSI 6.2 over time (the DSP, evolution and the key lifecycle), driven through a test
clock and judged against the reference oracle (drives.py). A target without a test clock gets a
skip that says so, never a pass.

A lifecycle check whose precondition another requirement governs (the key must first have been
experimental, then evaluated, then deprecated) is a skip naming that requirement when the
precondition does not hold, so that one defect fails one requirement.
"""

from __future__ import annotations

import re

from ...report.model import Exchange
from ...targeting import Target
from ..registry import Decided
from ..registry import Skip
from ..registry import Verdict
from ..registry import check
from ..registry import errored
from ..registry import failed
from ..registry import not_applicable
from ..registry import passed
from ..registry import skipped
from .common import server_session
from .drives import Checkpoint
from .drives import Drive
from .drives import content_words
from .drives import drives
from .drives import mapping_sources


async def _drive(target: Target, name: str) -> Drive:
    """The named drive of the server's DSP; `Decided` when it cannot be driven."""
    session = await server_session(target)
    if session.binding is not None and not session.binding.supports_updates:
        raise Decided(
            not_applicable(
                "the server offers no get_schema_updates, so it serves no patches to observe"
            )
        )
    found = await drives(target, session)
    if found.problem:
        raise Decided(skipped(Skip.NEEDS_TEST_HOOK, found.problem))
    drive = found.by_name.get(name)
    if drive is None:
        raise Decided(
            not_applicable('no scenario of the server declares a per-client DSP (cohort "client")')
        )
    if drive.problem:
        evidence = [r.exchange for *_, r in drive.sent[-1:] if r is not None and r.exchange]
        if drive.broken:
            raise Decided(errored(f"the {name} drive: {drive.problem}", *evidence))
        raise Decided(skipped(Skip.BEYOND_CAPS, f"the {name} drive: {drive.problem}", *evidence))
    return drive


def _evidence(*points: Checkpoint | None) -> list[Exchange]:
    return [
        p.reply.exchange
        for p in points
        if p is not None and p.reply is not None and p.reply.exchange
    ]


def _compare(drive: Drive, name: str, story: str) -> Verdict:
    point = drive.checkpoints[name]
    if point.states == point.expected:
        return passed(
            f"{story}: the server serves {point.states or 'no new key'}, as the oracle does",
            *_evidence(point),
        )
    return failed(
        f"{story}: the server serves new keys {point.states or 'none'} where the oracle, with the "
        f"configuration the server declares, serves {point.expected or 'none'}",
        *_evidence(point),
    )


async def _started(target: Target, name: str) -> Drive:
    """The drive, if its new key was served as experimental until the trial's end
    (SDSI-6.2.3-NEW-KEYS-START-EXPERIMENTAL); else the skip that says so."""
    drive = await _drive(target, name)
    after, ending = drive.checkpoints["after"], drive.checkpoints["trial-ending"]
    if after.states != ["experimental"] or ending.states != ["experimental"]:
        raise Decided(
            skipped(
                Skip.DEPENDS_ON,
                "the new key was not experimental through its trial (see"
                " SDSI-6.2.3-NEW-KEYS-START-EXPERIMENTAL)",
            )
        )
    return drive


async def _evaluated(target: Target, name: str) -> Drive:
    """The drive, if its key also left the experimental state when the trial ended
    (SDSI-6.2.3-LONG-TERM-EVALUATION); else the skip that says so."""
    drive = await _started(target, name)
    if "experimental" in drive.checkpoints["trial-ended"].states:
        raise Decided(
            skipped(
                Skip.DEPENDS_ON,
                "the key was not evaluated when its trial ended (see"
                " SDSI-6.2.3-LONG-TERM-EVALUATION)",
            )
        )
    return drive


async def _never_fires(target: Target) -> Verdict | None:
    """The skip of a check whose probe means something only from a server that fires at all: when a
    burst of one wish, written one way, brought no key (else not firing would pass vacuously). A
    burst that could not be driven decides it as it decides its own check (a server that offers no
    schema updates: not applicable)."""
    if not (await _drive(target, "lifecycle")).checkpoints["after"].states:
        return skipped(
            Skip.DEPENDS_ON,
            "a burst of one wish written one way did not fire (see SDSI-6.2.1-HEAT-INCREMENT)",
        )
    return None


@check("SDSI-6.2.1-TRIGGER-DUAL-GATE")
async def sdsi_6_2_1_trigger_needs_both_gates(target: Target) -> Verdict:
    """6.2.1: heat alone does not fire: one client's few requests, each carrying the wish many
    times."""
    drive = await _drive(target, "single-client")
    notes = drive.notes
    return _compare(
        drive,
        "end",
        f"one client sent {notes['requests']} requests of {notes['copies']} identical fragments",
    )


@check("SDSI-6.2.1-HEAT-DECAY")
async def sdsi_6_2_1_heat_decays(target: Target) -> Verdict:
    """6.2.1: heat decays, whatever the shape: a burst one request short of firing, then a wait of
    several declared half-lives, then that request: it fires only if the heat did not decay."""
    drive = await _drive(target, "decay")
    if drive.checkpoints["quiet"].states:
        return skipped(
            Skip.DEPENDS_ON,
            "the burst fired before the quiet began, short of the requests the declared increment"
            " needs (see SDSI-6.2.1-HEAT-INCREMENT)",
            *_evidence(drive.checkpoints["quiet"]),
        )
    notes = drive.notes
    return _compare(
        drive,
        "end",
        f"{notes['requests'] - 1} requests, {notes['wait_hours']} h of quiet, then one more",
    )


@check("SDSI-6.2.1-HEAT-DECAY-EXPONENTIAL")
async def sdsi_6_2_1_heat_decays_with_the_declared_half_life(target: Target) -> Verdict:
    """The suite's reading of 6.2.1 (inferred): heat decays exponentially with the half-life the
    server declares: a wish trickling in so slowly that such decay keeps the heat at 70% of the
    threshold never fires."""
    try:
        decays = not (await _drive(target, "decay")).checkpoints["end"].states
    except Decided:
        decays = True  # whether it decays at all is another check's to say
    if not decays:
        return skipped(
            Skip.DEPENDS_ON, "the heat does not decay at all (see SDSI-6.2.1-HEAT-DECAY)"
        )
    drive = await _drive(target, "trickle")
    return _compare(
        drive, "end", f"{drive.notes['count']} requests {drive.notes['gap_hours']} h apart"
    )


@check("SDSI-6.2.1-FRAGMENT-ENCODED")
async def sdsi_6_2_1_fragments_are_encoded(target: Target) -> Verdict:
    """6.2.1: "Each fragment extracted from the "other" key MUST be encoded into a semantic
    vector": one wish written in other cases and punctuation is one wish to any semantic
    encoding, so a burst of it fires where the same wish written one way does. A server that
    pools raw strings never fires."""
    if (unfired := await _never_fires(target)) is not None:
        return unfired
    drive = await _drive(target, "forms")
    after = drive.checkpoints["after"]
    if not after.states:
        return failed(
            f"{drive.notes['requests']} requests of one wish written five ways"
            f" ({', '.join(repr(f) for f in sorted(drive.fragments))}) brought no key, where the"
            " same wish written one way did: the fragments were not encoded as one meaning",
            *_evidence(after),
        )
    return passed(
        f"one wish written five ways fired after {drive.notes['requests']} requests, as written"
        " one way",
        *_evidence(after),
    )


@check("SDSI-6.2.1-SIMILARITY-CLUSTERING")
async def sdsi_6_2_1_fragments_cluster_by_similarity(target: Target) -> Verdict:
    """6.2.1: two unrelated wishes are two clusters, each below the threshold. Judged only where
    a burst of one wish fires (else never firing passes vacuously) and the declared similarity
    threshold leaves a wide margin over what any encoder gives two unrelated wishes (0.6 or
    more)."""
    if (unfired := await _never_fires(target)) is not None:
        return unfired
    drive = await _drive(target, "two-intents")
    threshold = drive.notes.get("similarity_threshold")
    if isinstance(threshold, int | float) and threshold < 0.6:
        return skipped(
            Skip.INCONCLUSIVE,
            f"the declared similarity threshold {threshold} is too low for two unrelated wishes to"
            " be told apart by any encoder",
        )
    return _compare(
        drive, "end", "two unrelated wishes, alternating, each below the threshold alone"
    )


@check("SDSI-6.2.1-HEAT-INCREMENT")
async def sdsi_6_2_1_heat_rises_by_the_increment(target: Target) -> Verdict:
    """6.2.1: the trigger fires on the very request at which the oracle's heat exceeds the
    threshold."""
    drive = await _drive(target, "lifecycle")
    before, after = drive.checkpoints["before"], drive.checkpoints["after"]
    if before.states:  # any key, in any state: the heat rose by more than the increment
        return failed(
            "a new key was served before the request at which the heat exceeds the threshold:"
            f" {before.states}",
            *_evidence(before),
        )
    if not after.states:
        return failed(
            "after the request at which the heat exceeds the threshold the server serves no"
            " new key",
            *_evidence(after),
        )
    return passed(
        f"the trigger fired on the request the oracle names (request {len(drive.sent)})",
        *_evidence(before, after),
    )


@check("SDSI-6.2.2-DESCRIPTION-FROM-REAL-FRAGMENTS")
async def sdsi_6_2_2_description_quotes_real_fragments(target: Target) -> Verdict:
    """6.2.2: the new key's semantic_description includes a mapping example from a fragment the
    suite sent."""
    drive = await _drive(target, "lifecycle")
    after = drive.checkpoints["after"]
    new = [s for s in after.served if not s.modified]
    if not new:
        return skipped(
            Skip.DEPENDS_ON,
            "no new key was served after the trigger (see SDSI-6.2.1-HEAT-INCREMENT)",
        )
    sent = {w for f in drive.fragments for w in content_words(f)}
    unfounded = [
        s
        for s in new
        if not any(content_words(source) & sent for source in mapping_sources(s.description))
    ]
    if not unfounded:
        return passed(
            f"the description of {new[0].name!r} has a mapping example drawn from the fragments"
            " sent",
            *_evidence(after),
        )
    return failed(
        f"the description of {unfounded[0].name!r} has no mapping example ('...' -> ...) whose"
        f" source shares a word with the fragments sent ({', '.join(sorted(drive.fragments))}):"
        f" {unfounded[0].description[:200]!r}",
        *_evidence(after),
    )


@check("SDSI-6.2.3-NEW-KEYS-START-EXPERIMENTAL")
async def sdsi_6_2_3_new_keys_start_experimental(target: Target) -> Verdict:
    """6.2.3: a new key stays experimental from the trigger until its trial ends (that it is
    advertised so at the trigger is SDSI-6.2.3-EXPERIMENTAL-FLAG's)."""
    drive = await _drive(target, "lifecycle")
    after, ending = drive.checkpoints["after"], drive.checkpoints["trial-ending"]
    # a server that refines a base key instead (6.2.2's collision rule) introduces no new key
    if not after.states or any(state != "experimental" for state in after.states):
        return skipped(
            Skip.DEPENDS_ON,
            "no new key was advertised experimental after the trigger (see"
            " SDSI-6.2.3-EXPERIMENTAL-FLAG and SDSI-6.2.1-HEAT-INCREMENT)",
        )
    if not ending.states or any(state != "experimental" for state in ending.states):
        return failed(
            f"a minute before its trial ends the new key is {ending.states}, not experimental",
            *_evidence(ending),
        )
    return passed(
        "the new key was experimental right after the trigger and a minute before its trial ended",
        *_evidence(after, ending),
    )


@check("SDSI-6.2.3-LONG-TERM-EVALUATION")
async def sdsi_6_2_3_keys_are_evaluated_after_the_trial(target: Target) -> Verdict:
    """6.2.3: "Upon completion of the trial period, the server agent evaluates the aggregated
    metrics": on the lifecycle drive, whose key none of the ten payloads of its trial carried
    (usage 0 of 10, under any deprecation threshold, where it had been 0 of 0, a ratio the draft
    leaves undecided), the key has left the experimental state by the end of its grace period at
    the latest; the draft does not say how soon after the trial the evaluation runs."""
    drive = await _started(target, "lifecycle")
    ended, later = drive.checkpoints["trial-ended"], drive.checkpoints["grace-ended"]
    if "experimental" in ended.states and "experimental" in later.states:
        return failed(
            "the trial ended and a grace period went by, and the unused key is still experimental:"
            " it was not evaluated",
            *_evidence(ended, later),
        )
    when = (
        "a minute after the trial ended"
        if "experimental" not in ended.states
        else "by the end of the grace period"
    )
    return passed(f"the key left the experimental state {when}", *_evidence(ended, later))


@check("SDSI-6.2.3-PROMOTION")
async def sdsi_6_2_3_used_keys_are_promoted(target: Target) -> Verdict:
    """6.2.3: a key carried by 30% of payloads, every value well typed, is promoted to stable. The
    alignment metric is the server's own judgement; the suite can predict it only where the server
    declares it judges alignment by type (alignment_judge "type"), else it skips."""
    drive = await _evaluated(target, "used")
    if drive.notes.get("alignment_judge") != "type":
        return skipped(
            Skip.UNDECLARED,
            "the server does not declare that it judges semantic alignment by type"
            " (alignment_judge), so whether its judgement promotes the key cannot be foretold",
        )
    return _compare(
        drive, "trial-ended", "3 in 10 payloads carried the key, well typed, through the trial"
    )


@check("SDSI-6.2.3-DEPRECATION")
async def sdsi_6_2_3_unused_keys_are_deprecated(target: Target) -> Verdict:
    """6.2.3: a key no payload carries (usage 0 < 5%) is deprecated when its trial ends: promoted
    instead is the failure; a key that vanished is SDSI-6.2.3-DEPRECATED-GRACE-FLAG's (its grace
    period is a flag)."""
    drive = await _evaluated(target, "lifecycle")
    ended = drive.checkpoints["trial-ended"]
    if "stable" in ended.states:
        return failed(
            "no payload carried the key during its trial, yet it was promoted to stable",
            *_evidence(ended),
        )
    if not ended.states:
        return skipped(
            Skip.DEPENDS_ON,
            "the unused key vanished when its trial ended, with no deprecated flag to see (see"
            " SDSI-6.2.3-DEPRECATED-GRACE-FLAG)",
            *_evidence(ended),
        )
    return passed(
        f"no payload carried the key during its trial, and it is served {ended.states}",
        *_evidence(ended),
    )


async def grace_kept(target: Target) -> Verdict | None:
    """The lifecycle drive's half of SDSI-6.2.3-DEPRECATED-GRACE-FLAG: a failure or a skip, None
    when the key was kept, flagged, through the middle of its grace period (or no drive could be
    made)."""
    try:
        drive = await _drive(target, "lifecycle")
    except Decided:
        return None  # no test clock: the flag's form alone was judged
    middle = drive.checkpoints["grace-middle"]
    if middle.expected != ["deprecated"] or middle.states in (["deprecated"], ["withdrawn"]):
        # kept through the grace period (a withdrawn marker beside the flag is WITHDRAWN-REMOVED's)
        return None
    ended = drive.checkpoints["trial-ended"].states
    if "experimental" in ended or "stable" in ended or "stable" in middle.states:
        return skipped(
            Skip.DEPENDS_ON,
            "the unused key was not deprecated when its trial ended (see SDSI-6.2.3-DEPRECATION)",
            *_evidence(middle),
        )
    return failed(
        "half-way through the grace period the deprecated key is served"
        f" {middle.states or 'not at all'}, not flagged deprecated: true",
        *_evidence(middle),
    )


@check("SDSI-6.2.3-WITHDRAWN-REMOVED")
async def sdsi_6_2_3_withdrawn_keys_leave_the_patches(target: Target) -> Verdict:
    """6.2.3: a deprecated key "MAY be moved to a withdrawn state"; "A withdrawn key is removed
    from active patches": a key the server itself marks withdrawn is not served in an active
    patch. One still served deprecated after the grace period was simply not withdrawn, which the
    MAY allows."""
    drive = await _drive(target, "lifecycle")
    grace = drive.checkpoints["grace-ended"]
    if "withdrawn" in grace.states:
        return failed(
            "a minute after the grace period a key marked withdrawn is still in an active patch",
            *_evidence(grace),
        )
    return passed(
        f"after the grace period the key is {grace.states or 'gone from the active patches'}",
        *_evidence(grace),
    )


@check("SDSI-6.2.3-WITHDRAWN-KEY-ACCEPTED")
async def sdsi_6_2_3_withdrawn_keys_are_still_accepted(target: Target) -> Verdict:
    """6.2.3: a payload carrying the withdrawn key within the backward-compatibility window is
    executed."""
    drive = await _drive(target, "lifecycle")
    grace = drive.checkpoints["grace-ended"]
    if drive.checkpoints["trial-ended"].states != ["deprecated"] or grace.states:
        return skipped(
            Skip.DEPENDS_ON,
            "the key was not withdrawn after its grace period (see SDSI-6.2.3-WITHDRAWN-REMOVED)",
        )
    reply = drive.sent[-1][3]
    if reply is None or not reply.ok:
        status = reply.status if reply else None
        return failed(
            "a payload carrying the withdrawn key inside the compatibility window was refused"
            f" ({status})",
            *[reply.exchange] if reply and reply.exchange else [],
        )
    return passed(
        "a payload carrying the withdrawn key inside the compatibility window was executed",
        *[reply.exchange] if reply.exchange else [],
    )


@check("SDSI-6.2.3-TRIGGERS-QUEUED")
async def sdsi_6_2_3_triggers_beyond_the_cap_wait(target: Target) -> Verdict:
    """6.2.3: with the cap reached, one more trigger waits, and is served once a key leaves the
    trial: right after, or by a day later (the draft does not say how soon; a server may release
    its queue at its next batch)."""
    drive = await _drive(target, "queue")
    saturated, drained = drive.checkpoints["saturated"], drive.checkpoints["drained"]
    cap = saturated.expected.count("experimental")
    if len(saturated.states) < cap:
        return skipped(
            Skip.DEPENDS_ON,
            f"{cap + 1} unrelated wishes fired, but only {len(saturated.states)} keys were induced"
            " before the cap (see SDSI-6.2.1-SIMILARITY-CLUSTERING)",
            *_evidence(saturated),
        )
    # the cap counts active experimental keys (6.2.3), not deprecated ones
    if saturated.states.count("experimental") > cap:
        return failed(
            f"{saturated.states.count('experimental')} experimental keys were served at once; the"
            f" cap is {cap}: the trigger beyond it was not queued",
            *_evidence(saturated),
        )
    if drained.states.count("experimental") == len(drained.states):
        return skipped(
            Skip.DEPENDS_ON,
            "no key left the experimental state, so no place was freed (see"
            " SDSI-6.2.3-LONG-TERM-EVALUATION)",
        )
    later = drive.checkpoints["drained-later"]
    if len(drained.states) < len(drained.expected) and len(later.states) < len(later.expected):
        return failed(
            f"after a key left its trial, {len(drained.states)} new keys are served where the"
            f" oracle serves {len(drained.expected)}, and a day later still fewer than it: the"
            " queued trigger was dropped",
            *_evidence(saturated, drained, later),
        )
    return passed(
        f"{cap + 1} wishes fired; the last waited until a key left its trial, then was served",
        *_evidence(saturated, drained),
    )


@check("SDSI-6.2.2-COLLISION-MERGED")
async def sdsi_6_2_2_colliding_candidates_are_merged(target: Target) -> Verdict:
    """6.2.2: a wish that names a base key refines that key's description, never adds a
    duplicate."""
    drive = await _drive(target, "collision")
    base, after = drive.notes["base_key"], drive.checkpoints["after"]
    if any(s.modified and s.name == base for s in after.served):
        return passed(
            f"the wish {base.replace('_', ' ')!r} refined {base!r} in modified_keys",
            *_evidence(after),
        )
    # the base key's own name, or that name numbered (cabin_class_2): a renamed duplicate; another
    # name is the skip below
    duplicates = [
        s.name
        for s in after.served
        if not s.modified and re.fullmatch(rf"{re.escape(base)}(_\d+)?", s.name)
    ]
    if duplicates:
        return failed(
            f"the wish {base.replace('_', ' ')!r} added {duplicates} beside the base key {base!r}"
            " instead of merging",
            *_evidence(after),
        )
    if any(not s.modified for s in after.served):
        return skipped(
            Skip.NOT_OBSERVED,
            f"the server's intent induction named the wish {[s.name for s in after.served]}, not"
            f" {base!r}: no collision to merge",
        )
    return failed(
        f"the wish {base.replace('_', ' ')!r} fired but no patch refines {base!r}",
        *_evidence(after),
    )


@check("SDSI-6.2.2-CLIENT-PATCH-ONLY-FOR-CLIENT")
async def sdsi_6_2_2_personal_patches_stay_personal(target: Target) -> Verdict:
    """6.2.2: a key induced from one client's own wishes is served to that client only."""
    drive = await _drive(target, "personal")
    owner, stranger = drive.checkpoints["after"], drive.checkpoints["stranger"]
    if not owner.served:
        return skipped(
            Skip.NOT_OBSERVED,
            "the server made no patch for the client whose wish recurred",
            *_evidence(owner),
        )
    if stranger.served:
        return failed(
            f"another client is served the personal key(s) {[s.name for s in stranger.served]}",
            *_evidence(stranger),
        )
    return passed(
        "the personal key is served to its client and not to another", *_evidence(owner, stranger)
    )


async def flagged_when_new(target: Target) -> Verdict:
    """The lifecycle drive's half of SDSI-6.2.3-EXPERIMENTAL-FLAG: the key served right after the
    trigger, new for certain, is advertised with "experimental": true."""
    drive = await _drive(target, "lifecycle")
    after = drive.checkpoints["after"]
    new = [k for k in after.served if not k.modified]  # a base key refined is no new key
    if not new:
        return skipped(
            Skip.DEPENDS_ON,
            "no new key was served after the trigger (see SDSI-6.2.1-HEAT-INCREMENT)",
        )
    unflagged = [k.name for k in new if k.state != "experimental"]
    if unflagged:
        return failed(
            f"right after the trigger the new key {unflagged[0]!r} was advertised without"
            ' "experimental": true',
            *_evidence(after),
        )
    return passed(
        'the new key was advertised with "experimental": true right after the trigger',
        *_evidence(after),
    )
