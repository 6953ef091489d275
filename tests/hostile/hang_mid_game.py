"""Hostile bot: answers one decision, then stops answering but keeps reading (verdict:
timeout)."""

from _common import Message, play_first, serve


def on_act(message: Message, acts: int) -> Message | None:
    return play_first(message, acts) if acts == 1 else None


serve(on_act)
