"""Hostile bot: answers its second decision after the limit (with the right ``step``), the
others at once (verdict: one timeout; the stale answer is skipped, not taken as the next)."""

import time

from _common import Message, play_first, serve


def on_act(message: Message, acts: int) -> Message:
    if acts == 2:
        # just past the limit, so the next answer still fits in its own move_ms
        time.sleep((message["time_ms"] + message["bank_ms"]) / 1000 + 0.05)
    return play_first(message, acts)


serve(on_act)
