"""Sandbox test bot: before ``ready`` tries what a sandbox must refuse, reports each try on
stderr (``probe: <what> refused|ok: <detail>``), then plays well.

Arguments: ``--write=PATH`` (outside its folder), ``--read=PATH`` and ``--list=PATH`` (any
number of each; one word each, so that the sandbox does not show the paths as files named on
the bot's command line), then anything (a marker).
"""

import os
import socket
import sys

from _common import Message, serve


def say(line: str) -> None:
    sys.stderr.write(f"probe: {line}\n")


def paths(flag: str) -> list[str]:
    return [arg.split("=", 1)[1] for arg in sys.argv[1:] if arg.startswith(f"{flag}=")]


def probe(message: Message) -> None:
    try:
        with socket.create_connection(("1.1.1.1", 53), timeout=1):
            say("network ok")
    except OSError as exc:
        say(f"network refused: {exc}")
    for path in paths("--write"):
        try:
            with open(path, "w") as handle:
                handle.write("escaped")
            say(f"outside write ok: {path}")
        except OSError as exc:
            say(f"outside write refused: {path}: {exc.strerror}")
    for path in paths("--read"):
        try:
            with open(path, "rb") as handle:
                handle.read(1)
            say(f"read ok: {path}")
        except OSError as exc:
            say(f"read refused: {path}: {exc.strerror}")
    for path in paths("--list"):
        try:
            say(f"list ok: {path}: {sorted(os.listdir(path))}")
        except OSError as exc:
            say(f"list refused: {path}: {exc.strerror}")
    with open("inside.txt", "w") as handle:
        handle.write("fine")
    say(f"inside write ok: uid={os.getuid()} cwd={os.getcwd()} home={os.environ.get('HOME')}")
    sys.stderr.flush()


serve(on_hello=probe)
