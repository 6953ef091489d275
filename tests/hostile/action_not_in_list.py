"""Hostile bot: answers with an action object that is not in the legal list (verdict:
illegal)."""

from _common import Message, serve


def on_act(message: Message, acts: int) -> Message:
    return {"type": "action", "action": {"type": "cheat", "n": 99}, "step": message["step"]}


serve(on_act)
