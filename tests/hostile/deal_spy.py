"""Hostile bot: remembers the games it is dealt. On the first ``act`` of each game it says
on stderr ``dealt: <process> <game id>``, the process named by a token of its own (pids
repeat in the sandbox's pid namespace). A process seated at one seed twice (two rotations
of a block, or one block at two tables) would know what the others hold from the first."""

import sys
import uuid

from _common import Message, play_first, serve

PROCESS = uuid.uuid4().hex
dealt: set[str] = set()


def on_act(message: Message, acts: int) -> Message:
    if message["game"] not in dealt:
        dealt.add(message["game"])
        sys.stderr.write(f"dealt: {PROCESS} {message['game']}\n")
        sys.stderr.flush()
    return play_first(message, acts)


serve(on_act)
