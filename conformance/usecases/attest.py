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
recording, that it re-judges to the whole report the way it was made (a run's or a client's
replayed with its own options, a proxy's traffic judged again): every result, the summary and the
options, times apart. A changed file, statement or signature, or a report doctored before it was
signed, fails with one line naming the first field that differs. Without the recording it says
which subjects went unchecked.
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
from ..requirements.revisions import Revision
from ..requirements.revisions import revisions

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


def _revisions(drafts: dict[str, str]) -> tuple[Revision, ...]:
    """The revisions a report names that the suite has (a folder's is read as its draft's
    latest)."""
    known = {r.name: r for found in revisions().values() for r in found}
    return tuple(known[name] for name in drafts.values() if name in known)


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
            "catalogue_sha256": catalogue_digest(_revisions(drafts)),
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
    files: int  # report files checked against their digests
    recorded: int  # recording files checked, the recording re-judged to the report
    unchecked: int  # recording files attested but not checked (no recording given)

    def said(self) -> str:
        """What was checked, and what was not, in words."""
        checked = f"{self.files} report files" + (
            f" and {self.recorded} recording files, re-judged to the same report"
            if self.recorded
            else ""
        )
        if self.unchecked:
            checked += (
                f"; {self.unchecked} recording files attested but NOT checked: the report's"
                " verdicts rest on the signature alone (give --recording)"
            )
        return checked


def verify(
    bundle_path: Path,
    key: Path,
    report_dir: Path | None = None,
    recording: Path | None = None,
    *,
    require_recording: bool = False,
) -> Verified:
    """Check the envelope's signature with the public `key`, then each report file it names in
    `report_dir` (default: the bundle's folder), then, given the `recording`, that each of its files
    is the attested one and that it re-judges to the attested report. Raises
    `AttestationInvalid` with the first reason it fails (`require_recording`: also when the bundle
    attests a recording that was not given)."""
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
    recorded = {
        n.removeprefix(RECORDING): d for n, d in subjects.items() if n.startswith(RECORDING)
    }
    if recording is not None:
        _verify_recording(recorded, recording, folder / "report.json")
        return Verified(statement["predicate"], len(reports), len(recorded), 0)
    if recorded and require_recording:
        raise AttestationInvalid(
            f"the bundle attests {len(recorded)} recording files, and no --recording was given to"
            " check them"
        )
    return Verified(statement["predicate"], len(reports), 0, len(recorded))


def _verify_recording(attested: dict[str, str], recording: Path, report: Path) -> None:
    """The recording's files are the attested ones (its bodies too), and it re-judges, with the
    run's own options, to the report: every result (status, level, message, evidence), the summary
    (gate, exit code, levels, headline, counts, coverage) and the options, times apart."""
    import asyncio

    from ..recording import Replay
    from ..report import Collect
    from ..report.writers.json_report import report_document
    from .rejudge import rejudge

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
    attested = json.loads(report.read_text(encoding="utf-8"))
    try:
        replay = Replay.load(recording)
    except (OSError, ValueError, KeyError, RecursionError) as error:
        raise AttestationInvalid(
            f"the recording cannot be read: {type(error).__name__}: {error}"
        ) from None
    collect = Collect()
    summary = asyncio.run(rejudge(replay, [collect]))
    assert collect.header is not None
    judged = json.loads(
        json.dumps(report_document(collect.header, collect.results, summary), ensure_ascii=False)
    )
    difference = first_difference(_steady(attested), _steady(judged), "report.json")
    if difference is not None:
        raise AttestationInvalid(f"the recording re-judges to another report: {difference}")


#: What differs between two honest judgings of one recording: times, and where a replay came from.
_UNSTEADY = frozenset(
    {"elapsed_ms", "duration_ms", "started", "finished", "replayed_from", "listening_since"}
)


def _steady(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in value.items() if k not in _UNSTEADY}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    return value


def first_difference(said: Any, judged: Any, path: str) -> str | None:
    """Where `said` (the attested report) first differs from `judged` (the recording judged
    again), and how, or None."""
    if isinstance(said, dict) and isinstance(judged, dict):
        for key in [*said, *(k for k in judged if k not in said)]:
            if key not in judged or key not in said:
                return f"{path}.{key} is {'missing' if key not in said else 'extra'} in the report"
            found = first_difference(said[key], judged[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(said, list) and isinstance(judged, list):
        if len(said) != len(judged):
            return f"{path} holds {len(said)} items, the recording re-judges to {len(judged)}"
        for index, (one, other) in enumerate(zip(said, judged, strict=True)):
            label = one.get("requirement", index) if isinstance(one, dict) else index
            found = first_difference(one, other, f"{path}[{label}]")
            if found is not None:
                return found
        return None
    if said != judged:
        return f"{path} says {_short(said)}, the recording re-judges to {_short(judged)}"
    return None


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:79] + "…"
