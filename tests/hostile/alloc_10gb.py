"""Hostile bot: tries to allocate 10 GB at its first ``act`` (verdict: crash under a memory
limit: the allocation fails and the process exits)."""

from _common import Message, serve


def on_act(message: Message, acts: int) -> None:
    hog = bytearray(10 * (1 << 30))
    hog[-1] = 1


serve(on_act)
