"""Run a league in this process: ``jobs`` games at once on one trio loop, bot pools, resume,
clean stop.

Finished games are stored the moment they end; a stopped run (Ctrl-C, SIGTERM) keeps them
and drops only the games in flight, and running the same config again plays only what is
missing. Every bot process is ended before :func:`run_league` returns, on every path.

The results folder, the feed and the count are the driver's
(:class:`~arena.league.driver.LeagueDriver`); this module plays its blocks on a
:func:`~arena.league.pooled.league_table`, the seam every executor shares (a Dask worker uses
it too: :mod:`arena.league.worker`).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from functools import partial
from pathlib import Path

import trio

from arena.config import BotSpec, LeagueConfig
from arena.errors import ConfigError
from arena.game.botproc import StderrLog, answer_spin
from arena.game.hosting import BotHost, hosting
from arena.game.spec import GameSpec
from arena.game.table import PersonSeats, Table
from arena.league.driver import WAIT_S, FeedMaker, LeagueDriver, LeagueOutcome, ProgressHook
from arena.league.groupsync import GroupSync
from arena.league.layout import Warn
from arena.league.pooled import league_table
from arena.league.stopping import STOP_SIGNALS
from arena.record import GameRecord


async def run_league(
    config: LeagueConfig,
    folder: Path,
    *,
    jobs: int,
    fresh: bool = False,
    progress: ProgressHook | None = None,
    say: Warn | None = None,
    transcripts: bool = False,
    replay: frozenset[str] = frozenset(),
    people: PersonSeats | None = None,
    finish: Callable[[LeagueOutcome], None] | None = None,
    feed: FeedMaker | None = None,
    on_stored: Callable[[GameRecord], None] | None = None,
    on_open: Callable[[list[GameRecord]], None] | None = None,
    open_off_loop: bool = False,
    stop_signals: bool = True,
) -> LeagueOutcome:
    """Play every missing game of ``config`` into ``folder``; see the module docstring.

    ``finish``, when given, is called (in a worker thread) with the outcome of a run that
    was not stopped, once its games are stored and before this returns: what the caller
    does with the results (standings, a report) overlaps the end of the bot processes.

    ``say`` hears status lines: each step of a sequential test, and stored lines that are
    not games (skipped). The games of the bots in ``replay`` are moved aside and played
    again; any other bot whose fingerprint changed since its games were stored is refused
    (:class:`~arena.errors.ResultsError`).

    A league with a person in it (``cmd = "human"``) needs ``people``, the factory of their
    seats (the terminal lives in a higher layer); give it ``jobs = 1`` so that one person
    never has two games in front of them at once.

    ``feed`` and ``on_stored``: a caller's own choice of blocks, and who hears of each
    stored game, and who hears of the games already stored once the folder is open
    (``on_open``: :class:`~arena.league.driver.LeagueDriver`).

    With ``open_off_loop``, the folder is opened in a worker thread, so that other tasks of
    the caller's trio loop go on meanwhile (a web server beside the league: ``arena serve``).
    Without ``stop_signals``, Ctrl-C and SIGTERM are the caller's: it cancels this call (the
    games in flight are dropped, as by a stop) rather than this call stopping on its own.
    """
    if config.people and people is None:
        raise ConfigError(
            f'{config.source}: {", ".join(config.people)} (cmd = "human") can only play '
            "in a league run from a terminal with arena run"
        )
    opening = partial(
        LeagueDriver,
        config,
        folder,
        fresh=fresh,
        say=say,
        replay=replay,
        transcripts=transcripts,
        progress=progress,
        feed=feed,
        on_stored=on_stored,
        on_open=on_open,
    )
    driver = await trio.to_thread.run_sync(opening) if open_off_loop else opening()
    run = _TablePlayer(driver, people)
    try:
        stops = trio.open_signal_receiver(*STOP_SIGNALS) if stop_signals else _no_signals()
        with stops as signals:
            async with hosting(spin_s=answer_spin(max(1, jobs))) as host:
                await run.play(host, signals, max(1, jobs))
                if finish is not None and not run.outcome.interrupted:
                    host.close_all()  # the processes end in their own tasks meanwhile
                    await trio.to_thread.run_sync(finish, run.outcome)
    finally:
        driver.close()
    return run.outcome


@contextlib.contextmanager
def _no_signals() -> Iterator[AsyncIterator[int]]:
    """In place of a signal receiver when the caller handles the stops: nothing arrives."""

    async def never() -> AsyncIterator[int]:
        await trio.sleep_forever()
        yield 0  # (never reached: makes this an async generator)

    yield never()


class _TablePlayer:
    """Plays a driver's blocks on trio tables in this process, ``jobs`` games at once."""

    def __init__(
        self,
        driver: LeagueDriver,
        people: PersonSeats | None = None,
    ) -> None:
        self.driver = driver
        self.config = driver.config
        self.store = driver.store
        self.outcome = driver.outcome
        self.transcripts = driver.transcripts
        self.people = people
        self.running: list[GameSpec] = []  # the games in flight
        self.group_sync = GroupSync(self.store.sync)

    async def play(self, host: BotHost, signals: AsyncIterator[int], jobs: int) -> None:
        table = league_table(
            self.config, host, self._log, transcripts=self.transcripts, people=self.people
        )
        feed = self.driver.feed
        async with trio.open_nursery() as run:
            run.start_soon(self._watch_signals, signals, run.cancel_scope)
            async with trio.open_nursery() as games:  # ends when the last game is stored
                slots = trio.Semaphore(jobs)
                for block in self.driver.blocks():
                    if not block:  # the feed has none ready yet
                        await trio.sleep(WAIT_S)
                        continue
                    begun = False
                    for spec in block:
                        # its bots start while it waits for a slot, next to the games in flight
                        table.warm([*self.running, spec], jobs)
                        await slots.acquire()
                        # the feed handed out this block before the test took the one before
                        # (at jobs = 1 it has now): a decision meanwhile starts no new block
                        if feed.stop_reason and not begun:
                            slots.release()
                            break
                        begun = True
                        self.running.append(spec)
                        games.start_soon(self._play_one, table, spec, slots)
                self.group_sync.hurry()  # the games in flight are the last ones
            run.cancel_scope.cancel()  # stops the signal watcher
        self.driver.finish(
            {name: pool.last_failure for name, pool in table.pools.items() if pool.disqualified}
        )

    def _log(self, bot: BotSpec) -> StderrLog:
        return StderrLog(self.store.log_path(bot.name), bot.limits.stderr_bytes)

    async def _watch_signals(self, signals: AsyncIterator[int], scope: trio.CancelScope) -> None:
        async for _ in signals:
            self.outcome.interrupted = True
            scope.cancel()
            return

    async def _play_one(self, table: Table, spec: GameSpec, slots: trio.Semaphore) -> None:
        """Play one game and store it.

        The slot is given back once the game is written, before its fsync: the next game
        starts while the disk works (at ``jobs = 1`` it would otherwise wait for it). The
        block is handed to the feed before the slot is free, so a sequential test has seen
        it before the next game starts, as when the slot waited for the fsync. The game
        counts (progress, ``played``) once it is on disk: one fsync covers the games written
        within :data:`~arena.league.groupsync.SYNC_EVERY_S` (:class:`GroupSync`). A game
        once written is stored: a stop (Ctrl-C) waits for its fsync (at most that long, and
        the fsync itself) and counts it, so what a stopped run counts is what the file holds.
        With ``transcripts``, the game's transcript is written and fsync'd before its line
        (:meth:`~arena.league.results.ResultsDir.write_transcripts`; the slot waits for it).
        """
        try:
            played = await table.play(spec)
            self.store.check_ready(played.readies())  # before its game is in the file
            record = played.record
            if self.transcripts:  # on disk before the game is: a stored game has its transcript
                await trio.to_thread.run_sync(
                    self.store.write_transcripts, spec.id, played.transcripts()
                )
            self.store.append(record)
            self.driver.collect(record)
        finally:
            self.running.remove(spec)
            slots.release()
        with trio.CancelScope(shield=True):  # written: a stop must not leave it uncounted
            await self.group_sync.synced()  # fsync in a thread, shared with the games beside it
        self.driver.count(record)
