"""Hostile bot: at its first ``act`` forks a child that keeps stdin, stdout and stderr open
and sleeps, then exits at once (verdict: crash, noticed within a second, not after the
decision's deadline; the child must not outlive the game)."""

import os
import time

from _common import Message, report_identity, serve


def fork_and_exit(message: Message, acts: int) -> None:
    said, saying = os.pipe()
    if os.fork() == 0:
        report_identity("child")
        os.write(saying, b".")
        time.sleep(3600)
    # exit once the child has said where it lives: in the sandbox's own pid namespace, the
    # bot's exit ends the namespace and kills the child, maybe before it could say it
    os.read(said, 1)
    os._exit(0)


serve(fork_and_exit, on_hello=lambda message: report_identity("bot"))
