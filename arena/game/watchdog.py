"""A guard process that kills every bot process group if the referee dies, even by SIGKILL.

Bot processes are started from trio's worker threads, so ``PR_SET_PDEATHSIG`` (which fires
when the *thread* that forked the child exits) cannot tie them to the referee. Instead the
referee starts one small watchdog from its main thread and tells it, over a pipe, the
process group of every bot it starts and ends. When that pipe reaches end-of-file (the
referee exited, however it exited) the watchdog ends every group still registered: first a
SIGTERM to its leader, the bot's keeper (:mod:`arena.game.keeper`), which kills every
descendant of the bot, also those that left the group; then, after at most two seconds, a
SIGKILL to the whole group.
"""

from __future__ import annotations

import subprocess
import sys
from types import TracebackType

_GUARD = r"""
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the referee's to handle
groups = set()
for line in sys.stdin:
    pgid = int(line)
    if pgid > 0:
        groups.add(pgid)
    else:
        groups.discard(-pgid)
for pgid in groups:
    try:
        os.kill(pgid, signal.SIGTERM)
    except OSError:
        pass
deadline = time.monotonic() + 2
for pgid in groups:
    try:
        while time.monotonic() < deadline:
            os.killpg(pgid, 0)
            time.sleep(0.02)
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
"""


class Watchdog:
    """``with Watchdog() as guard:`` then ``guard.watch(pgid)`` / ``guard.forget(pgid)``."""

    def __init__(self) -> None:
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _GUARD],  # the standard library alone: a quick start
            stdin=subprocess.PIPE,
            start_new_session=True,
        )

    def _tell(self, value: int) -> None:
        stdin = self._process.stdin
        if stdin is not None and not stdin.closed:
            stdin.write(f"{value}\n".encode())
            stdin.flush()

    def watch(self, pgid: int) -> None:
        self._tell(pgid)

    def forget(self, pgid: int) -> None:
        self._tell(-pgid)

    def close(self) -> None:
        """Kill whatever is still registered and wait for the watchdog to finish."""
        if self._process.stdin is not None and not self._process.stdin.closed:
            self._process.stdin.close()
        self._process.wait()

    def __enter__(self) -> Watchdog:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
