"""`agent-conformance mutate`: machine-made mutants of the reference agents' answers, and how
many of them the checks catch."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from .. import __version__
from ..report.model import utc_now
from ..usecases.mutation import Outcome
from ..usecases.mutation import UncleanBaseline
from ..usecases.mutation import Varied
from ..usecases.mutation import equivalents
from ..usecases.mutation import judge
from ..usecases.mutation import plan
from ..usecases.mutation import plan_client_variants
from ..usecases.mutation import plan_variants
from ..usecases.mutation import plan_variations
from ..usecases.mutation import record
from ..usecases.mutation import sampled
from ..usecases.mutation import vary
from ..usecases.mutation import vary_agent
from ..usecases.mutation import vary_client
from ..usecases.mutation.cores import Cores
from ..usecases.mutation.cores import Work
from ._console import console
from ._console import fail_usage
from ._console import progress_bar
from ._lifecycle import interruptible
from .mock import reference_agents

__all__ = ["mutate"]


def _waits(work: Work[Outcome | Varied]) -> bool:
    """Whether a work spends seconds waiting: a client variant's command, a late answer's
    deadlines."""
    function, arguments = work
    return function is vary_client or (
        function is judge and arguments[0].operator == "delay-past-deadline"
    )


async def _mutate(
    suites: set[str], per_site: int, jobs: int, sample: int | None, seed: int
) -> tuple[list[Outcome], list[Varied], dict[str, int]]:
    """The outcome of each mutant and each variation, and how many of each were planned."""
    baselines, answers = await record()
    planned = [m for m in plan(answers, per_site) if m.draft in suites]
    planned_variations = [v for v in plan_variations(answers) if v.draft in suites]
    mutants = sampled(planned, sample, seed)
    variations = sampled(planned_variations, sample, seed)
    variants = plan_variants(suites)
    clients = plan_client_variants() if "woa" in suites else []
    reviewed = equivalents()
    # the client's variants through one long-lived client (a client certification runs its
    # command some 25 times: 9 s of CPU each when each run is a new interpreter)
    with contextlib.ExitStack() as stack:
        client_command = (
            stack.enter_context(reference_agents().client_daemon()) if clients else None
        )
        works: list[Work[Outcome | Varied]] = [
            *((judge, (m, baselines[m.config], reviewed)) for m in mutants),
            *((vary, (v, baselines[v.config])) for v in variations),
            *((vary_agent, (n, baselines)) for n in variants),
            *((vary_client, (n, client_command(variant=n))) for n in clients if client_command),
        ]
        # the longest first, so that no worker is left with one while the others idle: a
        # client's certification (its commands) and a late answer (a deadline passed at each
        # request)
        order = sorted(range(len(works)), key=lambda i: not _waits(works[i]))
        # the workers fork before the progress bar starts its thread
        with Cores(jobs) as cores, progress_bar("mutants and variations", len(works)) as advance:
            judged = await cores.judged([works[i] for i in order], advance)
    results: list[Outcome | Varied | None] = [None] * len(works)
    for index, result in zip(order, judged, strict=True):
        results[index] = result
    outcomes = [r for r in results if isinstance(r, Outcome)]
    varied = [r for r in results if isinstance(r, Varied)]
    return outcomes, varied, {"mutants": len(planned), "variations": len(planned_variations)}


#: Rules no named fault breaks alone and no mutant reaches, with the test that fails each: what
#: breaks WOA-8.1-NO-PLAIN-HTTP (plain HTTP on the open Internet) breaks two wider MUSTs too, and
#: the reference host is on loopback; SDSI-7-NEGOTIATION-INTEGRITY fails only off loopback too.
PROVEN_BY_TESTS = {
    "WOA-8.1-NO-PLAIN-HTTP": [
        "tests/checks/test_woa_waivers.py::test_plain_http_on_the_open_internet_fails_no_plain_http"
    ],
    "SDSI-7-NEGOTIATION-INTEGRITY": [
        "tests/checks/test_sdsi_integrity.py"
        "::test_plain_http_on_the_open_internet_with_nothing_to_verify_fails"
    ],
}


#: MUST rules no in-process variation reaches (they judge the connection, a transport the
#: reference lacks, or a store reached over TLS), with the tests that certify a conformant
#: variation of each.
VARIED_BY_TESTS = {
    "ACI-6-AGENTCONTEXT-CONFIDENTIALITY": [
        "tests/checks/test_second_reading.py"
        "::test_plain_http_inside_a_private_network_may_be_secured_out_of_sight"
    ],
    "ACI-6-STORAGE-ACCESS-AUTHENTICATED": [
        "tests/checks/test_second_reading.py::test_a_long_random_path_segment_may_be_the_credential"
    ],
    "SDSI-7-NEGOTIATION-INTEGRITY": [
        "tests/checks/test_sdsi_integrity.py"
        "::test_an_unencoded_detached_signature_with_keys_of_its_own_verifies"
    ],
    "WOA-4.3.3-PRIVATE-REVERSE-DNS": [
        "tests/vectors/test_vectors.py::test_every_case_gets_the_verdict_its_file_expects"
    ],
    "WOA-8.1-HOST-USES-HTTPS": [
        "tests/checks/test_second_reading.py"
        "::test_a_document_host_that_implements_no_rest_transport_is_not_bound_to_https"
    ],
}


def proof_record(kills: Counter[str]) -> dict[str, object]:
    """Per requirement, the named faults that fail it (mocks/faults/: the host's and the WoA
    client's), the mutants this run killed with it, and for a rule neither reaches, the tests
    that fail it."""
    refs = reference_agents()
    requirements: dict[str, dict[str, object]] = {
        requirement: {"faults": [], "mutants_killed": 0, "tests": tests}
        for requirement, tests in PROVEN_BY_TESTS.items()
    }
    for name, fault in (*refs.faults.items(), *refs.client_faults.items()):
        requirements.setdefault(fault.requirement, {"faults": [], "mutants_killed": 0})[
            "faults"
        ].append(name)  # type: ignore[attr-defined]
    for requirement, killed in kills.items():
        requirements.setdefault(requirement, {"faults": [], "mutants_killed": 0})[
            "mutants_killed"
        ] = killed
    return {"recorded": utc_now(), "tool_version": __version__, "requirements": requirements}


def _score(outcomes: list[Outcome]) -> tuple[int, int, int, int, float]:
    counted = [o for o in outcomes if o.verdict != "not-applied"]
    killed = sum(o.verdict == "killed" for o in counted)
    equivalent = sum(o.verdict == "equivalent" for o in counted)
    survived = sum(o.verdict == "survived" for o in counted)
    return len(counted), killed, equivalent, survived, killed / max(1, len(counted) - equivalent)


def mutate(
    suite: Annotated[
        list[str] | None,
        typer.Option(
            help="Drafts whose answers to mutate (repeatable): woa, sdsi, aci. Default: all."
        ),
    ] = None,
    report_dir: Annotated[
        Path, typer.Option(file_okay=False, help="Where to write mutation.json and survivors.json.")
    ] = Path("reports/mutation"),
    min_score: Annotated[
        float, typer.Option(min=0, max=1, help="Exit 1 when the score K/(N-E) is below this.")
    ] = 0.95,
    per_site: Annotated[
        int,
        typer.Option(
            min=1, max=1000, help="Most mutants per answer site (request method and path)."
        ),
    ] = 30,
    jobs: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            help=(
                "Worker processes, each judging eight mutants at a time, each in an in-process"
                " app of its own (the outcomes are one at a time's); 1: this process alone."
                " Default: the machine's cores."
            ),
        ),
    ] = os.cpu_count() or 1,
    proof: Annotated[
        Path | None,
        typer.Option(
            dir_okay=False,
            help=(
                "Also write the proof record every report cites: per requirement, the faults and"
                " mutants that fail it."
            ),
        ),
    ] = None,
    sample: Annotated[
        int | None,
        typer.Option(
            min=1,
            help=(
                "Judge this many mutants and this many variations of answers, drawn by --seed"
                " (every operator, variation and configuration among them), not all; the"
                " agents' and the client's variants are all tried. For a quick look: the score"
                " and the proof record come from the whole set."
            ),
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(help="Seed of --sample's draw: the same seed, the same sample.")
    ] = 0,
) -> None:
    """Run generic mutation operators over the reference agents' answers (drop, rename, retype,
    empty or null a member, add one, swap ids, change the status or media type, truncate or
    corrupt the JSON, shift a number, reorder an array, replay a stale answer, delay past the
    deadline) and certify each mutant in process. A mutant is killed when a requirement newly
    fails (or newly errors at MUST level), equivalent when the reviewed list says the draft
    permits it, survived otherwise.

    Then the conformant variations: the same answers changed in ways the text allows (members
    reordered, whitespace, escapes, a charset label, header case, extra headers, a chunked body,
    a slower answer), and the reference agents' conformant variants (mocks/variants.py: another
    encoder, a merged wish, a queue released in batches ...). Every one must pass: one that newly
    fails or errors a requirement is an over-assertion, named with the requirement, and exits
    1."""
    suites = set(suite or ["woa", "sdsi", "aci"])
    if suites - {"woa", "sdsi", "aci"}:
        fail_usage(f"unknown --suite {', '.join(sorted(suites - {'woa', 'sdsi', 'aci'}))}")
    if sample is not None and proof is not None:
        fail_usage("--proof records the whole set of mutants; it cannot come from a --sample")
    # the mutants make the reference agents log what they refuse
    logging.getLogger("mocks").setLevel(logging.CRITICAL)
    logging.getLogger("conformance").setLevel(logging.CRITICAL)
    try:
        outcomes, variations, planned = asyncio.run(
            interruptible(_mutate(suites, per_site, jobs, sample, seed))
        )
    except asyncio.CancelledError:
        fail_usage("interrupted before every mutant was judged; no report was written", 130)
    except UncleanBaseline as unclean:
        fail_usage(f"{unclean}: no mutant could be caught by it; no report was written")
    total, killed, equivalent, survived, score = _score(outcomes)
    if sample is not None:
        console.print(
            f"A sample (--sample {sample} --seed {seed}) of {planned['mutants']} mutants and"
            f" {planned['variations']} variations of answers planned"
        )
    console.print(
        f"{total} mutants, {killed} killed, {equivalent} equivalent, {survived} survived, score"
        f" {score:.3f}"
    )
    for draft in sorted(suites):
        mine = [o for o in outcomes if o.mutant.draft == draft]
        n, k, e, s, sc = _score(mine)
        console.print(
            f"  {draft}: {n} mutants, {k} killed, {e} equivalent, {s} survived, score {sc:.3f}"
        )
    over = [v for v in variations if v.verdict == "over"]
    tried = [v for v in variations if v.verdict != "not-applied"]
    of_clients = sum(v.name.startswith("client variant ") for v in tried)
    of_agents = sum(not v.site for v in tried) - of_clients
    console.print(
        f"{len(tried)} variations ({len(tried) - of_agents - of_clients} of answers, {of_agents}"
        f" of agents, {of_clients} of the client), "
        + (f"{len(over)} failed (over-assertions)" if over else "all passed")
    )
    for v in over:
        console.print(
            f"  over-assertion: {', '.join(v.requirements)} failed {v.name}", markup=False
        )
    operators = Counter((o.mutant.operator, o.verdict) for o in outcomes)
    by_requirement = Counter(r for o in outcomes for r in o.requirements)
    report_dir.mkdir(parents=True, exist_ok=True)
    records = [
        {
            "mutant": o.mutant.id,
            "operator": o.mutant.operator,
            "site": f"{o.mutant.site.method} {o.mutant.site.path}",
            "member": list(o.mutant.member),
            "verdict": o.verdict,
            "killed_by": o.requirements,
            "reason": o.reason,
        }
        for o in outcomes
    ]
    summary = {
        "sample": None if sample is None else {"size": sample, "seed": seed, "planned": planned},
        "mutants": total,
        "killed": killed,
        "equivalent": equivalent,
        "survived": survived,
        "score": round(score, 4),
        "by_operator": {f"{op} {verdict}": n for (op, verdict), n in sorted(operators.items())},
        "kills_by_requirement": dict(sorted(by_requirement.items())),
        "outcomes": records,
        "variations": {
            "tried": len(tried),
            "failed": len(over),
            "by_requirement": _by_requirement(tried),
            "varied_by_tests": VARIED_BY_TESTS,
            "outcomes": [
                {
                    "variation": v.name,
                    "site": v.site,
                    "verdict": v.verdict,
                    "failed": v.requirements,
                    "judged": v.judged,
                }
                for v in variations
            ],
        },
    }
    (report_dir / "mutation.json").write_text(
        json.dumps(summary, indent=2) + "\n", encoding="utf-8"
    )
    (report_dir / "survivors.json").write_text(
        json.dumps([r for r in records if r["verdict"] == "survived"], indent=2) + "\n",
        encoding="utf-8",
    )
    if proof is not None:
        proof.write_text(
            json.dumps(proof_record(by_requirement), indent=1, sort_keys=True) + "\n",
            encoding="utf-8",
        )
    for record_ in (r for r in records if r["verdict"] == "survived"):
        console.print(f"  survived: {record_['mutant']}", markup=False)
    console.print(f"Reports: {report_dir / 'mutation.json'}, {report_dir / 'survivors.json'}")
    raise typer.Exit(1 if score < min_score or over else 0)


def _by_requirement(variations: list[Varied]) -> dict[str, dict[str, object]]:
    """Per requirement, the variations judged on evidence from their site: how many, and those
    it failed."""
    table: dict[str, dict[str, object]] = {}
    for v in variations:
        for requirement in sorted({*v.judged, *v.requirements}):
            row = table.setdefault(requirement, {"variations": 0, "failed": []})
            row["variations"] = int(str(row["variations"])) + 1
            if requirement in v.requirements:
                row["failed"].append(v.name)  # type: ignore[attr-defined]
    return dict(sorted(table.items()))
