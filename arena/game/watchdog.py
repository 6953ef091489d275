"""A guard process that kills every bot process group if the referee dies, even by SIGKILL.

Bot processes are started from trio's worker threads, so ``PR_SET_PDEATHSIG`` (which fires
when the *thread* that forked the child exits) cannot tie them to the referee. Instead the
referee starts one small watchdog from its main thread and tells it, over a pipe, the
process group of every bot it starts and ends. When that pipe reaches end-of-file (the
referee exited, however it exited) the watchdog ends every group still registered: first a
SIGTERM to its leader, the bot's keeper (:mod:`arena.game.keeper`), which kills every
descendant of the bot, also those that left the group; then, after at most two seconds, a
SIGKILL to the whole group. A referee that ends well says so first (a ``0`` line); if it did
not, the watchdog also removes the bots' folder it was given, which the referee could not.
"""

from __future__ import annotations

import subprocess
import sys
from types import TracebackType

_GUARD = r"""
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the referee's to handle
groups = set()
ended_well = False
for line in sys.stdin:
    pgid = int(line)
    if pgid > 0:
        groups.add(pgid)
    elif pgid < 0:
        groups.discard(-pgid)
    else:
        ended_well = True
for pgid in groups:
    try:
        os.killpg(pgid, signal.SIGCONT)  # a bot stopped outside its turn, keeper and all
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
if not ended_well and len(sys.argv) > 1:  # the referee died: its bots' folder is left
    import shutil
    shutil.rmtree(sys.argv[1], ignore_errors=True)
"""


class Watchdog:
    """``with Watchdog() as guard:`` then ``guard.watch(pgid)`` / ``guard.forget(pgid)``;
    ``folder``: the bots' folder, removed if the referee dies."""

    def __init__(self, folder: str | None = None) -> None:
        self._process = subprocess.Popen(
            # the standard library alone: a quick start
            [sys.executable, "-I", "-S", "-c", _GUARD, *([folder] if folder else [])],
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
        """Kill whatever is still registered and wait for the watchdog to finish (the
        caller removes its own folder)."""
        self._tell(0)
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
