"""Hostile bot: forks a child that keeps stdin, stdout and stderr open and sleeps, then plays
well and exits on ``bye`` (no verdict; the child must not outlive the league)."""

import os
import time

from _common import Message, serve


def fork(message: Message) -> None:
    if os.fork() == 0:
        time.sleep(3600)
        os._exit(0)


serve(on_hello=fork)
