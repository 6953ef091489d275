"""Group commit: one fsync of the results file covers every game written before it started.

A league at ``--jobs 1`` with short games finishes a game every few milliseconds. An fsync
per game (0.4-0.7 ms on the development machine) then runs beside the next game's first
questions, and its thread and the kernel's journal work take a core from the referee or
the bot at the worst moment (measured: the first two questions of a little-everdell game
were the slow ones). :class:`GroupSync` starts at most one fsync per ``every_s``; a game
written meanwhile waits for the next one, which covers it and every game written before
that fsync started. Once no game is left to start (:meth:`GroupSync.hurry`), the spacing
has nothing left to protect and each fsync starts at once. Games still count only once
they are on disk; a machine crash (not a killed referee: written lines survive that) loses
at most the games of the last ``every_s``.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

SYNC_EVERY_S = 0.05  # at most 20 fsyncs a second; a game waits at most this long to count


class GroupSync:
    """``await group.synced()`` after writing a game: it returns once an fsync that started
    after the write has returned.

    ``sync`` is the blocking fsync; it runs in a worker thread. The first caller that finds
    no fsync running becomes the one that runs it (after the rest of ``every_s`` since the
    last one started); the others wait for it. A caller that is cancelled hands the duty to
    the next waiter; an fsync that fails raises in every caller it was to cover.
    """

    def __init__(self, sync: Callable[[], None], every_s: float = SYNC_EVERY_S) -> None:
        self._sync = sync
        self._every_s = every_s
        self._written = 0  # games written so far
        self._covered = 0  # games on disk: those written before the last fsync started
        self._running = False
        self._last_start = -float("inf")
        self._finished = trio.Event()  # set when the running fsync ends (a new one each)
        self._failure: BaseException | None = None
        self._spacing = trio.CancelScope()  # the wait before the next fsync

    def hurry(self) -> None:
        """No game is left to start: the next fsyncs start at once, without the spacing."""
        self._every_s = 0.0
        self._spacing.cancel()

    async def synced(self) -> None:
        """Wait until everything written so far is on disk."""
        self._written += 1
        wanted = self._written
        while self._covered < wanted:
            if self._failure is not None:
                raise self._failure
            if self._running:
                await self._finished.wait()
                continue
            await self._run_one()

    async def _run_one(self) -> None:
        self._running = True
        try:
            with trio.CancelScope(deadline=self._last_start + self._every_s) as self._spacing:
                await trio.sleep_forever()
            self._last_start = trio.current_time()
            covers = self._written
            try:
                await trio.to_thread.run_sync(self._sync)
            except Exception as exc:
                self._failure = exc
                raise
            self._covered = covers
        finally:
            self._running = False
            finished, self._finished = self._finished, trio.Event()
            finished.set()
