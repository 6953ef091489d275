"""The one signal policy of a league run, whichever way its blocks are played.

- SIGINT (Ctrl-C) and SIGTERM (:data:`STOP_SIGNALS`) both stop the run: no new game begins,
  the games in flight are dropped, and ``outcome.interrupted`` is set. The trio player takes
  them with ``trio.open_signal_receiver(*STOP_SIGNALS)``; the Dask client, which waits in
  blocking calls, as exceptions of the main thread (:func:`stops_raised`: KeyboardInterrupt
  and :class:`Stopped`).
- A game once written is stored and counted: a stop that comes while games are being stored
  takes effect once they are fsync'd and counted (:func:`stops_deferred`; the trio player
  shields its fsync).
- The clean-up (cancelling work, closing the bots' pools) is never cut short by a second
  stop (:func:`stops_ignored`): bots would be left running.
- Processes the run starts never take the terminal's Ctrl-C themselves: the run closes them
  (:func:`ctrl_c_kept_from_children`).

Off the main thread (a Dask client run in a worker thread of ``arena serve``'s loop), the
stops are the caller's: these context managers then change no signal handler (Python lets
only the main thread do so), and :func:`ctrl_c_kept_from_children` only blocks SIGINT in the
calling thread for what it starts.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextlib.contextmanager
def ctrl_c_kept_from_children() -> Iterator[None]:
    """Start worker processes that ignore Ctrl-C, without losing the client's Ctrl-C.

    SIGINT is blocked in this thread, so the threads started meanwhile (Dask's event loop)
    and the worker processes they spawn inherit it blocked: a Ctrl-C in the terminal reaches
    only the client, which then closes the pools itself (bye, then the group kill). A Ctrl-C
    that comes meanwhile (pending, or caught by another thread: the handler runs in this one)
    is raised when the block is left.
    """
    from multiprocessing import resource_tracker

    # Started by the thread that first spawns a process, the tracker unblocks SIGINT in that
    # thread afterwards (Dask's event loop: the workers it spawns then would not block it).
    resource_tracker.ensure_running()
    caught: list[int] = []
    main = _in_main_thread()
    if main:
        previous = signal.signal(signal.SIGINT, lambda signum, _: caught.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a pending Ctrl-C is caught here
        if main:
            signal.signal(signal.SIGINT, previous)
    if caught:
        signal.raise_signal(signal.SIGINT)


class Stopped(Exception):
    """SIGTERM, turned into an exception of the main thread like Ctrl-C's KeyboardInterrupt."""


@contextlib.contextmanager
def stops_raised() -> Iterator[None]:
    """Within: SIGTERM raises :class:`Stopped` in the main thread, as Ctrl-C raises
    KeyboardInterrupt (for a player that waits in blocking calls)."""

    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stopped

    if not _in_main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def stops_deferred() -> Iterator[None]:
    """A Ctrl-C or SIGTERM that comes while a block is stored takes effect once its games are
    appended, fsync'd and counted (not when storing it failed: that failure is reported)."""
    if not _in_main_thread():
        yield
        return
    caught: list[int] = []
    previous = {
        sig: signal.signal(sig, lambda signum, _: caught.append(signum)) for sig in STOP_SIGNALS
    }
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if caught:
        signal.raise_signal(caught[0])


@contextlib.contextmanager
def stops_ignored() -> Iterator[None]:
    """A second Ctrl-C or a SIGTERM must not cut the clean-up short (bots would be left)."""
    if not _in_main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, signal.SIG_IGN) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _in_main_thread() -> bool:
    """Whether signal handlers may be set here."""
    return threading.current_thread() is threading.main_thread()
