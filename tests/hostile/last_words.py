"""Test bot (not hostile): says on stderr ``started <token>`` as it answers ``hello`` and
``last words <token>`` when told ``bye``, the token naming the process (pids repeat in the
sandbox's pid namespace). A referee that keeps a bot's stderr must keep both."""

import sys
import uuid

from _common import Message, serve

PROCESS = uuid.uuid4().hex


def say(words: str) -> None:
    sys.stderr.write(f"{words} {PROCESS}\n")
    sys.stderr.flush()


def on_hello(message: Message) -> None:
    say("started")


serve(on_hello=on_hello, on_bye=lambda: say("last words"))
