"""Hostile bot: a legal answer with a 100,000-character note every time (no verdict; the
record keeps a bounded part)."""

from _common import Message, play_first, serve


def on_act(message: Message, acts: int) -> Message:
    return play_first(message, acts) | {"note": f"act {acts} " + "n" * 100_000}


serve(on_act)
