"""Hostile bot: starts well, then answers its first ``act`` with the word "disqualified" (a
protocol fault whose note quotes it; the standings must not read it as a disqualification)."""

import sys

from _common import Message, play_first, serve


def say_it(message: Message, acts: int) -> Message | None:
    if acts == 1:
        sys.stdout.write("disqualified\n")
        sys.stdout.flush()
        return None
    return play_first(message, acts)


serve(on_act=say_it)
