"""The reference WoA client as the command the suite's client driver runs (`--client-command`,
conformance/driver):

    python -m mocks.woa_client DOCUMENT AGENT OPERATION INPUT_FILE CACERT

prints the outputs as JSON and exits 0, or says why on stderr and exits 1. It honours HTTPS_PROXY,
takes the administrator's allow-list from WOA_CLIENT_ALLOWED_HOSTS (then it calls no other host),
keeps its document cache in WOA_CLIENT_CACHE_DIR, breaks one rule when WOA_CLIENT_FAULT names one
of mocks/faults/woa_client.py, and is the minimal conformer when WOA_CLIENT_MINIMAL is 1.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path

import httpx

from .faults.woa_client import CLIENT_FAULTS
from .faults.woa_client import MINIMAL_VARIABLE
from .faults.woa_client import VARIABLE
from .faults.woa_client import VARIANT_VARIABLE
from .reference.woa_client import ClientPolicy
from .reference.woa_client import InvalidMessage
from .reference.woa_client import Refused
from .reference.woa_client import WoaClient

__all__ = ["answer", "main"]


def _policy_from(environ: Mapping[str, str]) -> ClientPolicy:
    allowed = frozenset(
        h.strip().lower()
        for h in environ.get("WOA_CLIENT_ALLOWED_HOSTS", "").split(",")
        if h.strip()
    )
    return ClientPolicy(allowed_hosts=allowed, allowlist_only=bool(allowed))


_USAGE = "usage: python -m mocks.woa_client DOCUMENT AGENT OPERATION INPUT_FILE CACERT"
_PROXIES = ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy")


async def answer(
    arguments: list[str], environ: Mapping[str, str], *, own: bool = True
) -> tuple[int, str, str]:
    """What the command does with these arguments and this environment: its exit code, stdout and
    stderr. `own`: the environment is this process's (httpx reads the proxy from it itself);
    otherwise it is a caller's (mocks/woa_client_daemon.py), whose proxy is named."""
    if len(arguments) != 5:
        return 2, "", _USAGE + "\n"
    document, agent, operation, input_file, cacert = arguments
    fault, variant = environ.get(VARIABLE, ""), environ.get(VARIANT_VARIABLE, "")
    if fault and fault not in CLIENT_FAULTS:
        return 2, "", f"unknown {VARIABLE} {fault!r}\n"
    kind: type[WoaClient] = CLIENT_FAULTS[fault].agent if fault else WoaClient
    if variant:
        # the variants module holds every agent's variants: read only when one is asked for
        from .variants import CLIENT_VARIANTS

        if variant not in CLIENT_VARIANTS:
            return 2, "", f"unknown {VARIANT_VARIABLE} {variant!r}\n"
        kind = CLIENT_VARIANTS[variant].agent
    cache = environ.get("WOA_CLIENT_CACHE_DIR")
    client = kind(
        _policy_from(environ),
        cacert=Path(cacert),
        cache_dir=Path(cache) if cache else None,
        minimal=environ.get(MINIMAL_VARIABLE) == "1",
        proxy=None if own else next((environ[v] for v in _PROXIES if environ.get(v)), None),
    )
    try:
        value = json.loads(Path(input_file).read_text(encoding="utf-8"))
        outputs = await client.invoke_from(document, agent, value, operation or None)
    except (Refused, InvalidMessage, httpx.HTTPError, OSError, ValueError) as error:
        return 1, "", f"woa-client: {type(error).__name__}: {error}\n"
    return 0, json.dumps(outputs) + "\n", ""


def main(argv: list[str] | None = None) -> int:
    """The command the suite's client driver runs: DOCUMENT AGENT OPERATION INPUT_FILE CACERT."""
    code, out, err = asyncio.run(answer(sys.argv[1:] if argv is None else argv, os.environ))
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
