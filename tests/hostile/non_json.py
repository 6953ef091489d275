"""Hostile bot: answers ``act`` with a line that is not JSON (verdict: protocol)."""

import sys

from _common import Message, serve


def on_act(message: Message, acts: int) -> None:
    sys.stdout.write("take one, please\n")
    sys.stdout.flush()


serve(on_act)
