"""A progress line for long runs: games done/total, rate and ETA, on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class Progress:
    """Redraws one line on a terminal; elsewhere prints a line every ``every_s`` seconds."""

    def __init__(self, label: str, stream: TextIO | None = None, every_s: float = 5.0) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.every_s = every_s
        self.started = time.monotonic()
        self.first_done: int | None = None
        self.last_print = 0.0
        self.drawn = False  # a line is on the terminal without its newline

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if self.first_done is None:
            self.first_done = done - 1  # games skipped on resume do not count for the rate
        final = done >= total
        if not self.tty and not final and now - self.last_print < self.every_s:
            return
        self.last_print = now
        elapsed = max(now - self.started, 1e-9)
        rate = (done - self.first_done) / elapsed
        eta = (total - done) / rate if rate > 0 else 0.0
        width = 24
        filled = width * done // max(total, 1)
        bar = "#" * filled + "-" * (width - filled)
        count = f"{done:,}/{total:,} games"  # as the first line's "9,000 games scheduled"
        line = f"{self.label} [{bar}] {count}  {rate:.1f} games/s  ETA {_clock(eta)}"
        if self.tty:
            self.stream.write("\r" + line + ("\n" if final else ""))
            self.drawn = not final
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """End the redrawn line if one is drawn: a run stopped before its last game (Ctrl-C,
        a decided SPRT) prints what follows on a line of its own."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
