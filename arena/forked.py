"""Half of a large computation in a forked copy of this process, on a machine's second core.

``arena standings`` on a large results folder reads one half of ``games.jsonl`` and fits
half of the bootstrap resamples in a copy (:mod:`arena.league.reading`,
:mod:`arena.stats.bootstrap`). The copy writes its result to an unnamed temporary file (gone
when closed, whatever happens) and leaves without running anything else; the caller reads the
file once the copy has ended well, and otherwise does the work itself: a copy that fails only
costs time. If the caller stops first (an error, Ctrl-C), the copy is killed and reaped.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import IO

Work = Callable[[IO[bytes]], None]


def second_core() -> bool:
    """True when a copy of this process can run beside it: Linux, a free CPU (on a 2-core
    machine already running two busy processes, a copy made ``arena standings`` slower, not
    faster: docs/performance.md), and no other Python thread (``arena run`` works out its
    standings in a worker thread while the bots end: a copy forked there could find a lock
    another thread held, such as the import lock, held forever).

    A CPU is free when fewer tasks than CPUs are runnable now, this one included, at each of
    a few looks a millisecond apart, and the load average over the last minute leaves half
    a CPU or more. The average alone lags: an idle machine that has just run a command (or
    a virtual machine's own bookkeeping) reads about 1 for a minute.
    """
    count = cores()
    return (
        _CAN_FORK
        and count >= 2
        and threading.active_count() == 1
        and _load() <= count - 0.5
        and _runnable_now() < count
    )


def _load() -> float:
    """Runnable tasks on this machine, on average over the last minute."""
    return os.getloadavg()[0]


LOOKS = 3


def _runnable_now() -> int:
    """The most tasks runnable at once (this one included) in :data:`LOOKS` looks at
    ``/proc/loadavg`` a millisecond apart; a large number where it cannot be read."""
    most = 0
    for look in range(LOOKS):
        if look:
            time.sleep(0.001)
        try:
            with open("/proc/loadavg", "rb") as handle:
                most = max(most, int(handle.read().split()[3].split(b"/")[0]))
        except (OSError, ValueError, IndexError):
            return 1 << 30
    return most


_CAN_FORK = hasattr(os, "fork") and sys.platform == "linux"


def cores() -> int:
    """CPUs this process may run on (1 where the system cannot say)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


class Forked:
    """``work(out)`` running in a forked copy, ``out`` an unnamed temporary file.

    Use it as a context manager: leaving it kills and reaps a copy still running and closes
    the file. ``started`` is False when no copy could be made (the caller does the work).
    """

    def __init__(self, work: Work) -> None:
        self._pid = -1
        try:
            self._out: IO[bytes] | None = tempfile.TemporaryFile()  # noqa: SIM115 (close())
        except OSError:  # no file to be had: no copy
            self._out = None
            return
        # Ctrl-C held back across the fork, so that it lands where each side expects it
        interrupts = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            self._pid = os.fork()
        except OSError:  # no process to be had: no copy
            self._pid = -1
        if self._pid == 0:  # the copy: do the work, leave without running anything else
            try:
                _run(work, self._out, interrupts)
            finally:
                os._exit(1)
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, interrupts)
        except BaseException:  # Ctrl-C held back is raised here: end the copy first
            self.close()
            raise

    @property
    def started(self) -> bool:
        return self._pid > 0

    def result(self) -> IO[bytes] | None:
        """Wait for the copy; its file, at the start, if it ended well, else None."""
        if self._pid <= 0:
            return None
        _, status = os.waitpid(self._pid, 0)
        self._pid = -1
        if status != 0 or self._out is None:
            return None
        self._out.seek(0)
        return self._out

    def close(self) -> None:
        if self._pid > 0:
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            self._pid = -1
        if self._out is not None:
            self._out.close()
            self._out = None

    def __enter__(self) -> Forked:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _run(work: Work, out: IO[bytes] | None, interrupts: set[int | signal.Signals]) -> None:
    """In the copy: Ctrl-C ends it at once (the caller, which hears it too, cleans up);
    ``work`` writes its result; exit status 0 only if it all went well."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, interrupts)
    assert out is not None
    work(out)
    out.flush()
    os._exit(0)
