"""Hostile bot: answers ``act`` with a note that is not a string (verdict: protocol)."""

from _common import Message, serve


def on_act(message: Message, acts: int) -> Message:
    return {"type": "action", "index": 0, "step": message["step"], "note": {"eval": 1}}


serve(on_act)
