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

#: What the forwarder waits for the daemon (the suite's deadline on the process is shorter) and
#: reads of its answer.
SECONDS = 130.0
MAX_ANSWER = 64 * 1024 * 1024


def main() -> int:
    path, arguments = sys.argv[1], sys.argv[2:]
    request = json.dumps({"arguments": arguments, "environ": dict(os.environ)}).encode()
    answer = bytearray()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.settimeout(SECONDS)
            connection.connect(path)
            connection.sendall(request)
            connection.shutdown(socket.SHUT_WR)
            while len(answer) <= MAX_ANSWER and (chunk := connection.recv(65536)):
                answer += chunk
        code, out, err = (
            json.loads(answer)
            if len(answer) <= MAX_ANSWER
            else (1, "", f"woa-client forwarder: an answer over {MAX_ANSWER:,} bytes\n")
        )
    except (OSError, ValueError) as error:  # no daemon, no answer in time, or not its answer
        code, out, err = 1, "", f"woa-client forwarder: {error}\n"
    sys.stdout.write(out)
    sys.stderr.write(err)
    return int(code)


if __name__ == "__main__":
    raise SystemExit(main())
