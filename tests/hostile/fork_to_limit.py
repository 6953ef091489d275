"""Hostile bot: before ``ready`` forks sleeping children until the kernel refuses (at most
64), says on stderr ``forks: uid=<its uid> made=<how many> refused=<why>``, then plays well.
Its children hold its ``processes`` limit (RLIMIT_NPROC) full while it lives; they end with
it."""

import os
import sys
import time

from _common import Message, serve

MOST = 64  # bounded even where the limit does not hold


def fork_to_limit(message: Message) -> None:
    made, refused = 0, "never"
    while made < MOST:
        try:
            child = os.fork()
        except OSError as exc:
            refused = exc.strerror or str(exc)
            break
        if child == 0:
            time.sleep(3600)
            os._exit(0)
        made += 1
    sys.stderr.write(f"forks: uid={os.getuid()} made={made} refused={refused}\n")
    sys.stderr.flush()


serve(on_hello=fork_to_limit)
