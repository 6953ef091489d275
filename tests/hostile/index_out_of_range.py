"""Hostile bot: picks an index past the end of the legal list (verdict: illegal). Says who
it is at ``hello``, so a test can count its processes."""

from _common import Message, report_identity, serve


def on_act(message: Message, acts: int) -> Message:
    return {"type": "action", "index": len(message["legal"]), "step": message["step"]}


serve(on_act, on_hello=lambda message: report_identity("bot"))
