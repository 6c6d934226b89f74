"""Exit with one line naming the port when `make serve` could not listen on it (before the build).

    python tools/port_free.py 8000
"""

from __future__ import annotations

import socket
import sys

HOST = "127.0.0.1"


def problem(port: int, host: str = HOST) -> str | None:
    """Why a server could not listen on host:port, or None if it can."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as http.server does
        try:
            probe.bind((host, port))
        except OSError as error:
            return (f"port {port} on {host} is taken ({error.strerror}): stop what serves "
                    f"there, or choose another, e.g. make serve PORT={port + 1}")
    return None


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].isdigit() or not 0 < int(argv[0]) < 65536:
        print(f"usage: python tools/port_free.py PORT (1 to 65535), got {argv}", file=sys.stderr)
        return 2
    message = problem(int(argv[0]))
    if message:
        print(message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
