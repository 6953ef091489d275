"""The ladder's games: matchmaking's blocks played on the league layer into the results
folder.

The ladder is a round-robin league that never closes: ``league.toml`` lists the house bots
and the live version of every active bot (``name@version``), in the order they joined, with
``rounds`` at :data:`MAX_BLOCKS`; the ladder plays the blocks its matchmaking chooses of it
(table by table, each block the next unplayed deal of its table). Games are played on the
same :func:`~arena.league.pooled.league_table` as ``arena run``'s, stored by the same
:class:`~arena.league.results.ResultsDir` and synced in groups as there, so ``arena
standings``, ``report`` and ``view`` work on the folder, and the standings of its
``league.toml`` are the live versions' standings.

When the field changes (a version accepted, a bot retired or banned), the games in flight
finish, and the folder is opened again for the new field (``league.toml`` and ``bots.toml``
rewritten by the store). A block cut off by a stop (kill -9, Ctrl-C) is finished first
when the ladder starts again; no game id is ever stored twice.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import trio

from arena import config as league_config
from arena.config import BotSpec, LeagueConfig
from arena.errors import ResultsError
from arena.game.botproc import StderrLog, answer_spin
from arena.game.hosting import BotHost, hosting
from arena.game.spec import GameSpec, block_games, block_seed
from arena.game.table import Table
from arena.ladder.db import LadderDB
from arena.ladder.matchmaking import Matchmaker
from arena.league.fingerprint import fingerprint
from arena.league.groupsync import GroupSync
from arena.league.pooled import league_table
from arena.league.results import ResultsDir
from arena.league.schedule import known_tables, table_of
from arena.record import GameRecord

MAX_BLOCKS = 1_000_000  # ``rounds`` of a ladder's league: blocks a table may ever play
Say = Callable[[str], None]


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
    ) -> None:
        self.base = replace(league, mode="round-robin", rounds=MAX_BLOCKS)
        self.folder = folder
        self.db = db
        self.matchmaker = matchmaker
        self.jobs = max(1, jobs)
        self.say = say
        self.houses = tuple(bot.name for bot in league.bots)
        self.running: list[GameSpec] = []
        self.stored = 0  # games stored by this process
        self.syncing = 0  # games written, not yet synced
        self.stored_games = 0  # games in the folder (known at the first open)
        self.config: LeagueConfig | None = None
        self.field_bots: tuple[BotSpec, ...] | None = None
        self.store: ResultsDir | None = None
        self.table: Table | None = None
        self.numbers: dict[tuple[str, ...], int] = {}  # table -> its number in game ids
        self.next_block: dict[tuple[str, ...], int] = defaultdict(int)
        self.unfinished: list[list[GameSpec]] = []  # blocks a stop cut short
        self.wake = trio.Event()
        # the last games stored: (id, seating, places), for the bots' pages
        self.recent: deque[tuple[str, tuple[str, ...], tuple[int, ...]]] = deque(maxlen=5000)
        self._opened = False
        self._specs: dict[int, BotSpec] = {}  # each accepted version's, by submission id

    @property
    def paused(self) -> bool:
        return self.db.get_meta("paused") == "1"

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
        try:
            async with hosting(spin_s=answer_spin(self.jobs)) as host:
                await self._run(host)
        finally:
            if self.store is not None:
                self.store.close()

    async def _run(self, host: BotHost) -> None:
        slots = trio.Semaphore(self.jobs)
        async with trio.open_nursery() as games:
            while True:
                if self.paused:
                    await self._idle()
                    continue
                bots = self.field()
                if bots != self.field_bots:
                    await self._drain()
                    await self._open(bots, host)
                block = self._next_block()
                if block is None:
                    await self._idle()
                    continue
                assert self.table is not None
                for spec in block:
                    self.table.warm([*self.running, spec], self.jobs)
                    await slots.acquire()
                    self.running.append(spec)
                    games.start_soon(self._play_one, self.table, spec, slots)

    async def _idle(self) -> None:
        with trio.move_on_after(1.0):
            await self.wake.wait()
        self.wake = trio.Event()

    async def _drain(self) -> None:
        """Wait until every game in flight is stored and synced (the store may close)."""
        while self.running or self.syncing:
            await trio.sleep(0.02)

    async def _open(self, bots: tuple[BotSpec, ...], host: BotHost) -> None:
        """(Re)open the folder for the field ``bots``: in a worker thread, so that the
        pages are served meanwhile (reading a large folder takes seconds)."""
        config = replace(self.base, bots=bots).hiding(self.folder)
        if self.store is not None:
            self.store.close()
        if self.table is not None:
            for pool in self.table.pools.values():
                pool.close_all()
        store = ResultsDir(self.folder)
        prints = {bot.name: fingerprint(bot) for bot in bots}
        learn = not self._opened

        def open_store() -> None:
            stored = store.open(config, fresh=False, warn=self.say, bots=prints)
            if learn:  # no game is in flight: the matchmaker is this thread's alone
                self._learn(stored)

        await trio.to_thread.run_sync(open_store)
        self._opened = True
        self.store, self.config, self.field_bots = store, config, bots
        self.group_sync = GroupSync(store.sync)
        self.table = league_table(config, host, self._log)

    def _learn(self, stored: list[GameRecord]) -> None:
        """What the folder holds: table numbers, blocks played, live ratings, cut blocks."""
        self.numbers = dict(known_tables(stored))
        blocks: dict[tuple[tuple[str, ...], int], dict[int, GameRecord]] = defaultdict(dict)
        for record in stored:
            table = table_of(record.seating, record.rotation)
            blocks[(table, record.block)][record.rotation] = record
            self.matchmaker.add_game(record)
            self.recent.append((record.id, record.seating, record.ranks))
        for (table, block), games in blocks.items():
            self.matchmaker.add_block(table)
            self.next_block[table] = max(self.next_block[table], block + 1)
            if len(games) < len(table):
                number = self.numbers[table]
                seed = next(iter(games.values())).seed
                missing = [
                    spec
                    for spec in block_games(number, table, block, seed)
                    if spec.rotation not in games
                ]
                self.unfinished.append(missing)
        self.stored_games = len(stored)

    def _next_block(self) -> list[GameSpec] | None:
        assert self.config is not None
        names = [bot.name for bot in self.config.bots]
        while self.unfinished:
            block = self.unfinished.pop()
            if all(name in names for name in block[0].seating):
                return block
        chosen = self.matchmaker.choose(names, self.houses)
        if chosen is None:
            return None
        order = {name: i for i, name in enumerate(names)}
        table = tuple(sorted(chosen, key=order.__getitem__))
        if table not in self.numbers:
            self.numbers[table] = max(self.numbers.values(), default=-1) + 1
        number = self.next_block[table]
        self.next_block[table] += 1
        self.matchmaker.add_block(table)
        seed = block_seed(self.config.seed, len(table), number)
        return block_games(self.numbers[table], table, number, seed)

    def _log(self, bot: BotSpec) -> StderrLog:
        assert self.store is not None
        return StderrLog(self.store.log_path(bot.name), bot.limits.stderr_bytes)

    async def _play_one(self, table: Table, spec: GameSpec, slots: trio.Semaphore) -> None:
        """Play one game and store it (as the league runner does: written, then synced in
        a group with the games beside it)."""
        store, group_sync = self.store, self.group_sync
        assert store is not None
        try:
            played = await table.play(spec)
            try:
                store.check_ready(played.readies())
            except ResultsError as exc:  # a bot that answers ready unlike before: not stored
                self.say(f"game {spec.id} not stored: {exc}")
                return
            store.append(played.record)
            self.syncing += 1
            self.matchmaker.add_game(played.record)
            record = played.record
            self.recent.append((record.id, record.seating, record.ranks))
        finally:
            self.running.remove(spec)
            slots.release()
        try:
            with trio.CancelScope(shield=True):
                await group_sync.synced()
        finally:
            self.syncing -= 1
        self.stored += 1
        self.stored_games += 1
