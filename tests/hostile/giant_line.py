"""Hostile bot: answers ``act`` with 100 MB and no newline, then waits (verdict: protocol).

The line is written in 1 MiB pieces, so this process stays small and a memory measurement of
the referee is not confused by it.
"""

import sys
import time

from _common import Message, serve

TOTAL = 100 * (1 << 20)


def on_act(message: Message, acts: int) -> None:
    piece = b"x" * (1 << 20)
    for _ in range(TOTAL // len(piece)):
        sys.stdout.buffer.write(piece)
        sys.stdout.buffer.flush()
    time.sleep(3600)


serve(on_act)
