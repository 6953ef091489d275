"""Hostile bot: at its first ``act`` forks three children that each fill 100 MB and sleep,
then plays on: each process stays under ``memory_mb`` = 256 (address space per process),
all of them together do not. Says ``split: <n> children filled`` on stderr. Its control
group counts them together: the kernel kills what is over, and the referee gives the
``memory`` verdict."""

import os
import sys
import time

from _common import Message, play_first, serve

CHILDREN = 3
MB = 100


def on_act(message: Message, acts: int) -> Message:
    if acts == 1:
        filled = 0
        for _ in range(CHILDREN):
            read, write = os.pipe()
            if os.fork() == 0:
                os.close(read)
                hog = bytearray(MB << 20)  # zero-filled: every page touched
                hog[-1] = 1
                os.write(write, b"x")
                time.sleep(3600)
                os._exit(0)
            os.close(write)
            filled += len(os.read(read, 1))  # b"" when the child was killed first
            os.close(read)
        sys.stderr.write(f"split: {filled} children filled\n")
        sys.stderr.flush()
    return play_first(message, acts)


serve(on_act)
