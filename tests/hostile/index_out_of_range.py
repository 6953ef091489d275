"""Hostile bot: picks an index past the end of the legal list (verdict: illegal)."""

from _common import Message, serve


def on_act(message: Message, acts: int) -> Message:
    return {"type": "action", "index": len(message["legal"]), "step": message["step"]}


serve(on_act)
