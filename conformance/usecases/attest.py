"""Signed attestations anyone can check offline, with the tools that check software supply chains:
an in-toto Statement (v1) in a DSSE envelope, signed with Ed25519.

    agent-conformance keygen --out vendor-key            # vendor-key (private), vendor-key.pub
    agent-conformance attest reports/ --key vendor-key   # writes reports/attestation.json
    agent-conformance verify reports/attestation.json --key vendor-key.pub

The envelope (DSSE, payload type application/vnd.in-toto+json) carries the Statement as its
payload, written as RFC 8785 canonical JSON, and one Ed25519 signature over DSSE's
pre-authentication encoding (securesystemslib signs and verifies; rfc8785 writes the payload).
The Statement's subjects are every report file and, with a recording, every file of the run's
recording (`recording/meta.json`, ..., `recording/bodies/<sha256>`), each by its SHA-256; its
predicate (PREDICATE_TYPE) is what the suite says: its version, the catalogue's digest, the draft
revisions, the target and the digest of its WoA document, the compliance levels and the gate.
Verification checks the signature, then every subject against its file, then, with the
recording, that it re-judges to the report's verdicts the way it was made (a run's or a client's
replayed, a proxy's traffic judged again): a changed file, statement or signature fails with one
line saying which.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rfc8785
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from securesystemslib.dsse import Envelope
from securesystemslib.exceptions import VerificationError
from securesystemslib.signer import CryptoSigner
from securesystemslib.signer import SSlibKey

from .. import __version__
from ..recording import FILES
from ..report.model import utc_now
from ..requirements import DRAFTS
from ..requirements import catalogue_digest

__all__ = [
    "BUNDLE",
    "PREDICATE_TYPE",
    "STATEMENT_TYPE",
    "AttestationInvalid",
    "attest",
    "keygen",
    "verify",
]

BUNDLE = "attestation.json"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PAYLOAD_TYPE = "application/vnd.in-toto+json"
PREDICATE_TYPE = "https://schemas.agent-conformance.invalid/attestation/v2"
#: Report files an attestation covers when present (the bundle itself and the debug log are not).
COVERED = ("report.json", "events.jsonl", "junit.xml", "summary.md", "report.html")
#: The prefix of a recording's files among the subjects.
RECORDING = "recording/"


class AttestationInvalid(Exception):
    """A bundle that does not verify: the reason in one line."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def keygen(path: Path) -> tuple[Path, Path]:
    """Write a new Ed25519 private key to `path` (PEM, PKCS#8, mode 0600) and its public key
    beside it (.pub)."""
    key = Ed25519PrivateKey.generate()
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    path.touch(mode=0o600, exist_ok=False)
    path.write_bytes(private)
    public_path = path.with_name(path.name + ".pub")
    public_path.write_bytes(public)
    return path, public_path


def _private_key(path: Path) -> Ed25519PrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} is not an Ed25519 private key")
    return key


def _public_key(path: Path) -> Ed25519PublicKey:
    key = serialization.load_pem_public_key(path.read_bytes())
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError(f"{path} is not an Ed25519 public key")
    return key


def _document_digest(report: dict[str, Any]) -> str | None:
    digest = report.get("header", {}).get("options", {}).get("document_sha256")
    return digest if isinstance(digest, str) else None


def _subjects(report_dir: Path, recording: Path | None) -> list[dict[str, Any]]:
    """Every report file, and every file of the recording, by SHA-256."""
    named = [report_dir / name for name in COVERED if (report_dir / name).is_file()]
    named += sorted(report_dir.glob("badge-*.svg"))
    subjects = [{"name": p.name, "digest": {"sha256": _sha256(p.read_bytes())}} for p in named]
    if recording is not None:
        files = [recording / name for name in FILES if (recording / name).is_file()]
        files += sorted((recording / "bodies").iterdir()) if (recording / "bodies").is_dir() else []
        subjects += [
            {
                "name": RECORDING + p.relative_to(recording).as_posix(),
                "digest": {"sha256": _sha256(p.read_bytes())},
            }
            for p in files
        ]
    return subjects


def statement_of(report_dir: Path, recording: Path | None = None) -> dict[str, Any]:
    """The in-toto Statement an attestation of `report_dir` (and of the `recording` of its run)
    signs."""
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    header, summary = report.get("header", {}), report.get("summary", {})
    drafts = header.get("drafts") or {d: DRAFTS[d] for d in header.get("suites", []) if d in DRAFTS}
    return {
        "_type": STATEMENT_TYPE,
        "subject": _subjects(report_dir, recording),
        "predicateType": PREDICATE_TYPE,
        "predicate": {
            "attested": utc_now(),
            "suite_version": __version__,
            "catalogue_sha256": catalogue_digest(),
            "drafts": drafts,
            "report_tool_version": header.get("tool_version"),
            "target": header.get("target"),
            "document_sha256": _document_digest(report),
            "level": summary.get("level"),
            "levels": summary.get("levels"),
            "gate": summary.get("gate"),
            "recording": recording is not None,
        },
    }


def _signer(key: Path) -> CryptoSigner:
    private = _private_key(key)
    return CryptoSigner(private, SSlibKey.from_crypto(private.public_key()))


def attest(report_dir: Path, key: Path, recording: Path | None = None) -> Path:
    """Sign the Statement of `report_dir` (and of the `recording` of its run) with `key`: a DSSE
    envelope, written to report_dir/attestation.json, whose path is returned."""
    envelope = Envelope(rfc8785.dumps(statement_of(report_dir, recording)), PAYLOAD_TYPE, {})
    envelope.sign(_signer(key))
    path = report_dir / BUNDLE
    path.write_text(json.dumps(envelope.to_dict(), indent=2) + "\n", encoding="utf-8")
    return path


@dataclass(frozen=True)
class Verified:
    statement: dict[str, Any]
    files: int


def verify(
    bundle_path: Path, key: Path, report_dir: Path | None = None, recording: Path | None = None
) -> Verified:
    """Check the envelope's signature with the public `key`, then each report file it names in
    `report_dir` (default: the bundle's folder), then, given the `recording`, that each of its files
    is the attested one and that it still re-judges to the attested verdicts. Raises
    `AttestationInvalid` with the first reason it fails."""
    try:
        envelope = Envelope.from_dict(json.loads(bundle_path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise AttestationInvalid(f"{bundle_path} is not a DSSE envelope: {error}") from None
    if envelope.payload_type != PAYLOAD_TYPE:
        raise AttestationInvalid(
            f"{bundle_path} carries {envelope.payload_type!r}, not an in-toto Statement"
        )
    try:
        envelope.verify([SSlibKey.from_crypto(_public_key(key))], 1)
    except VerificationError:
        raise AttestationInvalid(
            "the signature does not verify with this key: the statement or the signature was"
            " changed, or another key signed it"
        ) from None
    statement = json.loads(envelope.payload)
    if statement.get("_type") != STATEMENT_TYPE or statement.get("predicateType") != PREDICATE_TYPE:
        raise AttestationInvalid(f"{bundle_path} is not a statement of {PREDICATE_TYPE}")
    folder = report_dir or bundle_path.parent
    subjects = {s["name"]: s["digest"]["sha256"] for s in statement.get("subject", [])}
    reports = {name: digest for name, digest in subjects.items() if not name.startswith(RECORDING)}
    for name, digest in sorted(reports.items()):
        path = folder / name
        if not path.is_file():
            raise AttestationInvalid(f"{name} is attested but missing from {folder}")
        if _sha256(path.read_bytes()) != digest:
            raise AttestationInvalid(
                f"{name} was changed after it was attested (its SHA-256 differs)"
            )
    if recording is not None:
        recorded = {
            n.removeprefix(RECORDING): d for n, d in subjects.items() if n.startswith(RECORDING)
        }
        _verify_recording(recorded, recording, folder / "report.json")
    return Verified(statement["predicate"], len(reports))


def _verify_recording(attested: dict[str, str], recording: Path, report: Path) -> None:
    """The recording's files are the attested ones (its bodies too), and it re-judges to the
    report's verdicts."""
    import asyncio

    from ..recording import Replay
    from .rejudge import changed_verdicts
    from .rejudge import rejudged

    if not attested:
        raise AttestationInvalid("the bundle attests no recording")
    for name, digest in sorted(attested.items()):
        path = recording / name
        if not path.is_file() or _sha256(path.read_bytes()) != digest:
            what = (
                f"the recorded body {path.name}"
                if name.startswith("bodies/")
                else f"the recording's {name}"
            )
            raise AttestationInvalid(f"{what} is not the attested one")
    before: dict[str, list[str]] = {}
    for result in json.loads(report.read_text(encoding="utf-8")).get("results", []):
        before.setdefault(result["requirement"], []).append(result["status"])
    try:
        replay = Replay.load(recording)
    except (OSError, ValueError, KeyError, RecursionError) as error:
        raise AttestationInvalid(
            f"the recording cannot be read: {type(error).__name__}: {error}"
        ) from None
    changed = changed_verdicts(before, asyncio.run(rejudged(replay)))
    if changed:
        requirement, old, new, message = changed[0]
        raise AttestationInvalid(
            f"the recording re-judges to other verdicts ({len(changed)}): {requirement} "
            f"{', '.join(old) or 'not judged'} -> {', '.join(new)}: {message[:120]}"
        )
