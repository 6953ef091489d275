"""The protocol loop shared by the hostile test bots (plain stdlib, no arena imports).

Each hostile bot is a small script that calls :func:`serve` with hooks that misbehave at a
chosen moment. Every script ignores its command-line arguments, so tests can append a unique
marker and find leftover processes with ``ps``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

Message = dict[str, Any]
Hook = Callable[[Message, int], "Message | None"]


def write(message: Message) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def play_first(message: Message, acts: int) -> Message:
    """A well-behaved answer: the first legal action, echoing the step."""
    return {"type": "action", "index": 0, "step": message["step"]}


def serve(
    on_act: Hook = play_first,
    on_hello: Callable[[Message], None] | None = None,
    on_bye: Callable[[], None] | None = None,
) -> None:
    """Answer ``hello`` and every ``act``; ``on_act`` may misbehave or return None to stay mute.

    ``acts`` counts the ``act`` messages this process has seen, over all its games.
    """
    acts = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if on_hello is not None:
                on_hello(message)
            write({"type": "ready", "name": "hostile", "version": "1"})
        elif kind == "act":
            acts += 1
            answer = on_act(message, acts)
            if answer is not None:
                write(answer)
        elif kind == "bye":
            if on_bye is not None:
                on_bye()
            return


def report_identity(who: str) -> None:
    """Say on stderr where this process lives, for tests that check nothing is left:
    ``identity: <who> pid=.. pgid=.. sid=.. cwd=..`` (inside a sandbox these are the
    sandbox's own numbers and paths)."""
    pid = os.getpid()
    sys.stderr.write(
        f"identity: {who} pid={pid} pgid={os.getpgid(0)} sid={os.getsid(0)} cwd={os.getcwd()}\n"
    )
    sys.stderr.flush()
