"""Hostile bot: before ``ready`` forks a child that calls ``setsid()`` (leaving the bot's
session and process group) and sleeps; the bot then plays well and exits on ``bye`` (no
verdict; the escaped child must still end with the bot's process)."""

import os
import time

from _common import Message, report_identity, serve


def escape(message: Message) -> None:
    report_identity("bot")
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:  # and a grandchild, so that more than one layer is adopted
            report_identity("grandchild")
            time.sleep(3600)
        report_identity("child")
        time.sleep(3600)


serve(on_hello=escape)
