"""Hostile bot: plays well but ignores ``bye``, SIGTERM and end of input (no verdict; killed
after ``bye_ms``)."""

import signal
import time

from _common import serve


def stay() -> None:
    while True:
        time.sleep(3600)


signal.signal(signal.SIGTERM, signal.SIG_IGN)
serve(on_bye=stay)
stay()
