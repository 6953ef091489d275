"""Hostile bot: plays two decisions, then dies on the third (verdict: crash)."""

import os

from _common import Message, play_first, serve


def on_act(message: Message, acts: int) -> Message:
    if acts >= 3:
        os._exit(1)
    return play_first(message, acts)


serve(on_act)
