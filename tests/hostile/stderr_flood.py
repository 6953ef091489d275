"""Hostile bot: writes 100 MB to stderr before ``ready``, then plays well (no verdict; the
log is capped)."""

import sys

from _common import Message, serve


def flood(message: Message) -> None:
    piece = b"e" * (1 << 20)
    for _ in range(100):
        sys.stderr.buffer.write(piece)
    sys.stderr.buffer.flush()


serve(on_hello=flood)
