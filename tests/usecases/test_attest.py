"""keygen, attest and verify round-trip; each kind of tampering fails verification with one line
and exit 1."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conformance.cli import app

runner = CliRunner()


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
    statement = json.loads((reports / "attestation.json").read_text())["statement"]
    assert set(statement["files"]) >= {
        "report.json",
        "events.jsonl",
        "junit.xml",
        "summary.md",
        "report.html",
        "badge-woa.svg",
    }
    assert (
        statement["drafts"] == {"woa": "draft-gaikwad-woa-00"}
        and len(statement["catalogue_sha256"]) == 64
    )
    assert len(statement["document_sha256"]) == 64


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
    bundle["statement"]["level"] = "SHOULD-compliant everywhere"
    (folder / "attestation.json").write_text(json.dumps(bundle))
    code, output = verify(folder / "attestation.json", public)
    assert code == 1 and "the signature does not verify" in output

    bundle = json.loads((reports / "attestation.json").read_text())
    signature = bytearray(base64.b64decode(bundle["signature"]))
    signature[0] ^= 1
    bundle["signature"] = base64.b64encode(bytes(signature)).decode()
    (folder / "attestation.json").write_text(json.dumps(bundle))
    assert verify(folder / "attestation.json", public)[0] == 1

    other = tmp_path / "other-key"
    runner.invoke(app, ["keygen", "--out", str(other)])
    assert verify(reports / "attestation.json", tmp_path / "other-key.pub")[0] == 1


def test_keygen_never_overwrites_a_key(attested: tuple[Path, Path, Path]) -> None:
    _, key, _ = attested
    assert runner.invoke(app, ["keygen", "--out", str(key)]).exit_code == 2


def test_an_attested_recording_is_checked_and_re_judged(tmp_path: Path) -> None:
    reports, recording, key = tmp_path / "reports", tmp_path / "recording", tmp_path / "key"
    runner.invoke(
        app,
        [
            "run",
            "--mock",
            "--suite",
            "woa",
            "--quiet",
            "--record",
            str(recording),
            "--report-dir",
            str(reports),
        ],
    )
    runner.invoke(app, ["keygen", "--out", str(key)])
    assert (
        runner.invoke(
            app, ["attest", str(reports), "--key", str(key), "--recording", str(recording)]
        ).exit_code
        == 0
    )
    verified = runner.invoke(
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
    assert verified.exit_code == 0, verified.output

    report = json.loads((reports / "report.json").read_text())
    exchanges = (recording / "exchanges.jsonl").read_text().splitlines()
    first = json.loads(
        exchanges[0]
    )  # the document's answer: a body rewritten on disk is caught by its hash
    (recording / "bodies" / first["response_body"]).write_bytes(
        b'{"woa_version": "2", "agents": [], "transports": {}}'
    )
    tampered = runner.invoke(
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
    assert (
        tampered.exit_code == 1
        and f"the recorded body {first['response_body']} was changed" in tampered.output
    )
    assert report["results"]


def test_a_doctored_report_signed_honestly_is_caught_by_its_recording(tmp_path: Path) -> None:
    reports, recording, key = tmp_path / "reports", tmp_path / "recording", tmp_path / "key"
    runner.invoke(
        app,
        [
            "run",
            "--mock",
            "--suite",
            "woa",
            "--quiet",
            "--fault",
            "woa-4-version-1",
            "--record",
            str(recording),
            "--report-dir",
            str(reports),
        ],
    )
    report = json.loads((reports / "report.json").read_text())
    for result in report["results"]:
        if result["requirement"] == "WOA-4-VERSION-1":
            result["status"] = "pass"
    (reports / "report.json").write_text(json.dumps(report))
    runner.invoke(app, ["keygen", "--out", str(key)])
    runner.invoke(app, ["attest", str(reports), "--key", str(key), "--recording", str(recording)])
    result = runner.invoke(
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
    assert result.exit_code == 1
    assert (
        "the recording re-judges to other verdicts (1): WOA-4-VERSION-1 pass -> fail"
        in result.output
    )


def test_every_file_of_a_recording_is_attested(tmp_path: Path) -> None:
    reports, recording, key = tmp_path / "reports", tmp_path / "recording", tmp_path / "key"
    runner.invoke(
        app,
        [
            "run",
            "--mock",
            "--suite",
            "aci",
            "--quiet",
            "--record",
            str(recording),
            "--report-dir",
            str(reports),
        ],
    )
    runner.invoke(app, ["keygen", "--out", str(key)])
    assert (
        runner.invoke(
            app, ["attest", str(reports), "--key", str(key), "--recording", str(recording)]
        ).exit_code
        == 0
    )
    statement = json.loads((reports / "attestation.json").read_text())["statement"]
    assert set(statement["recording"]) == {
        "meta.json",
        "exchanges.jsonl",
        "inbound.jsonl",
        "values.jsonl",
        "results.jsonl",
    }
    with (recording / "inbound.jsonl").open(
        "a"
    ) as log:  # what a spy received, added after the fact
        log.write(
            json.dumps({"server": "aci-spies", "method": "GET", "path": "/", "at": 0.0}) + "\n"
        )
    tampered = runner.invoke(
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
    assert (
        tampered.exit_code == 1
        and "the recording's inbound.jsonl is not the attested one" in tampered.output
    )
