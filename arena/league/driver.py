"""One league driver: open a results folder for a league, hand out the games still to play
block by block, store what comes back, count it and tell the feed and the observers.

How the blocks are played is the caller's: on trio tables in this process
(:func:`arena.league.runner.run_league`) or as Dask tasks (:mod:`arena.league.cluster`).
Which blocks are played is the feed's (:class:`~arena.league.feeds.BlockFeed`): the league's
schedule, its sequential test, or one a caller supplies (``feed=``). A stop (Ctrl-C, SIGTERM)
follows one policy: :mod:`arena.league.stopping`.

A player of blocks uses a driver so::

    driver = LeagueDriver(config, folder, ...)   # opens the folder (lock, repair, resume)
    try:
        for block in driver.blocks():      # each block's games not yet stored
            ...play them; for each game, once its line is appended...
            driver.collect(record)         # the feed hears of each whole block
            ...once it is fsync'd...
            driver.count(record)           # progress, observers, ``outcome.played``
        driver.finish(disqualified)        # the outcome's last fields
    finally:
        driver.close()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena.config import LeagueConfig
from arena.game.spec import GameSpec
from arena.league.championship import CHAMPIONSHIPS
from arena.league.feeds import BlockFeed, ChampionshipFeed, SprtFeed
from arena.league.fingerprint import fingerprint
from arena.league.layout import LEAGUE, Warn
from arena.league.results import ResultsDir, read_league
from arena.league.schedule import Shape, known_tables, misplaced
from arena.league.secret import keyed
from arena.league.transcripts import has_complete_transcripts
from arena.record import GameRecord
from arena.stats.sprt import Sprt

WAIT_S = 0.1
"""How long a player waits, with no block in flight, before asking a feed that had no block
ready (an empty block) again."""

ProgressHook = Callable[[int, int], None]
"""Called with (games stored, games scheduled) as each game is stored."""

FeedMaker = Callable[[LeagueConfig, Mapping[tuple[str, ...], int]], BlockFeed]
"""Makes the feed of a run from the league (its seed resolved) and the table numbers its
stored games already use (:func:`~arena.league.schedule.known_tables`: give them to
:func:`~arena.league.schedule.iter_blocks` so that stored games keep their ids)."""


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


class LeagueDriver:
    """One league run's results folder, feed and count, whichever way its blocks are played.

    Opening it (the constructor) resolves the seed a resumed league keeps, locks and repairs
    the folder, refuses a changed league or bot (:class:`~arena.errors.ResultsError`), moves
    aside stored games whose ids the league now gives to other games, and makes the feed:
    ``feed(config, known)`` when given, else the league's own (its schedule, or its
    sequential test). ``on_stored`` hears of each game once it is on disk and counted;
    ``on_open`` hears of the games the folder holds once it is open (before any is played).
    The other arguments are :func:`~arena.league.runner.run_league`'s.
    """

    def __init__(
        self,
        config: LeagueConfig,
        folder: Path,
        *,
        fresh: bool = False,
        say: Warn | None = None,
        replay: frozenset[str] = frozenset(),
        transcripts: bool = False,
        progress: ProgressHook | None = None,
        feed: FeedMaker | None = None,
        on_stored: Callable[[GameRecord], None] | None = None,
        on_open: Callable[[list[GameRecord]], None] | None = None,
    ) -> None:
        config = with_stored_seed(config, folder, fresh=fresh)
        self.store, self.stored, self.feed = open_league(
            config,
            folder,
            fresh=fresh,
            say=say,
            replay=replay,
            transcripts=transcripts,
            feed=feed,
        )
        self.config = config.hiding(folder)  # what the bots run under
        self.say = say
        self.transcripts = transcripts
        self.progress = progress
        self.on_stored = on_stored
        skipped = league_games_stored(config, self.stored.values())
        self.outcome = LeagueOutcome(scheduled=self.feed.total, played=0, skipped=skipped)
        self._partial_blocks: dict[tuple[int, int], dict[str, GameRecord]] = {}
        if on_open is not None:
            on_open(list(self.stored.values()))

    def blocks(self) -> Iterator[list[GameSpec]]:
        """The games still to play of each block the feed hands out, in its order.

        A game already stored is not played again: it goes to the feed as it is
        (:meth:`collect`), and a block with every game stored is not handed out. An empty
        block is the feed's "none ready yet" (see :class:`~arena.league.feeds.BlockFeed`).
        """
        for block in self.feed:
            missing: list[GameSpec] = []
            for spec in block:
                stored = self.stored.get(spec_key(spec))
                if stored is None:
                    missing.append(spec)
                else:
                    self.collect(stored)
            if missing or not block:
                yield missing

    def collect(self, record: GameRecord) -> None:
        """Hand each complete block to the feed (call it with each game stored, once)."""
        key = (record.table, record.block)
        games = self._partial_blocks.setdefault(key, {})
        games[record.id] = record
        if len(games) == record.players:
            del self._partial_blocks[key]
            self.feed.block_done(sorted(games.values(), key=lambda r: r.id))

    def count(self, record: GameRecord) -> None:
        """Count a game that is on disk: ``outcome.played``, progress and ``on_stored``."""
        self.outcome.played += 1
        self.outcome.scheduled = max(self.outcome.scheduled, self.feed.total)  # it may grow
        if self.progress is not None:
            self.progress(self.outcome.played + self.outcome.skipped, self.outcome.scheduled)
        if self.on_stored is not None:
            self.on_stored(record)

    def finish(self, disqualified: Mapping[str, str]) -> LeagueOutcome:
        """The outcome, with why the feed stopped early, its test, and the bots
        ``disqualified`` (name -> their last start failure)."""
        self.outcome.stopped_early = self.feed.stop_reason
        if isinstance(self.feed, SprtFeed):
            self.outcome.sprt = self.feed.test
        self.outcome.disqualified.update(disqualified)
        return self.outcome

    def close(self) -> None:
        """Let the folder go (its lock, the games file)."""
        self.store.close()


def with_stored_seed(config: LeagueConfig, folder: Path, *, fresh: bool) -> LeagueConfig:
    """``config``, whose file gives no seed, with the seed its folder's first run drew (kept
    in ``league.toml``), so that a resumed league deals the games it dealt before; else
    ``config`` as it is (the file gives a seed, ``fresh``, or a new folder)."""
    if not config.seed_drawn or fresh or not (folder / LEAGUE).is_file():
        return config
    stored = read_league(folder)
    return replace(config, seed=stored.seed) if stored.scheduled else config


def open_league(
    config: LeagueConfig,
    folder: Path,
    *,
    fresh: bool,
    say: Warn | None,
    replay: frozenset[str],
    transcripts: bool = False,
    feed: FeedMaker | None = None,
) -> tuple[ResultsDir, dict[GameKey, GameRecord], BlockFeed]:
    """Open ``folder`` for ``config`` (every executor starts so): the store, the games it
    already holds by :func:`game_key`, and the feed of the blocks to play (``feed``: see
    :class:`LeagueDriver`).

    A stored game whose id the schedule gives to another game (a line edited by hand, say)
    is moved aside first (:func:`~arena.league.schedule.misplaced`): the game of that id is
    played again, and ``games.jsonl`` never holds one id twice.

    With ``transcripts``, ``say`` is told of the league's stored games that have no complete
    transcript: the run does not play them, and only a game played records its transcript.
    """
    store = ResultsDir(folder)
    prints = {bot.name: fingerprint(bot) for bot in config.bots}
    stored = store.open(config, fresh=fresh, warn=say, bots=prints, replay=replay)
    config = keyed(config, folder)  # its bots' seeds come from the folder's secret
    known = known_tables(stored)
    aside = misplaced(config, stored, known)
    store.set_aside(aside, say)
    stored = [record for record in stored if record.id not in aside]
    if transcripts and say is not None:
        _say_untranscribed(config, folder, stored, say)
    if feed is not None:
        fed = feed(config, known)
    elif config.mode == "sprt":
        fed = SprtFeed(config, say, known)
    elif config.mode in CHAMPIONSHIPS:
        fed = ChampionshipFeed(config)
    else:
        fed = BlockFeed.for_config(config, known)
    return store, {game_key(record): record for record in stored}, fed


def _say_untranscribed(
    config: LeagueConfig, folder: Path, stored: Iterable[GameRecord], say: Warn
) -> None:
    """Tell ``say`` how many of the league's stored games have no complete transcript, if any."""
    shape = Shape.of(config)
    assert shape is not None, "a league file describes its schedule"
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
    shape = Shape.of(config)
    assert shape is not None, "a league file describes its schedule"
    return sum(map(shape.plays, stored))


GameKey = tuple[object, ...]


def game_key(record: GameRecord) -> GameKey:
    """What makes a stored game the same game as a scheduled one."""
    return (record.seating, record.block, record.seed)


def spec_key(spec: GameSpec) -> GameKey:
    """:func:`game_key` of a scheduled game."""
    return (spec.seating, spec.block, spec.seed)
