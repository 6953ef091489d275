"""Hostile bot: closes its stdout at the first ``act`` and keeps running (verdict: crash)."""

import os
import sys
import time

from _common import Message, serve


def on_act(message: Message, acts: int) -> None:
    sys.stdout.flush()
    os.close(1)
    time.sleep(3600)


serve(on_act)
