"""Run a league: ``jobs`` games at once on one trio loop, bot pools, resume, clean stop.

Finished games are stored the moment they end; a stopped run (Ctrl-C, SIGTERM) keeps them
and drops only the games in flight, and running the same config again plays only what is
missing. Every bot process is ended before :func:`run_league` returns, on every path.

Games are played on a :func:`~arena.league.pooled.league_table`, the seam every executor
shares (a Dask worker uses it too: :mod:`arena.league.worker`).
"""

from __future__ import annotations

import signal
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import trio

from arena.config import BotSpec, LeagueConfig
from arena.errors import ConfigError
from arena.game.botproc import StderrLog, answer_spin
from arena.game.hosting import BotHost, hosting
from arena.game.spec import GameSpec
from arena.game.table import PersonSeats, Table
from arena.league.fingerprint import fingerprint
from arena.league.groupsync import GroupSync
from arena.league.layout import LEAGUE, Warn
from arena.league.pooled import league_table
from arena.league.results import ResultsDir, read_league
from arena.league.schedule import Shape, game_count, iter_blocks, known_tables, misplaced
from arena.league.transcripts import has_complete_transcripts
from arena.record import GameRecord
from arena.stats.sprt import Sprt, out_of_budget


@dataclass
class LeagueOutcome:
    """What a run did."""

    scheduled: int
    played: int
    skipped: int  # the league's games already stored when the run began (all, reached or not)
    interrupted: bool = False
    disqualified: dict[str, str] = field(default_factory=dict)
    stopped_early: str = ""
    sprt: Sprt | None = None  # the sequential test of a ``mode = "sprt"`` league


class BlockFeed:
    """Which blocks to play; a sequential test may stop the feed early (``mode = sprt``)."""

    def __init__(self, blocks: Iterable[list[GameSpec]], total: int) -> None:
        self._blocks = iter(blocks)
        self.total = total  # games if every block is played
        self.stop_reason = ""

    @classmethod
    def for_config(
        cls, config: LeagueConfig, known: Mapping[tuple[str, ...], int] | None = None
    ) -> BlockFeed:
        """Every block of a round-robin or gauntlet league (made as they are played)."""
        return cls(iter_blocks(config, config.rounds, known), game_count(config))

    def __iter__(self) -> Iterator[list[GameSpec]]:
        for block in self._blocks:
            if self.stop_reason:
                return
            yield block

    def block_done(self, games: list[GameRecord]) -> None:
        """Called with each complete block (in any order)."""


ProgressHook = Callable[[int, int], None]


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
    prepare: Callable[[], None] | None = None,
    finish: Callable[[LeagueOutcome], None] | None = None,
) -> LeagueOutcome:
    """Play every missing game of ``config`` into ``folder``; see the module docstring.

    ``prepare``, when given, runs in a worker thread while the first bots start, when the
    referee would only wait for them; no game begins before it returns. An
    :class:`OSError` from it (the bots' start-ups took the descriptors) is not the league's
    failure: ``finish`` then runs once every bot process has ended.

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
    """
    if config.people and people is None:
        raise ConfigError(
            f'{config.source}: {", ".join(config.people)} (cmd = "human") can only play '
            "in a league run from a terminal with arena run"
        )
    config = with_stored_seed(config, folder, fresh=fresh)
    store, stored, feed = open_league(
        config, folder, fresh=fresh, say=say, replay=replay, transcripts=transcripts
    )
    run = _LeagueRun(
        config.hiding(folder), store, feed, stored, progress, transcripts, people, prepare
    )
    try:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async with hosting(spin_s=answer_spin(max(1, jobs))) as host:
                await run.play(host, signals, max(1, jobs))
                ending = None if run.outcome.interrupted else finish
                if ending is not None and run.prepared_well:
                    host.close_all()  # the processes end in their own tasks meanwhile
                    await trio.to_thread.run_sync(ending, run.outcome)
                    ending = None
            if ending is not None:  # ``prepare`` ran short of descriptors: the bots are gone now
                await trio.to_thread.run_sync(ending, run.outcome)
    finally:
        store.close()
    return run.outcome


class _LeagueRun:
    """The state of one ``run_league`` call."""

    def __init__(
        self,
        config: LeagueConfig,
        store: ResultsDir,
        feed: BlockFeed,
        stored: dict[GameKey, GameRecord],
        progress: ProgressHook | None,
        transcripts: bool,
        people: PersonSeats | None = None,
        prepare: Callable[[], None] | None = None,
    ) -> None:
        self.config = config
        self.prepare = prepare
        self.prepared = trio.Event()  # games begin once ``prepare`` has returned
        self.prepared_well = True  # False when ``prepare`` ran short of descriptors
        self.store = store
        self.feed = feed
        self.stored = stored
        self.progress = progress
        self.transcripts = transcripts
        self.people = people
        skipped = league_games_stored(config, stored.values())
        self.outcome = LeagueOutcome(scheduled=feed.total, played=0, skipped=skipped)
        self.partial_blocks: dict[tuple[int, int], dict[str, GameRecord]] = {}
        self.running: list[GameSpec] = []  # the games in flight
        self.group_sync = GroupSync(store.sync)

    async def play(self, host: BotHost, signals: AsyncIterator[int], jobs: int) -> None:
        table = league_table(
            self.config, host, self._log, transcripts=self.transcripts, people=self.people
        )
        async with trio.open_nursery() as run:
            run.start_soon(self._watch_signals, signals, run.cancel_scope)
            run.start_soon(self._prepare)
            async with trio.open_nursery() as games:  # ends when the last game is stored
                slots = trio.Semaphore(jobs)
                for block in self.feed:
                    begun = False
                    for spec in block:
                        key = (spec.seating, spec.block, spec.seed)
                        if key in self.stored:
                            self._collect(spec, self.stored[key])
                            continue
                        # its bots start while it waits for a slot, next to the games in flight
                        table.warm([*self.running, spec], jobs)
                        await slots.acquire()
                        # the feed handed out this block before the test took the one before
                        # (at jobs = 1 it has now): a decision meanwhile starts no new block
                        if self.feed.stop_reason and not begun:
                            slots.release()
                            break
                        begun = True
                        self.running.append(spec)
                        games.start_soon(self._play_one, table, spec, slots)
                self.group_sync.hurry()  # the games in flight are the last ones
            run.cancel_scope.cancel()  # stops the signal watcher
        self.outcome.stopped_early = self.feed.stop_reason
        if isinstance(self.feed, SprtFeed):
            self.outcome.sprt = self.feed.test
        self.outcome.disqualified = {
            name: pool.last_failure for name, pool in table.pools.items() if pool.disqualified
        }

    def _log(self, bot: BotSpec) -> StderrLog:
        return StderrLog(self.store.log_path(bot.name), bot.limits.stderr_bytes)

    async def _watch_signals(self, signals: AsyncIterator[int], scope: trio.CancelScope) -> None:
        async for _ in signals:
            self.outcome.interrupted = True
            scope.cancel()
            return

    async def _prepare(self) -> None:
        """Run ``prepare`` beside the first bots' start-up, then let the games begin.

        The bots starting meanwhile may take every descriptor the process may open (a low
        ``ulimit -n``; the referee retries its own starts as games end). ``prepare`` only
        does early what ``finish`` would do anyway, so an :class:`OSError` there is not the
        league's failure: ``finish`` then runs after the last bot process has ended.
        """
        if self.prepare is not None:
            try:
                # a thread, not this loop: the bots' handshakes go on meanwhile
                await trio.to_thread.run_sync(self.prepare)
            except OSError:
                self.prepared_well = False
        self.prepared.set()

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
            await self.prepared.wait()  # no game shares the interpreter with ``prepare``
            played = await table.play(spec)
            self.store.check_ready(played.readies())  # before its game is in the file
            record = played.record
            if self.transcripts:  # on disk before the game is: a stored game has its transcript
                await trio.to_thread.run_sync(
                    self.store.write_transcripts, spec.id, played.transcripts()
                )
            self.store.append(record)
            self._collect(spec, record)
        finally:
            self.running.remove(spec)
            slots.release()
        with trio.CancelScope(shield=True):  # written: a stop must not leave it uncounted
            await self.group_sync.synced()  # fsync in a thread, shared with the games beside it
        self.outcome.played += 1
        if self.progress is not None:
            done = self.outcome.played + self.outcome.skipped
            self.progress(done, self.outcome.scheduled)

    def _collect(self, spec: GameSpec, record: GameRecord) -> None:
        """Hand each complete block to the feed."""
        key = (spec.table, spec.block)
        games = self.partial_blocks.setdefault(key, {})
        games[spec.id] = record
        if len(games) == spec.players:
            del self.partial_blocks[key]
            self.feed.block_done(sorted(games.values(), key=lambda r: r.id))


def with_stored_seed(config: LeagueConfig, folder: Path, *, fresh: bool) -> LeagueConfig:
    """``config``, whose file gives no seed, with the seed its folder's first run drew (kept
    in ``league.toml``), so that a resumed league deals the games it dealt before; else
    ``config`` as it is (the file gives a seed, ``fresh``, or a new folder)."""
    if not config.seed_drawn or fresh or not (folder / LEAGUE).is_file():
        return config
    seed = read_league(folder).get("seed")  # its fields' types are checked there
    return config if seed is None else replace(config, seed=seed)


def open_league(
    config: LeagueConfig,
    folder: Path,
    *,
    fresh: bool,
    say: Warn | None,
    replay: frozenset[str],
    transcripts: bool = False,
) -> tuple[ResultsDir, dict[GameKey, GameRecord], BlockFeed]:
    """Open ``folder`` for ``config`` (every executor starts so): the store, the games it
    already holds by :func:`game_key`, and the feed of the blocks to play.

    A stored game whose id the schedule gives to another game (a line edited by hand, say)
    is moved aside first (:func:`~arena.league.schedule.misplaced`): the game of that id is
    played again, and ``games.jsonl`` never holds one id twice.

    With ``transcripts``, ``say`` is told of the league's stored games that have no complete
    transcript: the run does not play them, and only a game played records its transcript.
    """
    store = ResultsDir(folder)
    prints = {bot.name: fingerprint(bot) for bot in config.bots}
    stored = store.open(config.to_toml(), fresh=fresh, warn=say, bots=prints, replay=replay)
    known = known_tables(stored)
    aside = misplaced(config, stored, known)
    store.set_aside(aside, say)
    stored = [record for record in stored if record.id not in aside]
    if transcripts and say is not None:
        _say_untranscribed(config, folder, stored, say)
    if config.mode == "sprt":
        feed: BlockFeed = SprtFeed(config, say, known)
    else:
        feed = BlockFeed.for_config(config, known)
    return store, {game_key(record): record for record in stored}, feed


def _say_untranscribed(
    config: LeagueConfig, folder: Path, stored: Iterable[GameRecord], say: Warn
) -> None:
    """Tell ``say`` how many of the league's stored games have no complete transcript, if any."""
    shape = Shape.of(config.to_toml())
    assert shape is not None, "a resolved config describes its schedule"
    people = set(config.people)
    count = sum(
        1
        for record in stored
        if shape.plays(record) and not has_complete_transcripts(folder, record, people)
    )
    if count:
        games = "1 stored game has" if count == 1 else f"{count:,} stored games have"
        say(
            f"{games} no complete transcript and will not be played again (played without "
            "--transcripts, or the transcript was cut short when an earlier version of arena "
            "was killed): use --fresh or --replay-bot NAME to play them again"
        )


def league_games_stored(config: LeagueConfig, stored: Iterable[GameRecord]) -> int:
    """How many stored games are games of the league, whether a run reaches them or not (a
    stopped run may not; an SPRT league stops at its decision, but the games it played
    meanwhile are stored too)."""
    shape = Shape.of(config.to_toml())
    assert shape is not None, "a resolved config describes its schedule"
    return sum(map(shape.plays, stored))


GameKey = tuple[object, ...]


def game_key(record: GameRecord) -> GameKey:
    """What makes a stored game the same game as a scheduled one."""
    return (record.seating, record.block, record.seed)


class SprtFeed(BlockFeed):
    """Blocks of candidate vs opponent until the sequential test decides (``mode = sprt``).

    Blocks are handed to the test in schedule order, whatever order they finish in, so the
    decision does not depend on ``jobs``; games already in flight when it is reached, and
    the rest of their blocks, are still stored (none at ``jobs = 1``: a block's first game
    waits for the slot its predecessor frees once the test has taken it). Its table keeps
    the number its stored games give it, as any table does (``known``): a swapped candidate
    and opponent is a new table, not stored ids reused.
    """

    def __init__(
        self,
        config: LeagueConfig,
        echo: Warn | None,
        known: Mapping[tuple[str, ...], int] | None = None,
    ) -> None:
        assert config.sprt is not None, "an SPRT feed needs a [sprt] table"
        spec = config.sprt
        blocks = iter_blocks(config, spec.max_blocks, known)
        super().__init__(blocks, spec.max_blocks * config.players[0])
        self.test = Sprt(spec.elo0, spec.elo1, spec.alpha, spec.beta, spec.candidate, spec.opponent)
        caution = self.test.caution()
        if caution is not None and echo is not None:  # once, before the first block
            echo(f"warning: {caution}")
        self.max_blocks = spec.max_blocks
        self._echo = echo
        self._finished: dict[int, list[GameRecord]] = {}
        self._next = 0

    def block_done(self, games: list[GameRecord]) -> None:
        self._finished[games[0].block] = games
        while self._next in self._finished and not self.stop_reason:
            self.test.add_block(self._finished.pop(self._next))
            self._next += 1
            if self._echo is not None:
                self._echo(self.test.status_line())
            if self.test.decision:
                self.stop_reason = (
                    f"stopped at the decision: {self.test.status_line()}. {self.test.verdict()}"
                )
            elif self._next >= self.max_blocks:
                self.stop_reason = f"{self.test.status_line()}. {out_of_budget(self.max_blocks)}"
