"""`interop`: implementations run against each other through the judging proxy, both sides judged.

Seven implementations served on loopback: the reference (and its WoA client command), the minimal
conformer (and the minimal client), the examples users copy (the FastAPI host, the README's WoA
client), a host whose ACI invoked agents break one MUST, a WoA client that breaks one, and a host
whose SDSI server breaks one (named faults). Every pair a faulty role takes part in breaks, on
that side and with that requirement; every other pair interoperates; the same matrix comes from
threads and from a local Dask cluster. The reference client's three commands go through one
long-lived reference client (mocks/woa_client_daemon.py); the README's client starts afresh at each
invocation, as users run it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner
from typer.testing import Result

from conformance.cli import app
from conformance.usecases.interop import Implementation
from conformance.usecases.interop import interop_matrix
from conformance.usecases.interop import read_manifest
from examples import fastapi_host
from mocks.serve import serve
from mocks.serve import serve_host
from mocks.woa_client_daemon import client_daemon

PLACEHOLDERS = "{document} {agent} {operation} {input} {cacert}"
EXAMPLE_CLIENT = Path(__file__).resolve().parents[2] / "examples" / "woa_client.py"
INVOKED_FAULT, CLIENT_FAULT, SERVER_FAULT = (
    "aci-5.2-item-state-per-item",
    "woa-5.1-input-conforms",
    "sdsi-4.1-keys-required",
)
#: what the manifest gives that never reaches anything the suite writes
SECRETS = ("s3cret-interop-bearer", "t0ken-interop-variable")
#: implementation -> (its faulty role, the requirement it breaks there)
BROKEN = {
    "broken-invoked": [("aci-invoked", "ACI-5.2-ITEM-STATE-PER-ITEM")],
    "broken-client": [("woa-client", "WOA-5.1-INPUT-CONFORMS")],
    "broken-sdsi": [("sdsi-server", "SDSI-4.1-KEYS-REQUIRED")],
}
ROLES = {"woa": ("woa-client", "woa-host"), "aci": ("aci-master", "aci-invoked")}
ROLES["sdsi"] = ("sdsi-client", "sdsi-server")


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with (
        serve_host() as reference,
        serve_host(minimal=True) as minimal,
        serve_host(INVOKED_FAULT) as invoked,
        serve_host(SERVER_FAULT) as server,
        serve(lambda _: fastapi_host.app) as fastapi,
        client_daemon() as client,
    ):
        folder = tmp_path_factory.mktemp("interop")
        entries: list[dict[str, Any]] = [
            {
                "name": "reference",
                "host": reference.url,
                "cacert": str(reference.cacert),
                "client_command": client(),
                "headers": [f"Authorization: Bearer {SECRETS[0]}"],
            },
            {
                "name": "minimal",
                "host": minimal.url,
                "cacert": str(minimal.cacert),
                "client_command": f"API_TOKEN={SECRETS[1]} {client(minimal=True)}",
            },
            {"name": "broken-invoked", "host": invoked.url, "cacert": str(invoked.cacert)},
            {"name": "broken-client", "client_command": client(CLIENT_FAULT)},
            {"name": "broken-sdsi", "host": server.url, "cacert": str(server.cacert)},
            {"name": "fastapi-example", "host": fastapi.url, "cacert": str(fastapi.cacert)},
            {
                "name": "example-client",
                "client_command": f"{sys.executable} {EXAMPLE_CLIENT} {PLACEHOLDERS}",
            },
        ]
        path = folder / "manifest.json"
        path.write_text(json.dumps({"implementations": entries}))
        yield path


def _expected(cell: dict[str, Any]) -> list[tuple[str, str]]:
    """The (side, requirement) a cell must break: the faulty roles that take part in it."""
    client_role, server_role = ROLES[cell["draft"]]
    return [
        (name, requirement)
        for name, role in ((cell["client"], client_role), (cell["server"], server_role))
        for faulty, requirement in BROKEN.get(name, [])
        if faulty == role
    ]


def _cells(matrix: dict[str, Any]) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    return {
        c["folder"]: (c["outcome"], sorted((b["side"], b["requirement"]) for b in c["broke"]))
        for c in matrix["pairs"]
    }


@pytest.fixture(scope="module")
def threaded(
    manifest: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Result, dict[str, Any], Path]:
    """The command's matrix of the manifest, made in threads: what it printed, interop.json and
    its folder. One run for the module: the Dask test compares its matrix with this one."""
    folder = tmp_path_factory.mktemp("threaded")
    result = CliRunner().invoke(app, ["interop", str(manifest), "--report-dir", str(folder)])
    return result, json.loads((folder / "interop.json").read_text()), folder


def test_the_matrix_breaks_exactly_where_a_faulty_role_takes_part(
    threaded: tuple[Result, dict[str, Any], Path],
) -> None:
    result, matrix, tmp_path = threaded
    assert result.exit_code == 1, result.output
    roles = {name: set(found["roles"]) for name, found in matrix["implementations"].items()}
    assert roles["broken-client"] == {"woa-client"}
    assert {"woa-host", "aci-master", "aci-invoked", "sdsi-client", "sdsi-server"} <= roles[
        "minimal"
    ]
    cells = matrix["pairs"]
    # every pair of two implementations whose roles meet, none with itself
    for draft, (client_role, server_role) in ROLES.items():
        made = {(c["client"], c["server"]) for c in cells if c["draft"] == draft}
        assert made == {
            (a, b)
            for a in roles
            for b in roles
            if a != b and client_role in roles[a] and server_role in roles[b]
        }, draft
    for cell in cells:
        expected = _expected(cell)
        assert sorted((b["side"], b["requirement"]) for b in cell["broke"]) == expected, cell
        assert cell["outcome"] == ("broke" if expected else "interoperates"), cell
        # each cell's evidence: the reports of what B answered and A sent
        report = json.loads((tmp_path / cell["folder"] / "server-side" / "report.json").read_text())
        assert report["header"]["options"]["interop"] == {
            "client": cell["client"],
            "server": cell["server"],
            "draft": cell["draft"],
        }
    assert any(c["outcome"] == "interoperates" for c in cells)
    for name in BROKEN:
        assert any(name in (c["client"], c["server"]) and c["broke"] for c in cells), name
    # the markdown matrix links each cell to its evidence
    markdown = (tmp_path / "interop.md").read_text()
    for cell in cells:
        assert f"]({cell['folder']}/)" in markdown
    working = sum(c["outcome"] == "interoperates" for c in cells)
    assert f"{working} of {len(cells)} pairs interoperate" in result.output
    # a credential of the manifest reaches no file written and nothing printed
    for secret in SECRETS:
        assert secret not in result.output
        for written in tmp_path.rglob("*"):
            assert not written.is_file() or secret.encode() not in written.read_bytes(), written


@pytest.mark.timeout(300)
def test_the_same_matrix_on_a_dask_cluster(
    manifest: Path, threaded: tuple[Result, dict[str, Any], Path], tmp_path: Path
) -> None:
    from distributed import LocalCluster

    implementations = read_manifest(manifest)
    _, local, _ = threaded
    with LocalCluster(
        n_workers=2, threads_per_worker=2, processes=True, dashboard_address=":0"
    ) as cluster:
        distributed = interop_matrix(
            implementations, tmp_path / "dask", scheduler=cluster.scheduler_address
        )
    assert _cells(distributed) == _cells(local)
    assert [c["folder"] for c in distributed["pairs"]] == [c["folder"] for c in local["pairs"]]


@pytest.mark.parametrize(
    ("entries", "said"),
    [
        ([{"name": "a", "host": "https://a.test", "colour": "red"}], "colour is not a field"),
        ([{"name": "a", "host": "https://a.test"}] * 2, "a named more than once"),
        ([{"name": "a"}], "a has neither a host nor a client_command"),
        ([{"name": "a", "host": "ftp://a.test"}], "is not an http(s) origin"),
        ([{"host": "https://a.test"}], "implementation 1 has no name"),
        ([{"name": "a b", "host": "https://a.test"}], "holds other than letters"),
        ([], "no list of implementations"),
    ],
)
def test_a_manifest_it_cannot_use_is_one_line_and_exit_2(
    entries: list[dict[str, Any]], said: str, tmp_path: Path
) -> None:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"implementations": entries}))
    result = CliRunner().invoke(app, ["interop", str(path), "--report-dir", str(tmp_path / "r")])
    assert result.exit_code == 2
    assert said in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_a_toml_manifest_reads_as_its_json(tmp_path: Path) -> None:
    (tmp_path / "ca.pem").write_text("-")
    (tmp_path / "m.toml").write_text(
        '[[implementations]]\nname = "a"\nhost = "https://a.test/"\ncacert = "ca.pem"\n'
        'headers = ["Authorization: Bearer t"]\n'
        '[[implementations]]\nname = "b"\nclient_command = "b {document}"\n'
    )
    assert read_manifest(tmp_path / "m.toml") == [
        Implementation(
            "a", "https://a.test", str(tmp_path / "ca.pem"), None, ("Authorization: Bearer t",)
        ),
        Implementation("b", None, None, "b {document}"),
    ]


def test_no_pair_to_make_exits_2_naming_the_roles_found(tmp_path: Path) -> None:
    """A host that cannot be read plays no role, and says why."""
    path = tmp_path / "manifest.json"
    gone = {"name": "gone", "host": "https://127.0.0.1:9"}
    only = {"name": "only", "client_command": "x"}
    path.write_text(json.dumps({"implementations": [only, gone]}))
    result = CliRunner().invoke(
        app, ["interop", str(path), "--report-dir", str(tmp_path / "r"), "--timeout", "2"]
    )
    assert result.exit_code == 2
    assert "no pair can be made" in result.output and "only woa-client" in result.output
    assert "gone: no WoA document could be read at https://127.0.0.1:9" in result.output
    assert "gone none" in result.output


def test_a_pair_interoperates_only_when_a_must_was_judged_and_none_broke() -> None:
    from conformance.report import Result
    from conformance.report import Status
    from conformance.requirements import catalogue
    from conformance.usecases.interop.pairs import cell_of

    must = catalogue()["WOA-4-VERSION-1"]
    passed = Result.of(must, Status.PASS, "")
    skipped = Result.of(must, Status.SKIP, "not shown")
    broke = [{"side": "b", "requirement": must.id, "status": "fail"}]
    assert cell_of(None, [], [passed])["outcome"] == "interoperates"
    assert cell_of(None, [], [skipped])["outcome"] == "could-not-run"  # nothing judged
    assert cell_of(None, [], [])["outcome"] == "could-not-run"
    assert cell_of(None, broke, [passed]) == {"outcome": "broke", "broke": broke, "why": ""}
    assert cell_of("b answered 500", [], [passed])["outcome"] == "broke"


def test_a_folder_it_cannot_write_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"implementations": [{"name": "only", "client_command": "x"}]}))
    result = CliRunner().invoke(
        app, ["interop", str(path), "--report-dir", str(tmp_path / "file" / "r")]
    )
    assert result.exit_code == 2 and "cannot write the matrix to" in result.output
