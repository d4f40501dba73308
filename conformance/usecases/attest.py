"""Signed attestations: a report a sceptic can check offline, without trusting the machine that made
it.

    agent-conformance keygen --out vendor-key          # vendor-key (private, PEM) and
                                                       vendor-key.pub
    agent-conformance attest reports/ --key vendor-key # reports/attestation.json
    agent-conformance verify reports/attestation.json --key vendor-key.pub

The bundle holds a statement and its Ed25519 signature (RFC 8032, through `cryptography`). The
statement names the suite version, the catalogue's digest, the draft revisions, the target and the
digest of the WoA document the run fetched, the verdict, the time, and the SHA-256 of every report
file. Verification checks the signature over the statement's canonical JSON (sorted keys, no
spaces), then each file against its digest: a changed report, evidence file, statement or
signature fails with one line saying which.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .. import __version__
from ..recording import FILES
from ..report.model import utc_now
from ..requirements import DRAFTS
from ..requirements import catalogue_digest

__all__ = ["BUNDLE", "FORMAT", "AttestationInvalid", "attest", "keygen", "verify"]

FORMAT = "agent-conformance-attestation/1"
BUNDLE = "attestation.json"
#: Report files an attestation covers when present (the bundle itself and the debug log are not).
COVERED = ("report.json", "events.jsonl", "junit.xml", "summary.md", "report.html")


class AttestationInvalid(Exception):
    """A bundle that does not verify: the reason in one line."""


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


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


RECORDED = FILES  # every file of a recording is attested, and each body by its name


def statement_of(report_dir: Path, recording: Path | None = None) -> dict[str, Any]:
    """What an attestation of `report_dir` (and of the `recording` of its run) states."""
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    header, summary = report.get("header", {}), report.get("summary", {})
    files = {
        name: _sha256((report_dir / name).read_bytes())
        for name in COVERED
        if (report_dir / name).is_file()
    }
    files |= {p.name: _sha256(p.read_bytes()) for p in sorted(report_dir.glob("badge-*.svg"))}
    return {
        "format": FORMAT,
        "attested": utc_now(),
        "suite_version": __version__,
        "catalogue_sha256": catalogue_digest(),
        "drafts": (
            header.get("drafts") or {d: DRAFTS[d] for d in header.get("suites", []) if d in DRAFTS}
        ),
        "report_tool_version": header.get("tool_version"),
        "target": header.get("target"),
        "document_sha256": _document_digest(report),
        "level": summary.get("level"),
        "levels": summary.get("levels"),
        "gate": summary.get("gate"),
        "files": files,
        "recording": (
            {
                name: _sha256((recording / name).read_bytes())
                for name in RECORDED
                if (recording / name).is_file()
            }
            if recording is not None
            else None
        ),
    }


def attest(report_dir: Path, key: Path, recording: Path | None = None) -> Path:
    """Sign a statement of `report_dir` (and of the `recording` of its run) with `key`; the
    bundle's path (report_dir/attestation.json)."""
    statement = statement_of(report_dir, recording)
    signature = _private_key(key).sign(_canonical(statement))
    bundle = {
        "statement": statement,
        "signature": base64.b64encode(signature).decode(),
        "algorithm": "Ed25519",
    }
    path = report_dir / BUNDLE
    path.write_text(json.dumps(bundle, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


@dataclass(frozen=True)
class Verified:
    statement: dict[str, Any]
    files: int


def verify(
    bundle_path: Path, key: Path, report_dir: Path | None = None, recording: Path | None = None
) -> Verified:
    """Check the bundle's signature with the public `key`, then each file it covers in `report_dir`
    (default: the bundle's folder), then, given the `recording`, that it is the attested one and
    still re-judges to the attested verdicts. Raises `AttestationInvalid` with the first reason
    it fails."""
    try:
        bundle = json.loads(bundle_path.read_text(encoding="utf-8"))
        statement, signature = (
            bundle["statement"],
            base64.b64decode(bundle["signature"], validate=True),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise AttestationInvalid(f"{bundle_path} is not an attestation bundle: {error}") from None
    if not isinstance(statement, dict) or statement.get("format") != FORMAT:
        raise AttestationInvalid(f"{bundle_path} is not a {FORMAT} bundle")
    try:
        _public_key(key).verify(signature, _canonical(statement))
    except InvalidSignature:
        raise AttestationInvalid(
            "the signature does not verify with this key: the statement or the signature was"
            " changed, or another key signed it"
        ) from None
    folder = report_dir or bundle_path.parent
    for name, digest in sorted(statement.get("files", {}).items()):
        path = folder / name
        if not path.is_file():
            raise AttestationInvalid(f"{name} is attested but missing from {folder}")
        if _sha256(path.read_bytes()) != digest:
            raise AttestationInvalid(
                f"{name} was changed after it was attested (its SHA-256 differs)"
            )
    if recording is not None:
        _verify_recording(statement, recording, folder / "report.json")
    return Verified(statement, len(statement.get("files", {})))


def _verify_recording(statement: dict[str, Any], recording: Path, report: Path) -> None:
    """The recording is the attested one, each body is what its name says, and it re-judges to
    the report's verdicts."""
    import asyncio

    from ..recording import Replay
    from .rejudge import changed_verdicts
    from .rejudge import rejudged

    attested = statement.get("recording")
    if not isinstance(attested, dict):
        raise AttestationInvalid("the bundle attests no recording")
    for name, digest in sorted(attested.items()):
        path = recording / name
        if not path.is_file() or _sha256(path.read_bytes()) != digest:
            raise AttestationInvalid(f"the recording's {name} is not the attested one")
    for body in sorted((recording / "bodies").iterdir()) if (recording / "bodies").is_dir() else []:
        if _sha256(body.read_bytes()) != body.name:
            raise AttestationInvalid(f"the recorded body {body.name} was changed")
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
