"""Where bot processes live: ``async with hosting() as host``.

Every tool that runs bots (a league, ``arena play``, ``arena check-bot``, ``arena
replay-seat``) runs them inside one host: a private temporary folder for their working
directories, a :class:`~arena.game.watchdog.Watchdog` that kills them if the referee dies,
and a nursery that owns them. Every process of the host is ended before the ``async with``
block is left, on every path (an error, a cancellation, Ctrl-C), and the folder is removed.
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import trio

from arena.config import BotSpec
from arena.errors import BotFault, ResourceShortage
from arena.game.botproc import BotPool, BotProcess, StderrLog, host_bot
from arena.game.watchdog import Watchdog


class BotHost:
    """The processes of one ``hosting`` block: pools of reusable processes, or single ones."""

    def __init__(
        self, workroot: Path, guard: Watchdog, nursery: trio.Nursery, spin_s: float = 0.0
    ) -> None:
        self.workroot = workroot
        self.spin_s = spin_s  # see BotProcess.spin_s
        self._guard = guard
        self._nursery = nursery
        self._pools: list[BotPool] = []
        self._singles: list[BotProcess] = []

    def pool(self, bot: BotSpec, hello: bytes, log: StderrLog | None = None) -> BotPool:
        """A pool of ``bot``'s processes, each greeted with ``hello``; stderr goes to ``log``
        (default: dropped). Its processes' folders are under a folder of its own: two bot
        names can make the same folder name (``ann smith`` and ``ann_smith``)."""
        pool = BotPool(
            bot,
            hello,
            self.workroot / f"pool-{len(self._pools)}",
            log or StderrLog(None, 0),
            self._nursery,
            self._guard,
            spin_s=self.spin_s,
        )
        self._pools.append(pool)
        return pool

    async def start(self, bot: BotSpec, hello: bytes, log: StderrLog) -> BotProcess:
        """One process of ``bot`` outside any pool, handshaken; raises the fault that
        prevented it (a :class:`~arena.errors.BotStartup`, or the referee's own
        :class:`~arena.errors.ResourceShortage`)."""
        workdir = self.workroot / f"single-{len(self._singles)}"
        outcome = await self._nursery.start(host_bot, bot, hello, workdir, log, self._guard)
        if isinstance(outcome, BotFault | ResourceShortage):
            raise outcome
        self._singles.append(outcome)
        return outcome

    def close_all(self) -> None:
        """End every process of the host (each ends in its own task, within ``bye_ms``)."""
        for pool in self._pools:
            pool.close_all()
        for process in self._singles:
            process.close()


@asynccontextmanager
async def hosting(prefix: str = "arena-bots-", spin_s: float = 0.0) -> AsyncIterator[BotHost]:
    """A :class:`BotHost` whose processes are all gone when the block is left; its pools'
    processes poll ``spin_s`` for quick answers (:func:`~arena.game.botproc.answer_spin`)."""
    with tempfile.TemporaryDirectory(prefix=prefix) as workroot, Watchdog(workroot) as guard:
        try:
            async with trio.open_nursery() as nursery:
                host = BotHost(Path(workroot), guard, nursery, spin_s)
                try:
                    yield host
                finally:
                    host.close_all()
        except BaseExceptionGroup as group:
            # the processes' tasks report faults as values: an error here is the caller's
            # own (a UserError, a Ctrl-C), and it leaves the block as it was raised
            if len(group.exceptions) == 1:
                raise group.exceptions[0] from None
            raise
