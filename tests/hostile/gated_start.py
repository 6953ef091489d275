"""Test bot for the pools: at ``hello`` each process takes the next free ticket in FOLDER
(``ticket-0``, ``ticket-1``, ...); the first answers ``ready`` at once, every later one only
once FOLDER/open exists. Then it plays the first legal action.

Run as ``python gated_start.py FOLDER MARKER``.
"""

import os
import sys
import time
from pathlib import Path

from _common import Message, serve

FOLDER = Path(sys.argv[1])


def on_hello(message: Message) -> None:
    number = 0
    while True:
        try:
            os.close(os.open(FOLDER / f"ticket-{number}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            break
        except FileExistsError:
            number += 1
    while number > 0 and not (FOLDER / "open").exists():
        time.sleep(0.01)


serve(on_hello=on_hello)
