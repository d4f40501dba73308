"""A minimal WoA client for `agent-conformance run --client-command` (the README's example)."""

import json
import os
import ssl
import sys
from pathlib import Path
from urllib.parse import quote
from urllib.parse import urlsplit

import httpx

document_url, agent_id, operation, input_file, cacert = sys.argv[1:6]
allowed = {host for host in os.environ.get("WOA_CLIENT_ALLOWED_HOSTS", "").split(",") if host}


def checked(url: str) -> str:  # WoA 8.2: call only https hosts the administrator allowed
    if urlsplit(url).scheme != "https" or urlsplit(url).hostname not in allowed:
        sys.exit(f"refused: {url}")
    return url


# honours HTTPS_PROXY
with httpx.Client(verify=ssl.create_default_context(cafile=cacert), timeout=10) as http:
    document = http.get(checked(document_url)).raise_for_status().json()
    rest = document["transports"]["rest"]
    url = rest["base"].rstrip("/") + rest["invoke_path"].replace(
        "{agent_id}", quote(agent_id, safe="")
    )
    envelope = {
        "agent": agent_id,
        **({"operation": operation} if operation else {}),
        "input": json.loads(Path(input_file).read_text()),
    }
    # a 3xx is not followed: it raises
    print(json.dumps(http.post(checked(url), json=envelope).raise_for_status().json()))
