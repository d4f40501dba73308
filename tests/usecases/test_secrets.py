"""No credential reaches anything the suite writes or prints: canaries in --header values, in the
target's userinfo, in a query parameter and in a client's headers through the proxy, followed
through run --record, rejudge, attest, verify, proxy and fleet; the redacted recording still
re-judges to the attested report. A client command's helpers do not outlive it."""

from __future__ import annotations

import json
import re
import signal
import ssl
import subprocess
import sys
from pathlib import Path

import httpx

from conformance.recording import Recorder
from conformance.report.model import Exchange
from conformance.report.redaction import Redaction
from mocks.serve import serve_host
from tests.command import agent_conformance

CANARIES = ("CANARYBEARER1", "CANARYKEY22", "CANARYCOOKIE3", "CANARYPASS44", "CANARYQUERY5")
HEADERS = (
    "--header",
    f"Authorization: Bearer {CANARIES[0]}",
    "--header",
    f"X-Api-Key: {CANARIES[1]}",
    "--header",
    f"Cookie: session={CANARIES[2]}",
)


def _leaks(*places: Path, printed: str = "") -> list[str]:
    """Every file under `places`, and what was printed, that holds a canary."""
    found = [f"printed: {c}" for c in CANARIES if c in printed]
    for place in places:
        for path in [place] if place.is_file() else place.rglob("*"):
            if path.is_file():
                data = path.read_bytes()
                found += [f"{path}: {c}" for c in CANARIES if c.encode() in data]
    return found


def test_no_credential_reaches_a_report_a_recording_an_attestation_or_the_terminal(
    tmp_path: Path,
) -> None:
    reports, recording, key = tmp_path / "reports", tmp_path / "recording", tmp_path / "key"
    with serve_host() as host:
        ran = agent_conformance(
            *("run", "--target", host.url, "--cacert", str(host.cacert), "--suite", "woa"),
            *HEADERS,
            *("--record", str(recording), "--report-dir", str(reports)),
        )
        # a password in the URL: its own run (with an Authorization header it is refused, the
        # URL's Basic credentials replacing the header on the wire), then one judged requirement
        target = host.url.replace("https://", f"https://alice:{CANARIES[3]}@")
        both = agent_conformance(
            *("run", "--target", target, *HEADERS, "--report-dir", str(tmp_path / "refused"))
        )
        in_url = agent_conformance(
            *("run", "--target", target, "--cacert", str(host.cacert), "--suite", "woa"),
            *("--requirement", "WOA-4-VERSION-1", "--report-dir", str(tmp_path / "in-url")),
        )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert both.returncode == 2 and "--header gives Authorization" in both.stderr, both.stderr
    assert not (tmp_path / "refused").exists()  # refused before anything started
    assert in_url.returncode == 0, in_url.stdout + in_url.stderr
    rejudged = agent_conformance("rejudge", str(recording), "--report-dir", str(tmp_path / "again"))
    assert "0 verdicts changed since the recording." in rejudged.stdout, rejudged.stdout
    agent_conformance("keygen", "--out", str(key))
    attested = agent_conformance(
        "attest", str(reports), "--key", str(key), "--recording", str(recording)
    )
    verified = agent_conformance(
        *("verify", str(reports / "attestation.json"), "--key", f"{key}.pub"),
        *("--recording", str(recording)),
    )
    assert verified.returncode == 0, verified.stderr
    printed = "".join(
        d.stdout + d.stderr for d in (ran, both, in_url, rejudged, attested, verified)
    )
    assert _leaks(tmp_path, printed=printed) == []
    # the evidence keeps each value's shape and tells values apart; curl names a variable
    report = json.loads((reports / "report.json").read_text())
    sent = next(
        e
        for r in report["results"]
        for e in r["evidence"]
        if "authorization" in e["request_headers"]
    )
    assert sent["request_headers"]["authorization"].startswith("Bearer <redacted:sha256:")
    assert sent["request_headers"]["x-api-key"] != sent["request_headers"]["cookie"]
    assert '-H "authorization: $AGENT_AUTHORIZATION"' in sent["curl"]
    in_url_report = json.loads((tmp_path / "in-url" / "report.json").read_text())
    assert in_url_report["header"]["target"].startswith("https://<redacted:sha256:")
    assert report["header"]["options"]["credentials"] == "redacted"


def test_a_clients_credentials_through_the_proxy_stay_out_of_its_reports(tmp_path: Path) -> None:
    with serve_host() as host:
        proxy = subprocess.Popen(
            [
                *(sys.executable, "-m", "conformance.cli", "proxy", "--upstream", host.url),
                *("--cacert", str(host.cacert), "--listen", "127.0.0.1:0", "--suite", "woa"),
                *("--report-dir", str(tmp_path / "reports"), "--record", str(tmp_path / "rec")),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proxy.stdout is not None
        url = proxy.stdout.readline().split(" listening at ")[1].split()[0]
        trust = ssl.create_default_context(cafile=str(tmp_path / "reports" / "proxy-ca.pem"))
        httpx.get(
            f"{url}/.well-known/woa.json?access_token={CANARIES[4]}",
            headers={"Authorization": f"Bearer {CANARIES[0]}", "Cookie": f"sid={CANARIES[2]}"},
            verify=trust,
        )
        proxy.send_signal(signal.SIGINT)
        out, err = proxy.communicate(timeout=30)
    assert "exchanges judged" in out, err
    assert _leaks(tmp_path / "reports", tmp_path / "rec", printed=out + err) == []


def test_a_fleet_names_its_targets_without_their_passwords(tmp_path: Path) -> None:
    targets, folder = tmp_path / "targets.txt", tmp_path / "fleet"
    targets.write_text(f"https://bob:{CANARIES[3]}@127.0.0.1:9\n")
    done = agent_conformance("fleet", "--targets", str(targets), "--report-dir", str(folder))
    assert done.returncode == 2  # unreachable: not certified, and the line saying so names it
    assert "https://<redacted>@127.0.0.1:9 exited 2" in done.stderr
    assert _leaks(folder, printed=done.stdout + done.stderr) == []


def test_a_query_credential_and_an_echoed_value_are_redacted() -> None:
    redaction = Redaction.of("https://agents.example", [("X-Tenant-Secret", CANARIES[1])])
    exchange = redaction.exchange(
        Exchange(
            "GET",
            f"https://agents.example/x?api_key={CANARIES[4]}&page=2",
            {"x-tenant-secret": CANARIES[1]},
            response_body=f"you sent {CANARIES[1]} and {CANARIES[4]}",
        )
    )
    said = json.dumps(exchange.as_dict())
    assert not [c for c in CANARIES if c in said], said
    assert "page=2" in exchange.url and "api_key=<redacted:sha256:" in exchange.url


def test_a_client_commands_helpers_do_not_outlive_it(tmp_path: Path) -> None:
    """A client command that forks a helper (a daemon, a shell's `&`) leaves nothing running."""
    command = tmp_path / "forking-client"
    command.write_text(
        "#!/bin/sh\n(sleep 3141 >/dev/null 2>&1 &)\nsleep 3142 >/dev/null 2>&1 &\n"
        f'exec {sys.executable} -m mocks.woa_client "$@"\n'
    )
    command.chmod(0o755)
    client = f"{command} {{document}} {{agent}} {{operation}} {{input}} {{cacert}}"
    done = agent_conformance(
        "run", "--client-command", client, "--quiet", "--report-dir", str(tmp_path / "reports")
    )
    left = subprocess.run(["pgrep", "-f", "sleep 314[12]"], capture_output=True, text=True)
    subprocess.run(["pkill", "-f", "sleep 314[12]"], check=False)
    assert done.returncode == 0, done.stderr
    assert left.stdout.strip() == "", "helpers outlived the client command"


def test_usage_errors_and_a_client_command_name_no_credential(tmp_path: Path) -> None:
    """What the suite prints before or beside a run: a target it refuses, a header it cannot read,
    an unreachable target under fuzz, a client command that passes a token."""
    reports = str(tmp_path / "reports")
    done = [
        agent_conformance(
            "run", "--target", f"ftp://alice:{CANARIES[3]}@h", "--report-dir", reports
        ),
        agent_conformance(
            "run", "--mock", "--header", f"Bearer {CANARIES[0]}", "--report-dir", reports
        ),
        agent_conformance(
            "fuzz", "--target", f"https://alice:{CANARIES[3]}@127.0.0.1:9", "--report-dir", reports
        ),
        agent_conformance(
            *("run", "--client-command", f"API_TOKEN={CANARIES[1]} /nowhere/client {{document}}"),
            *("--report-dir", reports),
        ),
    ]
    assert [d.returncode for d in done] == [2, 2, 2, 2], [d.stderr for d in done]
    printed = "".join(d.stdout + d.stderr for d in done)
    assert _leaks(tmp_path, printed=printed) == []


def test_a_signed_reference_the_target_hands_out_stays_out_of_the_reports(tmp_path: Path) -> None:
    """The reference master hands its spies ContextURIs signed with `sig`: reports and the
    terminal carry markers; the recording keeps them as the bodies did, and re-judges alike."""
    reports, recording = tmp_path / "reports", tmp_path / "recording"
    ran = agent_conformance(
        *("run", "--mock", "--suite", "aci", "--role", "master"),
        *("--record", str(recording), "--report-dir", str(reports)),
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    signed = re.compile(rb"sig=([0-9a-f]{64})")
    handed = {
        found
        for path in recording.rglob("*")
        if path.is_file()
        for found in signed.findall(path.read_bytes())
    }
    assert handed, "the reference offloaded no context: nothing was judged"
    assert b"sig=<redacted:sha256:" in (reports / "report.json").read_bytes()
    rejudged = agent_conformance("rejudge", str(recording), "--report-dir", str(tmp_path / "again"))
    assert "0 verdicts changed since the recording." in rejudged.stdout, rejudged.stdout
    for path in [*reports.rglob("*"), *(tmp_path / "again").rglob("*")]:
        if path.is_file():
            assert not [v for v in handed if v in path.read_bytes()], path
    printed = (ran.stdout + ran.stderr + rejudged.stdout + rejudged.stderr).encode()
    assert not [v for v in handed if v in printed]


def test_a_credential_a_target_echoes_stays_out_of_the_recordings_bodies(tmp_path: Path) -> None:
    redaction = Redaction.of("https://agents.example", [("Authorization", f"Bearer {CANARIES[0]}")])
    recorder = Recorder(tmp_path, redaction)
    recorder.start({})
    request = httpx.Request("GET", "https://agents.example/x")
    recorder.exchange(request, b"", {"status": 200, "response_body": f"hi {CANARIES[0]}".encode()})
    assert _leaks(tmp_path) == []
