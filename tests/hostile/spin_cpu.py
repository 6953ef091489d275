"""Hostile bot: spins the CPU forever at its first ``act`` (verdict: timeout; the CPU-seconds
limit ends it if nothing else does)."""

from _common import Message, serve


def on_act(message: Message, acts: int) -> None:
    n = 0
    while True:
        n += 1


serve(on_act)
