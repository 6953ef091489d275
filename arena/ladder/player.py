"""The ladder's games: matchmaking's blocks played by the league driver into the results
folder.

The ladder is a round-robin league that never closes: ``league.toml`` lists the house bots
and the live version of every active bot (``name@version``), in the order they joined, with
``rounds`` at :data:`MAX_BLOCKS`; the ladder plays the blocks its matchmaking chooses of it
(table by table, each block the next unplayed deal of its table). They are played as ``arena
run`` plays its blocks: by :func:`~arena.league.runner.run_league`, whose driver
(:class:`~arena.league.driver.LeagueDriver`) opens, stores and syncs the folder, with the
ladder's :class:`LadderFeed` choosing the blocks. So ``arena standings``, ``report`` and
``view`` work on the folder, and the standings of its ``league.toml`` are the live versions'.

One run plays one field. When the field changes (a version accepted, a bot retired or
banned) or the organiser pauses the ladder, the feed ends: the games in flight are stored,
and the next run opens the folder for the new field (``league.toml`` and ``bots.toml``
rewritten by the store), in a worker thread, so that the pages are served meanwhile. A block
cut off by a stop (kill -9, Ctrl-C) is finished first when the ladder starts again; no game
id is ever stored twice.
"""

from __future__ import annotations

import threading
from collections import defaultdict, deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import trio

from arena import config as league_config
from arena.config import BotSpec, LeagueConfig
from arena.errors import ClusterError, ResultsError
from arena.game.spec import GameSpec, block_games, block_seed
from arena.ladder.db import LadderDB
from arena.ladder.matchmaking import Matchmaker
from arena.league.feeds import BlockFeed
from arena.league.runner import run_league
from arena.league.schedule import table_of
from arena.record import GameRecord

MAX_BLOCKS = 1_000_000  # ``rounds`` of a ladder's league: blocks a table may ever play
IDLE_S = 1.0  # a paused ladder looks again this often (or when woken)
CLUSTER_RETRY_S = 10.0  # after a Dask cluster failed
Say = Callable[[str], None]
Table = tuple[str, ...]


class LadderPlayer:
    """Plays the ladder's games, ``jobs`` at once, until cancelled."""

    def __init__(
        self,
        league: LeagueConfig,
        folder: Path,
        db: LadderDB,
        matchmaker: Matchmaker,
        *,
        jobs: int,
        say: Say,
        cluster: Cluster | None = None,
    ) -> None:
        self.base = replace(league, mode="round-robin", rounds=MAX_BLOCKS)
        self.folder = folder
        self.db = db
        self.matchmaker = matchmaker
        self.jobs = max(1, jobs)
        self.say = say
        self.cluster = cluster
        self.houses = tuple(bot.name for bot in league.bots)
        self.handed: dict[str, GameSpec] = {}  # games handed to the driver, not yet stored
        self.stored = 0  # games stored by this process
        self.stored_games = 0  # games in the folder (known at the first open)
        self.numbers: dict[Table, int] = {}  # table -> its number in game ids
        self.next_block: dict[Table, int] = defaultdict(int)
        self.unfinished: list[tuple[Table, int]] = []  # blocks a stop cut short
        self.wake = trio.Event()
        # the last games stored: (id, seating, places), for the bots' pages
        self.recent: deque[tuple[str, tuple[str, ...], tuple[int, ...]]] = deque(maxlen=5000)
        self._learnt = False
        self._specs: dict[int, BotSpec] = {}  # each accepted version's, by submission id

    @property
    def paused(self) -> bool:
        return self.db.get_meta("paused") == "1"

    @property
    def running(self) -> list[GameSpec]:
        """The games handed out and not yet stored: in flight, or waiting for a slot."""
        return list(self.handed.values())

    def notify(self) -> None:
        """Something changed (a version accepted, pause, retire): look again now."""
        self.wake.set()

    def field(self) -> tuple[BotSpec, ...]:
        """The house bots, then each active bot's live version, in the order they joined."""
        live = []
        for submission in self.db.live():
            spec = self._specs.get(submission.id)
            if spec is None:  # a version's command is checked once: it never changes
                argv = league_config.parse_command(submission.cmd, base=Path(submission.folder))
                spec = BotSpec(submission.player, argv, self.base.limits, sandbox=self.base.sandbox)
                self._specs[submission.id] = spec
            live.append(spec)
        return (*self.base.bots, *live)

    async def run(self) -> None:
        """One league run per field, until cancelled."""
        while True:
            if self.paused:
                await self._idle()
                continue
            config = replace(self.base, bots=self.field())
            try:
                if self.cluster is not None:
                    await self._run_on_cluster(config, self.cluster)
                    continue
                await run_league(
                    config,
                    self.folder,
                    jobs=self.jobs,
                    say=self.say,
                    feed=lambda keyed, known: LadderFeed(self, keyed, known),
                    on_stored=self._stored,
                    on_open=None if self._learnt else self._learn,
                    open_off_loop=True,
                    stop_signals=False,
                )
            except* ResultsError as failed:  # a bot that answers ready unlike before
                for exc in failed.exceptions:
                    self.say(f"games not stored: {exc}")
                await self._idle()
            except* ClusterError as lost:  # the scheduler gone, say: it may come back
                for error in lost.exceptions:
                    self.say(f"error: {error}; trying again in {CLUSTER_RETRY_S:g} s")
                await trio.sleep(CLUSTER_RETRY_S)
            finally:
                self.handed.clear()  # what was not stored is dropped

    async def _run_on_cluster(self, config: LeagueConfig, cluster: Cluster) -> None:
        """One field's run on Dask: the client waits in blocking calls, so it runs in a
        worker thread; the feed, the folder's games and each stored game come back to this
        loop (``trio.from_thread``), where the pages read them. A cancel (Ctrl-C) ends the
        feed; the blocks in flight are stored first."""
        from arena.league.cluster import run_cluster_league

        closing = threading.Event()

        def stored(record: GameRecord) -> None:
            trio.from_thread.run_sync(self._stored, record)

        def opened(records: list[GameRecord]) -> None:
            trio.from_thread.run_sync(self._learn, records)

        play = partial(
            run_cluster_league,
            config,
            self.folder,
            jobs=self.jobs,
            workers=cluster.workers,
            scheduler=cluster.scheduler,
            say=self.say,
            feed=lambda keyed, known: LadderFeed(self, keyed, known, closing),
            on_stored=stored,
            on_open=None if self._learnt else opened,
        )

        async def close_when_cancelled() -> None:
            try:
                await trio.sleep_forever()
            finally:
                closing.set()

        async with trio.open_nursery() as nursery:
            nursery.start_soon(close_when_cancelled)
            await trio.to_thread.run_sync(play)
            nursery.cancel_scope.cancel()

    async def _idle(self) -> None:
        with trio.move_on_after(IDLE_S):
            await self.wake.wait()
        self.wake = trio.Event()

    def _learn(self, stored: list[GameRecord]) -> None:
        """What the folder holds: table numbers, blocks played, live ratings, cut blocks.
        (Called once, in the thread that opens the folder: no game is in flight.)"""
        blocks: dict[tuple[Table, int], set[int]] = defaultdict(set)
        for record in stored:
            table = table_of(record.seating, record.rotation)
            self.numbers.setdefault(table, record.table)
            blocks[(table, record.block)].add(record.rotation)
            self.matchmaker.add_game(record)
            self.recent.append((record.id, record.seating, record.ranks))
        for (table, block), rotations in blocks.items():
            self.matchmaker.add_block(table)
            self.next_block[table] = max(self.next_block[table], block + 1)
            if len(rotations) < len(table):
                self.unfinished.append((table, block))
        self.stored_games = len(stored)
        self._learnt = True

    def _stored(self, record: GameRecord) -> None:
        self.handed.pop(record.id, None)
        self.matchmaker.add_game(record)
        self.recent.append((record.id, record.seating, record.ranks))
        self.stored += 1
        self.stored_games += 1

    def step(self, config: LeagueConfig) -> list[GameSpec] | None:
        """The feed's next block: None when the run of ``config`` is over (the field changed
        or the ladder is paused), [] when matchmaking chooses none yet."""
        if self.paused or self.field() != config.bots:
            return None
        block = self.choose_block(config)
        return [] if block is None else block

    def choose_block(self, config: LeagueConfig) -> list[GameSpec] | None:
        """The next block to play of ``config``'s field: a cut one first, else the next deal
        of the table matchmaking chooses; None when it chooses none."""
        names = [bot.name for bot in config.bots]
        while self.unfinished:
            table, number = self.unfinished.pop()
            if all(name in names for name in table):
                return self._deal(config, table, number)
        chosen = self.matchmaker.choose(names, self.houses)
        if chosen is None:
            return None
        order = {name: i for i, name in enumerate(names)}
        table = tuple(sorted(chosen, key=order.__getitem__))
        number = self.next_block[table]
        self.next_block[table] += 1
        self.matchmaker.add_block(table)
        return self._deal(config, table, number)

    def _deal(self, config: LeagueConfig, table: Table, number: int) -> list[GameSpec]:
        if table not in self.numbers:
            self.numbers[table] = max(self.numbers.values(), default=-1) + 1
        seed = block_seed(config.seed, len(table), number)
        block = block_games(self.numbers[table], table, number, seed, config.bot_key)
        self.handed.update((spec.id, spec) for spec in block)
        return block


class LadderFeed(BlockFeed):
    """The blocks of one field, as matchmaking chooses them, until the field changes or the
    ladder is paused (then the run ends: its games in flight are stored).

    With ``closing`` (a Dask client's thread iterates it), each step is taken on the
    player's trio loop, and the feed ends once ``closing`` is set."""

    def __init__(
        self,
        player: LadderPlayer,
        config: LeagueConfig,
        known: Mapping[Table, int],
        closing: threading.Event | None = None,
    ) -> None:
        super().__init__((), 0)  # a ladder never ends: no total
        self.player = player
        self.config = config
        self.closing = closing
        for table, number in known.items():  # the numbers stored games use
            player.numbers.setdefault(table, number)

    def __iter__(self) -> Iterator[list[GameSpec]]:
        while True:
            if self.closing is None:
                block = self.player.step(self.config)
            elif self.closing.is_set():
                return
            else:
                block = trio.from_thread.run_sync(self.player.step, self.config)
            if block is None:
                return
            yield block  # []: the driver asks again shortly


@dataclass(frozen=True)
class Cluster:
    """Where the ladder's games are played on Dask: a local cluster of ``workers``
    processes, or the running one at ``scheduler``."""

    workers: int | None = None
    scheduler: str | None = None
