"""Test bot for the clock: sleeps ``--ms`` before every answer and before ``ready``
(``--start-ms``), and logs each ``act``'s ``game step time_ms bank_ms`` to stderr."""

import argparse
import sys
import time

from _common import Message, play_first, serve

parser = argparse.ArgumentParser()
parser.add_argument("--ms", type=int, default=0)
parser.add_argument("--start-ms", type=int, default=0)
args, _marker = parser.parse_known_args()


def on_hello(message: Message) -> None:
    time.sleep(args.start_ms / 1000)


def on_act(message: Message, acts: int) -> Message:
    sys.stderr.write(
        f"act {message['game']} {message['step']} {message['time_ms']} {message['bank_ms']}\n"
    )
    sys.stderr.flush()
    time.sleep(args.ms / 1000)
    return play_first(message, acts)


serve(on_act, on_hello=on_hello)
