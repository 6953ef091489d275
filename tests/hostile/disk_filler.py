"""Hostile bot: at its first ``act`` writes 1 MiB files into its working folder until a
write fails or it has written the size given as ``--mb N`` (default 4096, a test's safety
net on a machine without the sandbox), then keeps playing (under the sandbox its private
/tmp is full; without it the referee finds the folder too big after the game)."""

import sys

from _common import Message, play_first, serve

LIMIT_MB = int(sys.argv[sys.argv.index("--mb") + 1]) if "--mb" in sys.argv else 4096


def fill(message: Message, acts: int) -> Message:
    if acts == 1:
        block = b"x" * (1 << 20)
        written = 0
        try:
            while written < LIMIT_MB:
                with open(f"fill-{written}", "wb") as handle:
                    handle.write(block)
                written += 1
            sys.stderr.write(f"filler: wrote {written} MB\n")
        except OSError as exc:
            sys.stderr.write(f"filler: stopped after {written} MB: {exc.strerror}\n")
        sys.stderr.flush()
    return play_first(message, acts)


serve(fill)
