"""Sandbox test bot: before ``ready`` tries to open a network connection and to write a file
outside its working directory (first argument: that path), reports both on stderr, then plays
well."""

import socket
import sys

from _common import Message, serve


def probe(message: Message) -> None:
    try:
        with socket.create_connection(("1.1.1.1", 53), timeout=1):
            sys.stderr.write("probe: network open\n")
    except OSError as exc:
        sys.stderr.write(f"probe: network refused: {exc}\n")
    try:
        with open(sys.argv[1], "w") as handle:
            handle.write("escaped")
        sys.stderr.write("probe: outside write ok\n")
    except OSError as exc:
        sys.stderr.write(f"probe: outside write refused: {exc}\n")
    with open("inside.txt", "w") as handle:
        handle.write("fine")
    sys.stderr.write("probe: inside write ok\n")
    sys.stderr.flush()


serve(on_hello=probe)
