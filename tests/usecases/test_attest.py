"""keygen, attest and verify round-trip; the bundle is an in-toto Statement in a DSSE envelope
that a standard library checks as well as the suite does; each kind of tampering fails
verification with one line and exit 1; a recording of any kind (a run, a client's, a proxy's)
re-judges the way it was made."""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from cryptography.hazmat.primitives import serialization
from securesystemslib.dsse import Envelope
from securesystemslib.signer import SSlibKey
from typer.testing import CliRunner
from typer.testing import Result

from conformance.cli import app
from tests.command import REPORT_FILES

runner = CliRunner()


def statement(bundle: Path) -> dict[str, Any]:
    envelope = json.loads(bundle.read_text())
    decoded: dict[str, Any] = json.loads(base64.b64decode(envelope["payload"]))
    return decoded


def subjects(bundle: Path) -> dict[str, str]:
    return {s["name"]: s["digest"]["sha256"] for s in statement(bundle)["subject"]}


@pytest.fixture(scope="module")
def attested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    folder = tmp_path_factory.mktemp("attested")
    reports, key = folder / "reports", folder / "vendor-key"
    assert (
        runner.invoke(
            app, ["run", "--mock", "--suite", "woa", "--quiet", "--report-dir", str(reports)]
        ).exit_code
        == 0
    )
    assert runner.invoke(app, ["keygen", "--out", str(key)]).exit_code == 0
    assert oct(key.stat().st_mode & 0o777) == "0o600"
    result = runner.invoke(app, ["attest", str(reports), "--key", str(key)])
    assert result.exit_code == 0, result.output
    return reports, key, folder / "vendor-key.pub"


def copy(reports: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy"
    target.mkdir()
    for path in reports.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    return target


def verify(bundle: Path, public: Path) -> tuple[int, str]:
    result = runner.invoke(app, ["verify", str(bundle), "--key", str(public)])
    return result.exit_code, result.output


def attested_recording(tmp_path: Path, *run: str) -> tuple[Path, Path, Path]:
    """A mock run recorded with the given options, its reports attested with a new key:
    (reports, recording, key)."""
    reports, recording, key = tmp_path / "reports", tmp_path / "recording", tmp_path / "key"
    done = runner.invoke(
        app,
        [
            "run",
            "--mock",
            "--quiet",
            *run,
            "--record",
            str(recording),
            "--report-dir",
            str(reports),
        ],
    )
    assert done.exit_code in (0, 1), done.output
    runner.invoke(app, ["keygen", "--out", str(key)])
    done = runner.invoke(
        app, ["attest", str(reports), "--key", str(key), "--recording", str(recording)]
    )
    assert done.exit_code == 0, done.output
    return reports, recording, key


def verify_recording(reports: Path, recording: Path, key: Path) -> Result:
    return runner.invoke(
        app,
        [
            "verify",
            str(reports / "attestation.json"),
            "--key",
            f"{key}.pub",
            "--recording",
            str(recording),
        ],
    )


def test_an_attestation_verifies_and_states_what_it_covers(
    attested: tuple[Path, Path, Path],
) -> None:
    reports, _, public = attested
    code, output = verify(reports / "attestation.json", public)
    assert (
        code == 0
        and output.startswith("Verified: https://127.0.0.1:")
        and "SHOULD-compliant" in output
    )
    said = statement(reports / "attestation.json")
    assert said["_type"] == "https://in-toto.io/Statement/v1"
    assert set(subjects(reports / "attestation.json")) >= REPORT_FILES - {
        "badge-sdsi.svg",
        "badge-aci.svg",
    }
    predicate = said["predicate"]
    assert (
        predicate["drafts"] == {"woa": "draft-gaikwad-woa-00"}
        and len(predicate["catalogue_sha256"]) == 64
    )
    assert len(predicate["document_sha256"]) == 64


def test_a_standard_dsse_verifier_checks_the_bundle_without_the_suite(
    attested: tuple[Path, Path, Path],
) -> None:
    """What a sceptic runs: securesystemslib's DSSE verification with the public key, the payload
    read as RFC 8785 canonical JSON, and each subject hashed with hashlib."""
    reports, _, public = attested
    envelope = Envelope.from_dict(json.loads((reports / "attestation.json").read_text()))
    key = serialization.load_pem_public_key(public.read_bytes())
    assert envelope.payload_type == "application/vnd.in-toto+json"
    assert len(envelope.verify([SSlibKey.from_crypto(key)], 1)) == 1
    payload = json.loads(envelope.payload)
    assert rfc8785.dumps(payload) == envelope.payload  # the payload is its own canonical form
    for subject in payload["subject"]:
        digest = hashlib.sha256((reports / subject["name"]).read_bytes()).hexdigest()
        assert digest == subject["digest"]["sha256"], subject["name"]


def test_a_changed_report_file_is_caught(attested: tuple[Path, Path, Path], tmp_path: Path) -> None:
    reports, _, public = attested
    folder = copy(reports, tmp_path)
    (folder / "summary.md").write_text(
        (folder / "summary.md").read_text().replace("SHOULD-compliant", "fully compliant")
    )
    assert verify(folder / "attestation.json", public) == (
        1,
        (
            "agent-conformance: attestation does not verify: summary.md was "
            "changed after it was attested (its SHA-256 differs)\n"
        ),
    )


def test_a_removed_evidence_file_is_caught(
    attested: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    reports, _, public = attested
    folder = copy(reports, tmp_path)
    (folder / "events.jsonl").unlink()
    assert verify(folder / "attestation.json", public)[1].endswith(
        "events.jsonl is attested but missing from " + str(folder) + "\n"
    )


def test_a_changed_statement_or_signature_or_key_is_caught(
    attested: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    reports, _, public = attested
    folder = copy(reports, tmp_path)
    bundle = json.loads((folder / "attestation.json").read_text())
    said = statement(folder / "attestation.json")
    said["predicate"]["level"] = "SHOULD-compliant everywhere"
    bundle["payload"] = base64.b64encode(rfc8785.dumps(said)).decode()
    (folder / "attestation.json").write_text(json.dumps(bundle))
    code, output = verify(folder / "attestation.json", public)
    assert code == 1 and "the signature does not verify" in output

    bundle = json.loads((reports / "attestation.json").read_text())
    signature = bytearray(base64.b64decode(bundle["signatures"][0]["sig"]))
    signature[0] ^= 1
    bundle["signatures"][0]["sig"] = base64.b64encode(bytes(signature)).decode()
    (folder / "attestation.json").write_text(json.dumps(bundle))
    assert verify(folder / "attestation.json", public)[0] == 1

    other = tmp_path / "other-key"
    runner.invoke(app, ["keygen", "--out", str(other)])
    assert verify(reports / "attestation.json", tmp_path / "other-key.pub")[0] == 1


def test_keygen_never_overwrites_a_key(attested: tuple[Path, Path, Path]) -> None:
    _, key, _ = attested
    assert runner.invoke(app, ["keygen", "--out", str(key)]).exit_code == 2


def test_an_attested_recording_is_checked_and_re_judged(tmp_path: Path) -> None:
    reports, recording, key = attested_recording(tmp_path, "--suite", "woa")
    verified = verify_recording(reports, recording, key)
    assert verified.exit_code == 0, verified.output

    report = json.loads((reports / "report.json").read_text())
    exchanges = (recording / "exchanges.jsonl").read_text().splitlines()
    # the document's answer: a body rewritten on disk is caught by its hash
    first = json.loads(exchanges[0])
    (recording / "bodies" / first["response_body"]).write_bytes(
        b'{"woa_version": "2", "agents": [], "transports": {}}'
    )
    tampered = verify_recording(reports, recording, key)
    assert (
        tampered.exit_code == 1
        and f"the recorded body {first['response_body']} is not the attested one" in tampered.output
    )
    assert report["results"]


@pytest.fixture(scope="module")
def failing_recording(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A failing run's reports and recording, kept pristine: each test doctors a copy."""
    folder = tmp_path_factory.mktemp("failing")
    reports, recording = folder / "reports", folder / "recording"
    runner.invoke(
        app,
        [
            *("run", "--mock", "--suite", "woa", "--quiet", "--fault", "woa-4-version-1"),
            *("--record", str(recording), "--report-dir", str(reports)),
        ],
    )
    return reports, recording


def _failing(report: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in report["results"] if r["requirement"] == "WOA-4-VERSION-1")


#: Each edit a doctor makes to a failing run's report.json, and the field verify must name.
DOCTORED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a result's status": (
        lambda r: _failing(r).update(status="pass"),
        "report.json.results[WOA-4-VERSION-1].status",
    ),
    "a result's message": (
        lambda r: _failing(r).update(message="all fine"),
        "report.json.results[WOA-4-VERSION-1].message",
    ),
    "a result's evidence": (
        lambda r: _failing(r).update(evidence=[]),
        "report.json.results[WOA-4-VERSION-1].evidence",
    ),
    "the gate": (
        lambda r: r["summary"]["gate"].update(exit_code=0),
        "report.json.summary.gate.exit_code",
    ),
    "the headline": (
        lambda r: r["summary"].update(headline="SHOULD-compliant"),
        "report.json.summary.headline",
    ),
    "the levels": (
        lambda r: r["summary"]["levels"].update(woa="SHOULD-compliant"),
        "report.json.summary.levels.woa",
    ),
    "the counts": (
        lambda r: r["summary"]["by_status"].update(fail=0),
        "report.json.summary.by_status.fail",
    ),
    "the options": (
        lambda r: r["header"]["options"].update(strict=True),
        "report.json.header.options.strict",
    ),
}


@pytest.mark.parametrize("doctored", sorted(DOCTORED))
def test_a_doctored_report_signed_honestly_is_caught_by_its_recording(
    failing_recording: tuple[Path, Path], tmp_path: Path, doctored: str
) -> None:
    """The README's promise, field by field: a report doctored and then signed honestly fails
    verify --recording, which names the first field that differs."""
    import shutil

    reports, recording, key = tmp_path / "reports", tmp_path / "recording", tmp_path / "key"
    shutil.copytree(failing_recording[0], reports)
    shutil.copytree(failing_recording[1], recording)
    report = json.loads((reports / "report.json").read_text())
    edit, field = DOCTORED[doctored]
    edit(report)
    (reports / "report.json").write_text(json.dumps(report))
    runner.invoke(app, ["keygen", "--out", str(key)])
    runner.invoke(app, ["attest", str(reports), "--key", str(key), "--recording", str(recording)])
    result = verify_recording(reports, recording, key)
    assert result.exit_code == 1, result.output
    assert f"the recording re-judges to another report: {field}" in result.output, result.output


def test_verify_without_the_recording_says_what_it_left_unchecked(tmp_path: Path) -> None:
    reports, recording, key = attested_recording(tmp_path, "--suite", "woa")
    bundle = str(reports / "attestation.json")
    result = runner.invoke(app, ["verify", bundle, "--key", f"{key}.pub"])
    assert result.exit_code == 0, result.output
    attested = sum(1 for p in recording.rglob("*") if p.is_file())
    assert f"{attested} recording files attested but NOT checked" in result.output
    required = runner.invoke(app, ["verify", bundle, "--key", f"{key}.pub", "--require-recording"])
    assert required.exit_code == 1 and "no --recording was given" in required.output
    checked = verify_recording(reports, recording, key)
    assert f"and {attested} recording files, re-judged to the same report" in checked.output


def test_every_file_of_a_recording_is_attested(tmp_path: Path) -> None:
    reports, recording, key = attested_recording(tmp_path, "--suite", "aci")
    recorded = {
        n.removeprefix("recording/")
        for n in subjects(reports / "attestation.json")
        if n.startswith("recording/") and not n.startswith("recording/bodies/")
    }
    assert recorded == {
        "meta.json",
        "exchanges.jsonl",
        "inbound.jsonl",
        "values.jsonl",
        "results.jsonl",
    }
    # what a spy received, added after the fact
    with (recording / "inbound.jsonl").open("a") as log:
        log.write(
            json.dumps({"server": "aci-spies", "method": "GET", "path": "/", "at": 0.0}) + "\n"
        )
    tampered = verify_recording(reports, recording, key)
    assert (
        tampered.exit_code == 1
        and "the recording's inbound.jsonl is not the attested one" in tampered.output
    )
