"""Hostile bot: answers ``act`` naming the step as a string (verdict: protocol, at once:
the referee must not wait for another answer)."""

from _common import Message, serve


def on_act(message: Message, acts: int) -> Message:
    return {"type": "action", "index": 0, "step": str(message["step"])}


serve(on_act)
