"""`agent-conformance keygen`, `attest` and `verify`: signed reports anyone can check offline."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..usecases.attest import AttestationInvalid
from ..usecases.attest import attest
from ..usecases.attest import keygen
from ..usecases.attest import verify
from ._console import console
from ._console import fail_usage

__all__ = ["attest_command", "keygen_command", "verify_command"]


def keygen_command(
    out: Annotated[
        Path,
        typer.Option(
            dir_okay=False,
            help="Where to write the private key; the public key goes beside it as OUT.pub.",
        ),
    ],
) -> None:
    """Make an Ed25519 key pair for signing attestations (the private key file is readable by its
    owner only)."""
    try:
        private, public = keygen(out)
    except FileExistsError:
        fail_usage(f"{out} exists: the suite never overwrites a key")
    except OSError as error:
        fail_usage(f"cannot write {out}: {error}")
    console.print(
        f"Private key: {private}\nPublic key:  {public}  (hand this one to whoever verifies)",
        markup=False,
    )


def attest_command(
    report_dir: Annotated[
        Path, typer.Argument(exists=True, file_okay=False, help="A report folder of `run`.")
    ],
    key: Annotated[
        Path,
        typer.Option(
            exists=True, dir_okay=False, help="The Ed25519 private key (PEM) from `keygen`."
        ),
    ],
    recording: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            file_okay=False,
            help="Also attest the recording of the run (run --record).",
        ),
    ] = None,
) -> None:
    """Sign REPORT_DIR: the report, the digests of every report file, the suite and catalogue
    versions, the draft revisions and the digest of the target's WoA document, written to
    REPORT_DIR/attestation.json."""
    if not (report_dir / "report.json").is_file():
        fail_usage(f"{report_dir} holds no report.json")
    try:
        bundle = attest(report_dir, key, recording)
    except (ValueError, OSError) as error:
        fail_usage(f"cannot attest with {key}: {error}")
    console.print(f"Attestation: {bundle}", markup=False)


def verify_command(
    bundle: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="An attestation.json.")
    ],
    key: Annotated[
        Path,
        typer.Option(exists=True, dir_okay=False, help="The signer's Ed25519 public key (PEM)."),
    ],
    report_dir: Annotated[
        Path | None,
        typer.Option(
            file_okay=False, help="Where the attested files are (default: the bundle's folder)."
        ),
    ] = None,
    recording: Annotated[
        Path | None,
        typer.Option(
            exists=True,
            file_okay=False,
            help=(
                "The attested recording: checked, then re-judged, its verdicts compared with the"
                " report's."
            ),
        ),
    ] = None,
    require_recording: Annotated[
        bool,
        typer.Option(
            "--require-recording",
            help="Fail when the bundle attests a recording and no --recording is given.",
        ),
    ] = False,
) -> None:
    """Check an attestation offline: its signature, then every attested file. Exit 0 when it
    holds, 1 (with the reason on one line) when anything was changed."""
    try:
        verified = verify(bundle, key, report_dir, recording, require_recording=require_recording)
    except ValueError as error:
        fail_usage(f"{key}: {error}")
    except AttestationInvalid as error:
        typer.echo(f"agent-conformance: attestation does not verify: {error}", err=True)
        raise typer.Exit(1) from None
    statement = verified.statement
    console.print(
        f"Verified: {statement.get('target')} is"
        f" {(statement.get('gate') or {}).get('headline', statement.get('level'))} by"
        f" agent-conformance {statement.get('suite_version')}, attested"
        f" {statement.get('attested')}: {verified.said()}",
        markup=False,
    )
