"""The reference WoA client's command when a long-lived process does its work
(woa_client_daemon.py): this script, run with `python -S -E` (the standard library alone, a few
milliseconds to start), hands its arguments and environment to the daemon over a Unix socket and
gives back what the client printed and its exit code, so that the suite still runs one process per
invocation, as it runs any user's client.

    python -S -E woa_client_forward.py SOCKET DOCUMENT AGENT OPERATION INPUT_FILE CACERT
"""

import json
import os
import socket
import sys


def main() -> int:
    path, arguments = sys.argv[1], sys.argv[2:]
    request = json.dumps({"arguments": arguments, "environ": dict(os.environ)}).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(path)
        connection.sendall(request)
        connection.shutdown(socket.SHUT_WR)
        answer = bytearray()
        while chunk := connection.recv(65536):
            answer += chunk
    code, out, err = json.loads(answer)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
