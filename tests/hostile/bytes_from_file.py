"""Fuzz bot: answers every ``act`` by writing the raw bytes of the file named by its first
argument (then a newline), whatever they are."""

import sys

from _common import Message, serve

with open(sys.argv[1], "rb") as handle:
    PAYLOAD = handle.read()


def on_act(message: Message, acts: int) -> None:
    sys.stdout.buffer.write(PAYLOAD + b"\n")
    sys.stdout.buffer.flush()


serve(on_act)
