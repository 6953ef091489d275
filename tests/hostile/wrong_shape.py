"""Hostile bot: answers ``act`` with valid JSON of the wrong shape (verdict: protocol)."""

from _common import Message, serve


def on_act(message: Message, acts: int) -> Message:
    return {"type": "action", "index": "0", "step": message["step"]}


serve(on_act)
